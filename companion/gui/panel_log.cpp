// The event log in human notation ("12. red: Knight f2-g4 x Archer (2 vs 0: defeated)").
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_log(App& app) {
  bool* open = app.toggles.open("Event log");
  if (!*open) return;
  first_use_layout("Event log", 636, 128, 366, 250);
  if (!ImGui::Begin("Event log", open)) { ImGui::End(); return; }
  app.ui.window("Event log");
  const GameRecord* rec = app.replaying() ? &app.replay->record : app.playing() ? &app.game->record() : nullptr;
  if (app.mode() == App::Mode::Solo) {
    for (const auto& l : app.solo->log()) ImGui::TextWrapped("%s", l.c_str());
    for (const auto& l : app.solo->log()) app.ui.label(l);
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  } else if (app.mode() == App::Mode::Referee) {
    // The referee's own lines (what it committed, and why; alerts in orange), with the frame
    // files' decoder warnings (orange) where their frames came.
    for (const auto& l : app.rlog) {
      if (l.alert) text_wrapped_coloured(1, 0.7f, 0.3f, l.text);
      else ImGui::TextWrapped("%s", l.text.c_str());
    }
    for (const auto& l : app.rlog)
      if (l.text.rfind("ply ", 0) == 0 || l.text.rfind("warning: ", 0) == 0) app.ui.label(l.text);
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  } else if (!rec) {
    ImGui::TextDisabled("No game: the log shows the game being played or replayed.");
  } else {
    const auto lines = event_log(*rec);
    if (lines.empty()) ImGui::TextDisabled("No actions yet.");
    for (const auto& l : lines) {
      const bool future = app.replaying() && !l.takeback && !l.annotation && l.ply > app.replay->ply;
      if (l.takeback) text_wrapped_coloured(1, 0.6f, 0.3f, l.text);
      else if (l.annotation) text_wrapped_coloured(0.6f, 0.8f, 1, l.text);
      else if (future) ImGui::TextDisabled("%s", l.text.c_str());
      else ImGui::TextUnformatted(l.text.c_str());
    }
    if (!lines.empty()) app.ui.label(lines.back().text);
    if (app.playing() && ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  }
  ImGui::End();
}

}  // namespace hexdice::gui
