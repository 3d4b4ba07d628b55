// A ruleset: one game the referee can enforce, behind a JSON interface.
//
// Every game speaks the same JSON contract (interfaces.md): a Position object whose
// "ruleset" key names the game ("hexdice" when absent), Action objects with a "type",
// and apply() giving {"position": ..., "outcome": ...}. Games keep their own typed C++
// state inside; this interface is what the command line, the game record and the GUI
// can use without knowing which game is played.
//
// Registry: rulesets are found by name. The built-in games are listed once in
// core/ruleset.cpp (one line each); adding a game adds a folder and that one line and
// touches no other game. register_ruleset() adds or replaces one at run time.
// Variants of a game are chosen by the position's "variant" key (e.g. Hexa Decimal:
// "standard", "demial", "threcimal"), never by a separate ruleset name.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/hex.h"
#include "core/result.h"

namespace hexdice {

using Json = nlohmann::json;

struct AppliedJson {
  Json position;  // the next position, same format
  Json outcome;   // what happened: at least "removed" (cells) and "winner" (id or null)
};

class Ruleset {
 public:
  virtual ~Ruleset() = default;
  // The "ruleset" key value, e.g. "wizardhex".
  virtual std::string_view name() const = 0;
  // Variant names ("variant" key); empty when the game has none.
  virtual std::vector<std::string> variants() const { return {}; }
  // The start position of a variant ("" = default), or an error for an unknown one.
  virtual Result<Json> start_position(std::string_view variant) const = 0;
  // Parses and checks a position; returns its canonical JSON (all defaults filled in).
  virtual Result<Json> normalize(const Json& position) const = 0;
  // Every legal action of the player to move, as a JSON array (empty when over).
  virtual Result<Json> legal_actions(const Json& position) const = 0;
  // Validates and applies one action. The error names the rule the action breaks.
  virtual Result<AppliedJson> apply(const Json& position, const Json& action) const = 0;
  // The winner's player id, or null (game on, or drawn).
  virtual Result<Json> winner(const Json& position) const = 0;
  // True when the game has ended (a win or a draw).
  virtual Result<bool> game_over(const Json& position) const = 0;
  // The human name of a cell of this game's board ("" when off the board).
  virtual std::string cell_name(const Json& position, Hex h) const = 0;
  // Every playable cell of the position's board (for drawing; Hexa Decimal omits its hole).
  virtual Result<std::vector<Hex>> cells(const Json& position) const = 0;
  // One line for a game log, e.g. "Prince d4xe3 (soldier)"; "?" for an unreadable action.
  virtual std::string describe(const Json& position, const Json& action) const = 0;
  // Why the game ended, as one word for a game record ("checkmate", "stalemate",
  // "repetition", "elimination", "score"...); "" while the game is on. The default reads
  // the position's "reason" string, else says "win" or "draw".
  virtual Result<std::string> end_reason(const Json& position) const;
  // The id of the player to move ("" when the position has none).
  virtual std::string to_move(const Json& position) const;
};

// The JSON side of a game with typed state, written once for every game. The game's
// namespace provides, found by argument-dependent lookup on its State/Action/Outcome:
//   Json to_json(const State&), Json to_json(const Action&),
//   Json to_json(const Outcome&, const State& after),
//   std::vector<Action> legal_actions(const State&),
//   Result<{state, outcome}> apply(const State&, const Action&),
//   Json winner_id(const State&) (the winner's id or null),
//   std::string describe(const State& before, const Action&),
// a `bool over` member of State, and the two parsers given as template arguments.
// The game's adapter derives from TypedRuleset and adds name(), variants(),
// start_position(), cell_name() and cells().
namespace typed_ruleset_detail {
// Free helpers so that the unqualified calls find the game's functions by ADL
// (inside the class the member names legal_actions/apply/... would hide them).
template <class S>
auto legal(const S& s) { return legal_actions(s); }
template <class S, class A>
auto applied(const S& s, const A& a) { return apply(s, a); }
template <class S>
Json winner_of(const S& s) { return winner_id(s); }
template <class S, class A>
std::string describe_line(const S& s, const A& a) { return describe(s, a); }
}  // namespace typed_ruleset_detail

template <class State, class Action, Result<State> (*kStateFromJson)(const Json&),
          Result<Action> (*kActionFromJson)(const Json&)>
class TypedRuleset : public Ruleset {
 public:
  Result<Json> normalize(const Json& position) const override {
    auto s = kStateFromJson(position);
    if (!s) return Error{s.error()};
    return to_json(*s);
  }
  Result<Json> legal_actions(const Json& position) const override {
    auto s = kStateFromJson(position);
    if (!s) return Error{s.error()};
    Json out = Json::array();
    for (const Action& a : typed_ruleset_detail::legal(*s)) out.push_back(to_json(a));
    return out;
  }
  Result<AppliedJson> apply(const Json& position, const Json& action) const override {
    auto s = kStateFromJson(position);
    if (!s) return Error{s.error()};
    auto a = kActionFromJson(action);
    if (!a) return Error{a.error()};
    auto r = typed_ruleset_detail::applied(*s, *a);
    if (!r) return Error{"illegal action: " + r.error()};
    return AppliedJson{to_json(r->state), to_json(r->outcome, r->state)};
  }
  Result<Json> winner(const Json& position) const override {
    auto s = kStateFromJson(position);
    if (!s) return Error{s.error()};
    return typed_ruleset_detail::winner_of(*s);
  }
  Result<bool> game_over(const Json& position) const override {
    auto s = kStateFromJson(position);
    if (!s) return Error{s.error()};
    return static_cast<bool>(s->over);
  }
  std::string describe(const Json& position, const Json& action) const override {
    auto s = kStateFromJson(position);
    auto a = kActionFromJson(action);
    if (!s || !a) return "?";
    return typed_ruleset_detail::describe_line(*s, *a);
  }
};

// The "ruleset" key of a position: "hexdice" when absent; "" when it is not a string.
std::string ruleset_key(const Json& position);
// The registered ruleset of that name, or nullptr.
const Ruleset* find_ruleset(std::string_view name);
// The ruleset a position names, or an error line listing the known ones.
Result<const Ruleset*> ruleset_for(const Json& position);
// Names of every registered ruleset, sorted.
std::vector<std::string> ruleset_names();
// Adds (or replaces, by name) a ruleset.
void register_ruleset(std::shared_ptr<const Ruleset> ruleset);

// Parses JSON text; one error line on malformed input.
Result<Json> parse_json(std::string_view text, std::string_view what);

}  // namespace hexdice
