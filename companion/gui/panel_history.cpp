// The history: every logged game (players, date, length, result, ruleset), filtered and
// sorted; replay one on the board with a scrubber; export its text record; statistics.
#include <imgui.h>

#include <algorithm>

#include "companion/gui/app.h"
#include "companion/gui/board_games.h"

namespace hexdice::gui {

static void stats_table(const GameRecord& rec) {
  const GameStats s = game_stats(rec);
  ImGui::Text("%d actions, %d takebacks, %d annotations", s.actions, s.takebacks, s.annotations);
  if (ImGui::BeginTable("stats", 13, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("player");
    for (auto n : kActionNames) ImGui::TableSetupColumn(std::string(n).c_str());
    ImGui::TableSetupColumn("won");
    ImGui::TableSetupColumn("lost");
    for (int f = 1; f <= 4; ++f) ImGui::TableSetupColumn(("rolled " + std::to_string(f)).c_str());
    ImGui::TableHeadersRow();
    for (const auto& p : s.players) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(p.id.c_str());
      for (int n : p.by_type) { ImGui::TableNextColumn(); ImGui::Text("%d", n); }
      ImGui::TableNextColumn(); ImGui::Text("%d", p.combats_won);
      ImGui::TableNextColumn(); ImGui::Text("%d", p.combats_lost);
      for (int f = 1; f <= 4; ++f) { ImGui::TableNextColumn(); ImGui::Text("%d", p.rolls[static_cast<std::size_t>(f)]); }
    }
    ImGui::EndTable();
  }
  // Faces 5 and 6 on their own line keeps the table narrow.
  for (const auto& p : s.players)
    ImGui::Text("%s rolls per face 1-6: %d %d %d %d %d %d", p.id.c_str(), p.rolls[1], p.rolls[2], p.rolls[3], p.rolls[4],
                p.rolls[5], p.rolls[6]);
}

// The list of logged games of every ruleset (filter, sort, ruleset); a click opens one:
// Hex Dice in the replay below, Wizard Hex and Hexa Decimal on their own board.
void history_games_table(App& app) {
  ImGui::SetNextItemWidth(200);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s", app.filter.c_str());
  if (ImGui::InputTextWithHint("##filter", "filter: player, date, result", buf, sizeof buf)) app.filter = buf;
  ImGui::SameLine();
  const char* sorts[] = {"newest first", "oldest first", "longest first", "by players"};
  int s = static_cast<int>(app.sort);
  ImGui::SetNextItemWidth(140);
  if (ImGui::Combo("sort", &s, sorts, 4)) app.sort = static_cast<HistorySort>(s);
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) app.refresh_history();
  if (app.games.empty()) {
    ImGui::TextWrapped("No games logged in %s yet. Play one on the Board, or", app.db->path().c_str());
    if (ImGui::Button("Add 5 sample games")) app.add_sample_games(5);
  }
  // Which rulesets: all three, or one (the companion's games of any ruleset are listed).
  static int ruleset_pick = 0;
  static const char* const kRulesets[] = {"all rulesets", "hexdice", "wizardhex", "hexadecimal"};
  ImGui::SameLine();
  ImGui::SetNextItemWidth(130);
  ImGui::Combo("##ruleset", &ruleset_pick, kRulesets, 4);
  auto rows = history_rows(app.games, app.filter, app.sort);
  if (ruleset_pick > 0)
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](const HistoryRow& r) { return r.ruleset != kRulesets[ruleset_pick]; }),
               rows.end());
  app.ui.label(std::to_string(rows.size()) + " games");
  // Columns as wide as their text (the date and result were cut off in a 580 px panel),
  // scrolling sideways when the panel is narrower; the full row is the tooltip.
  if (ImGui::BeginTable("games", 6,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                            ImGuiTableFlags_SizingFixedFit,
                        ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * (app.replay ? 4.5f : 7.0f)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"#", "players", "date", "length", "result", "ruleset"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const GameSession* other = active_game();
      const bool sel = (app.replay && app.replay->game == r.id) || (other && other->game_id() == r.id);
      if (ImGui::Selectable(std::to_string(r.id).c_str(), sel, ImGuiSelectableFlags_SpanAllColumns)) app.open_replay(r.id);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("game %lld: %s, %s, %d plies, %s (%s)%s", static_cast<long long>(r.id), r.players.c_str(), r.date.c_str(),
                          r.length, r.result.c_str(), r.ruleset.c_str(), sel ? "" : "\nclick to replay it");
      ImGui::TableNextColumn(); ImGui::TextUnformatted(r.players.c_str());
      // "2026-01-01T14:05:09Z" reads better as "2026-01-01 14:05".
      std::string date = r.date.substr(0, 16);
      if (date.size() > 10 && date[10] == 'T') date[10] = ' ';
      ImGui::TableNextColumn(); ImGui::TextUnformatted(date.c_str());
      ImGui::TableNextColumn(); ImGui::Text("%d", r.length);
      ImGui::TableNextColumn(); ImGui::TextUnformatted(r.result.c_str());
      ImGui::TableNextColumn(); ImGui::TextUnformatted(r.ruleset.c_str());
      app.ui.label(std::to_string(r.id) + " " + r.ruleset + " " + r.result);
    }
    ImGui::EndTable();
  }
}

void panel_history(App& app) {
  if (panel_history_game(app)) return;  // the record and replay of a Wizard Hex / Hexa Decimal game
  bool* open = app.toggles.open("History");
  if (!*open) return;
  first_use_layout(1010, 408, 582, 232);
  if (!ImGui::Begin("History", open)) { ImGui::End(); return; }
  app.ui.window("History");
  if (!app.db) {
    ImGui::TextWrapped("No game database: %s", app.db_error.c_str());
    ImGui::End();
    return;
  }
  history_games_table(app);
  if (app.replay) {
    Replay& rp = *app.replay;
    ImGui::Separator();
    ImGui::Text("Replay of game %lld", static_cast<long long>(rp.game));
    app.ui.label("replay");
    if (ImGui::ArrowButton("prev", ImGuiDir_Left) && rp.ply > 0) --rp.ply;
    ImGui::SameLine();
    if (ImGui::ArrowButton("next", ImGuiDir_Right) && rp.ply < rp.plies()) ++rp.ply;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(260);
    ImGui::SliderInt("ply", &rp.ply, 0, rp.plies());
    ImGui::SameLine();
    if (ImGui::Button("Close replay")) { app.close_replay(); ImGui::End(); return; }
    if (rp.ply > 0 && rp.ply <= static_cast<int>(rp.record.line_entries().size())) {
      const int e = rp.record.line_entries()[static_cast<std::size_t>(rp.ply - 1)];
      auto before = rp.record.position_at(rp.ply - 1);
      if (before) {
        const RecordEntry& re = rp.record.entries()[static_cast<std::size_t>(e)];
        ImGui::TextWrapped("%d. %s", rp.ply, describe(*before, re.action, &re.outcome).c_str());
      }
    }
    if (ImGui::Button("Export text record")) {
      const std::string path = config_dir() + "/game-" + std::to_string(rp.game) + ".txt";
      const std::string err = app.export_text(rp.game, path);
      app.status = err.empty() ? "exported to " + path : "export failed: " + err;
    }
    if (ImGui::CollapsingHeader("Statistics", ImGuiTreeNodeFlags_DefaultOpen)) stats_table(rp.record);
  }
  ImGui::End();
}

}  // namespace hexdice::gui
