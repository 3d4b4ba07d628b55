// The live view: the camera picture (an OpenGL texture, uploaded only when a new frame
// arrives) with the hex grid projected onto the sheet through the reader's pose of that
// frame (projected once per frame, App::poll_live), each unit labelled from the referee's
// game (name, effective armor, reduction tokens, guard), the selected unit's legal moves
// and attack targets, and the combat preview of the proposed action.
#include <algorithm>
#include <string>
#include <vector>

#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_live(App& app, std::uintptr_t texture) {
  bool* open = app.toggles.open("Live view");
  if (!*open) return;
  first_use_layout("Live view", 1010, 30, 582, 370);
  if (!ImGui::Begin("Live view", open)) { ImGui::End(); return; }
  app.ui.window("Live view");
  if (!texture || app.image.empty()) {
    ImGui::TextWrapped("No picture yet. Connect a camera (--camera 0) or keep the bundled demo in data/demo.");
    ImGui::End();
    return;
  }
  if (app.live) {
    const auto& v = app.rview;
    const std::string& d = app.live->description();  // the bundled demo's long path says little
    ImGui::Text("%s  frame %d  %s", d.find("data/demo/observations") != std::string::npos ? "the bundled demo (a recorded game)" : d.c_str(), v.frame,
                v.motion ? "hand over the sheet" : v.stable ? "still: read" : "settling");
    app.ui.label(v.motion ? "motion" : "still");
    if (!app.picture.warning.empty()) {  // this frame file's decoder warning (the event log keeps them all)
      text_wrapped_coloured(1, 0.7f, 0.3f, "frame " + std::to_string(app.picture.index) + ": warning: " + app.picture.warning);
      app.ui.label("live warning: " + app.picture.warning);
    }
  } else {  // a fixture photo (or a bare camera): it is not the game on the board (a replay, say)
    ImGui::Text("%s: the dice as read here, not the game on the board", app.frame.source.c_str());
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Each die: its cell, unit, %s.\nOrange: the game has something else there.\nGreen / red cells: the "
                      "selected unit's moves / attacks; yellow: the proposed action; cyan: the hint.", kTileLegend);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float iw = static_cast<float>(app.image.cols), ih = static_cast<float>(app.image.rows);
  const float s = std::max(0.05f, std::min(avail.x / iw, avail.y / ih));
  const ImVec2 o = ImGui::GetCursorScreenPos();
  app.shown_w = static_cast<int>(iw * s + 0.5f);  // the next upload is at this size (fewer texels, no aliasing)
  app.shown_h = static_cast<int>(ih * s + 0.5f);
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
  // Each die labelled from the game the picture belongs to (the referee's game, the solo
  // game, or the demo frame's; never a replay or a board game, which the camera does not
  // see): unit, effective armor, tokens, guard. A die the game disagrees with says what
  // the game has there, in orange. Labels are placed so that they do not overlap.
  const Position* seen = app.live ? (app.rview.position.num_players() ? &app.rview.position : nullptr)
                         : app.solo ? &app.solo->position()
                         : app.frame_position ? &*app.frame_position : nullptr;
  std::vector<ImVec4> placed;  // label rectangles (x0, y0, x1, y1) already drawn
  auto overlap = [&](const ImVec4& r) {  // the area r shares with what is placed
    float a = 0;
    for (const ImVec4& q : placed)
      a += std::max(0.0f, std::min(r.z, q.z) - std::max(r.x, q.x)) * std::max(0.0f, std::min(r.w, q.w) - std::max(r.y, q.y));
    return a;
  };
  for (const Detection& d : app.frame.dice) {  // the dice themselves stay visible
    const ImVec2 p = to_screen(d.x, d.y);
    placed.push_back(ImVec4(p.x - 5, p.y - 5, p.x + 5, p.y + 5));
  }
  int labelled = 0;
  for (const Detection& d : app.frame.dice) {
    const ImVec2 p = to_screen(d.x, d.y);
    std::string label = d.cell + " " + std::string(unit_stats(d.face).name);
    bool mismatch = false;
    if (seen) {
      if (auto h = seen->board().parse_name(d.cell)) {
        const Piece& pc = seen->at(seen->board().index(*h));
        if (!pc.empty() && seen->player(pc.owner).id == d.colour && pc.face == d.face) {
          label = d.cell + " " + std::string(unit_stats(pc.face).name) + " A" + std::to_string(effective_armor(pc));
          if (pc.tokens > 0) label += " -" + std::to_string(pc.tokens);
          if (pc.guard) label += " G";
        } else {  // seen, but the game has something else there
          mismatch = true;
          label += pc.empty() ? " (game: empty)"
                   : " (game: " + (seen->player(pc.owner).id == d.colour ? std::string() : seen->player(pc.owner).id + " ") +
                         std::string(unit_stats(pc.face).name) + ")";
        }
      }
    }
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    // Right of the die, else left, above, below, then the four diagonals, then the same
    // one label-height further out (with a leader line to the die); the first place that
    // is free, else the one that covers the least of the other labels (in the fixture
    // scenes close dice had labels written over each other).
    const float lh = ts.y;
    ImVec2 tries[16];
    for (int ring = 0; ring < 2; ++ring) {
      const float out = static_cast<float>(ring) * (lh + 2);
      ImVec2* t = tries + ring * 8;
      t[0] = {p.x + 8 + out, p.y - lh * 0.5f};
      t[1] = {p.x - 10 - ts.x - out, p.y - lh * 0.5f};
      t[2] = {p.x - ts.x * 0.5f, p.y - 6 - lh * 1.5f - out};
      t[3] = {p.x - ts.x * 0.5f, p.y + 6 + lh * 0.5f + out};
      t[4] = {p.x + 6 + out, p.y - 6 - lh - out};
      t[5] = {p.x - 6 - ts.x - out, p.y - 6 - lh - out};
      t[6] = {p.x + 6 + out, p.y + 6 + out};
      t[7] = {p.x - 6 - ts.x - out, p.y + 6 + out};
    }
    ImVec2 at = tries[0];
    float best = -1;
    for (const ImVec2& t : tries) {
      const float a = overlap(ImVec4(t.x - 2, t.y, t.x + ts.x + 2, t.y + ts.y));
      if (best < 0 || a < best) { best = a; at = t; }
      if (a == 0) break;
    }
    placed.push_back(ImVec4(at.x - 2, at.y, at.x + ts.x + 2, at.y + ts.y));
    const ImVec2 near(std::clamp(p.x, at.x - 2, at.x + ts.x + 2), std::clamp(p.y, at.y, at.y + ts.y));
    if ((near.x - p.x) * (near.x - p.x) + (near.y - p.y) * (near.y - p.y) > 15 * 15)
      dl->AddLine(p, near, IM_COL32(255, 255, 0, 200), 1.0f);  // far from its die: a leader line
    dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), IM_COL32(0, 0, 0, 190));
    dl->AddCircleFilled(p, 3.5f, IM_COL32(255, 255, 0, 255));
    dl->AddText(at, mismatch ? IM_COL32(255, 170, 60, 255) : IM_COL32(255, 255, 255, 255), label.c_str());
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
