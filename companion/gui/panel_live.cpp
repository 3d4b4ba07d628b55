// The live view: the camera picture (an OpenGL texture, uploaded only when a new frame
// arrives) with the hex grid projected onto the sheet through the reader's pose of that
// frame (projected once per frame, App::poll_live), each unit labelled from the referee's
// game (name, effective armor, reduction tokens, guard), the selected unit's legal moves
// and attack targets, and the combat preview of the proposed action.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_live(App& app, std::uintptr_t texture) {
  bool* open = app.toggles.open("Live view");
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(1010, 30), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(582, 370), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Live view", open)) { ImGui::End(); return; }
  app.ui.window("Live view");
  if (!texture || app.image.empty()) {
    ImGui::TextWrapped("No picture yet. Connect a camera (--camera 0) or keep the bundled demo in data/demo.");
    ImGui::End();
    return;
  }
  if (app.live) {
    const auto& v = app.rview;
    ImGui::Text("%s  frame %d  %s", app.live->description().c_str(), v.frame,
                v.motion ? "hand over the sheet" : v.stable ? "still: read" : "settling");
    app.ui.label(v.motion ? "motion" : "still");
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
  if (!app.live && app.grid_version != app.image_version) {  // demo frames without the referee
    app.grid = project_grid(app.frame, radius, 17.0, 148.5, 210.0);
    app.grid_version = app.image_version;
  }
  // Highlights by cell name: selected unit (white), moves (green), attacks (red), proposal (yellow).
  const Position* pos = app.board_position();
  std::map<std::string, ImU32> fill;
  if (pos && !app.replaying()) {
    for (const auto& t : app.interaction.targets())
      if (t.cell >= 0) fill[pos->board().name(t.cell)] = t.attack ? IM_COL32(255, 60, 60, 90) : IM_COL32(80, 230, 80, 80);
    if (app.interaction.selected() >= 0) fill[pos->board().name(app.interaction.selected())] = IM_COL32(255, 255, 255, 90);
    for (const auto& p : app.interaction.proposed())
      if (p.cell >= 0) fill[pos->board().name(p.cell)] = IM_COL32(255, 210, 0, 120);
    if (app.hint.view().shown) {
      fill[pos->board().name(app.hint.view().from)] = IM_COL32(0, 230, 255, 110);
      if (app.hint.view().to >= 0) fill[pos->board().name(app.hint.view().to)] = IM_COL32(0, 230, 255, 110);
    }
  }
  for (const Polygon& p : app.grid) {
    ImVec2 pts[6];
    for (int k = 0; k < 6; ++k) pts[k] = to_screen(p.pts[static_cast<std::size_t>(k)][0], p.pts[static_cast<std::size_t>(k)][1]);
    if (auto it = fill.find(p.name); it != fill.end()) dl->AddConvexPolyFilled(pts, 6, it->second);
    dl->AddPolyline(pts, 6, IM_COL32(0, 255, 200, 150), ImDrawFlags_Closed, 1.0f);
  }
  int labelled = 0;
  for (const Detection& d : app.frame.dice) {
    const ImVec2 p = to_screen(d.x, d.y);
    std::string label = d.cell + " " + std::string(unit_stats(d.face).name);
    if (pos) {  // the game's unit on that cell: effective armor, tokens, guard
      if (auto h = pos->board().parse_name(d.cell)) {
        const Piece& pc = pos->at(pos->board().index(*h));
        if (!pc.empty() && pos->player(pc.owner).id == d.colour && pc.face == d.face) {
          label = d.cell + " " + std::string(unit_stats(pc.face).name) + " A" + std::to_string(effective_armor(pc));
          if (pc.tokens > 0) label += " -" + std::to_string(pc.tokens);
          if (pc.guard) label += " G";
        } else {
          label += " ?";  // seen, but not the game's unit there
        }
      }
    }
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddRectFilled(ImVec2(p.x + 6, p.y - ts.y * 0.5f), ImVec2(p.x + 10 + ts.x, p.y + ts.y * 0.5f), IM_COL32(0, 0, 0, 170));
    dl->AddCircleFilled(p, 3.5f, IM_COL32(255, 255, 0, 255));
    dl->AddText(ImVec2(p.x + 8, p.y - ts.y * 0.5f), IM_COL32(255, 255, 255, 255), label.c_str());
    if (labelled++ < 40) app.ui.label("live: " + label);
  }
  // The combat preview of what is proposed, over the picture.
  if (!app.interaction.proposed().empty()) {
    const TargetView& t = app.interaction.proposed()[static_cast<std::size_t>(app.interaction.choice())];
    std::string line = t.text;
    if (t.combat) line += t.combat->success ? "  -> SUCCESS" : "  -> FAILS";
    dl->AddRectFilled(ImVec2(o.x, o.y), ImVec2(o.x + ImGui::CalcTextSize(line.c_str()).x + 8, o.y + ImGui::GetFontSize() + 6),
                      IM_COL32(0, 0, 0, 200));
    dl->AddText(ImVec2(o.x + 4, o.y + 3), IM_COL32(255, 210, 0, 255), line.c_str());
    app.ui.label("preview: " + line);
  }
  ImGui::End();
}

}  // namespace hexdice::gui
