// Camera and calibration: the source, marker detections and the registration error of
// the last frame read, the reader's time per frame, how to connect a camera when there is
// none, and calibration from the window (live_loop.h CalibView): the reader's calibration
// file and its stale/mismatch warning, "Calibrate camera" (ChArUco views from the live
// pictures: views kept, coverage, then RMS; the work runs on the capture thread and a
// worker, never here), "Calibrate colours" (the dice on the current picture) and "Save".
#include <algorithm>
#include <string>

#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

namespace {

// Greyed help text that wraps at the panel's edge (TextDisabled does not).
void hint(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void calibration_section(App& app) {
  const CalibView& c = app.calib;
  if (c.loaded) ImGui::Text("Calibration: %s", c.loaded_summary.c_str());
  else hint("Calibration: none (the reader estimates the focal length, built-in colours)");
  app.ui.label(c.loaded ? "calibrated" : "uncalibrated");
  if (!c.path.empty()) ImGui::TextDisabled("file: %s", c.path.c_str());
  if (!c.warning.empty()) {
    text_wrapped_coloured(1, 0.7f, 0.2f, "warning: " + c.warning);
    app.ui.label("calibration warning");
  }
  if (ImGui::Button(c.session ? "Restart camera calibration" : "Calibrate camera")) app.live->start_camera_calibration();
  ImGui::SameLine();
  if (ImGui::Button("Calibrate colours")) app.live->calibrate_colors();
  if (c.camera || c.colors) {
    ImGui::SameLine();
    if (ImGui::Button("Save")) {
      if (Status st = app.live->save_calibration(); !st) app.status = st.error();
    }
  }
  if (c.session || c.camera) {
    ImGui::Text("Camera: %d views kept of %d wanted (%d pictures seen), coverage %.0f %%, %d corners in the last picture",
                c.progress.frames_kept, c.progress.target, c.progress.frames_seen, 100 * c.progress.coverage,
                c.last_corners);
    app.ui.label("views " + std::to_string(c.progress.frames_kept));
    hint("Show the printed ChArUco board (hexdice board --charuco), tilted, near the edges and corners.");
    if (c.session && !c.camera && !c.camera_running && c.progress.frames_kept >= 5 && ImGui::SmallButton("Calibrate now"))
      app.live->calibrate_camera();
  }
  if (c.camera_running) ImGui::Text("Camera: calibrating...");
  if (c.camera) {
    ImGui::Text("Camera: RMS %.2f px from %d views, coverage %.0f %%, fx %.0f fy %.0f cx %.0f cy %.0f", c.camera->rms_px,
                c.camera->frames_used, 100 * c.camera->coverage, c.camera->intrinsics.camera_matrix(0, 0),
                c.camera->intrinsics.camera_matrix(1, 1), c.camera->intrinsics.camera_matrix(0, 2),
                c.camera->intrinsics.camera_matrix(1, 2));
    app.ui.label("rms");
  }
  if (!c.camera_error.empty()) {
    text_wrapped_coloured(1, 0.4f, 0.4f, "Camera: " + c.camera_error);
    app.ui.label("camera error: " + c.camera_error);
  }
  if (c.colors_running) ImGui::Text("Colours: sampling...");
  if (!c.colors && !c.colors_running)
    hint("Colours: put a red die on f2 (north base) and a blue die on f10 (south base), then Calibrate colours.");
  if (c.colors) {
    std::string s;
    for (const auto& col : c.colors->colors) s += (s.empty() ? "" : ", ") + col.name;
    ImGui::Text("Colours sampled: %s", s.c_str());
    // Each sample as it will be named: its colour relative to the paper white (a swatch
    // on white paper), so a wrong die on the base shows before Save.
    for (const auto& col : c.colors->colors) {
      ImGui::SameLine();
      const ImVec4 sw(std::min(1.0f, col.bgr_rel[2] * 0.95f), std::min(1.0f, col.bgr_rel[1] * 0.95f),
                      std::min(1.0f, col.bgr_rel[0] * 0.95f), 1.0f);
      ImGui::ColorButton(("##" + col.name).c_str(), sw, ImGuiColorEditFlags_NoTooltip, ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
    }
    if (c.saved.empty()) ImGui::TextDisabled("Not saved yet: press Save to use them.");
    app.ui.label("colours sampled: " + s);
  }
  if (!c.colors_error.empty()) {
    text_wrapped_coloured(1, 0.4f, 0.4f, "Colours: " + c.colors_error);
    app.ui.label("colours error: " + c.colors_error);
  }
  if (!c.saved.empty()) {
    ImGui::Text("%s", c.saved.c_str());
    app.ui.label(c.saved.rfind("saved", 0) == 0 ? "calibration saved" : "calibration not saved");
  }
  ImGui::Separator();
}

}  // namespace

void panel_camera(App& app) {
  bool* open = app.toggles.open("Camera");
  if (!*open) return;
  first_use_layout("Camera", 1010, 648, 582, 244);
  if (!ImGui::Begin("Camera", open)) { ImGui::End(); return; }
  app.ui.window("Camera");
  const Frame& f = app.frame;
  // A picture source of our own (camera, video, image directory) can be calibrated; the
  // recorded observations of the demo cannot.
  const bool pictures = app.live && app.live->description().rfind("recorded observations", 0) != 0;
  if (!app.camera_open) {
    if (pictures)
      ImGui::TextWrapped("No camera connected: the referee reads %s.", app.live->description().c_str());
    else
      ImGui::TextWrapped("No camera connected%s. Put a webcam above the printed sheet (hexdice board) looking down, "
                         "then start with --camera 0 [--calib FILE] (or --source VIDEO|DIR).",
                         app.live ? ": the referee replays the bundled demo game" : "");
    app.ui.label("no camera");
  }
  if (!app.live_error.empty()) text_wrapped_coloured(1, 0.4f, 0.4f, "Referee: " + app.live_error);
  if (pictures) calibration_section(app);
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
    if (app.live->source_done() && !pictures && ImGui::SmallButton("Restart the demo")) app.restart_demo();
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
