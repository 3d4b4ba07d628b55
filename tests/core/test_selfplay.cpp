// Self-play: seeded starts (same army mirrored on both sides), sides swapped, determinism.
#include <gtest/gtest.h>

#include "core/ai/selfplay.h"

namespace hexdice::ai {
namespace {

TEST(Selfplay, StartsAreMirroredArmiesInTheDeploymentZones) {
  const Position pos = deployed_start(123, 5, 6);
  EXPECT_EQ(pos.unit_count(0), 6);
  EXPECT_EQ(pos.unit_count(1), 6);
  EXPECT_EQ(pos.to_move(), 0);
  const Board& b = pos.board();
  for (int c = 0; c < b.size(); ++c) {
    const Piece& p = pos.at(c);
    if (p.empty()) continue;
    EXPECT_TRUE(pos.in_deployment_zone(p.owner, b.hex(c)));
    const Hex m = b.hex(c) * -1;
    const Piece* twin = pos.at(m);
    ASSERT_NE(twin, nullptr);
    EXPECT_EQ(twin->face, p.face);
    EXPECT_EQ(twin->owner, 1 - p.owner);
  }
  EXPECT_EQ(deployed_start(123), deployed_start(123));
  EXPECT_FALSE(deployed_start(123) == deployed_start(124));
}

TEST(Selfplay, SameSeedSameResults) {
  SelfplayConfig cfg;
  cfg.games = 6;
  cfg.a = "greedy";
  cfg.b = "random";
  cfg.seed = 77;
  cfg.max_actions = 120;
  auto r1 = run_selfplay(cfg);
  auto r2 = run_selfplay(cfg);
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(r1->results, r2->results);
  EXPECT_EQ(r1->actions, r2->actions);
  cfg.seed = 78;
  auto r3 = run_selfplay(cfg);
  ASSERT_TRUE(r3.ok());
  EXPECT_NE(r1->actions, r3->actions);
}

TEST(Selfplay, HintAtAFixedDepthIsDeterministicAndBeatsRandom) {
  SelfplayConfig cfg;
  cfg.games = 4;
  cfg.a = "hint";
  cfg.b = "random";
  cfg.limits = SearchLimits{0, 2, 0};
  cfg.seed = 5;
  std::vector<std::vector<Action>> logs1, logs2;
  auto r1 = run_selfplay(cfg, [&](int, const GameResult& g, bool) { logs1.push_back(g.log); });
  auto r2 = run_selfplay(cfg, [&](int, const GameResult& g, bool) { logs2.push_back(g.log); });
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(logs1, logs2);
  EXPECT_EQ(r1->a_wins, 4);
}

TEST(Selfplay, SidesAlternateOnTheSameStart) {
  SelfplayConfig cfg;
  cfg.games = 4;
  cfg.a = "scenario-enemy";
  cfg.b = "random";
  std::vector<bool> a_red;
  ASSERT_TRUE(run_selfplay(cfg, [&](int, const GameResult&, bool red) { a_red.push_back(red); }).ok());
  EXPECT_EQ(a_red, (std::vector<bool>{true, false, true, false}));
}

TEST(Selfplay, UnknownEngineIsAnError) {
  SelfplayConfig cfg;
  cfg.a = "stockfish";
  auto r = run_selfplay(cfg);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("stockfish"), std::string::npos);
}

}  // namespace
}  // namespace hexdice::ai
