// Hexa Decimal and its variants Hexa Demial and Hexa Threcimal
// (docs/rules-hexadecimal.md; seed seeds/002_f7bb3777d9fa2463.txt).
//
// A radius-5 hexagon without its centre hex (90 cells), six triangular segments of
// ten cells between the six roads (the lines from the hole to the corners), ten piece
// types whose moves mostly depend on friendly Pawns, Pawn regeneration by the Pawn
// Master, Pawn Master regeneration by the King, promotion by segment invasion, check,
// mate, stalemate and three-fold repetition.
//
// Coordinates are the project's axial (q, r) on the flat-top map (rules.md section 1).
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

namespace hexdice::hexadecimal {

inline constexpr int kRadius = 5;
inline constexpr int kCells = 91;  // board indices; the centre (the hole) is never used
inline constexpr int kMaxPawns = 10;

enum class Kind : std::uint8_t { Pawn = 0, Soldier, Prince, Disruptor, Elephant, Guard, Star, Wizard, PawnMaster, King };
inline constexpr int kNumKinds = 10;
inline constexpr std::array<std::string_view, kNumKinds> kKindNames = {
    "pawn", "soldier", "prince", "disruptor", "elephant", "guard", "star", "wizard", "pawn_master", "king"};
int kind_from_name(std::string_view name);  // -1 when unknown
constexpr std::string_view kind_name(Kind k) { return kKindNames[static_cast<std::size_t>(k)]; }

enum class Variant : std::uint8_t { Standard = 0, Demial, Threcimal };
inline constexpr std::array<std::string_view, 3> kVariantNames = {"standard", "demial", "threcimal"};

// Segment i lies between road i and road i+1 (roads are the directions N..NW).
inline constexpr std::array<std::string_view, 6> kSegmentNames = {"N-NE", "NE-SE", "SE-S", "S-SW", "SW-NW", "NW-N"};

struct HouseRules {
  bool elephant_slide = false;     // section 4.5: Elephant may also slide without trampling
  bool demote_any_time = true;     // section 7: a second King may turn into the Pawn Master any time
  bool repetition_draw = true;     // section 8: the third repetition is a draw at once
  bool operator==(const HouseRules&) const = default;
};

struct Cell {
  std::int8_t owner = -1;  // player index; -1 empty
  Kind kind = Kind::Pawn;
  bool empty() const { return owner < 0; }
  bool operator==(const Cell&) const = default;
};

struct State {
  Variant variant = Variant::Standard;
  std::vector<std::string> ids;     // players in turn order (white, black[, green])
  std::vector<bool> eliminated;     // Threcimal only
  std::array<Cell, kCells> cells{};
  int to_move = 0;
  bool over = false;
  int winner = -1;                  // over && winner < 0 = draw
  std::string reason;               // why the game ended ("checkmate", "stalemate", "repetition", "last_player", "no_moves")
  std::vector<std::uint64_t> history;  // hashes of every position so far (after each move), start included
  HouseRules rules;
  bool operator==(const State&) const = default;

  static const Board& board();
  int num_players() const { return static_cast<int>(ids.size()); }
  int count(int p, Kind k) const;
  int player_index(std::string_view id) const;
  std::uint64_t hash() const;  // of cells and player to move
};

bool is_hole(int idx);
// Segment (0..5) of a cell, or -1 on a road.
int segment_of(int idx);
// Segments a player starts in (their own), and those it may invade (the others').
std::vector<int> home_segments(Variant v, int player);
std::vector<int> invadable_segments(Variant v, int num_players, int player);
// How many pieces of a kind an army starts with.
int initial_count(Variant v, Kind k);

Result<State> start(Variant v, HouseRules rules = {});

enum class Type : std::uint8_t { Move = 0, Wizard, Promote, Demote };
struct Action {
  Type type = Type::Move;
  std::int16_t from = -1;     // moving piece (move, wizard) or the King (demote)
  std::int16_t to = -1;
  std::int16_t via = -1;      // wizard: the Wizard the piece leaps over
  std::int8_t segment = -1;   // promote
  Kind kind = Kind::Pawn;     // promote: the piece the Pawn Master becomes
  bool operator==(const Action&) const = default;
};

struct Outcome {
  std::vector<int> removed;                   // cells emptied of a captured/removed piece
  std::vector<std::pair<int, Kind>> placed;   // pieces created (Pawns, Pawn Master, promotion)
  std::vector<int> eliminated;                // Threcimal
  std::vector<int> in_check;                  // players whose King is attacked after the move
};

// Pseudo-legal moves (ignoring check) and legal moves of the player to move.
void pseudo_actions(const State& s, std::vector<Action>& out);
void legal_actions(const State& s, std::vector<Action>& out);
std::vector<Action> legal_actions(const State& s);
// True when player p's King on `cell` could be taken by player `by` (section 8).
bool attacked(const State& s, int cell, int by);
bool in_check(const State& s, int p);

Status validate(const State& s, const Action& a);
// Fast path: the move's effects and the turn passing on; no validation.
void apply_unchecked(State& s, const Action& a, Outcome* out = nullptr);
struct Applied {
  State state;
  Outcome outcome;
};
Result<Applied> apply(const State& s, const Action& a);
// Legal-move tree leaf count to `depth` (perft).
std::uint64_t perft(const State& s, int depth);

Json to_json(const State& s);
Result<State> state_from_json(const Json& j);
Json to_json(const Action& a);
Result<Action> action_from_json(const Json& j);
Json to_json(const Outcome& o, const State& after);
// One line for a log, e.g. "Prince e4xf3 (Soldier)".
std::string describe(const State& before, const Action& a);

// The winner's id, or null (game on, or drawn).
Json winner_id(const State& s);

std::shared_ptr<const Ruleset> make_ruleset();

}  // namespace hexdice::hexadecimal
