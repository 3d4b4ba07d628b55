// The digital board of the other rulesets (companion/gui/game_view.h), headless: the
// cells, pieces and labels drawn for Wizard Hex and Hexa Decimal; clicks select and
// propose legal actions through the Ruleset interface; the record plays back.
#include <gtest/gtest.h>

#include <algorithm>

#include "companion/gui/game_view.h"

namespace hexdice::gui {
namespace {

TEST(GameView, WizardHexBoardHasNineteenSpacesSixSeatsAndTintedStartingSpaces) {
  auto g = GameSession::start("wizardhex", "across");
  ASSERT_TRUE(g.ok()) << g.error();
  auto v = build_game_view(g->shown());
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(v->cells.size(), 19u);
  EXPECT_TRUE(v->pieces.empty());
  ASSERT_EQ(v->labels.size(), 6u);
  EXPECT_EQ(v->labels[0].text, "Ice");
  EXPECT_LT(v->labels[0].y, -2.0);  // above the board (edge 0 is the N side)
  EXPECT_EQ(v->turn_text, "green (earth) to move, 1 move left");
  // 6 seats x 3 starting spaces, corners shared: 12 tinted spaces, 7 plain.
  const Rgb plain{48, 52, 58};
  EXPECT_EQ(std::count_if(v->cells.begin(), v->cells.end(), [&](const GameCellView& c) { return !(c.fill == plain); }), 12);
}

TEST(GameView, WizardHexClickAStartingSpaceProposesEachElementThenConfirmPlaysIt) {
  auto g = GameSession::start("wizardhex", "across");
  ASSERT_TRUE(g.ok());
  auto v = build_game_view(g->shown());
  ASSERT_TRUE(v.ok());
  // Earth (seat 1) enters on one of its starting spaces: a click there proposes three
  // expands (earth and its allies ice and fire) at once.
  const int cell = v->cell_index(Hex{2, -1});
  ASSERT_GE(cell, 0);
  g->interaction.click(g->shown(), *v, cell);
  ASSERT_EQ(g->interaction.proposed().size(), 3u);
  EXPECT_EQ(g->interaction.selected(), cell);
  // A click on the centre: no legal action there on the first turn, nothing selected.
  GameInteraction other;
  other.click(g->shown(), *v, v->cell_index(Hex{0, 0}));
  EXPECT_EQ(other.selected(), -1);
  EXPECT_TRUE(other.proposed().empty());
  g->interaction.choose(2);
  const Json chosen = g->interaction.proposed()[2].action;
  auto a = g->interaction.confirm();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*a, chosen);
  ASSERT_TRUE(g->play(*a).ok()) << g->status;
  auto after = build_game_view(g->shown());
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(after->pieces.size(), 1u);
  EXPECT_EQ(after->pieces[0].cell, cell);
  EXPECT_EQ(after->pieces[0].level, 1);
  EXPECT_EQ(after->pieces[0].label, (*a)["element"].get<std::string>() + " Bronze");
  EXPECT_EQ(after->turn_text, "black (wind) to move, 1 move left");
  EXPECT_EQ(g->plies(), 1);
}

TEST(GameView, HexadecimalHasNinetyCellsAHoleAndTheStandardArmies) {
  auto g = GameSession::start("hexadecimal", "");
  ASSERT_TRUE(g.ok()) << g.error();
  auto v = build_game_view(g->shown());
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(v->cells.size(), 90u);
  ASSERT_EQ(v->holes.size(), 1u);
  EXPECT_EQ(v->holes[0], (Hex{0, 0}));
  EXPECT_EQ(v->cell_index(Hex{0, 0}), -1);
  EXPECT_EQ(v->pieces.size(), 64u);
  EXPECT_EQ(std::count_if(v->pieces.begin(), v->pieces.end(), [](const GamePieceView& p) { return p.text == "K"; }), 2);
  EXPECT_EQ(std::count_if(v->cells.begin(), v->cells.end(), [](const GameCellView& c) { return !c.note.empty(); }), 6);
  const Rgb road{92, 96, 104};
  EXPECT_EQ(std::count_if(v->cells.begin(), v->cells.end(), [&](const GameCellView& c) { return c.fill == road; }), 30);
  EXPECT_EQ(v->turn_text, "white to move");
}

TEST(GameView, HexadecimalTwoClicksMoveAPiece) {
  auto g = GameSession::start("hexadecimal", "");
  ASSERT_TRUE(g.ok());
  auto v = build_game_view(g->shown());
  ASSERT_TRUE(v.ok());
  // The first legal action that moves a piece: click its piece, then its destination.
  const auto targets = game_targets(g->shown(), *v);
  auto it = std::find_if(targets.begin(), targets.end(), [](const GameTarget& t) { return t.action["type"] == "move"; });
  ASSERT_NE(it, targets.end());
  g->interaction.click(g->shown(), *v, it->first);
  EXPECT_EQ(g->interaction.selected(), it->first);
  EXPECT_TRUE(g->interaction.proposed().empty());
  EXPECT_FALSE(g->interaction.targets().empty());
  g->interaction.click(g->shown(), *v, it->second);
  ASSERT_FALSE(g->interaction.proposed().empty());
  auto a = g->interaction.confirm();
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(g->play(*a).ok()) << g->status;
  auto after = build_game_view(g->shown());
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->turn_text, "black to move");
  const bool moved = std::any_of(after->pieces.begin(), after->pieces.end(), [&](const GamePieceView& p) { return p.cell == it->second; });
  EXPECT_TRUE(moved);
}

TEST(GameView, RecordReplaysThroughTheRulesAndRejectsAnIllegalAction) {
  for (const char* ruleset : {"wizardhex", "hexadecimal"}) {
    auto g = GameSession::start(ruleset, "");
    ASSERT_TRUE(g.ok());
    for (int i = 0; i < 6; ++i) {
      auto acts = g->rules().legal_actions(g->shown());
      ASSERT_TRUE(acts.ok());
      ASSERT_FALSE(acts->empty());
      ASSERT_TRUE(g->play((*acts)[acts->size() / 2]).ok()) << g->status;
    }
    auto back = GameSession::from_record(g->record());
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->plies(), 6);
    for (int p = 0; p <= 6; ++p) EXPECT_EQ(back->position_at(p), g->position_at(p)) << ruleset << " ply " << p;
    // Replaying: the scrubber shows an earlier position and no action is played there.
    back->ply = 2;
    EXPECT_EQ(back->shown(), g->position_at(2));
    auto acts = back->rules().legal_actions(back->shown());
    ASSERT_TRUE(acts.ok());
    EXPECT_FALSE(back->play((*acts)[0]).ok());
    back->ply = back->plies();
    EXPECT_TRUE(back->takeback());
    EXPECT_EQ(back->plies(), 5);
    // The same record with a corrupted action names that action.
    Json bad = g->record();
    bad["actions"][3] = Json{{"type", "stack"}, {"at", {9, 9}}};
    auto broken = GameSession::from_record(bad);
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().find("action 4"), std::string::npos) << broken.error();
  }
  EXPECT_FALSE(GameSession::start("hexdice", "").ok());
  EXPECT_FALSE(open_game("chess").ok());
}

}  // namespace
}  // namespace hexdice::gui
