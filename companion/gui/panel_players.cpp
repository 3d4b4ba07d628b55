// Players and armies: colour, name, units on the board by type, eliminated / winner.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_players(App& app) {
  bool* open = app.toggles.open("Players");
  if (!*open) return;
  first_use_layout("Players", 636, 650, 366, 114);
  if (!ImGui::Begin("Players", open)) { ImGui::End(); return; }
  app.ui.window("Players");
  const BoardView v = app.board_view();
  for (const PlayerView& p : v.players) {
    ImGui::ColorButton(("##c" + p.id).c_str(), ImVec4(p.colour.r / 255.f, p.colour.g / 255.f, p.colour.b / 255.f, 1),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
    ImGui::SameLine();
    std::string army;
    for (const auto& [unit, n] : p.army) army += (army.empty() ? "" : ", ") + std::to_string(n) + " " + unit;
    const std::string units = p.units == 0 ? "no units left" : std::to_string(p.units) + (p.units == 1 ? " unit (" : " units (") + army + ")";
    ImGui::TextWrapped("%s%s%s: %s%s%s%s", p.id.c_str(), p.name.empty() ? "" : " - ", p.name.c_str(), units.c_str(),
                       p.to_move ? "  <- to move" : "", p.eliminated ? "  eliminated" : "", p.winner ? "  WINNER" : "");
    app.ui.label(p.id + ": " + std::to_string(p.units) + " units");
  }
  if (v.players.empty()) ImGui::TextDisabled("No players.");
  ImGui::End();
}

}  // namespace hexdice::gui
