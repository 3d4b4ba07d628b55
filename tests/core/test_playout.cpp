// core/playout.h: the rejection sampler is exactly uniform over legal_actions, and
// every bound in max_unit_actions really bounds a unit's actions.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "core/playout.h"
#include "tests/core/test_util.h"

namespace hexdice {
namespace {

using testing::put;
using testing::two_player;

TEST(Playout, BoundsHoldForEveryUnitOnCrowdedAndEmptyBoards) {
  for (bool merge : {false, true}) {
    HouseRules hr;
    hr.merge_sum = merge;
    for (int face = 1; face <= 6; ++face) {
      // Alone in the centre, and surrounded by enemies at distance 1 and 2.
      Position p = two_player(hr);
      put(p, {0, 0}, 0, face);
      std::vector<Action> acts;
      unit_actions(p, p.board().index({0, 0}), acts);
      EXPECT_LE(static_cast<int>(acts.size()), max_unit_actions(face, hr));
      for (Hex h : ring({0, 0}, 2)) put(p, h, 1, 1);
      unit_actions(p, p.board().index({0, 0}), acts);
      EXPECT_LE(static_cast<int>(acts.size()), max_unit_actions(face, hr));
      if (face == 2) EXPECT_EQ(static_cast<int>(acts.size()), max_unit_actions(face, hr) - (merge ? 6 : 0));
    }
  }
}

TEST(Playout, RandomActionIsUniformOverLegalActions) {
  Position p = two_player();
  put(p, {0, 0}, 0, 2);   // many actions
  put(p, {3, -3}, 0, 6);  // few actions
  put(p, {-2, 0}, 0, 1);
  put(p, {0, 2}, 1, 5);
  std::vector<Action> legal = legal_actions(p);
  Rng rng(42);
  std::map<std::tuple<int, int, int>, int> hits;
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) {
    Action a = random_action(p, rng);
    ASSERT_TRUE(validate(p, a).ok());
    ++hits[{static_cast<int>(a.type), a.unit, a.target}];
  }
  ASSERT_EQ(hits.size(), legal.size());
  const double expected = static_cast<double>(draws) / static_cast<double>(legal.size());
  double chi2 = 0;
  for (auto& [k, n] : hits) chi2 += (n - expected) * (n - expected) / expected;
  // ~30 degrees of freedom: the 99.99th percentile of chi-square is below 75.
  EXPECT_LT(chi2, 75.0) << "actions: " << legal.size();
}

TEST(Playout, PlayoutsAreLegalAndDeterministic) {
  Position start = two_player();
  std::mt19937 mt(3);
  for (int i = 0; i < 2; ++i) {
    auto zone = start.deployment_zone(i);
    for (int k = 0; k < 6; ++k) put(start, zone[static_cast<std::size_t>(k)], i, 1 + static_cast<int>(mt() % 6));
  }
  Rng a(9), b(9);
  Position p = start, q = start;
  EXPECT_EQ(random_playout(p, a, 300), random_playout(q, b, 300));
  EXPECT_TRUE(p == q);
  Rng r(11);
  Position s = start;
  for (int ply = 0; ply < 300 && !s.game_over(); ++ply) {
    const Action act = random_action(s, r);
    ASSERT_TRUE(validate(s, act).ok()) << validate(s, act).error();
    apply_unchecked(s, act);
  }
}

}  // namespace
}  // namespace hexdice
