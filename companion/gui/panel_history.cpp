// The history: every logged game (players, date, length, result, ruleset), filtered and
// sorted; replay one on the board with a scrubber; export its text record; statistics.
#include <imgui.h>

#include <algorithm>

#include "companion/gui/app.h"
#include "companion/gui/board_games.h"

namespace hexdice::gui {

// The replayed game's statistics: a column per player, four rows (view_model.h
// stats_table), each cell's meaning in words as its tooltip.
static void draw_stats(App& app, const Replay& rp) {
  const StatsTable& t = rp.stats;
  // The summary line when there is room for it above the table (at 1280x720 there is not:
  // then it is the first column's header and its tooltip).
  const ImGuiStyle& st = ImGui::GetStyle();
  const float table_h = static_cast<float>(t.rows.size() + 1) * (ImGui::GetTextLineHeight() + st.CellPadding.y * 2 + 1) + 2;
  const std::string game = "game " + std::to_string(rp.game);
  const bool summary_line = ImGui::GetContentRegionAvail().y >= table_h + ImGui::GetTextLineHeightWithSpacing();
  if (summary_line) ImGui::Text("Game %lld: %s", static_cast<long long>(rp.game), t.summary.c_str());
  app.ui.label("stats: " + t.summary);
  if (!ImGui::BeginTable("stats", 1 + static_cast<int>(t.players.size()),
                         ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn(summary_line ? "" : game.c_str());
  for (const auto& p : t.players) ImGui::TableSetupColumn(p.c_str());
  ImGui::TableHeadersRow();
  if (!summary_line) {
    ImGui::TableSetColumnIndex(0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", game.c_str(), t.summary.c_str());
  }
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(t.rows[r].c_str());
    for (std::size_t p = 0; p < t.players.size(); ++p) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(t.cells[r][p].c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.words[r][p].c_str());
      app.ui.label("stats " + t.rows[r] + ": " + t.words[r][p]);
    }
  }
  ImGui::EndTable();
}

// The list of logged games of every ruleset (filter, sort, ruleset); a click opens one:
// Hex Dice in the replay below, Wizard Hex and Hexa Decimal on their own board.
void history_games_table(App& app, float height) {
  const float top = ImGui::GetCursorPosY();  // height: the filter row and the table together
  // The filter takes what the sort, ruleset and Refresh leave of the row (at 1280x720 the
  // ruleset box ran off the panel's edge).
  const ImGuiStyle& st = ImGui::GetStyle();
  const float fixed = 140 + 130 + ImGui::CalcTextSize("sort").x + ImGui::CalcTextSize("Refresh").x + st.FramePadding.x * 2 +
                      st.ItemInnerSpacing.x + st.ItemSpacing.x * 4;
  ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - fixed, 80.0f, 240.0f));
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
                        ImVec2(0, height > 0 ? std::max(height - (ImGui::GetCursorPosY() - top), ImGui::GetTextLineHeightWithSpacing() * 2.5f)
                                             : ImGui::GetTextLineHeightWithSpacing() * 7.0f))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"#", "players", "date", "length", "result", "ruleset"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const GameSession* other = active_game();
      const bool sel = (app.replay && app.replay->game == r.id) || (other && other->game_id() == r.id);
      if (ImGui::Selectable(std::to_string(r.id).c_str(), sel, ImGuiSelectableFlags_SpanAllColumns)) app.open_replay(r.id);
      static std::int64_t scrolled_to = -1;  // the replayed game's row is brought into view once
      if (sel && scrolled_to != r.id) {
        ImGui::SetScrollHereY(0.5f);
        scrolled_to = r.id;
      }
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
  first_use_layout("History", 1010, 408, 582, 232);
  if (!ImGui::Begin("History", open)) { ImGui::End(); return; }
  app.ui.window("History");
  if (!app.db) {
    ImGui::TextWrapped("No game database: %s", app.db_error.c_str());
    ImGui::End();
    return;
  }
  if (!app.replay) {  // the list alone: it takes the panel
    history_games_table(app, ImGui::GetContentRegionAvail().y);
    ImGui::End();
    return;
  }
  // A game is replayed: the list with the replay's scrubber under it, and its statistics,
  // as two tabs (stacked they needed scrolling at the default window size).
  if (ImGui::BeginTabBar("history_tabs")) {
    if (ImGui::BeginTabItem("Games", nullptr, app.show_stats == 0 ? ImGuiTabItemFlags_SetSelected : 0)) {
      Replay& rp = *app.replay;
      // Under the list: the scrubber row and the ply's action (one line, in full as its tooltip).
      // Its height is measured in the previous frame (estimated in the first).
      static float footer = ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() * 2;
      history_games_table(app, ImGui::GetContentRegionAvail().y - footer);
      const float footer_top = ImGui::GetCursorPosY();
      app.ui.label("replay");
      if (ImGui::ArrowButton("prev", ImGuiDir_Left) && rp.ply > 0) --rp.ply;
      ImGui::SameLine();
      if (ImGui::ArrowButton("next", ImGuiDir_Right) && rp.ply < rp.plies()) ++rp.ply;
      ImGui::SameLine();
      const float buttons = ImGui::CalcTextSize("Export textClose").x + ImGui::GetStyle().FramePadding.x * 4 +
                            ImGui::GetStyle().ItemSpacing.x * 3;
      ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - buttons));
      ImGui::SliderInt("##ply", &rp.ply, 0, rp.plies(), ("game " + std::to_string(rp.game) + ": ply %d of " +
                                                         std::to_string(rp.plies())).c_str());
      ImGui::SameLine();
      if (ImGui::Button("Export text")) {
        const std::string path = config_dir() + "/game-" + std::to_string(rp.game) + ".txt";
        const std::string err = app.export_text(rp.game, path);
        app.status = err.empty() ? "exported to " + path : "export failed: " + err;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("write the game's text record to %s", config_dir().c_str());
      ImGui::SameLine();
      if (ImGui::Button("Close")) {
        app.close_replay();
        ImGui::EndTabItem();
        ImGui::EndTabBar();
        ImGui::End();
        return;
      }
      if (rp.ply > 0 && rp.ply <= static_cast<int>(rp.record.line_entries().size())) {
        const int e = rp.record.line_entries()[static_cast<std::size_t>(rp.ply - 1)];
        auto before = rp.record.position_at(rp.ply - 1);
        if (before) {
          const RecordEntry& re = rp.record.entries()[static_cast<std::size_t>(e)];
          const std::string line = std::to_string(rp.ply) + ". " + describe(*before, re.action, &re.outcome);
          ImGui::TextUnformatted(line.c_str());
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
        }
      } else {
        ImGui::TextDisabled("the start position; the arrows or Left/Right step through the game");
      }
      footer = ImGui::GetCursorPosY() - footer_top;
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Statistics", nullptr, app.show_stats == 1 ? ImGuiTabItemFlags_SetSelected : 0)) {
      draw_stats(app, *app.replay);
      ImGui::EndTabItem();
    }
    app.show_stats = -1;  // selected once
    ImGui::EndTabBar();
  }
  // What the window test checks: the panel shows all of it without scrolling.
  if (ImGui::GetScrollMaxY() > 0) app.ui.label("needs scrolling: " + std::to_string(static_cast<int>(ImGui::GetScrollMaxY())) + " px");
  ImGui::End();
}

}  // namespace hexdice::gui
