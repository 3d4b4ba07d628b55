// Wizard Hex (docs/rules-wizardhex.md; seed seeds/003_54c90e20dfff8efc.txt).
//
// A 19-space board (radius 2), six elements seated clockwise around it, one to six
// Wizards each playing a primary element plus the two elements seated beside it.
// Expand / Stack / Attack, one move on a Wizard's first turn and two afterwards,
// Bronze/Silver/Gold stacks, forced moves and skipped turns.
//
// With dice: a token is a die, its element the die colour, its level the face (1-3).
// Typed state and move generation here; JSON forms and the Ruleset adapter in
// wizardhex.cpp. Move generation fills a caller's buffer; apply() names the broken rule.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/result.h"
#include "core/ruleset.h"

namespace hexdice::wizardhex {

// Seating order, clockwise; element e sits at board edge e (between corners e and e+1).
enum Element : std::int8_t { kIce = 0, kEarth, kFire, kLightning, kWind, kWater };
inline constexpr int kNumElements = 6;
inline constexpr std::array<std::string_view, kNumElements> kElementNames = {"ice", "earth", "fire",
                                                                             "lightning", "wind", "water"};
// Default die colour of each element (docs/rules-wizardhex.md section 2; a calibration may remap).
inline constexpr std::array<std::string_view, kNumElements> kElementColours = {"white", "green", "red",
                                                                               "yellow", "black", "blue"};
inline constexpr int kRadius = 2;
inline constexpr int kCells = 19;
inline constexpr int kGold = 3;

int element_from_name(std::string_view name);  // -1 when unknown
// Circular distance between two seats (0..3). Allies are at distance 1.
constexpr int element_distance(int a, int b) {
  const int d = ((a - b) % kNumElements + kNumElements) % kNumElements;
  return d > 3 ? kNumElements - d : d;
}
// An element may attack another only when they are neither the same nor allies.
constexpr bool may_attack(int attacker, int defender) { return element_distance(attacker, defender) >= 2; }

struct HouseRules {
  bool first_turn_single_move = true;   // section 5: a Wizard's first turn has one move
  bool first_turn_start_only = true;    // section 5: ... and it enters on one of the three starting spaces
  bool start_on_own_side = true;        // section 6: starting spaces are the Wizard's side (off: the element's side)
  bool tie_break_allies = true;         // section 8: ties are broken by primary + allies
  bool operator==(const HouseRules&) const = default;
};

struct Token {
  std::int8_t element = -1;  // -1 = empty space
  std::uint8_t level = 0;    // 1 Bronze, 2 Silver, 3 Gold
  bool empty() const { return element < 0; }
  bool operator==(const Token&) const = default;
};

struct Wizard {
  std::string id;
  int element = 0;
  bool played = false;      // has had a turn (the first turn has one move)
  bool entered = false;     // its primary element has been on the board
  bool eliminated = false;  // entered, then lost every primary token
  bool operator==(const Wizard&) const = default;
};

struct State {
  std::vector<Wizard> wizards;  // seat order (clockwise by element)
  int to_move = 0;              // wizard index
  int moves_left = 1;
  bool first_turn = true;       // this is the mover's first turn (one move, starting spaces only)
  std::array<Token, kCells> cells{};
  std::array<int, kNumElements> supply{-1, -1, -1, -1, -1, -1};  // tokens per element, -1 = unlimited
  HouseRules rules;
  bool over = false;
  int winner = -1;  // wizard index; over && winner < 0 = draw
  bool operator==(const State&) const = default;

  static const Board& board();
  // Tokens of element e still in its stack (its supply minus the levels on the board).
  int available(int e) const;
  int count_cells(int e) const;  // spaces whose top element is e
  bool full() const;
  int wizard_index(std::string_view id) const;
};

// A new game; wizards' order in the list does not matter (seated by element); the
// first listed moves first. Errors: 1..6 wizards, unique ids and elements.
Result<State> start(std::vector<Wizard> wizards, HouseRules rules = {});

// The three starting spaces of a seat (edge e of the board), as board indices.
std::array<int, 3> starting_spaces(int seat);
// The elements Wizard w may play: its primary element and its two allies.
std::array<int, 3> controlled(const State& s, int w);

enum class Type : std::uint8_t { Expand = 0, Stack, Attack };
inline constexpr std::array<std::string_view, 3> kTypeNames = {"expand", "stack", "attack"};

struct Action {
  Type type = Type::Expand;
  std::int8_t element = -1;   // expand: the element placed
  std::int16_t cell = -1;     // expand: destination; stack: the stack; attack: the attacker
  std::int16_t target = -1;   // attack: the defender
  bool operator==(const Action&) const = default;
};

enum class AttackResult : std::uint8_t { BothEliminated, WeakerEliminated, GoldTakesOver };
struct Outcome {
  std::vector<int> removed;     // cells emptied by an attack
  int attacker_level = 0, defender_level = 0;
  bool attack = false;
  AttackResult result = AttackResult::BothEliminated;
  std::vector<int> eliminated;  // wizards eliminated by this move
  std::vector<int> skipped;     // wizards whose turn was skipped (no legal move)
};

void legal_actions(const State& s, std::vector<Action>& out);
std::vector<Action> legal_actions(const State& s);
Status validate(const State& s, const Action& a);
// Fast path: no validation.
void apply_unchecked(State& s, const Action& a, Outcome* out = nullptr);
struct Applied {
  State state;
  Outcome outcome;
};
Result<Applied> apply(const State& s, const Action& a);

// Final scores: cells of the primary element, and of primary plus allies.
struct Score {
  int primary = 0;
  int with_allies = 0;
};
Score score(const State& s, int w);

// JSON forms (docs/rules-wizardhex.md section 10).
Json to_json(const State& s);
Result<State> state_from_json(const Json& j);
Json to_json(const Action& a);
Result<Action> action_from_json(const Json& j);
Json to_json(const Outcome& o, const State& after);
// One line for a log, e.g. "attack c3 (fire Gold) x c4 (ice Bronze)".
std::string describe(const State& before, const Action& a);

// With dice (section 2): the die colour of each element, by element index. Defaults to
// kElementColours; a calibration may remap.
using DieColours = std::array<std::string, kNumElements>;
DieColours default_die_colours();
// The tokens seen by the board reader (an interfaces.md observation JSON: board_found,
// cells [{q, r, color, face, guard, confidence}]) put into `base`, which supplies what a
// camera cannot see (Wizards, the player to move, moves left, supply, house rules).
// Wizards whose primary element is seen are marked entered. Errors, one line naming the
// space: board not found, a die off the 19 spaces, a colour of no element, a face 4-6.
Result<State> position_from_observation(const State& base, const Json& observation,
                                        const DieColours& colours = default_die_colours());

// The winner's id, or null (game on, or drawn).
Json winner_id(const State& s);

std::shared_ptr<const Ruleset> make_ruleset();

}  // namespace hexdice::wizardhex
