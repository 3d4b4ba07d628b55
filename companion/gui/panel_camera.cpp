// Camera and calibration: the source, marker detections and the registration error of
// the last frame read, the reader's time per frame, and how to connect a camera when
// there is none. Calibration itself (intrinsics, colour samples) belongs to the
// calibration/ library, whose API is not on main yet: the window shows the detections and
// the registration error and leaves calibration to the command line.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_camera(App& app) {
  bool* open = app.toggles.open("Camera");
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(1010, 648), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(582, 244), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Camera", open)) { ImGui::End(); return; }
  app.ui.window("Camera");
  const Frame& f = app.frame;
  if (!app.camera_open) {
    ImGui::TextWrapped("No camera connected%s. Put a webcam above the printed sheet (hexdice board) looking down, "
                       "then start with --camera 0 --start POSITION.json (or --source VIDEO|DIR).",
                       app.live ? ": the referee replays the bundled demo game" : "");
    app.ui.label("no camera");
  }
  if (!app.live_error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "Referee: %s", app.live_error.c_str());
  ImGui::Text("Source: %s  %dx%d", f.source.empty() ? "-" : f.source.c_str(), f.width, f.height);
  ImGui::Text("Markers seen: %d of 4   Registered: %s", f.markers, f.registered ? "yes" : "no");
  app.ui.label("markers " + std::to_string(f.markers));
  if (f.registration_error_px >= 0) {
    ImGui::Text("Registration error: %.2f px (mean marker-corner reprojection)", f.registration_error_px);
    app.ui.label("registration error");
  } else {
    ImGui::TextDisabled("Registration error: not provided (demo labels)");
  }
  ImGui::Text("Dice seen: %zu", f.dice.size());
  if (app.live) {
    ImGui::Text("Reader: %.1f ms for the last frame (capture thread)%s", app.picture.read_ms,
                app.live->source_done() ? "; source ended" : "");
    if (app.live->source_done() && ImGui::SmallButton("Restart the demo")) app.restart_demo();
    ImGui::TextDisabled("Calibration (lens, colours): hexdice calibrate (docs/calibration.md) makes the file that hexdice read / referee --calib load; the window neither starts nor loads it yet, so its reader runs uncalibrated.");
  }
  if (!app.demo_labels.empty() && !app.live) {
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
