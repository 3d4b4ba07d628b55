// Self-play: engines against each other from seeded, deployed starts.
//
// Game 2k and game 2k+1 share one start (a random army of `dice` faces for the N player,
// deployed at random on its zone, mirrored through the centre for the S player: the
// same army on both sides) with the engines' sides swapped, so neither the start nor
// the first move favours an engine. Everything random comes from the seed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/ai/engines.h"
#include "core/rules.h"

namespace hexdice::ai {

// A 2-player start: red (N) and blue (S) with the same army, point-mirrored; red to move.
Position deployed_start(std::uint64_t seed, int radius = 5, int dice = 6, HouseRules rules = {});

struct GameResult {
  int winner = -1;      // player index, -1: draw (the action cap was reached)
  int actions = 0;      // actions played (a skipped turn counts as one)
  std::vector<Action> log;
};
// Plays one game; every action is validated (an illegal one aborts: an engine bug).
GameResult play_game(Position pos, Engine& p0, Engine& p1, Rng& rng, int max_actions);

struct SelfplayConfig {
  int games = 10;
  std::string a = "hint";
  std::string b = "random";
  SearchLimits limits{100, 64, 0};
  std::uint64_t seed = 1;
  int max_actions = 200;
  int radius = 5;
  int dice = 6;
};

struct SelfplayStats {
  int a_wins = 0, b_wins = 0, draws = 0;
  long long actions = 0;
  std::vector<int> results;  // per game: 0 = a won, 1 = b won, -1 = draw
  double a_rate() const { return results.empty() ? 0 : (a_wins + 0.5 * draws) / static_cast<double>(results.size()); }
};

// Runs the match; `on_game` (optional) is called after each game with its index and result.
// Errors (unknown engine) come back as a message.
Result<SelfplayStats> run_selfplay(const SelfplayConfig& cfg,
                                   const std::function<void(int, const GameResult&, bool a_is_red)>& on_game = {});

}  // namespace hexdice::ai
