// Hex Dice rules (../shared/spec/rules.md sections 2 and 4-7): units, positions,
// legal action generation, checked and unchecked apply, winning and elimination.
//
// Dice are inputs: a reroll action carries its rolled face. Legal actions are
// generated into a caller's buffer (a reroll in that list has face 0). apply()
// validates and names the broken rule; apply_unchecked() is the fast path for search.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/result.h"

namespace hexdice {

// ---- Units (rules.md section 4) -------------------------------------------------

struct UnitStats {
  std::string_view name;
  int armor;
  int attack;
  int range;
  int distance;
};
// Indexed by face 1..6 (index 0 unused).
inline constexpr std::array<UnitStats, 7> kUnits = {{
    {"?", 0, 0, 0, 0},
    {"Infantry", 2, 2, 0, 2},
    {"Archer", 0, 2, 2, 2},
    {"Knight", 1, 2, 0, 3},
    {"Assault", 1, 3, 0, 2},
    {"Tanker", 4, 1, 0, 1},
    {"Balance", 5, 1, 1, 0},
}};
inline constexpr int kMaxTokens = 6;
constexpr bool valid_face(int f) { return f >= 1 && f <= 6; }
constexpr const UnitStats& unit_stats(int face) { return kUnits[static_cast<std::size_t>(valid_face(face) ? face : 0)]; }

// ---- House rules (rules.md "choice" items), stored with every game -------------

struct HouseRules {
  bool archer_star_free_path = true;    // section 4
  bool ranged_needs_clear_line = false; // section 5
  bool merge_sum = false;               // section 5
  bool operator==(const HouseRules&) const = default;
};

// ---- Position -------------------------------------------------------------------

struct Piece {
  std::int8_t owner = -1;  // player index, -1 = empty cell
  std::uint8_t face = 0;
  std::uint8_t tokens = 0;
  bool guard = false;
  bool empty() const { return owner < 0; }
  bool operator==(const Piece&) const = default;
};

constexpr int effective_armor(const Piece& p) {
  const int a = unit_stats(p.face).armor + (p.guard ? 1 : 0) - p.tokens;
  return a < 0 ? 0 : a;
}

struct Player {
  std::string id;     // the colour name of the player's dice
  int corner = 0;     // direction index of the corner (0 = N ... 5 = NW)
  bool eliminated = false;
  bool operator==(const Player&) const = default;
};

inline constexpr int kMaxPlayers = 6;

struct Action;
struct Outcome;

class Position {
 public:
  Position() = default;
  // Empty board; players in any order (turn order is clockwise by corner).
  // Errors: bad radius, player count not 2/3/4/6, duplicate ids or corners.
  static Result<Position> create(int radius, std::vector<Player> players, HouseRules rules = {});

  const Board& board() const { return *board_; }
  const std::shared_ptr<const Board>& board_ptr() const { return board_; }
  int radius() const { return board_->radius(); }
  const HouseRules& rules() const { return rules_; }
  HouseRules& mutable_rules() { return rules_; }

  int num_players() const { return static_cast<int>(players_.size()); }
  const Player& player(int p) const { return players_[static_cast<std::size_t>(p)]; }
  const std::vector<Player>& players() const { return players_; }
  int player_index(std::string_view id) const;  // -1 when unknown
  int to_move() const { return to_move_; }
  void set_to_move(int p) { to_move_ = p; }
  int winner() const { return winner_; }  // player index, or -1 while the game goes on
  void set_winner(int p) { winner_ = p; }
  bool game_over() const { return winner_ >= 0; }
  void set_eliminated(int p, bool e) { players_[static_cast<std::size_t>(p)].eliminated = e; }

  // Per-player geometry.
  int forward(int p) const { return geom_[static_cast<std::size_t>(p)].forward; }
  int base_cell(int p) const { return geom_[static_cast<std::size_t>(p)].base; }
  Hex corner_hex(int p) const { return board_->corner(player(p).corner); }
  bool in_deployment_zone(int p, Hex h) const;
  std::vector<Hex> deployment_zone(int p) const;
  // Next player after p (clockwise by corner) who is not eliminated.
  int next_player(int p) const;
  // Players in clockwise corner order.
  const std::vector<int>& turn_order() const { return order_; }

  const Piece& at(int idx) const { return cells_[static_cast<std::size_t>(idx)]; }
  const Piece* at(Hex h) const {
    const int i = board_->index(h);
    return i == kNoCell ? nullptr : &cells_[static_cast<std::size_t>(i)];
  }
  const std::vector<Piece>& cells() const { return cells_; }
  // Place a unit; errors when off the map, occupied, bad face/tokens/owner.
  Status place(Hex h, int owner, int face, int tokens = 0, bool guard = false);
  // Overwrite a cell (no rules checked; keeps the unit counts right).
  void set(int idx, const Piece& piece);
  void clear(int idx) { set(idx, Piece{}); }
  int unit_count(int p) const { return counts_[static_cast<std::size_t>(p)]; }
  // Cells holding player p's units as a bitset (bit i = cell index i), for fast scans.
  static constexpr int kMaskWords = (3 * kMaxRadius * (kMaxRadius + 1) + 1 + 63) / 64;
  using CellMask = std::array<std::uint64_t, kMaskWords>;
  const CellMask& unit_mask(int p) const { return masks_[static_cast<std::size_t>(p)]; }
  int total_units() const;

