// The hint engine finds forced wins in one and two actions, explains them, and treats a
// reroll as a chance event.
#include <gtest/gtest.h>

#include "core/ai/hint.h"
#include "core/ai/search.h"

namespace hexdice::ai {
namespace {

Position empty_board(int to_move = 0) {
  auto p = Position::create(5, {{"red", 0, false}, {"blue", 3, false}});
  EXPECT_TRUE(p.ok());
  Position pos = std::move(p).value();
  pos.set_to_move(to_move);
  return pos;
}
void put(Position& pos, Hex h, int owner, int face, int tokens = 0, bool guard = false) {
  ASSERT_TRUE(pos.place(h, owner, face, tokens, guard).ok());
}

// Does every reply of the side to move (every reroll face too) leave `winner` a winning action?
bool every_reply_loses(const Position& pos, int winner) {
  std::vector<Action> replies;
  legal_actions(pos, replies);
  for (Action r : replies) {
    for (int f = 1; f <= (r.type == ActionType::Reroll ? 6 : 1); ++f) {
      if (r.type == ActionType::Reroll) r.face = static_cast<std::uint8_t>(f);
      Position after = pos;
      if (apply_unchecked(after, r) >= 0) return false;  // the defender won
      std::vector<Action> wins;
      legal_actions(after, wins);
      bool found = false;
      for (Action w : wins) {
        if (w.type == ActionType::Reroll) continue;
        Position fin = after;
        if (apply_unchecked(fin, w) == winner) found = true;
      }
      if (!found) return false;
    }
  }
  return true;
}

TEST(Hint, FindsAWinInOneAmongCaptures) {
  Position pos = empty_board();
  put(pos, {1, 1}, 0, 3);   // red Knight: (1,1) +2 S -> (1,3), turn SW -> (0,4) = blue base
  put(pos, {2, 2}, 0, 4);   // red Assault could take the Archer instead
  put(pos, {3, 1}, 1, 2);   // blue Archer, armor 0
  put(pos, {-2, 3}, 1, 1);
  put(pos, {0, -4}, 0, 6);
  const Hint h = hint(pos, SearchLimits{0, 4, 0});
  ASSERT_TRUE(h.found);
  EXPECT_TRUE(validate(pos, h.action).ok());
  Position after = pos;
  EXPECT_EQ(apply_unchecked(after, h.action), 0);
  EXPECT_EQ(Searcher::plies_to_result(h.search.score), 1);
  EXPECT_NE(h.reason.find("wins now: captures the enemy base"), std::string::npos) << h.reason;
}

TEST(Hint, FindsAWinInOneByAnnihilation) {
  Position pos = empty_board(1);
  put(pos, {0, 0}, 1, 4);   // blue Assault (forward N): diagonals reach (1,-1) and (2,-2)
  put(pos, {2, -2}, 0, 2);  // the last red unit, an Archer
  put(pos, {-3, 4}, 1, 5);
  const Hint h = hint(pos, SearchLimits{0, 3, 0});
  ASSERT_TRUE(h.found);
  Position after = pos;
  EXPECT_EQ(apply_unchecked(after, h.action), 1);
  EXPECT_NE(h.reason.find("removes the last enemy unit"), std::string::npos) << h.reason;
}

TEST(Hint, FindsAForcedWinInTwoActions) {
  Position pos = empty_board();
  put(pos, {0, 2}, 0, 5);    // red Tanker two steps from blue's base (0, 4)
  put(pos, {-4, -1}, 0, 1);  // a red Infantry, far away
  put(pos, {5, -5}, 1, 6);   // blue's only unit: a Balance in the far corner
  // No win in one...
  std::vector<Action> acts;
  legal_actions(pos, acts);
  for (const Action& a : acts) {
    if (a.type == ActionType::Reroll) continue;
    Position p = pos;
    ASSERT_LT(apply_unchecked(p, a), 0);
  }
  // ...but the hint forces one in two of red's actions, whatever blue replies.
  const Hint h = hint(pos, SearchLimits{0, 5, 0});
  ASSERT_TRUE(h.found);
  EXPECT_EQ(Searcher::plies_to_result(h.search.score), 3);
  Position after = pos;
  apply_unchecked(after, h.action);
  EXPECT_TRUE(every_reply_loses(after, 0));
  EXPECT_NE(h.reason.find("forces a win in 2"), std::string::npos) << h.reason;
}

TEST(Hint, FindsAForcedWinInTwoThatNeedsADoubleThreat) {
  // Red has two ways to reach the base next turn; blue can block only one cell.
  Position pos = empty_board();
  put(pos, {-1, 2}, 0, 3);   // red Knight
  put(pos, {1, 1}, 0, 5);    // red Tanker
  put(pos, {3, 2}, 1, 5);    // blue Tanker (can step onto one approach cell)
  put(pos, {-4, 5}, 1, 6);   // blue Balance
  const Hint h = hint(pos, SearchLimits{0, 5, 0});
  ASSERT_TRUE(h.found);
  const int plies = Searcher::plies_to_result(h.search.score);
  ASSERT_GT(plies, 0) << h.reason;
  ASSERT_LE(plies, 3) << h.reason;
  Position after = pos;
  const int w = apply_unchecked(after, h.action);
  if (plies == 1) {
    EXPECT_EQ(w, 0);
  } else {
    EXPECT_TRUE(every_reply_loses(after, 0));
  }
}

TEST(Hint, SavesAThreatenedUnit) {
  Position pos = empty_board();
  put(pos, {0, -1}, 0, 4);   // red Assault
  put(pos, {0, 1}, 1, 1);    // blue Infantry (forward N): attacks (0,0) and (0,-1)
  put(pos, {0, -4}, 0, 6);
  put(pos, {3, 2}, 1, 5);
  const Hint h = hint(pos, SearchLimits{0, 3, 0});
  ASSERT_TRUE(h.found);
  Position after = pos;
  apply_unchecked(after, h.action);
  // Before: the blue Infantry can take the Assault (attack 2 vs armor 1). After: nothing is attacked.
  ASSERT_EQ(units_under_attack(pos, 0).size(), 1u);
  EXPECT_TRUE(units_under_attack(after, 0).empty()) << h.reason;
  EXPECT_NE(h.reason.find("saves the Assault on f5"), std::string::npos) << h.reason;
}

TEST(Hint, RerollIsAChanceNode) {
  // The only red unit is a Balance nobody can reach; blue's Archer stands 2 away.
  // Rerolling gives an expected gain (e.g. an Infantry or Knight) over guarding.
  Position pos = empty_board();
  put(pos, {0, 0}, 0, 6);
  put(pos, {3, 2}, 1, 5);
  put(pos, {-3, 3}, 1, 5);
  const Hint h = hint(pos, SearchLimits{0, 2, 0});
  ASSERT_TRUE(h.found);
  EXPECT_EQ(h.action.type, ActionType::Reroll);
  EXPECT_EQ(h.action.face, 0);
  EXPECT_NE(h.reason.find("average over the six faces"), std::string::npos) << h.reason;
}

TEST(Hint, DeterministicForANodeOrDepthBudget) {
  Position pos = empty_board();
  put(pos, {-1, -3}, 0, 1);
  put(pos, {1, -4}, 0, 4);
  put(pos, {0, -2}, 0, 3);
  put(pos, {1, 3}, 1, 1);
  put(pos, {-1, 4}, 1, 4);
  put(pos, {0, 2}, 1, 3);
  const Hint a = hint(pos, SearchLimits{0, 4, 0}, 9);
  const Hint b = hint(pos, SearchLimits{0, 4, 0}, 9);
  EXPECT_EQ(a.action, b.action);
  EXPECT_EQ(a.search.score, b.search.score);
  EXPECT_EQ(a.search.nodes, b.search.nodes);
}

TEST(Hint, NoActionWhenTheGameIsOver) {
  Position pos = empty_board();
  put(pos, {0, 0}, 0, 1);
  pos.set_winner(0);
  EXPECT_FALSE(hint(pos, SearchLimits{0, 2, 0}).found);
}

}  // namespace
}  // namespace hexdice::ai
