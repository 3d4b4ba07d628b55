// A small seeded generator (SplitMix64) for simulations, self-play and virtual dice.
// Portable: the same seed gives the same numbers on every platform and compiler
// (std:: distributions are not specified bit-exactly, so none are used here).
#pragma once

#include <cstdint>

namespace hexdice::ai {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; bias < 2^-32 for small n).
  int below(int n) { return static_cast<int>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32); }
  // One six-sided die: 1..6.
  int d6() { return 1 + below(6); }
  // A derived, independent seed (for per-game streams).
  static std::uint64_t mix(std::uint64_t seed, std::uint64_t k) {
    Rng r(seed ^ (k * 0xd1b54a32d192ed03ULL));
    return r.next();
  }

 private:
  std::uint64_t s_;
};

}  // namespace hexdice::ai
