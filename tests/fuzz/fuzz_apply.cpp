// libFuzzer: position and action parsing, legal action generation and apply.
// Input: POSITION_JSON '\x00' ACTION_JSON (no NUL: the whole input is a position).
// Whatever the bytes, parsing either succeeds or returns an error; a parsed position's
// legal actions all validate; apply either succeeds or names the rule; results round-trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/json_io.h"
#include "core/playout.h"

using namespace hexdice;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const auto nul = all.find('\0');
  const std::string_view pos_text = all.substr(0, nul);
  auto pos = parse_position(pos_text);
  if (!pos.ok()) return 0;
  if (pos->total_units() > 200) return 0;  // keep each run fast

  std::vector<Action> acts;
  legal_actions(*pos, acts);
  for (const Action& a : acts) {
    Action b = a;
    if (b.type == ActionType::Reroll) b.face = 4;
    if (!validate(*pos, b).ok()) std::abort();
  }
  auto back = position_from_json(to_json(*pos));
  if (!back.ok() || !(*back == *pos)) std::abort();

  if (nul != std::string_view::npos) {
    auto action = parse_action(all.substr(nul + 1), *pos);
    if (!action.ok()) return 0;
    auto applied = apply(*pos, *action);
    if (applied.ok()) {
      auto again = position_from_json(to_json(applied->position));
      if (!again.ok() || !(*again == applied->position)) std::abort();
      (void)to_json(applied->outcome, *pos).dump();
      (void)describe(*pos, *action, &applied->outcome);
    } else if (applied.error().empty()) {
      std::abort();
    }
  }
  return 0;
}
