// The companion window's view model, without a window: board geometry and labels, the
// click logic (select, highlight, propose with combat preview, confirm/reject), the event
// log, history filtering/sorting, per-game statistics and the demo frame's registration.
#include <gtest/gtest.h>

#include <filesystem>

#include "companion/gui/view_model.h"
#include "companion/record/sample_game.h"

using namespace hexdice;
using namespace hexdice::gui;

namespace {

Position two_player_position() {
  auto pos = Position::create(4, {{"red", 0, false}, {"blue", 3, false}});
  EXPECT_TRUE(pos.ok());
  return *pos;
}

}  // namespace

TEST(ViewModel, BoardViewHasEveryCellUnitLabelsZonesAndBases) {
  Position pos = two_player_position();
  const Hex a = pos.board().hex(pos.base_cell(0));
  ASSERT_TRUE(pos.place(a, 0, 5, 2, true));  // Tanker, 2 tokens, guarding: armor 4+1-2 = 3
  const BoardView v = build_board_view(pos, {"Ann", "Bob"}, Palette::Dice);
  EXPECT_EQ(v.radius, 4);
  EXPECT_EQ(static_cast<int>(v.cells.size()), pos.board().size());
  ASSERT_EQ(v.units.size(), 1u);
  EXPECT_EQ(v.units[0].unit, "Tanker");
  EXPECT_EQ(v.units[0].armor, 3);
  EXPECT_EQ(v.units[0].label, "Tanker A3 -2 G");
  EXPECT_EQ(v.cells[static_cast<std::size_t>(pos.base_cell(1))].base, 1);
  int zone0 = 0, zone1 = 0;
  for (const auto& c : v.cells) { zone0 += c.zone == 0; zone1 += c.zone == 1; }
  EXPECT_GT(zone0, 0);
  EXPECT_EQ(zone0, zone1);
  EXPECT_EQ(v.players[0].name, "Ann");
  EXPECT_EQ(v.players[0].army.at("Tanker"), 1);
  EXPECT_TRUE(v.players[0].to_move);
  EXPECT_EQ(v.turn_text, "red to move");
  // Flat-top layout: the cell north of the centre is straight above it.
  const auto& n = v.cells[static_cast<std::size_t>(pos.board().index(Hex{0, -1}))];
  EXPECT_NEAR(n.x, 0.0, 1e-9);
  EXPECT_LT(n.y, 0.0);
}

TEST(ViewModel, PalettesDifferAndColourBlindSafeIsDistinctPerPlayer) {
  EXPECT_EQ(player_colour("red", 0, Palette::Dice), (Rgb{220, 50, 47}));
  std::vector<Rgb> seen;
  for (int i = 0; i < 6; ++i) {
    const Rgb c = player_colour("red", i, Palette::ColourBlindSafe);
    for (const Rgb& s : seen) EXPECT_FALSE(c == s);
    seen.push_back(c);
  }
}

TEST(ViewModel, ClickSelectsHighlightsProposesWithCombatPreviewAndConfirms) {
  Position pos = two_player_position();
  ASSERT_TRUE(pos.place(Hex{0, 0}, 0, 4));   // red Assault, attack 3
  ASSERT_TRUE(pos.place(Hex{1, -1}, 1, 2));  // blue Archer on its NE diagonal, armor 0
  ASSERT_TRUE(pos.place(Hex{2, 2}, 1, 5));   // another blue unit far away
  BoardInteraction ui;
  ui.click(pos, pos.board().index(Hex{2, 2}));  // an enemy unit: nothing selected
  EXPECT_EQ(ui.selected(), -1);
  const int me = pos.board().index(Hex{0, 0});
  const int enemy = pos.board().index(Hex{1, -1});
  ui.click(pos, me);
  EXPECT_EQ(ui.selected(), me);
  std::vector<Action> legal;
  unit_actions(pos, me, legal);
  EXPECT_EQ(ui.targets().size(), legal.size());
  bool enemy_highlighted = false;
  for (const auto& t : ui.targets())
    if (t.cell == enemy) enemy_highlighted = t.attack;
  EXPECT_TRUE(enemy_highlighted);
  ui.click(pos, enemy);  // second click: the attack is proposed, not committed
  ASSERT_FALSE(ui.proposed().empty());
  const TargetView& p = ui.proposed()[0];
  ASSERT_TRUE(p.combat.has_value());
  EXPECT_EQ(p.combat->attack, 3);
  EXPECT_EQ(p.combat->armor, 0);
  EXPECT_TRUE(p.combat->success);
  EXPECT_EQ(pos.at(enemy).owner, 1);  // nothing applied yet
  ui.reject();
  EXPECT_TRUE(ui.proposed().empty());
  EXPECT_EQ(ui.selected(), me);
  ui.click(pos, enemy);
  auto a = ui.confirm();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->unit, me);
  EXPECT_TRUE(apply(pos, *a).ok());
  EXPECT_EQ(ui.selected(), -1);
  EXPECT_FALSE(ui.confirm().has_value());
}

