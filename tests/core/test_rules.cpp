// Table-driven rules tests; each test name starts with the rules.md section it checks.
#include <gtest/gtest.h>

#include "tests/core/test_util.h"

namespace hexdice {
namespace {

using testing::act;
using testing::must_apply;
using testing::put;
using testing::targets;
using testing::two_player;
using T = ActionType;
constexpr int kRed = 0, kBlue = 1;

std::set<Hex> hexes(std::initializer_list<Hex> l) { return std::set<Hex>(l); }

// ---- Section 2: players, bases, deployment, forward ----------------------------------------

TEST(Section2_Players, TwoPlayerBasesAndForward) {
  Position p = two_player();
  EXPECT_EQ(p.board().hex(p.base_cell(kRed)), (Hex{0, -4}));
  EXPECT_EQ(p.board().hex(p.base_cell(kBlue)), (Hex{0, 4}));
  EXPECT_EQ(p.forward(kRed), 3);   // N player moves S
  EXPECT_EQ(p.forward(kBlue), 0);  // S player moves N
}

TEST(Section2_Players, MultiplayerBasesAreCornersAndForwardPointsToCentre) {
  auto p = Position::create(5, {{"a", 4}, {"b", 0}, {"c", 2}});
  ASSERT_TRUE(p.ok());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p->board().hex(p->base_cell(i)), p->corner_hex(i));
    const Hex towards = p->corner_hex(i) + direction(p->forward(i));
    EXPECT_EQ(distance(towards, {0, 0}), 4);
  }
  // Turn order is clockwise by corner: N (b), SE (c), SW (a).
  EXPECT_EQ(p->turn_order(), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(p->to_move(), 1);
}

TEST(Section2_Players, DeploymentZoneIsNineCellsWithinTwoOfCorner) {
  for (int radius : {3, 5, 7}) {
    auto p = Position::create(radius, {{"a", 0}, {"b", 1}, {"c", 2}, {"d", 3}, {"e", 4}, {"f", 5}});
    ASSERT_TRUE(p.ok());
    for (int i = 0; i < 6; ++i) {
      auto zone = p->deployment_zone(i);
      EXPECT_EQ(zone.size(), 9u) << "radius " << radius << " corner " << i;
      for (Hex h : zone) {
        EXPECT_LE(distance(h, p->corner_hex(i)), 2);
        EXPECT_TRUE(p->in_deployment_zone(i, h));
      }
    }
  }
}

TEST(Section2_Players, RejectsBadPlayerSets) {
  EXPECT_FALSE(Position::create(5, {{"a", 0}}).ok());
  EXPECT_FALSE(Position::create(5, {{"a", 0}, {"b", 1}, {"c", 2}, {"d", 3}, {"e", 4}}).ok());  // 5 players
  EXPECT_FALSE(Position::create(5, {{"a", 0}, {"a", 3}}).ok());
  EXPECT_FALSE(Position::create(5, {{"a", 0}, {"b", 0}}).ok());
  EXPECT_FALSE(Position::create(1, {{"a", 0}, {"b", 3}}).ok());
}

// ---- Section 4: movement patterns on an empty board (red = N player, at the centre) ---------

struct PatternCase {
  const char* name;
  int face;
  bool free_path;
  std::set<Hex> expected;
};

class Section4_Patterns : public ::testing::TestWithParam<PatternCase> {};

TEST_P(Section4_Patterns, EmptyBoardFromCentre) {
  const PatternCase& c = GetParam();
  HouseRules hr;
  hr.archer_star_free_path = c.free_path;
  Position p = two_player(hr);
  put(p, {0, 0}, kRed, c.face);
  EXPECT_EQ(targets(p, {0, 0}, T::Move), c.expected);
}

std::set<Hex> within2() {
  std::set<Hex> s;
  for (Hex h : spiral({0, 0}, 2))
    if (h != Hex{0, 0}) s.insert(h);
  return s;
}
std::set<Hex> straight12() {
  std::set<Hex> s;
  for (int d = 0; d < 6; ++d) {
    s.insert(direction(d));
    s.insert(direction(d) * 2);
  }
  return s;
}
std::set<Hex> knight12() {
  std::set<Hex> s;
  for (int d = 0; d < 6; ++d) {
    s.insert(direction(d) * 2 + direction(d + 1));
    s.insert(direction(d) * 2 + direction(d + 5));
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(
    Units, Section4_Patterns,
    ::testing::Values(
        PatternCase{"Infantry", 1, true, hexes({{0, 1}, {0, 2}, {0, -1}})},
        PatternCase{"ArcherStar", 2, true, within2()},
        PatternCase{"ArcherStraight", 2, false, straight12()},
        PatternCase{"Knight", 3, true, knight12()},
        PatternCase{"Assault", 4, true, hexes({{1, -1}, {2, -2}, {1, 0}, {2, 0}, {-1, 1}, {-2, 2}, {-1, 0}, {-2, 0}})},
        PatternCase{"Tanker", 5, true, hexes({{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}})},
        PatternCase{"Balance", 6, true, {}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Section4_Patterns, KnightHasTwelveDistinctTargets) { EXPECT_EQ(knight12().size(), 12u); }

TEST(Section4_Patterns, BlueInfantryMovesNorth) {
  Position p = two_player();
  p.set_to_move(kBlue);
  put(p, {0, 0}, kBlue, 1);
  EXPECT_EQ(targets(p, {0, 0}, T::Move), hexes({{0, -1}, {0, -2}, {0, 1}}));
}

TEST(Section4_Paths, InfantryBlockedByFriendAttacksEnemyButNotBeyond) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 1);
  put(p, {0, 1}, kRed, 5);
  EXPECT_EQ(targets(p, {0, 0}, T::Move), hexes({{0, -1}}));
  Position q = two_player();
  put(q, {0, 0}, kRed, 1);
  put(q, {0, 1}, kBlue, 5);
  EXPECT_EQ(targets(q, {0, 0}, T::Move), hexes({{0, 1}, {0, -1}}));
}

TEST(Section4_Paths, ArcherStarNeedsAnEmptyFirstStep) {
  for (bool free_path : {true, false}) {
    HouseRules hr;
    hr.archer_star_free_path = free_path;
    Position p = two_player(hr);
    put(p, {0, 0}, kRed, 2);
    for (int d = 1; d < 6; ++d) put(p, direction(d), kRed, 5);
    const auto expected = free_path ? hexes({{0, -1}, {0, -2}, {1, -2}, {-1, -1}}) : hexes({{0, -1}, {0, -2}});
    EXPECT_EQ(targets(p, {0, 0}, T::Move), expected) << "free_path=" << free_path;
  }
  // An enemy in the only open neighbour can be attacked but not passed.
  Position p = two_player();
  put(p, {0, 0}, kRed, 2);
  for (int d = 1; d < 6; ++d) put(p, direction(d), kRed, 5);
  put(p, {0, -1}, kBlue, 5);
  EXPECT_EQ(targets(p, {0, 0}, T::Move), hexes({{0, -1}}));
}

TEST(Section4_Paths, KnightJumpsFriendsNotEnemies) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 3);
  put(p, {0, 1}, kRed, 1);
  put(p, {0, 2}, kRed, 1);
  auto t = targets(p, {0, 0}, T::Move);
  EXPECT_TRUE(t.count({1, 2}) && t.count({-1, 3}));
  EXPECT_EQ(t.size(), 12u);
  put(p, {1, 2}, kRed, 5);  // friendly on the final hex: not a destination
  EXPECT_EQ(targets(p, {0, 0}, T::Move).size(), 11u);

  Position q = two_player();
  put(q, {0, 0}, kRed, 3);
  put(q, {0, 1}, kBlue, 1);  // enemy on the straight part blocks both S-L targets
  auto u = targets(q, {0, 0}, T::Move);
  EXPECT_EQ(u.size(), 10u);
  EXPECT_FALSE(u.count({1, 2}) || u.count({-1, 3}));
  put(q, {2, 1}, kBlue, 1);  // enemy on a final hex is a melee target
  EXPECT_TRUE(targets(q, {0, 0}, T::Move).count({2, 1}));
}

TEST(Section4_Paths, AssaultRayStopsAtFirstUnit) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 4);
  put(p, {1, -1}, kRed, 5);
  put(p, {-1, 1}, kBlue, 5);
  EXPECT_EQ(targets(p, {0, 0}, T::Move), hexes({{1, 0}, {2, 0}, {-1, 1}, {-1, 0}, {-2, 0}}));
}

