// A whole solo game played headless: an engine plays the heroes, seeded virtual dice
// roll the activations and the rerolls. Used by `hexdice solo` and the tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/ai/engines.h"
#include "core/solo/scenario.h"

namespace hexdice::solo {

struct SoloRun {
  std::vector<std::string> log;  // one line per event
  int result = 0;                // +1 heroes, -1 enemy, 0 draw
  std::string result_text;
  int rounds = 0;
  int actions = 0;
};

// One step of the game as it is accepted, for a caller that logs it (the SQLite record):
// a hero action (the last entry of game.history()) or a whole Enemy Turn (its roll, where
// the roll came from, and the steps; its actions are the last entries of the history).
struct SoloEvent {
  bool start = false;         // the game is set up, nothing played yet
  bool enemy_turn = false;
  int round = 0;              // the round the step belongs to
  int roll = 0;               // Enemy Turn: the activation roll
  bool virtual_roll = true;   // Enemy Turn: seeded virtual die (else a die rolled at the table, --rolls)
  int virtual_index = 0;      // Enemy Turn, virtual: 1 for the first virtual activation roll, ...
  std::vector<EnemyStep> steps;
};
// An error stops the game and play_solo returns it.
using SoloObserver = std::function<Status(const SoloGame&, const SoloEvent&)>;

// Plays to the end (or `max_rounds`, then a draw). Errors: unknown engine, bad setup.
// `rolls`, when given, are the first activation rolls (dice rolled at the table, 1-6);
// after them the seeded virtual die takes over.
Result<SoloRun> play_solo(const Scenario& sc, const std::string& engine, std::uint64_t seed,
                          const ai::SearchLimits& limits = {100, 64, 0}, int max_rounds = 200,
                          SoloGame* final_game = nullptr, const std::vector<int>& rolls = {},
                          const SoloObserver& observe = {});

}  // namespace hexdice::solo
