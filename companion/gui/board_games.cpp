// The Board and History panels when a Wizard Hex or Hexa Decimal game is open: the cells
// (with the selection and its targets lit), the game's own layer (board_wizardhex.cpp,
// board_hexadecimal.cpp), the action bar (proposals, confirm / reject, take back, moves
// with no cell such as promotions) and the record with its replay scrubber.
#include <cmath>
#include <fstream>

#include "companion/gui/app.h"
#include "companion/gui/board_games.h"

namespace hexdice::gui {

namespace {

ImU32 rgba(Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

const char* title_of(const std::string& ruleset) { return ruleset == "wizardhex" ? "Wizard Hex" : "Hexa Decimal"; }

}  // namespace

bool panel_board_game(App& app) {
  GameSession* g = active_game();
  if (!g) return false;
  bool* open = app.toggles.open("Board");
  if (!*open) return true;
  first_use_layout("Board", 8, 30, 620, 862);
  if (!ImGui::Begin("Board", open)) { ImGui::End(); return true; }
  app.ui.window("Board");
  auto view = build_game_view(g->shown());
  if (!view) {
    ImGui::TextWrapped("%s", view.error().c_str());
    ImGui::End();
    return true;
  }
  const GameBoardView& v = *view;
  const std::string head = std::string(title_of(v.ruleset)) + (g->live() ? "" : " (replay)") + ": " + v.turn_text;
  ImGui::TextUnformatted(head.c_str());
  app.ui.label(head);
  for (const auto& line : v.player_lines) {
    ImGui::TextDisabled("%s", line.c_str());
    app.ui.label(line);
  }

  const float bar = ImGui::GetFrameHeightWithSpacing() * 4.2f;
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y = std::max(avail.y - bar, 100.0f);
  const float r = static_cast<float>(v.radius) + (v.ruleset == "wizardhex" ? 1.2f : 0.0f);  // room for the seat names
  BoardGeometry geo;
  geo.size = std::max(6.0f, std::min(avail.x / (3.0f * r + 2.0f), avail.y / (1.7320508f * (2.0f * r + 1.0f))));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  geo.centre = ImVec2(origin.x + avail.x * 0.5f, origin.y + avail.y * 0.5f);
  ImGui::InvisibleButton("game_canvas", avail);
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // 1 = a target (second click), 2 = proposed at once (first click's own action).
  std::vector<int> lit(v.cells.size(), 0);
  if (g->live()) {
    for (const auto& t : g->interaction.targets())
      if (t.second >= 0) lit[static_cast<std::size_t>(t.second)] = 1;
    for (const auto& t : g->interaction.proposed())
      if (t.second >= 0) lit[static_cast<std::size_t>(t.second)] = 2;
  }
  int hovered = -1;
  const float font = ImGui::GetFontSize();
  for (std::size_t i = 0; i < v.cells.size(); ++i) {
    const GameCellView& c = v.cells[i];
    const ImVec2 p = geo.at(c.x, c.y);
    ImVec2 pts[6];
    for (int k = 0; k < 6; ++k) {
      const float a = static_cast<float>(k) * 3.14159265f / 3.0f;
      pts[k] = ImVec2(p.x + geo.size * 0.97f * std::cos(a), p.y + geo.size * 0.97f * std::sin(a));
    }
    dl->AddConvexPolyFilled(pts, 6, rgba(c.fill));
    const float dx = mouse.x - p.x, dy = mouse.y - p.y;
    if (dx * dx + dy * dy < geo.size * geo.size * 0.75f) hovered = static_cast<int>(i);
    ImU32 edge = IM_COL32(110, 115, 125, 255);
    float thick = 1.0f;
    if (lit[i] == 1) { edge = IM_COL32(120, 220, 120, 255); thick = 3; }
    if (lit[i] == 2) { edge = IM_COL32(255, 210, 0, 255); thick = 4.5f; }
    if (static_cast<int>(i) == g->interaction.selected()) { edge = IM_COL32(255, 255, 255, 255); thick = 4; }
    dl->AddPolyline(pts, 6, edge, ImDrawFlags_Closed, thick);
    dl->AddText(nullptr, font * 0.7f, ImVec2(p.x - geo.size * 0.3f, p.y - geo.size * 0.8f), IM_COL32(150, 150, 150, 255),
                c.name.c_str());
  }
  if (v.ruleset == "wizardhex") draw_wizardhex_board(dl, v, geo);
  else draw_hexadecimal_board(dl, v, geo);
  for (const auto& pc : v.pieces) app.ui.label(v.cells[static_cast<std::size_t>(pc.cell)].name + " " + pc.label);
  if (hovered >= 0) {
    std::string tip = v.cells[static_cast<std::size_t>(hovered)].name;
    for (const auto& pc : v.pieces)
      if (pc.cell == hovered) tip += ": " + pc.label;
    for (const auto& t : g->interaction.targets())
      if (t.second == hovered || (t.second < 0 && t.first == hovered)) tip += "\n" + t.text;
    ImGui::SetTooltip("%s", tip.c_str());
  }
  Json over = false;
  if (auto o = g->rules().game_over(g->shown()); o) over = *o;
  if (clicked && hovered >= 0 && g->live() && !over.get<bool>()) g->interaction.click(g->shown(), v, hovered);

  // The action bar.
  if (!g->live()) {
    ImGui::TextDisabled("Replay: move %d of %d. Use the History scrubber; go to the end to play.", g->ply, g->plies());
  } else if (!g->interaction.proposed().empty()) {
    const auto& props = g->interaction.proposed();
    for (int i = 0; i < static_cast<int>(props.size()); ++i) {
      if (ImGui::RadioButton(props[static_cast<std::size_t>(i)].text.c_str(), g->interaction.choice() == i)) g->interaction.choose(i);
      app.ui.label("proposal: " + props[static_cast<std::size_t>(i)].text);
    }
    if (ImGui::Button("Confirm")) if (auto a = g->interaction.confirm()) (void)g->play(*a);
    ImGui::SameLine();
    if (ImGui::Button("Reject")) g->interaction.reject();
  } else if (g->interaction.selected() >= 0) {
    ImGui::Text("%s selected: %zu legal actions. Click a lit cell.", v.cells[static_cast<std::size_t>(g->interaction.selected())].name.c_str(),
                g->interaction.targets().size());
  } else if (!over.get<bool>()) {
    ImGui::TextDisabled("Click a space or piece to see its moves.");
    // Actions tied to no cell (Hexa Decimal promotions): one button each.
    int n = 0;
    for (const auto& t : game_targets(g->shown(), v)) {
      if (t.first >= 0) continue;
      if (n++ % 3) ImGui::SameLine();
      ImGui::PushID(n);
      if (ImGui::SmallButton(t.text.c_str())) g->interaction.propose(t);
      ImGui::PopID();
    }
  }
  ImGui::BeginDisabled(g->plies() == 0 || !g->live());
  if (ImGui::Button("Take back")) g->takeback();
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Save record")) {
    const std::string path = "hexdice_" + v.ruleset + "_game.json";
    std::ofstream out(path);
    out << g->record().dump(1) << '\n';
    g->status = out ? "saved " + path + " (open it with --game " + path + ")" : "cannot write " + path;
  }
  if (!g->status.empty()) ImGui::TextWrapped("%s", g->status.c_str());
  ImGui::End();
  return true;
}

bool panel_history_game(App& app) {
  GameSession* g = active_game();
  if (!g) return false;
  bool* open = app.toggles.open("History");
  if (!*open) return true;
  first_use_layout("History", 636, 30, 520, 420);
  if (!ImGui::Begin("History", open)) { ImGui::End(); return true; }
  app.ui.window("History");
  std::string head = std::string(title_of(std::string(g->rules().name()))) + " record: " + std::to_string(g->plies()) + " moves";
  if (const auto* lg = g->logged()) {
    head += ", game " + std::to_string(lg->id()) + " of the database";
    const auto& res = lg->record().result;
    if (res.finished) head += ", " + (res.winner.empty() ? std::string("draw") : res.winner + " won") + " (" + res.termination + ")";
  }
  ImGui::TextUnformatted(head.c_str());
  app.ui.label(head);
  if (app.db) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Close")) {  // back to Hex Dice (a logged game stays in the database)
      set_active_game(std::nullopt);
      app.refresh_history();
      ImGui::End();
      return true;
    }
    if (ImGui::CollapsingHeader("Logged games (all rulesets)", ImGuiTreeNodeFlags_DefaultOpen)) {
      history_games_table(app);
      g = active_game();  // a click there may have opened another game (or a Hex Dice replay)
      if (!g) { ImGui::End(); return true; }
    }
  }
  int ply = g->ply;
  if (ImGui::Button("|<")) ply = 0;
  ImGui::SameLine();
  if (ImGui::Button("<") && ply > 0) --ply;
  ImGui::SameLine();
  if (ImGui::Button(">") && ply < g->plies()) ++ply;
  ImGui::SameLine();
  if (ImGui::Button(">|")) ply = g->plies();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##ply", &ply, 0, g->plies(), "move %d");
  if (ply != g->ply) {
    g->ply = ply;
    g->interaction.clear();
  }
  app.ui.label("replay at move " + std::to_string(g->ply));
  ImGui::BeginChild("moves");
  if (ImGui::Selectable("0. start", g->ply == 0)) { g->ply = 0; g->interaction.clear(); }
  for (int i = 0; i < g->plies(); ++i) {
    const std::string line = std::to_string(i + 1) + ". " + g->moves()[static_cast<std::size_t>(i)].text;
    if (ImGui::Selectable(line.c_str(), g->ply == i + 1)) { g->ply = i + 1; g->interaction.clear(); }
    app.ui.label(line);
  }
  ImGui::EndChild();
  ImGui::End();
  return true;
}

}  // namespace hexdice::gui
