// core/sync.h: explaining a camera view as one legal action (issue 4, "Sync").
#include <gtest/gtest.h>

#include "core/sync.h"
#include "tests/core/test_util.h"

namespace hexdice {
namespace {

using testing::act;
using testing::put;
using testing::two_player;
using T = ActionType;

Position board() {
  Position p = two_player();
  put(p, {0, -4}, 0, 3);   // red Knight f2
  put(p, {0, -2}, 0, 2);   // red Archer
  put(p, {2, -3}, 0, 5);   // red Tanker
  put(p, {0, 0}, 1, 1);    // blue Infantry (2 from the Archer)
  put(p, {3, -2}, 1, 6);   // blue Balance next to the red Tanker
  put(p, {-2, 3}, 1, 4);
  return p;
}

// The view after applying an action (what a camera would see).
SeenBoard seen_after(const Position& p, const Action& a) {
  Position q = p;
  apply_unchecked(q, a);
  return visible(q);
}

TEST(Sync, NoChange) {
  const Position p = board();
  const SyncResult r = explain(p, visible(p));
  EXPECT_EQ(r.kind, SyncKind::NoChange);
  EXPECT_TRUE(r.changes.empty());
}

TEST(Sync, ExplainsEachVisibleActionType) {
  const Position p = board();
  const std::vector<Action> actions = {
      act(p, T::Move, {0, -4}, {1, -2}),        // plain move
      act(p, T::Move, {0, -2}, {0, 0}),         // Archer melee: Infantry armor 2 vs attack 2, success
      act(p, T::Ranged, {0, -2}, {0, 0}),       // ranged kill: target gone, Archer stays
      act(p, T::Reroll, {2, -3}, {99, 99}, 2),  // reroll to a new face
      act(p, T::Guard, {0, -4}),                // guard token placed
  };
  for (const Action& a : actions) {
    const SyncResult r = explain(p, seen_after(p, a));
    ASSERT_EQ(r.kind, SyncKind::Explained) << describe(p, a) << ": " << r.message;
    EXPECT_EQ(*r.action, a) << r.message;
    EXPECT_FALSE(r.changes.empty());
  }
}

TEST(Sync, OutOfTurnIsNamed) {
  Position p = board();
  Position blue = p;
  blue.set_to_move(1);
  const SyncResult r = explain(p, seen_after(blue, act(blue, T::Move, {-2, 3}, {-1, 3})));
  EXPECT_EQ(r.kind, SyncKind::WrongPlayer) << r.message;
  EXPECT_NE(r.message.find("out of turn"), std::string::npos);
}

TEST(Sync, TwoActionsInOneTurn) {
  Position p = board();
  Position q = p;
  apply_unchecked(q, act(q, T::Move, {0, -4}, {1, -2}));
  q.set_to_move(0);
  apply_unchecked(q, act(q, T::Guard, {2, -3}));
  const SyncResult r = explain(p, visible(q));
  EXPECT_EQ(r.kind, SyncKind::TwoActions) << r.message;
  ASSERT_EQ(r.nearest.size(), 2u);
}

TEST(Sync, UnexplainedNamesNearestLegalExplanations) {
  Position p = board();
  SeenBoard s = visible(p);
  // The Knight "teleports" to a hex it cannot reach.
  for (auto& u : s.units)
    if (u.hex == Hex{0, -4}) u.hex = {0, -1};
  const SyncResult r = explain(p, s);
  ASSERT_EQ(r.kind, SyncKind::Unexplained);
  ASSERT_FALSE(r.nearest.empty());
  EXPECT_GE(r.nearest.front().mismatches, 1);
  EXPECT_NE(r.message.find("nearest"), std::string::npos);
  EXPECT_NE(r.message.find("f2"), std::string::npos) << r.message;
}

TEST(Sync, AmbiguousWhenTwoArchersCouldHaveShot) {
  Position p = two_player();
  put(p, {0, -2}, 0, 2);
  put(p, {2, -2}, 0, 2);
  put(p, {0, 0}, 1, 2);
  put(p, {-3, 3}, 1, 5);
  const SyncResult r = explain(p, seen_after(p, act(p, T::Ranged, {0, -2}, {0, 0})));
  EXPECT_EQ(r.kind, SyncKind::Ambiguous) << r.message;
  EXPECT_EQ(r.nearest.size(), 2u);
}

TEST(Sync, LowConfidenceCellsAreNotEvidence) {
  const Position p = board();
  SeenBoard s = visible(p);
  s.units[0].face = 6;
  s.units[0].confidence = 0.2;
  SyncOptions opt;
  opt.min_confidence = 0.5;
  EXPECT_EQ(explain(p, s, opt).kind, SyncKind::NoChange);
  EXPECT_NE(explain(p, s).kind, SyncKind::NoChange);
}

TEST(Sync, ActionsThatLeaveNoTraceMustBeDeclared) {
  Position p = board();
  EXPECT_TRUE(leaves_no_trace(p, act(p, T::Move, {2, -3}, {3, -2})));  // Tanker vs Balance fails
  EXPECT_FALSE(leaves_no_trace(p, act(p, T::Move, {0, -4}, {1, -2})));
  EXPECT_TRUE(leaves_no_trace(p, act(p, T::Reroll, {2, -3}, {99, 99}, 5)));  // same face
  Position g = two_player();
  put(g, {2, -3}, 0, 5, 0, /*guard=*/true);
  put(g, {3, -2}, 1, 6);
  EXPECT_FALSE(leaves_no_trace(g, act(g, T::Move, {2, -3}, {3, -2})));  // the guard token comes off
}

}  // namespace
}  // namespace hexdice