TEST(Section4_Paths, MovesStayOnTheMap) {
  Position p = two_player();
  put(p, {0, -5}, kRed, 2);
  for (Hex h : targets(p, {0, -5}, T::Move)) EXPECT_TRUE(p.board().contains(h));
  EXPECT_EQ(targets(p, {0, -5}, T::Move).size(), 8u);  // 3 neighbours + 5 at distance 2
}

// ---- Section 5: actions --------------------------------------------------------------------

TEST(Section5_Ranged, ExactlyTwoInAStraightLine) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 2);
  put(p, {0, 2}, kBlue, 1);   // straight S
  put(p, {2, -2}, kBlue, 1);  // straight NE
  put(p, {1, 1}, kBlue, 1);   // distance 2, not straight
  put(p, {-1, 0}, kBlue, 1);  // distance 1
  EXPECT_EQ(targets(p, {0, 0}, T::Ranged), hexes({{0, 2}, {2, -2}}));
}

TEST(Section5_Ranged, ClearLineHouseRule) {
  for (bool clear : {false, true}) {
    HouseRules hr;
    hr.ranged_needs_clear_line = clear;
    Position p = two_player(hr);
    put(p, {0, 0}, kRed, 2);
    put(p, {0, 1}, kRed, 5);
    put(p, {0, 2}, kBlue, 1);
    EXPECT_EQ(targets(p, {0, 0}, T::Ranged).size(), clear ? 0u : 1u);
    const Status s = validate(p, act(p, T::Ranged, {0, 0}, {0, 2}));
    EXPECT_EQ(s.ok(), !clear);
    if (!s.ok()) EXPECT_NE(s.error().find("ranged_needs_clear_line"), std::string::npos) << s.error();
  }
}

