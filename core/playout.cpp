#include "core/playout.h"

#include <bit>

namespace hexdice {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

Rng::Rng(std::uint64_t seed) {
  for (auto& v : s_) v = splitmix64(seed);
}

std::uint64_t Rng::next() {
  const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = std::rotl(s_[3], 45);
  return result;
}

std::uint32_t Rng::below(std::uint32_t n) {
  std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
  auto low = static_cast<std::uint32_t>(m);
  if (low < n) {
    const std::uint32_t threshold = (0u - n) % n;
    while (low < threshold) {
      m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

Action random_action(const Position& pos, Rng& rng) {
  HEXDICE_CHECK(!pos.game_over());
  // The mover's units and the running sum of their bounds.
  int cells[512];
  int cum[512];
  int n = 0, total = 0;
  const HouseRules rules = pos.rules();
  const auto& mask = pos.unit_mask(pos.to_move());
  for (int w = 0; w < Position::kMaskWords; ++w)
    for (std::uint64_t bits = mask[static_cast<std::size_t>(w)]; bits; bits &= bits - 1) {
      const int c = w * 64 + std::countr_zero(bits);
      total += max_unit_actions(pos.at(c).face, rules);
      cells[n] = c;
      cum[n++] = total;
    }
  HEXDICE_CHECK(n > 0);
  // Raw storage: Action's member initialisers would cost more than the generation.
  alignas(Action) unsigned char raw[sizeof(Action) * kMaxActionsPerUnit];
  Action* buf = reinterpret_cast<Action*>(raw);
  for (;;) {
    const int r = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
    int i = 0;
    while (cum[i] <= r) ++i;
    const int slot = r - (i ? cum[i - 1] : 0);  // uniform in [0, bound of unit i)
    const int k = unit_actions(pos, cells[i], buf);
    if (slot < k) {
      Action a = buf[slot];
      if (a.type == ActionType::Reroll) a.face = static_cast<std::uint8_t>(rng.face());
      return a;
    }
  }
}

int random_playout(Position& pos, Rng& rng, int max_actions) {
  int played = 0;
  while (played < max_actions && !pos.game_over()) {
    apply_unchecked(pos, random_action(pos, rng));
    ++played;
  }
  return played;
}

}  // namespace hexdice
