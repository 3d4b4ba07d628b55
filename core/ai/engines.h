// Players for self-play and for the solo auto-player: random, greedy (one ply),
// hint (the search of search.h) and scenario-enemy (the solo enemy's keywords with the
// face-value activation table of rules.md section 9).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/playout.h"
#include "core/ai/search.h"
#include "core/rules.h"

namespace hexdice::ai {

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // The action for pos.to_move(); a reroll may carry face 0 (the caller rolls).
  // nullopt: the engine passes its turn (the scenario enemy when its roll matches no unit).
  // `why`, when given, receives a short explanation. `allowed`, when given, restricts the
  // choice to those actions (e.g. heroes not yet activated this round, co-op markers).
  virtual std::optional<Action> choose(const Position& pos, Rng& rng, std::string* why = nullptr,
                                       const std::vector<Action>* allowed = nullptr) = 0;
};

// "random", "greedy", "hint", "scenario-enemy"; nullptr for an unknown name.
std::unique_ptr<Engine> make_engine(const std::string& name, const SearchLimits& limits = {});
const std::vector<std::string>& engine_names();

// One-ply greedy choice: the action whose resulting position evaluates best
// (a reroll counts the average over the six faces). Ties broken by `rng`.
Action greedy_action(const Position& pos, Rng& rng, const std::vector<Action>* allowed = nullptr);

}  // namespace hexdice::ai