TEST(Section5_Guard, GuardAddsOneUntilAnotherAction) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 1);
  put(p, {3, 0}, kBlue, 5);
  Position g = must_apply(p, act(p, T::Guard, {0, 0})).position;
  EXPECT_TRUE(g.at(Hex{0, 0})->guard);
  EXPECT_EQ(effective_armor(*g.at({0, 0})), 3);
  EXPECT_EQ(g.to_move(), kBlue);
  g = must_apply(g, act(g, T::Guard, {3, 0})).position;
  // Guarding again is legal and changes nothing but the turn (a pass).
  Position g2 = must_apply(g, act(g, T::Guard, {0, 0})).position;
  EXPECT_TRUE(g2.at({0, 0})->guard);
  g2 = must_apply(g2, act(g2, T::Guard, {3, 0})).position;
  Position moved = must_apply(g2, act(g2, T::Move, {0, 0}, {0, 1})).position;
  EXPECT_FALSE(moved.at({0, 1})->guard);
  Position rerolled = must_apply(g2, act(g2, T::Reroll, {0, 0}, {99, 99}, 4)).position;
  EXPECT_FALSE(rerolled.at({0, 0})->guard);
  EXPECT_EQ(rerolled.at({0, 0})->face, 4);
}

TEST(Section5_Reroll, NeedsAFaceAndKeepsTokens) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 5, /*tokens=*/2);
  EXPECT_FALSE(validate(p, act(p, T::Reroll, {0, 0})).ok());
  Position r = must_apply(p, act(p, T::Reroll, {0, 0}, {99, 99}, 1)).position;
  EXPECT_EQ(r.at({0, 0})->face, 1);
  EXPECT_EQ(r.at({0, 0})->tokens, 2);
  EXPECT_EQ(effective_armor(*r.at({0, 0})), 0);  // Infantry armor 2 minus the same 2 tokens
}

