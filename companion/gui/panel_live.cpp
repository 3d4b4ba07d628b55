// The live view: the camera picture (an OpenGL texture) with the hex grid projected onto
// the sheet through the registration homography, and each seen die labelled.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_live(App& app, std::uintptr_t texture) {
  bool* open = app.toggles.open("Live view");
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(1010, 468), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(582, 290), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Live view", open)) { ImGui::End(); return; }
  app.ui.window("Live view");
  if (!texture || app.image.empty()) {
    ImGui::TextWrapped("No picture. Connect a camera (--camera 0) or keep the bundled demo frames in data/fixtures/scenes.");
    ImGui::End();
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float iw = static_cast<float>(app.image.cols), ih = static_cast<float>(app.image.rows);
  const float s = std::max(0.05f, std::min(avail.x / iw, avail.y / ih));
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(texture), ImVec2(iw * s, ih * s));
  app.ui.label(app.frame.source);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto to_screen = [&](double x, double y) { return ImVec2(o.x + static_cast<float>(x) * s, o.y + static_cast<float>(y) * s); };
  const int radius = app.frame_position ? app.frame_position->radius() : 5;
  for (const Polygon& p : project_grid(app.frame, radius, 17.0, 148.5, 210.0)) {
    ImVec2 pts[6];
    for (int k = 0; k < 6; ++k) pts[k] = to_screen(p.pts[static_cast<std::size_t>(k)][0], p.pts[static_cast<std::size_t>(k)][1]);
    dl->AddPolyline(pts, 6, IM_COL32(0, 255, 200, 150), ImDrawFlags_Closed, 1.0f);
  }
  for (const Detection& d : app.frame.dice) {
    const ImVec2 p = to_screen(d.x, d.y);
    const std::string label = d.cell + " " + std::string(unit_stats(d.face).name);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddRectFilled(ImVec2(p.x + 6, p.y - ts.y * 0.5f), ImVec2(p.x + 10 + ts.x, p.y + ts.y * 0.5f), IM_COL32(0, 0, 0, 170));
    dl->AddCircleFilled(p, 3.5f, IM_COL32(255, 255, 0, 255));
    dl->AddText(ImVec2(p.x + 8, p.y - ts.y * 0.5f), IM_COL32(255, 255, 255, 255), label.c_str());
  }
  ImGui::End();
}

}  // namespace hexdice::gui
