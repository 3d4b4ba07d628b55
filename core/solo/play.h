// A whole solo game played headless: an engine plays the heroes, seeded virtual dice
// roll the activations and the rerolls. Used by `hexdice solo` and the tests.
#pragma once

#include <cstdint>
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

// Plays to the end (or `max_rounds`, then a draw). Errors: unknown engine, bad setup.
// `rolls`, when given, are the first activation rolls (dice rolled at the table, 1-6);
// after them the seeded virtual die takes over.
Result<SoloRun> play_solo(const Scenario& sc, const std::string& engine, std::uint64_t seed,
                          const ai::SearchLimits& limits = {100, 64, 0}, int max_rounds = 200,
                          SoloGame* final_game = nullptr, const std::vector<int>& rolls = {});

}  // namespace hexdice::solo
