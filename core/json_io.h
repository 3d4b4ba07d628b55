// The JSON forms of interfaces.md: Position, Action, Outcome. One serialised form
// serves as file format, database payload and test fixture (STYLE.md point 7).
//
// Extensions (backward compatible): a position may carry "winner" (player id or
// null) and per player "eliminated": true; an outcome also lists "eliminated".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/rules.h"

namespace hexdice {

using Json = nlohmann::json;

Result<Position> position_from_json(const Json& j);
Result<Position> parse_position(std::string_view text);
Json to_json(const Position& pos);

// Parses an action against a position (cells must lie on its map).
Result<Action> action_from_json(const Json& j, const Position& pos);
Result<Action> parse_action(std::string_view text, const Position& pos);
Json to_json(const Action& a, const Board& board);

Json to_json(const Outcome& o, const Position& before);
HouseRules house_rules_from_json(const Json& j);  // missing keys keep defaults
Json to_json(const HouseRules& r);

// [q, r] helpers.
Json hex_json(Hex h);

}  // namespace hexdice
