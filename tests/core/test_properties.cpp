// Property tests over seeded random playouts: no illegal state is reachable, JSON
// round-trips, unit counts only fall, the turn passes to a live player, games end.
#include <gtest/gtest.h>

#include <random>

#include "tests/core/test_util.h"

namespace hexdice {
namespace {

// A random legal deployed start: each player gets `dice` random faces in its zone.
Position random_start(std::mt19937& rng, std::vector<Player> players, int dice, HouseRules hr = {}) {
  auto c = Position::create(5, std::move(players), hr);
  EXPECT_TRUE(c.ok());
  Position p = *c;
  for (int i = 0; i < p.num_players(); ++i) {
    auto zone = p.deployment_zone(i);
    std::shuffle(zone.begin(), zone.end(), rng);
    for (int k = 0; k < dice; ++k) EXPECT_TRUE(p.place(zone[static_cast<std::size_t>(k)], i, 1 + static_cast<int>(rng() % 6)).ok());
  }
  return p;
}

void check_invariants(const Position& p) {
  int counted[kMaxPlayers] = {};
  for (int i = 0; i < p.board().size(); ++i) {
    const Piece& c = p.at(i);
    if (c.empty()) continue;
    ASSERT_TRUE(valid_face(c.face));
    ASSERT_LE(c.tokens, kMaxTokens);
    ASSERT_LT(c.owner, p.num_players());
    ASSERT_FALSE(p.player(c.owner).eliminated) << "eliminated player's unit left on the board";
    ++counted[c.owner];
  }
  for (int i = 0; i < p.num_players(); ++i) ASSERT_EQ(counted[i], p.unit_count(i));
  if (!p.game_over()) ASSERT_FALSE(p.player(p.to_move()).eliminated);
}

struct PlayoutSetup {
  const char* name;
  std::vector<Player> players;
  int dice;
  bool merge;
};

class Properties : public ::testing::TestWithParam<PlayoutSetup> {};

TEST_P(Properties, RandomPlayouts) {
  const PlayoutSetup& s = GetParam();
  std::mt19937 rng(12345);
  int finished = 0;
  for (int game = 0; game < 60; ++game) {
    HouseRules hr;
    hr.merge_sum = s.merge;
    hr.archer_star_free_path = game % 2 == 0;
    hr.ranged_needs_clear_line = game % 3 == 0;
    Position p = random_start(rng, s.players, s.dice, hr);
    std::vector<Action> acts;
    for (int ply = 0; ply < 400 && !p.game_over(); ++ply) {
      check_invariants(p);
      legal_actions(p, acts);
      ASSERT_FALSE(acts.empty()) << "a live player always has an action (Guard)";
      Action a = acts[rng() % acts.size()];
      if (a.type == ActionType::Reroll) a.face = static_cast<std::uint8_t>(1 + rng() % 6);
      ASSERT_TRUE(validate(p, a).ok()) << validate(p, a).error();
      const int before = p.total_units();
      auto r = apply(p, a);
      ASSERT_TRUE(r.ok());
      ASSERT_LE(r->position.total_units(), before);
      ASSERT_EQ(before - r->position.total_units(), static_cast<int>(r->outcome.removed.size()));
      // The fast path agrees with the checked one.
      Position fast = p;
      Outcome o;
      apply_unchecked(fast, a, &o);
      ASSERT_TRUE(fast == r->position);
      ASSERT_EQ(o, r->outcome);
      // Serialise round trip.
      auto back = position_from_json(to_json(r->position));
      ASSERT_TRUE(back.ok()) << back.error();
      ASSERT_TRUE(*back == r->position);
      p = std::move(r->position);
    }
    check_invariants(p);
    finished += p.game_over();
  }
  EXPECT_GT(finished, 0) << "random play should finish some games";
}

INSTANTIATE_TEST_SUITE_P(
    Games, Properties,
    ::testing::Values(PlayoutSetup{"TwoPlayers6", {{"red", 0}, {"blue", 3}}, 6, false},
                      PlayoutSetup{"TwoPlayers8Merge", {{"red", 0}, {"blue", 3}}, 8, true},
                      PlayoutSetup{"ThreePlayers", {{"red", 0}, {"green", 2}, {"yellow", 4}}, 6, false},
                      PlayoutSetup{"FourPlayers", {{"a", 1}, {"b", 2}, {"c", 4}, {"d", 5}}, 5, false},
                      PlayoutSetup{"SixPlayers", {{"a", 0}, {"b", 1}, {"c", 2}, {"d", 3}, {"e", 4}, {"f", 5}}, 3, true}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace hexdice