TEST(Section5_Merge, OffByDefaultSumsWhenOn) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 4, 1, true);
  put(p, {0, 1}, kRed, 3, 2);
  const Status s = validate(p, act(p, T::Merge, {0, 0}, {0, 1}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("merge_sum"), std::string::npos);
  EXPECT_TRUE(targets(p, {0, 0}, T::Merge).empty());

  HouseRules hr;
  hr.merge_sum = true;
  Position m = two_player(hr);
  put(m, {0, 0}, kRed, 4, 1, true);
  put(m, {0, 1}, kRed, 3, 2);
  put(m, {4, -4}, kBlue, 1);
  EXPECT_EQ(targets(m, {0, 0}, T::Merge), hexes({{0, 1}}));
  auto r = must_apply(m, act(m, T::Merge, {0, 0}, {0, 1}));
  const Piece* u = r.position.at({0, 0});
  EXPECT_EQ(u->face, 6);    // min(6, 4 + 3)
  EXPECT_EQ(u->tokens, 3);  // tokens add
  EXPECT_FALSE(u->guard);
  EXPECT_TRUE(r.position.at({0, 1})->empty());
  EXPECT_EQ(r.outcome.removed, (std::vector<Hex>{{0, 1}}));
  EXPECT_EQ(r.position.unit_count(kRed), 1);
}

TEST(Section5_Special, BalanceAttacksAdjacentAndMovesIn) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 6);
  put(p, {0, 1}, kBlue, 2);
  put(p, {2, 0}, kBlue, 2);
  put(p, {4, -4}, kBlue, 1);
  EXPECT_EQ(targets(p, {0, 0}, T::Special), hexes({{0, 1}}));
  auto r = must_apply(p, act(p, T::Special, {0, 0}, {0, 1}));
  ASSERT_TRUE(r.outcome.combat.has_value());
  EXPECT_EQ(*r.outcome.combat, (Combat{1, 0, true}));
  EXPECT_EQ(r.position.at({0, 1})->face, 6);
  EXPECT_TRUE(r.position.at({0, 0})->empty());
}

// ---- Section 6: combat -----------------------------------------------------------------------

struct CombatCase {
  const char* name;
  int att_face, att_tokens;
  int def_face, def_tokens;
  bool def_guard;
  int attack, armor;
  bool success;
};

class Section6_Combat : public ::testing::TestWithParam<CombatCase> {};

TEST_P(Section6_Combat, MeleeFromAdjacentHex) {
  const CombatCase& c = GetParam();
  Position p = two_player();
  // Red attacker at (0,0) moves S into (0,1) — every unit but Balance can (Infantry forward,
  // Archer/Tanker star, Knight cannot: use Special for Balance, and a Knight L-hex instead).
  Hex target = c.att_face == 3 ? Hex{1, 2} : (c.att_face == 4 ? Hex{1, 0} : Hex{0, 1});
  put(p, {0, 0}, kRed, c.att_face, c.att_tokens);
  put(p, target, kBlue, c.def_face, c.def_tokens, c.def_guard);
  put(p, {4, -4}, kBlue, 1);
  const ActionType t = c.att_face == 6 ? T::Special : T::Move;
  auto r = must_apply(p, act(p, t, {0, 0}, target));
  ASSERT_TRUE(r.outcome.combat.has_value());
  EXPECT_EQ(*r.outcome.combat, (Combat{c.attack, c.armor, c.success}));
  if (c.success) {
    EXPECT_EQ(r.outcome.removed, (std::vector<Hex>{target}));
    EXPECT_EQ(r.position.at(target)->owner, kRed);  // melee and special move in
    EXPECT_TRUE(r.position.at({0, 0})->empty());
  } else {
    EXPECT_TRUE(r.outcome.removed.empty());
    EXPECT_EQ(r.position.at({0, 0})->tokens, std::min(6, c.att_tokens + 1));
    EXPECT_EQ(r.position.at(target)->tokens, std::min(6, c.def_tokens + 1));
    EXPECT_EQ(r.position.at(target)->owner, kBlue);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Section6_Combat,
    ::testing::Values(
        CombatCase{"InfantryBeatsInfantry", 1, 0, 1, 0, false, 2, 2, true},
        CombatCase{"InfantryFailsOnGuardedInfantry", 1, 0, 1, 0, true, 2, 3, false},
        CombatCase{"AssaultFailsOnTanker", 4, 0, 5, 0, false, 3, 4, false},
        CombatCase{"AssaultBeatsTankerWithOneToken", 4, 0, 5, 1, false, 3, 3, true},
        CombatCase{"TankerFailsOnBalance", 5, 0, 6, 0, false, 1, 5, false},
        CombatCase{"TokensCapAtSix", 5, 6, 6, 0, false, 1, 5, false},
        CombatCase{"ZeroArmorFallsToAnyAttack", 5, 0, 5, 4, false, 1, 0, true},
        CombatCase{"TokensNeverMakeArmorNegative", 5, 0, 2, 3, false, 1, 0, true},
        CombatCase{"KnightBeatsKnight", 3, 0, 3, 0, false, 2, 1, true},
        CombatCase{"BalanceSpecialFailsOnGuardedTanker", 6, 0, 5, 0, true, 1, 5, false},
        CombatCase{"ArcherMeleeBeatsArcher", 2, 0, 2, 0, false, 2, 0, true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Section6_Combat, RangedArcherStaysEitherWay) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 2);
  put(p, {0, 2}, kBlue, 5);
  put(p, {2, -2}, kBlue, 2);
  auto fail = must_apply(p, act(p, T::Ranged, {0, 0}, {0, 2}));
  EXPECT_EQ(*fail.outcome.combat, (Combat{2, 4, false}));
  EXPECT_EQ(fail.position.at({0, 0})->tokens, 1);
  EXPECT_EQ(fail.position.at({0, 2})->tokens, 1);
  auto win = must_apply(p, act(p, T::Ranged, {0, 0}, {2, -2}));
  EXPECT_TRUE(win.outcome.combat->success);
  EXPECT_EQ(win.position.at({0, 0})->face, 2);
  EXPECT_TRUE(win.position.at({2, -2})->empty());
}

TEST(Section6_Combat, FailedAttackerLosesGuard) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 5, 0, true);
  put(p, {0, 1}, kBlue, 6);
  auto r = must_apply(p, act(p, T::Move, {0, 0}, {0, 1}));
  EXPECT_FALSE(r.position.at({0, 0})->guard);
  EXPECT_TRUE(r.position.at({0, 0})->tokens == 1);
}