TEST(ViewModel, ProposeRejectsIllegalRerollAndAcceptsGuard) {
  Position pos = two_player_position();
  ASSERT_TRUE(pos.place(Hex{0, 0}, 0, 1));
  ASSERT_TRUE(pos.place(Hex{0, 3}, 1, 1));
  BoardInteraction ui;
  const int me = pos.board().index(Hex{0, 0});
  ui.click(pos, me);
  ui.propose(pos, {ActionType::Reroll, static_cast<std::int16_t>(me), kNoCell, 9});  // no face 9
  EXPECT_TRUE(ui.proposed().empty());
  ui.propose(pos, {ActionType::Guard, static_cast<std::int16_t>(me), kNoCell, 0});
  ASSERT_EQ(ui.proposed().size(), 1u);
  EXPECT_NE(ui.proposed()[0].text.find("guard"), std::string::npos) << ui.proposed()[0].text;
}

TEST(ViewModel, EventLogAndStatsAgreeWithTheRecord) {
  SampleOptions o;
  o.seed = 7;
  const GameRecord rec = sample_game(o);
  const auto log = event_log(rec);
  EXPECT_EQ(log.size(), rec.entries().size());
  const GameStats s = game_stats(rec);
  ASSERT_EQ(s.players.size(), 2u);
  int actions = 0, won = 0, lost = 0, rolls = 0;
  for (const auto& p : s.players) {
    for (int n : p.by_type) actions += n;
    won += p.combats_won;
    lost += p.combats_lost;
    for (int n : p.rolls) rolls += n;
  }
  int combats = 0, takebacks = 0;
  for (const auto& e : rec.entries()) {
    combats += e.kind == EntryKind::Action && e.outcome.combat.has_value();
    takebacks += e.kind == EntryKind::Takeback;
  }
  EXPECT_EQ(actions, s.actions);
  EXPECT_EQ(s.takebacks, takebacks);
  EXPECT_EQ(won, lost);           // every combat is one win and one loss
  EXPECT_EQ(won, combats);
  EXPECT_GE(rolls, 2 * rec.config().dice_per_player);  // at least the armies' first rolls
  for (const auto& l : log)
    if (!l.takeback && !l.annotation) EXPECT_NE(l.text.find(". "), std::string::npos);
}

TEST(ViewModel, HistoryFiltersAndSorts) {
  std::vector<record::GameSummary> g(3);
  g[0].id = 1; g[0].players = "red vs blue"; g[0].started_at = "2026-01-02"; g[0].actions = 10;
  g[1].id = 2; g[1].players = "green vs black"; g[1].started_at = "2026-01-03"; g[1].actions = 30;
  g[1].result = {ResultReason::Annihilation, "green"};
  g[2].id = 3; g[2].players = "red vs yellow"; g[2].started_at = "2026-01-01"; g[2].actions = 20;
  auto rows = history_rows(g, "", HistorySort::DateDesc);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, 2);
  EXPECT_EQ(rows[2].id, 3);
  EXPECT_EQ(rows[0].result, "annihilation: green");
  EXPECT_EQ(rows[1].result, "unfinished");
  rows = history_rows(g, "RED", HistorySort::Length);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].id, 3);
  EXPECT_EQ(history_rows(g, "annihil", HistorySort::DateAsc).size(), 1u);
}

TEST(ViewModel, DemoFrameRegistrationPutsDiceInTheirCells) {
  const std::string path = std::string(HEXDICE_SOURCE_DIR) + "/data/fixtures/scenes/scene_000.json";
  auto f = frame_from_scene_label(path);
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_TRUE(f->registered);
  ASSERT_FALSE(f->dice.empty());
  const auto grid = project_grid(*f, 5, 17.0, 148.5, 210.0);
  ASSERT_EQ(grid.size(), 91u);
  // Each die's top face (16 mm above the paper, so a little off) lies nearer its own
  // cell's projected centre than any other cell's, for most dice.
  int right = 0;
  for (const auto& d : f->dice) {
    double best = 1e18;
    std::string name;
    for (const auto& p : grid) {
      const double dd = (p.cx - d.x) * (p.cx - d.x) + (p.cy - d.y) * (p.cy - d.y);
      if (dd < best) { best = dd; name = p.name; }
    }
    right += name == d.cell;
  }
  EXPECT_GE(right * 10, static_cast<int>(f->dice.size()) * 7) << right << " of " << f->dice.size();
  auto pos = position_from_frame(*f, 5);
  ASSERT_TRUE(pos.ok()) << pos.error();
  EXPECT_EQ(pos->total_units(), static_cast<int>(f->dice.size()));
  EXPECT_FALSE(frame_from_scene_label("/nonexistent.json").ok());
}
