// The hint engine: the best action for the player to move, with a short reason
// (what it wins or what it saves). See docs/hint-engine.md.
#pragma once

#include <cstdint>
#include <string>

#include "core/ai/search.h"
#include "core/rules.h"

namespace hexdice::ai {

struct Hint {
  bool found = false;    // false: no legal action (game over)
  Action action;         // a reroll has face 0: roll the die
  std::string reason;    // e.g. "takes the Archer on d4 (attack 2 vs armor 0)"
  SearchResult search;
};

// Cells of `side`'s units that the other side(s) could defeat with one action now.
std::vector<int> units_under_attack(const Position& pos, int side);

Hint hint(const Position& pos, const SearchLimits& limits, std::uint64_t seed = 0, Searcher* searcher = nullptr);

// Explains an action for the player to move in words (the capture, the save, the result).
std::string explain(const Position& pos, const Action& a, const SearchResult& sr);

}  // namespace hexdice::ai