// ---- Section 7: winning ---------------------------------------------------------------------

TEST(Section7_TwoPlayers, Annihilation) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 1);
  put(p, {0, 1}, kBlue, 2);
  auto r = must_apply(p, act(p, T::Move, {0, 0}, {0, 1}));
  EXPECT_EQ(r.outcome.winner, kRed);
  EXPECT_TRUE(r.position.game_over());
  EXPECT_TRUE(legal_actions(r.position).empty());
  const Status s = validate(r.position, act(r.position, T::Guard, {0, 1}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("game is over"), std::string::npos);
}

TEST(Section7_TwoPlayers, BaseCaptureOnEmptyBase) {
  Position p = two_player();
  put(p, {0, 3}, kRed, 1);
  put(p, {3, 0}, kBlue, 5);
  auto r = must_apply(p, act(p, T::Move, {0, 3}, {0, 4}));
  EXPECT_EQ(r.outcome.winner, kRed);
}

TEST(Section7_TwoPlayers, BaseCaptureNeedsWonCombat) {
  Position p = two_player();
  put(p, {0, 3}, kRed, 1);
  put(p, {0, 4}, kBlue, 5);  // Tanker armor 4: Infantry fails
  put(p, {3, 0}, kBlue, 5);
  auto fail = must_apply(p, act(p, T::Move, {0, 3}, {0, 4}));
  EXPECT_EQ(fail.outcome.winner, -1);
  Position q = two_player();
  put(q, {0, 3}, kRed, 1);
  put(q, {0, 4}, kBlue, 2);
  put(q, {3, 0}, kBlue, 5);
  auto win = must_apply(q, act(q, T::Move, {0, 3}, {0, 4}));
  EXPECT_EQ(win.outcome.winner, kRed);
}

TEST(Section7_TwoPlayers, RangedKillOfBaseOccupantDoesNotCapture) {
  Position p = two_player();
  put(p, {0, 2}, kRed, 2);
  put(p, {0, 4}, kBlue, 2);
  put(p, {3, 0}, kBlue, 5);
  auto r = must_apply(p, act(p, T::Ranged, {0, 2}, {0, 4}));
  EXPECT_TRUE(r.outcome.combat->success);
  EXPECT_EQ(r.outcome.winner, -1);
  EXPECT_EQ(r.position.to_move(), kBlue);
}

