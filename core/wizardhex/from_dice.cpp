// Wizard Hex with dice: the board reader's observation -> the tokens of a position
// (docs/rules-wizardhex.md section 2: the die colour is the element, the face the level).
#include <algorithm>

#include "core/wizardhex/wizardhex.h"

namespace hexdice::wizardhex {

DieColours default_die_colours() {
  DieColours c;
  for (int e = 0; e < kNumElements; ++e) c[static_cast<std::size_t>(e)] = std::string(kElementColours[static_cast<std::size_t>(e)]);
  return c;
}

Result<State> position_from_observation(const State& base, const Json& obs, const DieColours& colours) {
  if (!obs.is_object()) return Error{"observation: expected a JSON object"};
  if (!obs.value("board_found", false)) return Error{"observation: the board was not found in the image"};
  if (!obs.contains("cells") || !obs["cells"].is_array()) return Error{"observation: \"cells\" must be an array"};
  State s = base;
  s.cells.fill(Token{});
  const Board& board = State::board();
  for (const Json& c : obs["cells"]) {
    if (!c.is_object() || !c.contains("q") || !c.contains("r") || !c["q"].is_number_integer() || !c["r"].is_number_integer())
      return Error{"observation: each cell needs integer \"q\" and \"r\""};
    const Hex h{c["q"].get<int>(), c["r"].get<int>()};
    if (!board.contains(h))
      return Error{"observation: a die at (" + std::to_string(h.q) + ", " + std::to_string(h.r) +
                   ") is off the 19 spaces of the Wizard Hex board (is the layout the radius-2 board.json?)"};
    const std::string where = board.name(h);
    const std::string colour = c.contains("color") && c["color"].is_string() ? c["color"].get<std::string>() : "";
    const auto it = std::find(colours.begin(), colours.end(), colour);
    if (it == colours.end())
      return Error{"observation: " + where + " shows a " + (colour.empty() ? "colourless" : colour) +
                   " die, which is no element's colour (a misread)"};
    const int face = c.contains("face") && c["face"].is_number_integer() ? c["face"].get<int>() : 0;
    if (face < 1 || face > kGold)
      return Error{"observation: " + where + " shows face " + std::to_string(face) +
                   ": Wizard Hex levels are faces 1-3 (Bronze, Silver, Gold), so this is a misread"};
    Token& t = s.cells[static_cast<std::size_t>(board.index(h))];
    t.element = static_cast<std::int8_t>(it - colours.begin());
    t.level = static_cast<std::uint8_t>(face);
  }
  // More tokens of an element than its supply: a die was misread (or is not in the game).
  for (int e = 0; e < kNumElements; ++e)
    if (s.supply[static_cast<std::size_t>(e)] >= 0 && s.available(e) < 0)
      return Error{"observation: " + std::to_string(s.supply[static_cast<std::size_t>(e)] - s.available(e)) + " " +
                   std::string(kElementNames[static_cast<std::size_t>(e)]) + " tokens on the board, but its supply is " +
                   std::to_string(s.supply[static_cast<std::size_t>(e)]) + " (section 2)"};
  // A Wizard whose primary element is on the board has entered (sticky, section 8).
  for (Wizard& w : s.wizards)
    if (s.count_cells(w.element) > 0) w.entered = true;
  // The same checks as any position (supply, levels): through the JSON form.
  auto checked = state_from_json(to_json(s));
  if (!checked) return Error{"observation: " + checked.error()};
  return checked;
}

}  // namespace hexdice::wizardhex
