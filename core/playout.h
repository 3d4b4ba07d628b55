// Random playouts for search and benchmarks: the project's one deterministic RNG (also
// used by the engines, self-play, solo play and virtual dice) and an exactly uniform
// random legal action that does not generate every action of the position.
#pragma once

#include <cstdint>

#include "core/rules.h"

namespace hexdice {

// xoshiro256** seeded by SplitMix64: fast, deterministic on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1);
  std::uint64_t next();
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift, unbiased).
  std::uint32_t below(std::uint32_t n);
  int face() { return 1 + static_cast<int>(below(6)); }
  // A derived, independent seed (for per-game streams): the first output of a generator
  // seeded with seed ^ (k * odd constant).
  static std::uint64_t mix(std::uint64_t seed, std::uint64_t k) {
    Rng r(seed ^ (k * 0xd1b54a32d192ed03ULL));
    return r.next();
  }

 private:
  std::uint64_t s_[4];
};

// A legal action drawn uniformly from legal_actions(pos) (the game must not be over).
// Rejection sampling: a unit is chosen with probability proportional to
// max_unit_actions(face), then one of max_unit_actions slots; an empty slot retries.
// Every legal action therefore has probability 1 / sum(bounds) per try: exactly uniform.
// A reroll comes back with its face already rolled from rng.
Action random_action(const Position& pos, Rng& rng);

// Plays random_action until the game ends or max_actions were played; returns the count.
int random_playout(Position& pos, Rng& rng, int max_actions);

}  // namespace hexdice
