// A seeded random legal game of Hex Dice, for demos, the GUI's history panel and tests:
// a full setup (rolls, rerolls, deployment, first-player roll-off), then random legal
// actions biased towards attacks, with the odd takeback and annotation, ended by a
// rule-decided win or (after max_plies) an agreed draw.
//
// All randomness comes from the seed (std::mt19937_64 raw output, no distributions), so
// a seed gives the same game on every platform. Dice are inputs to the record as always.
#pragma once

#include <cstdint>
#include <string>

#include "core/game_record.h"

namespace hexdice {

struct SampleOptions {
  std::uint64_t seed = 1;
  int players = 2;        // 2, 3, 4 or 6
  int dice = 0;           // per player; 0 = the first count the rules.md section 2 table allows
  int radius = 5;
  int max_plies = 240;    // then the players agree a draw
  bool takebacks = true;  // about 1 in 30 plies is taken back (never a reroll)
  bool annotations = true;
  std::string start_time = "2026-01-01T12:00:00Z";
  std::string end_time = "2026-01-01T12:45:00Z";
};

GameRecord sample_game(const SampleOptions& options);

}  // namespace hexdice
