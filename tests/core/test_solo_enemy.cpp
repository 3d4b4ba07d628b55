// The solo enemy's keywords and the Dark Rule on hand-built positions
// (seeds/004, rules.md section 9, docs/scenarios.md).
#include <gtest/gtest.h>

#include "core/solo/enemy.h"

namespace hexdice::solo {
namespace {

// Enemy = red (N corner, index 0, moves S); heroes = blue (S corner, index 1).
Position board() {
  auto p = Position::create(5, {{"red", 0, false}, {"blue", 3, false}});
  EXPECT_TRUE(p.ok());
  Position pos = std::move(p).value();
  pos.set_to_move(0);
  return pos;
}
int cell(const Position& pos, Hex h) { return pos.board().index(h); }
void put(Position& pos, Hex h, int owner, int face, int tokens = 0, bool guard = false) {
  ASSERT_TRUE(pos.place(h, owner, face, tokens, guard).ok());
}
Order order(const char* text) {
  auto o = parse_order(text);
  EXPECT_TRUE(o.has_value()) << text;
  return o.value_or(Order{});
}

TEST(SoloOrders, ParsesTheKeywords) {
  EXPECT_EQ(order("Engage 2"), (Order{Keyword::Engage, 2, 2, 2}));
  EXPECT_EQ(order("prey"), (Order{Keyword::Prey, -1, 2, 2}));
  EXPECT_EQ(order("Distance 2 (2-3)"), (Order{Keyword::Distance, 2, 2, 3}));
  EXPECT_EQ(order("Distance (1-3)"), (Order{Keyword::Distance, -1, 1, 3}));
  EXPECT_EQ(order("Hold").keyword, Keyword::Hold);
  EXPECT_EQ(order("Raid").keyword, Keyword::Raid);
  EXPECT_FALSE(parse_order("Charge 3").has_value());
  EXPECT_FALSE(parse_order("Distance (3-1)").has_value());
  EXPECT_FALSE(parse_order("Engage two").has_value());
  EXPECT_EQ(to_string(order("distance 2 (2-3)")), "Distance 2 (2-3)");
}

TEST(SoloEnemy, ActionsToReachFollowsTheUnitsOwnPattern) {
  Position pos = board();
  put(pos, {0, -2}, 0, 1);  // Infantry: 2 forward (S) or 1 back
  put(pos, {0, 1}, 1, 2);
  put(pos, {3, -2}, 1, 2);
  EXPECT_EQ(actions_to_reach(pos, cell(pos, {0, -2}), cell(pos, {0, 1})), 2);
  EXPECT_EQ(actions_to_reach(pos, cell(pos, {0, -2}), cell(pos, {3, -2})), -1);  // never sideways
}

TEST(SoloEnemy, EngageMovesAlongTheShortestLegalPath) {
  Position pos = board();
  put(pos, {0, -2}, 0, 1);
  put(pos, {0, 1}, 1, 2);   // reachable in 2 actions
  put(pos, {3, -2}, 1, 2);  // nearer in hexes, but an Infantry can never reach it
  const Decision d = decide(pos, cell(pos, {0, -2}), order("Engage"));
  ASSERT_TRUE(d.action.has_value()) << d.explanation;
  EXPECT_TRUE(validate(pos, *d.action).ok());
  EXPECT_EQ(d.action->type, ActionType::Move);
  Position next = pos;
  apply_unchecked(next, *d.action);
  EXPECT_EQ(actions_to_reach(next, d.action->target, cell(pos, {0, 1})), 1);
  EXPECT_NE(d.explanation.find("Archer on f7"), std::string::npos) << d.explanation;
}

TEST(SoloEnemy, EngageAttacksWhenItCanReach) {
  Position pos = board();
  put(pos, {0, 0}, 0, 1);
  put(pos, {0, 1}, 1, 2);
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Engage"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_EQ(d.action->type, ActionType::Move);
  EXPECT_EQ(d.action->target, cell(pos, {0, 1}));
  EXPECT_NE(d.explanation.find("defeated"), std::string::npos) << d.explanation;
}

TEST(SoloEnemy, EngageXCapsTheMove) {
  Position pos = board();
  put(pos, {0, -3}, 0, 3);  // Knight: its L move goes 3 hexes
  put(pos, {0, 3}, 1, 1);
  EXPECT_TRUE(decide(pos, cell(pos, {0, -3}), order("Engage 3")).action.has_value());
  EXPECT_FALSE(decide(pos, cell(pos, {0, -3}), order("Engage 2")).action.has_value());
}

TEST(SoloEnemy, PreyHuntsTheLowestEffectiveArmor) {
  Position pos = board();
  put(pos, {0, -3}, 0, 3);   // enemy Knight
  put(pos, {1, -2}, 1, 1);   // Infantry, armor 2, right beside it
  put(pos, {-3, 2}, 1, 2);   // Archer, armor 0, far away
  const int knight = cell(pos, {0, -3}), archer = cell(pos, {-3, 2});
  const Decision d = decide(pos, knight, order("Prey"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_NE(d.explanation.find("Archer on " + pos.board().name(archer) + " with effective armor 0"), std::string::npos)
      << d.explanation;
  Position next = pos;
  apply_unchecked(next, *d.action);
  next.set_to_move(0);
  EXPECT_LT(actions_to_reach(next, d.action->target, archer), actions_to_reach(pos, knight, archer));
}

TEST(SoloEnemy, PreyCountsTokensAndGuard) {
  Position pos = board();
  put(pos, {0, -3}, 0, 3);
  put(pos, {1, -2}, 1, 1, /*tokens=*/2);   // Infantry worn to armor 0
  put(pos, {-3, 2}, 1, 4, 0, /*guard=*/true);  // Assault guarded: armor 2
  const Decision d = decide(pos, cell(pos, {0, -3}), order("Prey"));
  EXPECT_NE(d.explanation.find("Infantry on g4 with effective armor 0"), std::string::npos) << d.explanation;
}

TEST(SoloEnemy, DistanceShootsWhenAHeroIsInRange) {
  Position pos = board();
  put(pos, {0, 0}, 0, 2);
  put(pos, {0, 2}, 1, 3);
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Distance (2-3)"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_EQ(d.action->type, ActionType::Ranged);
  EXPECT_EQ(d.action->target, cell(pos, {0, 2}));
}

TEST(SoloEnemy, DistanceBacksOffWhenTooClose) {
  Position pos = board();
  put(pos, {0, 0}, 0, 2);
  put(pos, {0, 1}, 1, 3);  // adjacent: too close for the band 2-3
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Distance (2-3)"));
  ASSERT_TRUE(d.action.has_value()) << d.explanation;
  ASSERT_EQ(d.action->type, ActionType::Move);
  const int dist = distance(pos.board().hex(d.action->target), Hex{0, 1});
  EXPECT_GE(dist, 2);
  EXPECT_LE(dist, 3);
  EXPECT_NE(d.explanation.find("backs off"), std::string::npos) << d.explanation;
}

TEST(SoloEnemy, DistanceClosesInWhenTooFar) {
  Position pos = board();
  put(pos, {0, -4}, 0, 2);
  put(pos, {0, 3}, 1, 3);  // 7 away
  const Decision d = decide(pos, cell(pos, {0, -4}), order("Distance (2-3)"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_LT(distance(pos.board().hex(d.action->target), Hex{0, 3}), 7);
}

TEST(SoloEnemy, RaidEntersTheHeroesBase) {
  Position pos = board();
  put(pos, {0, 3}, 0, 5);   // enemy Tanker beside the heroes' base (0, 4)
  put(pos, {3, 1}, 1, 1);
  const Decision d = decide(pos, cell(pos, {0, 3}), order("Raid"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_EQ(d.action->target, pos.base_cell(1));
  Position next = pos;
  EXPECT_EQ(apply_unchecked(next, *d.action), 0);  // the enemy wins
}

TEST(SoloEnemy, StrikeUsesTheDarkRuleBetweenTargets) {
  Position pos = board();
  put(pos, {0, 0}, 0, 6);   // Balance: attack 1
  put(pos, {0, 1}, 1, 1);   // Infantry armor 2: a strike would fail
  put(pos, {1, -1}, 1, 3);  // Knight armor 1: a strike defeats it
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Strike"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_EQ(d.action->type, ActionType::Special);
  EXPECT_EQ(d.action->target, cell(pos, {1, -1}));
  EXPECT_NE(d.explanation.find("Dark Rule"), std::string::npos) << d.explanation;
}

TEST(SoloEnemy, DarkRuleBreaksEngageTiesTowardsTheMostHarm) {
  Position pos = board();
  put(pos, {0, 0}, 0, 4);    // Assault (forward S): diagonals NE, SE, SW, NW
  put(pos, {1, 0}, 1, 5);    // Tanker SE: attack 3 vs armor 4 fails
  put(pos, {-1, 0}, 1, 2);   // Archer NW: attack 3 vs armor 0 wins
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Engage"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_EQ(d.action->target, cell(pos, {-1, 0}));
  EXPECT_NE(d.explanation.find("Dark Rule"), std::string::npos) << d.explanation;
  // Mirror the roles: now the Archer is SE and the Tanker NW; the choice follows the harm.
  Position mirror = board();
  put(mirror, {0, 0}, 0, 4);
  put(mirror, {1, 0}, 1, 2);
  put(mirror, {-1, 0}, 1, 5);
  EXPECT_EQ(decide(mirror, cell(mirror, {0, 0}), order("Engage")).action->target, cell(mirror, {1, 0}));
}

TEST(SoloEnemy, HoldGuards) {
  Position pos = board();
  put(pos, {0, 0}, 0, 5);
  put(pos, {0, 3}, 1, 1);
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Hold"));
  ASSERT_TRUE(d.action.has_value());
  EXPECT_EQ(d.action->type, ActionType::Guard);
}

TEST(SoloEnemy, WhatCannotBeCarriedOutIsSkippedAndTheChainFallsBack) {
  Position pos = board();
  put(pos, {0, 0}, 0, 6);  // a Balance never moves
  put(pos, {0, 3}, 1, 1);
  const Decision d = decide(pos, cell(pos, {0, 0}), order("Engage"));
  EXPECT_FALSE(d.action.has_value());
  EXPECT_NE(d.explanation.find("does nothing"), std::string::npos) << d.explanation;
  const Decision c = decide_chain(pos, cell(pos, {0, 0}), {order("Strike"), order("Engage"), order("Hold")});
  ASSERT_TRUE(c.action.has_value());
  EXPECT_EQ(c.action->type, ActionType::Guard);
  EXPECT_NE(c.explanation.find("Strike: no hero within reach"), std::string::npos) << c.explanation;
}

TEST(SoloEnemy, HarmRanksAWinAboveAKillAboveAMove) {
  Position pos = board();
  put(pos, {0, 3}, 0, 4);  // Assault; heroes' base is (0, 4)
  put(pos, {1, 3}, 1, 2);  // Archer SE of it? (1,3)-(0,3) = SE: a diagonal for the Assault
  const Action kill{ActionType::Move, static_cast<std::int16_t>(cell(pos, {0, 3})), static_cast<std::int16_t>(cell(pos, {1, 3})), 0};
  const Action step{ActionType::Move, static_cast<std::int16_t>(cell(pos, {0, 3})), static_cast<std::int16_t>(cell(pos, {-1, 3})), 0};
  ASSERT_TRUE(validate(pos, kill).ok());
  ASSERT_TRUE(validate(pos, step).ok());
  EXPECT_GT(harm(pos, kill), harm(pos, step));
  Position tank = board();
  put(tank, {0, 3}, 0, 5);
  put(tank, {1, 3}, 1, 2);
  put(tank, {-4, 4}, 1, 6);  // so that taking the Archer is not an annihilation
  const Action win{ActionType::Move, static_cast<std::int16_t>(cell(tank, {0, 3})), static_cast<std::int16_t>(tank.base_cell(1)), 0};
  const Action eat{ActionType::Move, static_cast<std::int16_t>(cell(tank, {0, 3})), static_cast<std::int16_t>(cell(tank, {1, 3})), 0};
  ASSERT_TRUE(validate(tank, win).ok());
  ASSERT_TRUE(validate(tank, eat).ok());
  EXPECT_GT(harm(tank, win), harm(tank, eat));
}

}  // namespace
}  // namespace hexdice::solo
