// Alerts: what was seen, what the rules allow, what to do.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_alerts(App& app) {
  bool* open = app.toggles.open("Alerts");
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(636, 386), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(366, 200), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Alerts", open)) { ImGui::End(); return; }
  app.ui.window("Alerts");
  if (app.alerts.empty()) ImGui::TextDisabled("Nothing to report.");
  int remove = -1;
  for (int i = static_cast<int>(app.alerts.size()) - 1; i >= 0; --i) {
    const Alert& a = app.alerts[static_cast<std::size_t>(i)];
    const ImVec4 c = a.severity == Severity::Error ? ImVec4(1, 0.35f, 0.35f, 1)
                     : a.severity == Severity::Warning ? ImVec4(1, 0.8f, 0.3f, 1) : ImVec4(0.6f, 0.85f, 1, 1);
    ImGui::PushID(i);
    ImGui::TextColored(c, "Seen: %s", a.seen.c_str());
    ImGui::TextWrapped("Rules: %s", a.allowed.c_str());
    ImGui::TextWrapped("Do: %s", a.todo.c_str());
    if (ImGui::SmallButton("Dismiss")) remove = i;
    ImGui::Separator();
    ImGui::PopID();
    app.ui.label("alert: " + a.seen);
  }
  if (remove >= 0) app.alerts.erase(app.alerts.begin() + remove);
  ImGui::End();
}

}  // namespace hexdice::gui
