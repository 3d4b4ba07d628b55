// Solo play (issue 6): the companion runs the enemy army of a scenario. The heroes act on
// the board (or the table); the Enemy Turn rolls the activation (the seeded virtual die, or
// the physical die beside the sheet read from the camera picture), says which enemy die to
// move where and why, logs the roll, and checks the table against the game afterwards.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_solo(App& app) {
  bool* open = app.toggles.open("Solo");
  if (!*open || !app.solo) return;
  first_use_layout("Solo", 1010, 408, 582, 232);
  if (!ImGui::Begin("Solo", open)) { ImGui::End(); return; }
  app.ui.window("Solo");
  const solo::SoloGame& g = app.solo->game();
  ImGui::Text("%s (difficulty %d), round %d", g.scenario().name.c_str(), g.scenario().difficulty, g.round());
  app.ui.label("scenario " + g.scenario().name);
  if (const auto id = app.solo->record_id()) {
    ImGui::TextDisabled("Logged as game %lld (seed %llu, %d virtual rolls used)", static_cast<long long>(*id),
                        static_cast<unsigned long long>(app.solo->seed()), app.solo->virtual_rolls());
    app.ui.label("logged as game " + std::to_string(*id));
  } else {
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "Not logged: no database");
    app.ui.label("not logged");
  }
  if (!app.solo->record_error().empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "Record error: %s", app.solo->record_error().c_str());
    app.ui.label("record error: " + app.solo->record_error());
  }
  if (g.over()) {
    ImGui::TextColored(ImVec4(1, 0.9f, 0.3f, 1), "%s", g.result_text().c_str());
    app.ui.label("result: " + g.result_text());
  } else if (g.heroes_turn()) {
    ImGui::TextWrapped("Your turn (%s): click one of your units on the board, then its target; Enter confirms.",
                       g.position().player(g.hero()).id.c_str());
  } else {
    if (ImGui::Button("Enemy turn: roll the virtual die (E)")) app.enemy_turn(false);
    ImGui::SameLine();
    ImGui::BeginDisabled(app.image.empty());
    if (ImGui::Button("Read the die beside the sheet")) app.enemy_turn(true);
    ImGui::EndDisabled();
    if (!app.last_physical.why.empty()) ImGui::TextDisabled("%s", app.last_physical.why.c_str());
  }
  const auto& steps = app.solo->last_steps();
  if (!steps.empty()) {
    ImGui::Separator();
    ImGui::TextUnformatted(steps.front().roll_line.c_str());
    app.ui.label(steps.front().roll_line);
    for (const auto& st : steps) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.1f, 1), "%s", st.instruction.c_str());
      ImGui::TextWrapped("Why: %s", st.why.c_str());
      app.ui.label("enemy: " + st.instruction);
      app.ui.label("why: " + st.why);
    }
    // The table check: the camera's reading against the solo game.
    if (!app.picture.image.empty()) {
      const auto diffs = app.solo->check_table(app.picture.obs);
      if (diffs.empty()) ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "The table matches the game.");
      else {
        std::string d;
        for (const auto& x : diffs) d += (d.empty() ? "" : "; ") + x;
        ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "Not on the table yet: %s", d.c_str());
      }
    } else {
      ImGui::TextDisabled("No camera: move the dice as shown (orange on the board).");
    }
  }
  ImGui::End();
}

}  // namespace hexdice::gui