  bool operator==(const Position& o) const {
    return board_->radius() == o.board_->radius() && rules_ == o.rules_ && players_ == o.players_ &&
           to_move_ == o.to_move_ && winner_ == o.winner_ && cells_ == o.cells_;
  }

 private:
  struct Geom {
    int forward = 0;
    int base = kNoCell;
  };
  std::shared_ptr<const Board> board_;
  std::vector<Player> players_;
  std::array<Geom, kMaxPlayers> geom_{};
  std::vector<int> order_;
  std::vector<Piece> cells_;
  std::array<std::int16_t, kMaxPlayers> counts_{};
  std::array<CellMask, kMaxPlayers> masks_{};
  // The two primitives every board change goes through (keep counts and masks right).
  void remove_unit(int idx);
  void move_unit(int from, int to);
  HouseRules rules_;
  int to_move_ = 0;
  int winner_ = -1;
  friend int apply_unchecked(Position&, const Action&, Outcome*);
};

// ---- Actions ----------------------------------------------------------------------

enum class ActionType : std::uint8_t { Move = 0, Reroll, Guard, Ranged, Special, Merge };
inline constexpr std::array<std::string_view, 6> kActionNames = {"move", "reroll", "guard", "ranged", "special", "merge"};
constexpr std::string_view action_name(ActionType t) { return kActionNames[static_cast<std::size_t>(t)]; }

// Cells are board indices. `target` is the destination (move), target (ranged,
// special) or the merge partner (merge); kNoCell otherwise. `face` is the rolled
// face of a reroll (0 in a list of legal actions).
struct Action {
  ActionType type = ActionType::Guard;
  std::int16_t unit = kNoCell;
  std::int16_t target = kNoCell;
  std::uint8_t face = 0;
  bool operator==(const Action&) const = default;
};

struct Combat {
  int attack = 0;
  int armor = 0;  // the defender's effective armor
  bool success = false;
  bool operator==(const Combat&) const = default;
};

struct Outcome {
  std::optional<Combat> combat;
  std::vector<Hex> removed;       // cells whose units were taken off
  std::vector<int> eliminated;    // players eliminated by this action (3+ players)
  int winner = -1;                // player index or -1
  bool operator==(const Outcome&) const = default;
};

// Every legal action for the player to move (empty when the game is over).
// Fills `out` (cleared first); reroll entries carry face 0.
void legal_actions(const Position& pos, std::vector<Action>& out);
// Fast path: writes into buf, which must hold max_legal_actions(pos); returns the count.
// A unit has at most 18 moves + 6 ranged/special + 6 merges + reroll + guard.
inline constexpr int kMaxActionsPerUnit = 32;
inline int max_legal_actions(const Position& pos) { return pos.unit_count(pos.to_move()) * kMaxActionsPerUnit; }
int legal_actions(const Position& pos, Action* buf);
std::vector<Action> legal_actions(const Position& pos);
// Legal actions of the unit on one cell (must belong to the player to move).
void unit_actions(const Position& pos, int cell, std::vector<Action>& out);
// Fast path: buf holds kMaxActionsPerUnit; returns the count (0 if not the mover's unit).
int unit_actions(const Position& pos, int cell, Action* buf);
// Most actions a unit of this face can ever have under these house rules:
// moves + ranged/special + reroll + guard (+ 6 merges when merging is on).
constexpr int max_unit_actions(int face, const HouseRules& rules) {
  constexpr int kBound[7] = {0, 3 + 2, 18 + 6 + 2, 12 + 2, 8 + 2, 6 + 2, 6 + 2};
  return kBound[valid_face(face) ? face : 0] + (rules.merge_sum ? 6 : 0);
}
// Number of legal actions, without building the list.
int count_legal_actions(const Position& pos);

// Checks an action against the rules; the error names the rule it breaks.
Status validate(const Position& pos, const Action& a);
// Validates, then applies: the next position (turn passed on) and the outcome.
struct Applied {
  Position position;
  Outcome outcome;
};
Result<Applied> apply(const Position& pos, const Action& a);
// Fast path for search: no validation. Fills `out` if given. Returns the winner or -1.
int apply_unchecked(Position& pos, const Action& a, Outcome* out = nullptr);

// The combat an attack would produce now (nullopt for non-attacks / moves into empty cells).
std::optional<Combat> preview_combat(const Position& pos, const Action& a);

// Human-readable description, e.g. "Knight f2-g4 x Archer (2 vs 0: defeated)".
std::string describe(const Position& before, const Action& a, const Outcome* outcome = nullptr);

}  // namespace hexdice