TEST(Section7_Multiplayer, BaseCornerEliminatesAndRemovesUnits) {
  auto c = Position::create(5, {{"red", 0}, {"green", 2}, {"yellow", 4}});
  ASSERT_TRUE(c.ok());
  Position p = *c;  // red N, green SE (5,0), yellow SW (-5,5)
  put(p, {4, 0}, 0, 5);  // red Tanker next to green's corner
  put(p, {3, 1}, 1, 1);
  put(p, {2, 2}, 1, 1);
  put(p, {-4, 4}, 2, 1);
  auto r = must_apply(p, act(p, T::Move, {4, 0}, {5, 0}));
  EXPECT_EQ(r.outcome.eliminated, (std::vector<int>{1}));
  EXPECT_EQ(r.outcome.removed.size(), 2u);
  EXPECT_EQ(r.position.unit_count(1), 0);
  EXPECT_TRUE(r.position.player(1).eliminated);
  EXPECT_EQ(r.outcome.winner, -1);
  EXPECT_EQ(r.position.to_move(), 2);  // green skipped
}

TEST(Section7_Multiplayer, LastPlayerStandingWins) {
  auto c = Position::create(5, {{"red", 0}, {"green", 2}, {"yellow", 4}});
  ASSERT_TRUE(c.ok());
  Position p = *c;
  p.set_eliminated(1, true);
  put(p, {0, 0}, 0, 1);
  put(p, {0, 1}, 2, 2);
  auto r = must_apply(p, act(p, T::Move, {0, 0}, {0, 1}));
  EXPECT_EQ(r.outcome.eliminated, (std::vector<int>{2}));
  EXPECT_EQ(r.outcome.winner, 0);
}

// ---- Section 8: what the referee must never accept ------------------------------------------

TEST(Section8_Never, OutOfTurnAndForeignUnits) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 1);
  put(p, {2, 0}, kBlue, 1);
  const Status s = validate(p, act(p, T::Guard, {2, 0}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("out of turn"), std::string::npos) << s.error();
  EXPECT_FALSE(validate(p, act(p, T::Guard, {1, 1})).ok());  // empty cell
}

TEST(Section8_Never, PatternAndPathErrorsNameTheRule) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 1);
  put(p, {0, 1}, kRed, 5);
  put(p, {3, 0}, kRed, 6);
  put(p, {-3, 0}, kBlue, 1);
  Status s = validate(p, act(p, T::Move, {0, 0}, {1, 0}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("section 4"), std::string::npos) << s.error();
  s = validate(p, act(p, T::Move, {0, 0}, {0, 2}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("blocked"), std::string::npos) << s.error();
  s = validate(p, act(p, T::Move, {0, 0}, {0, 1}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("your own unit"), std::string::npos) << s.error();
  s = validate(p, act(p, T::Move, {3, 0}, {3, 1}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("Balance"), std::string::npos) << s.error();
  s = validate(p, act(p, T::Ranged, {0, 0}, {-3, 0}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("only an Archer"), std::string::npos) << s.error();
  s = validate(p, act(p, T::Special, {0, 0}, {-3, 0}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("only a Balance"), std::string::npos) << s.error();
}

TEST(Section8_Never, EveryGeneratedActionValidates) {
  Position p = two_player();
  put(p, {0, 0}, kRed, 2);
  put(p, {1, 0}, kRed, 3);
  put(p, {0, -2}, kRed, 4);
  put(p, {0, 2}, kBlue, 6);
  put(p, {-1, 2}, kBlue, 1);
  for (const Action& a : legal_actions(p)) {
    Action b = a;
    if (b.type == T::Reroll) b.face = 3;
    EXPECT_TRUE(validate(p, b).ok()) << describe(p, b);
  }
}

TEST(Describe, HumanNotation) {
  Position p = two_player();
  put(p, {0, -4}, kRed, 3);
  put(p, {1, -2}, kBlue, 2);
  const Action a = act(p, T::Move, {0, -4}, {1, -2});
  auto r = must_apply(p, a);
  EXPECT_EQ(describe(p, a, &r.outcome), "Knight f2xg4 Archer (attack 2 vs armor 0: defeated); red wins");
}

}  // namespace
}  // namespace hexdice
