// The main menu bar (shortcuts shown beside every item) and the keyboard shortcuts.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

static bool key(int k) { return ImGui::IsKeyPressed(k, false); }

void handle_shortcuts(App& app, bool& quit) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (io.KeyCtrl) {
    for (auto& p : app.toggles.all)
      if (key(p.key)) p.open = !p.open;
    if (key(ImGui::GetKeyIndex(ImGuiKey_Z))) app.takeback();
    if (key('N')) app.new_game(static_cast<std::uint64_t>(app.games.size()) + 1);
    if (key('Q')) quit = true;
    if (key('B')) app.settings.palette = app.settings.palette == Palette::Dice ? Palette::ColourBlindSafe : Palette::Dice;
    return;
  }
  if (key(ImGui::GetKeyIndex(ImGuiKey_Enter)) || key(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter)))
    if (auto a = app.interaction.confirm()) app.commit(*a);
  if (key(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    if (!app.interaction.proposed().empty()) app.interaction.reject();
    else app.interaction.clear();
  }
  if (app.replay) {
    if (key(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) && app.replay->ply > 0) --app.replay->ply;
    if (key(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) && app.replay->ply < app.replay->plies()) ++app.replay->ply;
  }
}

void draw_main_menu(App& app, bool& quit) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("Game")) {
    if (ImGui::MenuItem("New game", "Ctrl+N")) app.new_game(static_cast<std::uint64_t>(app.games.size()) + 1);
    if (ImGui::MenuItem("Take back", "Ctrl+Z", false, app.playing())) app.takeback();
    if (ImGui::MenuItem("Confirm proposal", "Enter", false, !app.interaction.proposed().empty()))
      if (auto a = app.interaction.confirm()) app.commit(*a);
    if (ImGui::MenuItem("Reject proposal", "Esc", false, !app.interaction.proposed().empty())) app.interaction.reject();
    if (ImGui::MenuItem("Resign (player to move)", nullptr, false, app.playing())) app.resign();
    if (ImGui::MenuItem("Close replay", nullptr, false, app.replaying())) app.close_replay();
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    for (auto& p : app.toggles.all) ImGui::MenuItem(p.title, p.shortcut, &p.open);
    ImGui::Separator();
    bool cb = app.settings.palette == Palette::ColourBlindSafe;
    if (ImGui::MenuItem("Colour-blind-safe palette", "Ctrl+B", &cb))
      app.settings.palette = cb ? Palette::ColourBlindSafe : Palette::Dice;
    ImGui::SetNextItemWidth(120);
    ImGui::SliderFloat("Text size", &app.settings.font_scale, 0.75f, 2.5f, "%.2fx");
    ImGui::EndMenu();
  }
  ImGui::TextDisabled("  db: %s", app.db ? app.db->path().c_str() : "none");
  ImGui::EndMainMenuBar();
}

}  // namespace hexdice::gui
