// Alerts: what was seen, what the rules allow, what to do.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_alerts(App& app) {
  bool* open = app.toggles.open("Alerts");
  if (!*open) return;
  first_use_layout("Alerts", 636, 386, 366, 256);
  if (!ImGui::Begin("Alerts", open)) { ImGui::End(); return; }
  app.ui.window("Alerts");
  // The referee's alert first: what was seen, what the rules allow, what to do.
  if (app.live) {
    if (const auto ra = referee_alert(app.rview)) {
      if (ra->severity == Severity::Error) text_wrapped_coloured(1, 0.35f, 0.35f, "Referee saw: " + ra->seen);
      else text_wrapped_coloured(1, 0.8f, 0.3f, "Referee saw: " + ra->seen);
      ImGui::TextWrapped("Rules: %s", ra->allowed.c_str());
      ImGui::TextWrapped("Do: %s", ra->todo.c_str());
      for (const auto& p : app.rproposals) {
        ImGui::PushID(1000 + p.number);
        if (ImGui::SmallButton(("Confirm " + std::to_string(p.number)).c_str())) app.confirm_referee(p.number);
        ImGui::PopID();
        ImGui::SameLine();
        ImGui::TextUnformatted(p.text.c_str());
      }
      if (!app.rproposals.empty() && ImGui::SmallButton("Reject")) app.reject();
      ImGui::Separator();
      app.ui.label("referee alert: " + ra->seen);
      app.ui.label("referee todo: " + ra->todo);
    } else {
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "Referee: the table matches the game.");
      app.ui.label("referee: table matches");
    }
  }
  if (app.live) {
    if (const auto sa = source_alert(app.live->source_error(), app.live->reopening(), app.live->live())) {
      text_wrapped_coloured(1, 0.35f, 0.35f, (app.live->live() ? "Camera: " : "Frames: ") + sa->seen);
      ImGui::TextWrapped("Rules: %s", sa->allowed.c_str());
      ImGui::TextWrapped("Do: %s", sa->todo.c_str());
      ImGui::Separator();
      app.ui.label("camera error: " + sa->seen);
      app.ui.label("camera todo: " + sa->todo);
    }
  }
  if (app.alerts.empty() && !app.live) ImGui::TextDisabled("Nothing to report.");
  int remove = -1;
  for (const int i : alert_order(app.alerts)) {  // errors first, the newest first
    const Alert& a = app.alerts[static_cast<std::size_t>(i)];
    const ImVec4 c = a.severity == Severity::Error ? ImVec4(1, 0.35f, 0.35f, 1)
                     : a.severity == Severity::Warning ? ImVec4(1, 0.8f, 0.3f, 1) : ImVec4(0.6f, 0.85f, 1, 1);
    ImGui::PushID(i);
    text_wrapped_coloured(c.x, c.y, c.z, "Seen: " + a.seen);
    ImGui::TextWrapped("Rules: %s", a.allowed.c_str());
    ImGui::TextWrapped("Do: %s", a.todo.c_str());
    if (ImGui::SmallButton("Dismiss")) remove = i;
    ImGui::Separator();
    ImGui::PopID();
    app.ui.label("alert: " + a.seen);
    app.ui.label("alert todo: " + a.todo);
  }
  if (remove >= 0) app.alerts.erase(app.alerts.begin() + remove);
  ImGui::End();
}

}  // namespace hexdice::gui
