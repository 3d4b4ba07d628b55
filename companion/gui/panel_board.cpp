// The digital board: a top-down flat-top hex map of the shown position, drawn with
// ImDrawList. Click a unit to select it (its legal moves and attack targets light up),
// click a target to propose the action with its combat preview; Enter confirms, Esc
// rejects, Ctrl+Z takes back. Reroll (with the rolled face) and guard are buttons.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "companion/gui/app.h"
#include "companion/gui/board_games.h"

namespace hexdice::gui {

static ImU32 col(Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

void panel_board(App& app) {
  if (panel_board_game(app)) return;  // Wizard Hex / Hexa Decimal (board_games.cpp)
  bool* open = app.toggles.open("Board");
  if (!*open) return;
  first_use_layout("Board", 8, 30, 620, 862);
  if (!ImGui::Begin("Board", open)) { ImGui::End(); return; }
  app.ui.window("Board");
  // Other rulesets (Wizard Hex, Hexa Decimal) draw their own board here and return early:
  // board_wizardhex.cpp / board_hexadecimal.cpp (a ruleset check goes at this point).
  const Position* pos = app.board_position();
  if (!pos) {
    ImGui::TextWrapped("No position: start a game (Game > New game, Ctrl+N) or open one from the History.");
    ImGui::End();
    return;
  }
  const BoardView v = build_board_view(*pos, app.board_names(), app.settings.palette);
  const App::Mode m = app.mode();
  const char* mode = m == App::Mode::Replay ? "Replay" : m == App::Mode::Game ? "Playing" : m == App::Mode::Solo ? "Solo"
                     : m == App::Mode::Referee ? "Referee" : "Demo frame";
  ImGui::Text("%s: %s", mode, v.turn_text.c_str());
  app.ui.label(std::string(mode) + ": " + v.turn_text);
  const bool can_act = m == App::Mode::Game || m == App::Mode::Referee || (m == App::Mode::Solo && app.solo->game().heroes_turn());
  if (can_act) {
    ImGui::SameLine();
    ImGui::BeginDisabled(app.hint.view().thinking);
    if (ImGui::SmallButton(app.hint.view().thinking ? "Thinking..." : "Hint (H)")) app.request_hint();
    ImGui::EndDisabled();
  }
  if (m == App::Mode::Referee) {
    ImGui::SameLine();
    if (!app.rview.frame_problem.empty())  // a grey, empty or resized frame: not used (robust20)
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "frame %d not used: %s", app.rview.frame,
                         app.rview.frame_problem.c_str());
    else
      ImGui::TextDisabled("frame %d %s", app.rview.frame, app.rview.motion ? "(hand over the sheet)" : app.rview.stable ? "(still)" : "");
  }

  // Geometry: fit the map into the space left, keeping room for the action bar.
  const float bar = ImGui::GetFrameHeightWithSpacing() * 4.4f + ImGui::GetTextLineHeightWithSpacing();  // + the legend
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y = std::max(avail.y - bar, 100.0f);
  const float r = static_cast<float>(v.radius);
  const float size = std::max(6.0f, std::min(avail.x / (3.0f * r + 2.0f), avail.y / (1.7320508f * (2.0f * r + 1.0f))));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 centre(origin.x + avail.x * 0.5f, origin.y + avail.y * 0.5f);
  ImGui::InvisibleButton("board_canvas", avail);
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const bool right_clicked = ImGui::IsItemClicked(ImGuiMouseButton_Right);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  std::vector<int> highlight(v.cells.size(), 0);  // 1 move, 2 attack, 3 merge
  if (!app.replaying())
    for (const auto& t : app.interaction.targets())
      if (t.cell >= 0)
        highlight[static_cast<std::size_t>(t.cell)] =
            t.attack ? 2 : (t.action.type == ActionType::Merge ? 3 : std::max(highlight[static_cast<std::size_t>(t.cell)], 1));

  // Extra marks: the hint (cyan), the enemy's last steps in solo (orange), the referee's proposals (magenta).
  std::vector<std::pair<int, ImU32>> marks;
  const HintView& hv = app.hint.view();
  if (hv.shown) {
    marks.push_back({hv.from, IM_COL32(0, 230, 255, 255)});
    if (hv.to >= 0) marks.push_back({hv.to, IM_COL32(0, 230, 255, 255)});
  }
  if (m == App::Mode::Solo)
    for (const auto& st : app.solo->last_steps()) {
      if (st.from >= 0) marks.push_back({st.from, IM_COL32(255, 150, 0, 255)});
      if (st.to >= 0) marks.push_back({st.to, IM_COL32(255, 150, 0, 255)});
    }
  if (m == App::Mode::Referee)
    for (const auto& p : app.rproposals) {
      if (p.from >= 0) marks.push_back({p.from, IM_COL32(255, 0, 255, 255)});
      if (p.to >= 0) marks.push_back({p.to, IM_COL32(255, 0, 255, 255)});
    }
  int hovered = -1;
  const float font = ImGui::GetFontSize();
  for (std::size_t i = 0; i < v.cells.size(); ++i) {
    const CellView& c = v.cells[i];
    const ImVec2 p(centre.x + static_cast<float>(c.x) * size, centre.y + static_cast<float>(c.y) * size);
    ImVec2 pts[6];
    for (int k = 0; k < 6; ++k) {
      const float a = static_cast<float>(k) * 3.14159265f / 3.0f;
      pts[k] = ImVec2(p.x + size * 0.97f * std::cos(a), p.y + size * 0.97f * std::sin(a));
    }
    ImU32 fill = IM_COL32(48, 52, 58, 255);
    if (c.zone >= 0) fill = col(v.players[static_cast<std::size_t>(c.zone)].colour, 50);
    if (c.base >= 0) fill = col(v.players[static_cast<std::size_t>(c.base)].colour, 120);
    // The fill without ImGui's anti-aliased fringe (the outline drawn next covers the
    // edge): the 91 fringes of thin triangles cost Mesa's software rasteriser ~1.1 ms of
    // CPU a frame at 720p (17.5 -> 18.6 ms, docs/companion.md).
    const ImDrawListFlags flags = dl->Flags;
    dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    dl->AddConvexPolyFilled(pts, 6, fill);
    dl->Flags = flags;
    const float dx = mouse.x - p.x, dy = mouse.y - p.y;
    if (dx * dx + dy * dy < size * size * 0.75f) hovered = static_cast<int>(i);
    ImU32 edge = IM_COL32(110, 115, 125, 255);
    float thick = 1.0f;
    switch (highlight[i]) {
      case 1: edge = IM_COL32(120, 220, 120, 255); thick = 3; break;
      case 2: edge = IM_COL32(255, 80, 80, 255); thick = 3.5f; break;
      case 3: edge = IM_COL32(120, 180, 255, 255); thick = 3; break;
      default: break;
    }
    if (static_cast<int>(i) == app.interaction.selected()) { edge = IM_COL32(255, 255, 255, 255); thick = 4; }
    for (const auto& pr : app.interaction.proposed())
      if (pr.cell == static_cast<int>(i)) { edge = IM_COL32(255, 210, 0, 255); thick = 4.5f; }
    dl->AddPolyline(pts, 6, edge, ImDrawFlags_Closed, thick);
    for (const auto& [cell, mc] : marks)
      if (cell == static_cast<int>(i)) {
        ImVec2 in[6];
        for (int k = 0; k < 6; ++k) in[k] = ImVec2(p.x + (pts[k].x - p.x) * 0.85f, p.y + (pts[k].y - p.y) * 0.85f);
        dl->AddPolyline(in, 6, mc, ImDrawFlags_Closed, 3.0f);
      }
    if (c.base >= 0) dl->AddCircle(p, size * 0.8f, col(v.players[static_cast<std::size_t>(c.base)].colour), 0, 2);
    dl->AddText(nullptr, font * 0.75f, ImVec2(p.x - size * 0.35f, p.y + size * 0.45f), IM_COL32(170, 170, 170, 255),
                c.name.c_str());
  }
  for (const UnitView& u : v.units) {
    const CellView& c = v.cells[static_cast<std::size_t>(u.cell)];
    const ImVec2 p(centre.x + static_cast<float>(c.x) * size, centre.y + static_cast<float>(c.y) * size);
    const Rgb pc = v.players[static_cast<std::size_t>(u.owner)].colour;
    const float h = size * 0.5f;
    dl->AddRectFilled(ImVec2(p.x - h, p.y - h * 0.9f), ImVec2(p.x + h, p.y + h * 0.7f), col(pc), size * 0.15f);
    if (u.guard) dl->AddRect(ImVec2(p.x - h - 2, p.y - h * 0.9f - 2), ImVec2(p.x + h + 2, p.y + h * 0.7f + 2),
                             IM_COL32(255, 255, 255, 255), size * 0.15f, 0, 2);
    const int lum = (pc.r * 299 + pc.g * 587 + pc.b * 114) / 1000;
    const ImU32 ink = lum > 140 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
    char top[32], bottom[32];
    std::snprintf(top, sizeof top, "%s", u.abbrev.c_str());
    std::snprintf(bottom, sizeof bottom, "A%d%s%s", u.armor, u.tokens ? ("-" + std::to_string(u.tokens)).c_str() : "",
                  u.guard ? "G" : "");
    const float fs = std::min(font, size * 0.42f);
    dl->AddText(nullptr, fs, ImVec2(p.x - h * 0.9f, p.y - h * 0.85f), ink, top);
    dl->AddText(nullptr, fs, ImVec2(p.x - h * 0.9f, p.y - h * 0.85f + fs), ink, bottom);
    app.ui.label(c.name + " " + u.label);
  }
  if (hovered >= 0) {
    const CellView& c = v.cells[static_cast<std::size_t>(hovered)];
    std::string tip = c.name;
    for (const UnitView& u : v.units)
      if (u.cell == hovered) tip += ": " + v.players[static_cast<std::size_t>(u.owner)].id + " " + u.label;
    for (const auto& t : app.interaction.targets())
      if (t.cell == hovered) tip += "\n" + t.text;
    ImGui::SetTooltip("%s", tip.c_str());
  }
  if (clicked && hovered >= 0 && can_act) app.interaction.click(*pos, hovered);
  // Correct the camera's reading of a cell (referee): right-click it.
  if (m == App::Mode::Referee && hovered >= 0 && right_clicked) {
    app.correcting = hovered;
    ImGui::OpenPopup("correct");
  }
  if (ImGui::BeginPopup("correct")) {
    if (app.correcting >= 0 && app.correcting < pos->board().size()) {
      const std::string name = pos->board().name(app.correcting);
      ImGui::Text("The die on %s is really:", name.c_str());
      static int owner = 0, face = 1;
      static bool guard = false;
      for (int pl = 0; pl < pos->num_players(); ++pl) {
        if (pl) ImGui::SameLine();
        ImGui::RadioButton(pos->player(pl).id.c_str(), &owner, pl);
      }
      ImGui::SliderInt("face", &face, 1, 6);
      ImGui::Checkbox("guard", &guard);
      if (ImGui::Button("Set")) { app.send(correct_command(*pos, app.correcting, pos->player(owner).id, face, guard)); ImGui::CloseCurrentPopup(); }
      ImGui::SameLine();
      if (ImGui::Button("Empty")) { app.send(empty_command(*pos, app.correcting)); ImGui::CloseCurrentPopup(); }
      ImGui::SameLine();
      if (ImGui::Button("Camera again")) { app.send("clear " + name); ImGui::CloseCurrentPopup(); }
    }
    ImGui::EndPopup();
  }

  // The action bar: why the last click did nothing, the proposal with its combat
  // preview, then one click / key each.
  if (!app.replaying() && !app.interaction.why_not().empty()) {
    text_wrapped_coloured(1, 0.6f, 0.3f, "Not possible: " + app.interaction.why_not());
    app.ui.label("refused: " + app.interaction.why_not());
  }
  if (app.replaying()) {
    // The scrubber here too, under the board it moves (the History panel is small).
    Replay& rp = *app.replay;
    ImGui::Text("Replay of game %lld: ply %d of %d", static_cast<long long>(rp.game), rp.ply, rp.plies());
    app.ui.label("replay ply " + std::to_string(rp.ply) + " of " + std::to_string(rp.plies()));
    if (ImGui::ArrowButton("board_prev", ImGuiDir_Left) && rp.ply > 0) --rp.ply;
    ImGui::SameLine();
    if (ImGui::ArrowButton("board_next", ImGuiDir_Right) && rp.ply < rp.plies()) ++rp.ply;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - 140));
    ImGui::SliderInt("##board_ply", &rp.ply, 0, rp.plies());
    ImGui::SameLine();
    if (ImGui::Button("Close replay")) app.close_replay();
    else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("Left/Right arrows step one ply; History has the game list, export and statistics.");
      ImGui::PopStyleColor();
    }
  } else if (!can_act) {
    if (m == App::Mode::Solo) ImGui::TextWrapped("The enemy is to act: Enemy turn in the Solo panel.");
    else ImGui::TextWrapped("Demo: the position seen in the demo frame. Game > New game (Ctrl+N) to play on this board.");
  } else if (!app.interaction.proposed().empty()) {
    const auto& props = app.interaction.proposed();
    for (int i = 0; i < static_cast<int>(props.size()); ++i) {
      const TargetView& t = props[static_cast<std::size_t>(i)];
      std::string line = t.text;
      if (t.combat)
        line += "   [attack " + std::to_string(t.combat->attack) + " vs armor " + std::to_string(t.combat->armor) +
                (t.combat->success ? ": SUCCESS]" : ": FAILS]");
      if (ImGui::RadioButton(line.c_str(), app.interaction.choice() == i)) app.interaction.choose(i);
      app.ui.label("proposal: " + line);
    }
    if (ImGui::Button(m == App::Mode::Referee ? "Declare to the referee (Enter)" : "Confirm (Enter)")) app.confirm();
    ImGui::SameLine();
    if (ImGui::Button("Reject (Esc)")) app.reject();
  } else if (app.interaction.selected() >= 0) {
    const int s = app.interaction.selected();
    ImGui::Text("%s selected: %zu legal actions. Click a highlighted cell, or:", v.cells[static_cast<std::size_t>(s)].name.c_str(),
                app.interaction.targets().size());
    bool can_guard = false, can_reroll = false;
    for (const auto& t : app.interaction.targets()) {
      can_guard |= t.action.type == ActionType::Guard;
      can_reroll |= t.action.type == ActionType::Reroll;
    }
    ImGui::BeginDisabled(!can_guard);
    if (ImGui::Button("Guard")) app.interaction.propose(*pos, {ActionType::Guard, static_cast<std::int16_t>(s), kNoCell, 0});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!can_reroll);
    ImGui::TextUnformatted("Reroll, rolled:");
    for (int f = 1; f <= 6; ++f) {
      ImGui::SameLine();
      ImGui::PushID(f);
      if (ImGui::SmallButton(std::to_string(f).c_str()))
        app.interaction.propose(*pos, {ActionType::Reroll, static_cast<std::int16_t>(s), kNoCell, static_cast<std::uint8_t>(f)});
      ImGui::PopID();
    }
    ImGui::EndDisabled();
  } else if (m == App::Mode::Referee && !app.rproposals.empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 1, 1), "The referee asks: which action happened?");
    for (const auto& p : app.rproposals) {
      ImGui::PushID(p.number);
      if (ImGui::SmallButton(("Confirm " + std::to_string(p.number)).c_str())) app.confirm_referee(p.number);
      ImGui::PopID();
      ImGui::SameLine();
      ImGui::Text("%s%s", p.text.c_str(), p.combat.empty() ? "" : ("   [" + p.combat + "]").c_str());
      app.ui.label("referee proposal " + std::to_string(p.number) + ": " + p.text);
    }
    if (ImGui::SmallButton("Reject (Esc)")) app.reject();
  } else {
    // The mover's name ("red"), not the turn line ("red to move"), and wrapped.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Click one of %s's units to see its moves and attacks%s.", pos->player(pos->to_move()).id.c_str(),
                       m == App::Mode::Referee ? "; right-click a cell to correct its reading" : "");
    ImGui::PopStyleColor();
  }
  if (hv.shown) {
    ImGui::TextColored(ImVec4(0, 0.9f, 1, 1), "Hint: %s", hv.text.c_str());
    ImGui::TextWrapped("Why: %s", hv.reason.c_str());
    app.ui.label("hint: " + hv.text + ": " + hv.reason);
  }
  if (!app.status.empty()) ImGui::TextWrapped("%s", app.status.c_str());
  if (!v.units.empty()) {  // what the tiles say ("Tank A3 -1 G")
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Tiles: unit, %s; hover a cell for its unit in full.", kTileLegend);
    ImGui::PopStyleColor();
    app.ui.label(std::string("legend: ") + kTileLegend);
  }
  ImGui::End();
}

}  // namespace hexdice::gui
