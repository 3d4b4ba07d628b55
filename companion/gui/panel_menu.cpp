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
  if (key(ImGui::GetKeyIndex(ImGuiKey_Enter)) || key(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter))) app.confirm();
  if (key(ImGui::GetKeyIndex(ImGuiKey_Escape))) app.reject();
  if (key('H')) app.request_hint();
  if (app.mode() == App::Mode::Referee)  // 1-9: confirm the referee's proposal N
    for (int n = 1; n <= 9 && n <= static_cast<int>(app.rproposals.size()); ++n)
      if (key('0' + n)) app.confirm_referee(n);
  if (app.mode() == App::Mode::Solo && key('E')) app.enemy_turn(false);
  if (app.replay) {
    if (key(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) && app.replay->ply > 0) --app.replay->ply;
    if (key(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) && app.replay->ply < app.replay->plies()) ++app.replay->ply;
  }
}

void draw_main_menu(App& app, bool& quit) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("Game")) {
    if (ImGui::MenuItem("New game", "Ctrl+N")) app.new_game(static_cast<std::uint64_t>(app.games.size()) + 1);
    const bool ref = app.mode() == App::Mode::Referee;
    if (ImGui::MenuItem("Take back", "Ctrl+Z", false, app.playing() || ref)) app.takeback();
    const bool any = !app.interaction.proposed().empty() || (ref && !app.rproposals.empty());
    if (ImGui::MenuItem("Confirm proposal", "Enter", false, any)) app.confirm();
    if (ImGui::MenuItem("Reject proposal", "Esc", false, any)) app.reject();
    if (ImGui::MenuItem("Hint", "H")) app.request_hint();
    if (ImGui::MenuItem("Restart the demo", nullptr, false, ref)) app.restart_demo();
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
