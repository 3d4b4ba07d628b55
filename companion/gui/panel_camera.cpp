// Camera and calibration: the source, marker detections, registration error (when the
// referee provides them), and how to connect a camera when there is none.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_camera(App& app) {
  bool* open = app.toggles.open("Camera");
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(1010, 766), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(582, 126), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Camera", open)) { ImGui::End(); return; }
  app.ui.window("Camera");
  const Frame& f = app.frame;
  if (!app.camera_open) {
    ImGui::TextWrapped("No camera connected. Connect a webcam looking down at the printed sheet "
                       "(hexdice board) and start with --camera 0. Showing the bundled demo frames.");
    app.ui.label("no camera");
  }
  ImGui::Text("Source: %s  %dx%d", f.source.empty() ? "-" : f.source.c_str(), f.width, f.height);
  ImGui::Text("Markers seen: %d of 4   Registered: %s", f.markers, f.registered ? "yes" : "no");
  if (f.registration_error_px >= 0) ImGui::Text("Registration error: %.2f px", f.registration_error_px);
  else ImGui::TextDisabled("Registration error: not provided (demo labels)");
  ImGui::Text("Dice seen: %zu", f.dice.size());
  if (!app.demo_labels.empty() && !app.camera_open) {
    if (ImGui::ArrowButton("prevf", ImGuiDir_Left)) app.load_demo(app.demo_index - 1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("nextf", ImGuiDir_Right)) app.load_demo(app.demo_index + 1);
    ImGui::SameLine();
    ImGui::Text("demo frame %d of %zu", app.demo_index + 1, app.demo_labels.size());
    ImGui::SameLine();
    ImGui::Checkbox("autoplay", &app.demo_autoplay);
  }
  ImGui::End();
}

}  // namespace hexdice::gui
