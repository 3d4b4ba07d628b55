#include "core/rules.h"

#include <algorithm>
#include <bit>
#include <set>

namespace hexdice {

// ---- Position ----------------------------------------------------------------------

Result<Position> Position::create(int radius, std::vector<Player> players, HouseRules rules) {
  if (radius < kMinRadius || radius > kMaxRadius)
    return Error{"radius " + std::to_string(radius) + " is out of range " + std::to_string(kMinRadius) + ".." +
                 std::to_string(kMaxRadius)};
  const auto n = players.size();
  if (n != 2 && n != 3 && n != 4 && n != 6)
    return Error{"Hex Dice is played by 2, 3, 4 or 6 players (rules.md section 2), got " + std::to_string(n)};
  std::set<std::string> ids;
  std::set<int> corners;
  for (const auto& p : players) {
    if (p.id.empty()) return Error{"a player id must not be empty"};
    if (!ids.insert(p.id).second) return Error{"player id \"" + p.id + "\" is listed twice"};
    if (p.corner < 0 || p.corner >= kNumDirs) return Error{"player \"" + p.id + "\" has no valid corner"};
    if (!corners.insert(p.corner).second)
      return Error{"two players share the corner " + std::string(kDirNames[static_cast<std::size_t>(p.corner)])};
  }
  Position pos;
  pos.board_ = Board::get(radius);
  pos.players_ = std::move(players);
  pos.rules_ = rules;
  pos.cells_.assign(static_cast<std::size_t>(pos.board_->size()), Piece{});
  for (std::size_t i = 0; i < n; ++i) {
    const int c = pos.players_[i].corner;
    const int fwd = opposite(c);
    const Hex corner = pos.board_->corner(c);
    pos.geom_[i].forward = fwd;
    pos.geom_[i].base = pos.board_->index(n == 2 ? neighbor(corner, fwd) : corner);
    pos.order_.push_back(static_cast<int>(i));
  }
  std::sort(pos.order_.begin(), pos.order_.end(),
            [&](int a, int b) { return pos.player(a).corner < pos.player(b).corner; });
  pos.to_move_ = pos.order_.front();
  return pos;
}

int Position::player_index(std::string_view id) const {
  for (int i = 0; i < num_players(); ++i)
    if (players_[static_cast<std::size_t>(i)].id == id) return i;
  return -1;
}

bool Position::in_deployment_zone(int p, Hex h) const {
  return board_->contains(h) && distance(h, corner_hex(p)) <= 2;
}

std::vector<Hex> Position::deployment_zone(int p) const {
  std::vector<Hex> out;
  for (Hex h : spiral(corner_hex(p), 2))
    if (board_->contains(h)) out.push_back(h);
  std::sort(out.begin(), out.end(), [&](Hex a, Hex b) { return board_->index(a) < board_->index(b); });
  return out;
}

int Position::next_player(int p) const {
  const auto it = std::find(order_.begin(), order_.end(), p);
  const auto k = static_cast<std::size_t>(it - order_.begin());
  for (std::size_t step = 1; step <= order_.size(); ++step) {
    const int q = order_[(k + step) % order_.size()];
    if (!player(q).eliminated) return q;
  }
  return p;
}

namespace {
inline void mask_set(Position::CellMask& m, int idx) { m[static_cast<std::size_t>(idx >> 6)] |= std::uint64_t{1} << (idx & 63); }
inline void mask_clear(Position::CellMask& m, int idx) {
  m[static_cast<std::size_t>(idx >> 6)] &= ~(std::uint64_t{1} << (idx & 63));
}
}  // namespace

void Position::set(int idx, const Piece& piece) {
  if (!at(idx).empty()) remove_unit(idx);
  if (piece.empty()) return;
  cells_[static_cast<std::size_t>(idx)] = piece;
  ++counts_[static_cast<std::size_t>(piece.owner)];
  mask_set(masks_[static_cast<std::size_t>(piece.owner)], idx);
}

void Position::remove_unit(int idx) {
  auto& cell = cells_[static_cast<std::size_t>(idx)];
  --counts_[static_cast<std::size_t>(cell.owner)];
  mask_clear(masks_[static_cast<std::size_t>(cell.owner)], idx);
  cell = Piece{};
}

void Position::move_unit(int from, int to) {
  auto& src = cells_[static_cast<std::size_t>(from)];
  auto& m = masks_[static_cast<std::size_t>(src.owner)];
  mask_clear(m, from);
  mask_set(m, to);
  cells_[static_cast<std::size_t>(to)] = src;
  src = Piece{};
}

Status Position::place(Hex h, int owner, int face, int tokens, bool guard) {
  const int idx = board_->index(h);
  if (idx == kNoCell)
    return Error{"cell (" + std::to_string(h.q) + "," + std::to_string(h.r) + ") is off the radius-" +
                 std::to_string(radius()) + " map"};
  if (owner < 0 || owner >= num_players()) return Error{"unit on " + board_->name(h) + " has no valid owner"};
  if (!valid_face(face))
    return Error{"unit on " + board_->name(h) + " has face " + std::to_string(face) + "; a unit face is 1-6"};
  if (tokens < 0 || tokens > kMaxTokens)
    return Error{"unit on " + board_->name(h) + " has " + std::to_string(tokens) +
                 " reduction tokens; the count is 0-6 (rules.md section 6)"};
  if (!at(idx).empty()) return Error{"two units on one cell: " + board_->name(h) + " (one unit per hex)"};
  set(idx, Piece{static_cast<std::int8_t>(owner), static_cast<std::uint8_t>(face), static_cast<std::uint8_t>(tokens), guard});
  return {};
}

int Position::total_units() const {
  int n = 0;
  for (int p = 0; p < num_players(); ++p) n += unit_count(p);
  return n;
}

// ---- Action generation ------------------------------------------------------------

namespace {

struct Gen {
  const Position& pos;
  const Board& b;
  Action* w;  // output cursor; the caller guarantees kMaxActionsPerUnit per unit
  int owner;
  const Piece* cells = pos.cells().data();
  const std::int16_t* nbr = b.neighbor_table();

  int nb(int idx, int d) const { return nbr[idx * 6 + d]; }
  bool friendly(int idx) const { return cells[idx].owner == owner; }
  bool enemy(int idx) const {
    const auto o = cells[idx].owner;
    return o >= 0 && o != owner;
  }
  bool empty(int idx) const { return cells[idx].owner < 0; }
  void emit(ActionType t, int from, int to) {
    *w++ = Action{t, static_cast<std::int16_t>(from), static_cast<std::int16_t>(to), 0};
  }
  void move(int from, int to) { emit(ActionType::Move, from, to); }
  void other(ActionType t, int from, int to) { emit(t, from, to); }
  // A ray of up to `len` steps; stops at the first occupied cell (which is a target if enemy).
  void ray(int c, int d, int len) {
    int t = c;
    for (int i = 0; i < len; ++i) {
      t = nb(t, d);
      if (t == kNoCell || friendly(t)) return;
      move(c, t);
      if (!empty(t)) return;
    }
  }

  void unit(int c) {
    const Piece& p = pos.at(c);
    const int fwd = pos.forward(owner);
    switch (p.face) {
      case 1:  // Infantry: up to 2 forward, or 1 backward
        ray(c, fwd, 2);
        ray(c, opposite(fwd), 1);
        break;
      case 2: {  // Archer: star up to 2 steps; ranged at exactly 2 in a line
        if (pos.rules().archer_star_free_path) {
          // Ring 2 has 12 cells: 2*dir(d), reached through dir(d), and dir(d)+dir(d+1),
          // reached through either dir(d) or dir(d+1). Each is emitted once.
          int t1s[6];
          bool open[6];
          for (int d = 0; d < 6; ++d) {
            const int t1 = nb(c, d);
            t1s[d] = t1;
            open[d] = t1 != kNoCell && empty(t1);
            if (t1 != kNoCell && !friendly(t1)) move(c, t1);
          }
          for (int d = 0; d < 6; ++d) {
            const int d1 = d == 5 ? 0 : d + 1;
            if (open[d]) {
              const int t2 = nb(t1s[d], d);
              if (t2 != kNoCell && !friendly(t2)) move(c, t2);
            }
            if (open[d] || open[d1]) {
              const int t2 = open[d] ? nb(t1s[d], d1) : nb(t1s[d1], d);
              if (t2 != kNoCell && !friendly(t2)) move(c, t2);
            }
          }
        } else {
          for (int d = 0; d < 6; ++d) ray(c, d, 2);
        }
        for (int d = 0; d < 6; ++d) {
          const int t1 = nb(c, d);
          if (t1 == kNoCell) continue;
          const int t2 = nb(t1, d);
          if (t2 == kNoCell || !enemy(t2)) continue;
          if (pos.rules().ranged_needs_clear_line && !empty(t1)) continue;
          other(ActionType::Ranged, c, t2);
        }
        break;
      }
      case 3:  // Knight: 2 straight (over friends), then 1 turning
        for (int d = 0; d < 6; ++d) {
          const int t1 = nb(c, d);
          if (t1 == kNoCell || enemy(t1)) continue;
          const int t2 = nb(t1, d);
          if (t2 == kNoCell || enemy(t2)) continue;
          for (int e : {d + 5, d + 1}) {
            const int t3 = nb(t2, e % 6);
            if (t3 != kNoCell && !friendly(t3)) move(c, t3);
          }
        }
        break;
      case 4:  // Assault: up to 2 along the four diagonals
        for (int d = 0; d < 6; ++d)
          if (d != fwd && d != opposite(fwd)) ray(c, d, 2);
        break;
      case 5:  // Tanker: 1 step anywhere
        for (int d = 0; d < 6; ++d) ray(c, d, 1);
        break;
      case 6:  // Balance: special attack on an adjacent enemy
        for (int d = 0; d < 6; ++d) {
          const int t = nb(c, d);
          if (t != kNoCell && enemy(t)) other(ActionType::Special, c, t);
        }
        break;
      default:
        break;
    }
    if (pos.rules().merge_sum)
      for (int d = 0; d < 6; ++d) {
        const int t = nb(c, d);
        if (t != kNoCell && friendly(t)) other(ActionType::Merge, c, t);
      }
    other(ActionType::Reroll, c, kNoCell);
    other(ActionType::Guard, c, kNoCell);
  }
};

}  // namespace

int legal_actions(const Position& pos, Action* buf) {
  if (pos.game_over()) return 0;
  Gen g{pos, pos.board(), buf, pos.to_move()};
  const auto& mask = pos.unit_mask(pos.to_move());
  for (int w = 0; w < Position::kMaskWords; ++w)
    for (std::uint64_t bits = mask[static_cast<std::size_t>(w)]; bits; bits &= bits - 1)
      g.unit(w * 64 + std::countr_zero(bits));
  return static_cast<int>(g.w - buf);
}

void legal_actions(const Position& pos, std::vector<Action>& out) {
  out.resize(static_cast<std::size_t>(max_legal_actions(pos)));
  out.resize(static_cast<std::size_t>(legal_actions(pos, out.data())));
}

std::vector<Action> legal_actions(const Position& pos) {
  std::vector<Action> out;
  legal_actions(pos, out);
  return out;
}

int unit_actions(const Position& pos, int cell, Action* buf) {
  if (pos.game_over() || cell < 0 || cell >= pos.board().size() || pos.at(cell).owner != pos.to_move()) return 0;
  Gen g{pos, pos.board(), buf, pos.to_move()};
  g.unit(cell);
  return static_cast<int>(g.w - buf);
}

void unit_actions(const Position& pos, int cell, std::vector<Action>& out) {
  out.clear();
  if (pos.game_over() || cell < 0 || cell >= pos.board().size() || pos.at(cell).owner != pos.to_move()) return;
  out.resize(kMaxActionsPerUnit);
  Gen g{pos, pos.board(), out.data(), pos.to_move()};
  g.unit(cell);
  out.resize(static_cast<std::size_t>(g.w - out.data()));
}

int count_legal_actions(const Position& pos) {
  thread_local std::vector<Action> buf;
  legal_actions(pos, buf);
  return static_cast<int>(buf.size());
}

// ---- Apply ------------------------------------------------------------------------------

std::optional<Combat> preview_combat(const Position& pos, const Action& a) {
  if (a.type != ActionType::Move && a.type != ActionType::Ranged && a.type != ActionType::Special) return std::nullopt;
  if (a.target < 0 || a.target >= pos.board().size() || a.unit < 0 || a.unit >= pos.board().size()) return std::nullopt;
  const Piece& att = pos.at(a.unit);
  const Piece& def = pos.at(a.target);
  if (def.empty() || att.empty() || def.owner == att.owner) return std::nullopt;
  Combat c;
  c.attack = unit_stats(att.face).attack;
  c.armor = effective_armor(def);
  c.success = c.attack >= c.armor;
  return c;
}

int apply_unchecked(Position& pos, const Action& a, Outcome* out) {
  const int actor = pos.at(a.unit).owner;
  auto& cells = pos.cells_;
  auto cell = [&](int i) -> Piece& { return cells[static_cast<std::size_t>(i)]; };
  auto remove = [&](int i) {
    pos.remove_unit(i);
    if (out) out->removed.push_back(pos.board().hex(i));
  };
  auto add_token = [](Piece& p) {
    if (p.tokens < kMaxTokens) ++p.tokens;
  };
  auto fight = [&](bool moves_in) {
    Piece& att = cell(a.unit);
    Piece& def = cell(a.target);
    att.guard = false;
    const int attack = unit_stats(att.face).attack;
    const int armor = effective_armor(def);
    const bool success = attack >= armor;
    if (out) out->combat = Combat{attack, armor, success};
    if (success) {
      remove(a.target);
      if (moves_in) pos.move_unit(a.unit, a.target);
    } else {
      add_token(att);
      add_token(def);
    }
  };

  switch (a.type) {
    case ActionType::Move:
      if (cell(a.target).empty()) {
        cell(a.unit).guard = false;
        pos.move_unit(a.unit, a.target);
      } else {
        fight(true);
      }
      break;
    case ActionType::Ranged:
      fight(false);
      break;
    case ActionType::Special:
      fight(true);
      break;
    case ActionType::Reroll:
      cell(a.unit).face = a.face;
      cell(a.unit).guard = false;
      break;
    case ActionType::Guard:
      cell(a.unit).guard = true;
      break;
    case ActionType::Merge: {
      Piece& u = cell(a.unit);
      const Piece partner = cell(a.target);
      remove(a.target);
      u.face = static_cast<std::uint8_t>(std::min(6, u.face + partner.face));
      u.tokens = static_cast<std::uint8_t>(std::min(kMaxTokens, u.tokens + partner.tokens));
      u.guard = false;
      break;
    }
  }

  // Winning (rules.md section 7).
  const int n = pos.num_players();
  if (n == 2) {
    const int opp = 1 - actor;
    if (pos.counts_[static_cast<std::size_t>(opp)] == 0 || cell(pos.base_cell(opp)).owner == actor) pos.winner_ = actor;
  } else {
    for (int p = 0; p < n; ++p) {
      if (pos.players_[static_cast<std::size_t>(p)].eliminated) continue;
      const int base_owner = cell(pos.base_cell(p)).owner;
      if (pos.counts_[static_cast<std::size_t>(p)] == 0 || (base_owner >= 0 && base_owner != p)) {
        pos.players_[static_cast<std::size_t>(p)].eliminated = true;
        if (out) out->eliminated.push_back(p);
        const Position::CellMask mask = pos.unit_mask(p);
        for (int w = 0; w < Position::kMaskWords; ++w)
          for (std::uint64_t bits = mask[static_cast<std::size_t>(w)]; bits; bits &= bits - 1)
            remove(w * 64 + std::countr_zero(bits));
      }
    }
    int alive = 0, last = -1;
    for (int p = 0; p < n; ++p)
      if (!pos.players_[static_cast<std::size_t>(p)].eliminated) {
        ++alive;
        last = p;
      }
    if (alive <= 1) pos.winner_ = last >= 0 ? last : actor;
  }
  pos.to_move_ = pos.next_player(actor);
  if (out) out->winner = pos.winner_;
  return pos.winner_;
}

// ---- Validation -----------------------------------------------------------------------

namespace {

std::string cell_name(const Position& pos, int idx) { return pos.board().name(idx); }

std::string unit_on(const Position& pos, int idx) {
  return std::string(unit_stats(pos.at(idx).face).name) + " on " + cell_name(pos, idx);
}

std::string pattern_rule(int face) {
  switch (face) {
    case 1: return "rules.md section 4: Infantry moves up to 2 steps forward or 1 step backward";
    case 2: return "rules.md section 4: Archer moves up to 2 steps (star)";
    case 3: return "rules.md section 4: Knight moves 2 straight then 1 turning (L)";
    case 4: return "rules.md section 4: Assault moves up to 2 steps along a diagonal (X)";
    case 5: return "rules.md section 4: Tanker moves 1 step";
    default: return "rules.md section 4: Balance never moves except by winning a Special Attack";
  }
}

bool contains_action(const std::vector<Action>& v, const Action& a) {
  return std::any_of(v.begin(), v.end(), [&](const Action& b) {
    return b.type == a.type && b.unit == a.unit && b.target == a.target;
  });
}

}  // namespace

Status validate(const Position& pos, const Action& a) {
  const Board& b = pos.board();
  if (pos.game_over()) return Error{"the game is over: " + pos.player(pos.winner()).id + " has won"};
  if (a.unit < 0 || a.unit >= b.size()) return Error{"the acting unit's cell is off the map"};
  const Piece& u = pos.at(a.unit);
  if (u.empty()) return Error{"there is no unit on " + cell_name(pos, a.unit)};
  if (u.owner != pos.to_move())
    return Error{"out of turn: it is " + pos.player(pos.to_move()).id + "'s turn and the unit on " +
                 cell_name(pos, a.unit) + " belongs to " + pos.player(u.owner).id + " (rules.md section 5)"};
  const bool needs_target = a.type == ActionType::Move || a.type == ActionType::Ranged ||
                            a.type == ActionType::Special || a.type == ActionType::Merge;
  if (needs_target && (a.target < 0 || a.target >= b.size()))
    return Error{"the " + std::string(action_name(a.type)) + " target is off the map"};
  std::vector<Action> mine;
  unit_actions(pos, a.unit, mine);
  switch (a.type) {
    case ActionType::Guard:
      return {};
    case ActionType::Reroll:
      if (!valid_face(a.face)) return Error{"a reroll must carry the rolled face, 1-6"};
      return {};
    case ActionType::Move: {
      if (contains_action(mine, a)) return {};
      const Piece& t = pos.at(a.target);
      if (u.face == 6) return Error{"illegal move: " + unit_on(pos, a.unit) + " cannot move (" + pattern_rule(6) + ")"};
      if (t.owner == u.owner)
        return Error{"illegal move: " + cell_name(pos, a.target) +
                     " holds your own unit (rules.md section 4: the final hex must be empty or hold an enemy)"};
      // Would the pattern allow it on an empty board? Then the path is blocked.
      Position bare = pos;
      for (int i = 0; i < b.size(); ++i)
        if (i != a.unit && i != a.target) bare.clear(i);
      std::vector<Action> free_moves;
      unit_actions(bare, a.unit, free_moves);
      if (contains_action(free_moves, a))
        return Error{"illegal move: the path of " + unit_on(pos, a.unit) + " to " + cell_name(pos, a.target) +
                     " is blocked (rules.md section 4: a path may not pass through an occupied hex" +
                     (u.face == 3 ? std::string(" other than a friendly unit under a Knight's straight steps") : "") +
                     ")"};
      return Error{"illegal move: " + unit_on(pos, a.unit) + " cannot reach " + cell_name(pos, a.target) + " (" +
                   pattern_rule(u.face) + ")"};
    }
    case ActionType::Ranged: {
      if (u.face != 2)
        return Error{"illegal ranged attack: only an Archer (face 2) makes a Ranged Attack; " + unit_on(pos, a.unit) +
                     " (rules.md section 5)"};
      const Piece& t = pos.at(a.target);
      if (t.empty() || t.owner == u.owner)
        return Error{"illegal ranged attack: no enemy unit on " + cell_name(pos, a.target) + " (rules.md section 5)"};
      if (contains_action(mine, a)) return {};
      const Hex d = b.hex(a.target) - b.hex(a.unit);
      const bool straight2 = d.length() == 2 && (d.q == 0 || d.r == 0 || d.s() == 0);
      if (!straight2)
        return Error{"illegal ranged attack: " + cell_name(pos, a.target) +
                     " is not exactly 2 hexes away in a straight line (rules.md section 5)"};
      return Error{"illegal ranged attack: the hex between is occupied (house rule ranged_needs_clear_line)"};
    }
    case ActionType::Special: {
      if (u.face != 6)
        return Error{"illegal special attack: only a Balance (face 6) makes a Special Attack; " + unit_on(pos, a.unit) +
                     " (rules.md section 5)"};
      if (contains_action(mine, a)) return {};
      const Piece& t = pos.at(a.target);
      if (t.empty() || t.owner == u.owner)
        return Error{"illegal special attack: no enemy unit on " + cell_name(pos, a.target) + " (rules.md section 5)"};
      return Error{"illegal special attack: " + cell_name(pos, a.target) + " is not adjacent (rules.md section 5)"};
    }
    case ActionType::Merge: {
      if (!pos.rules().merge_sum) return Error{"illegal merge: merging is off (house rule merge_sum, rules.md section 5)"};
      if (contains_action(mine, a)) return {};
      return Error{"illegal merge: " + cell_name(pos, a.target) +
                   " does not hold an adjacent friendly unit (house rule merge_sum)"};
    }
  }
  return Error{"unknown action type"};
}

Result<Applied> apply(const Position& pos, const Action& a) {
  if (Status s = validate(pos, a); !s) return Error{s.error()};
  Applied r{pos, {}};
  apply_unchecked(r.position, a, &r.outcome);
  return r;
}

// ---- Text ------------------------------------------------------------------------------

std::string describe(const Position& before, const Action& a, const Outcome* outcome) {
  const Board& b = before.board();
  if (a.unit < 0 || a.unit >= b.size()) return "?";
  const Piece& u = before.at(a.unit);
  const std::string who = std::string(unit_stats(u.face).name);
  const std::string from = b.name(a.unit);
  const std::string to = a.target >= 0 && a.target < b.size() ? b.name(a.target) : "";
  std::string s;
  auto combat_text = [&](const Combat& c) {
    return " (attack " + std::to_string(c.attack) + " vs armor " + std::to_string(c.armor) + ": " +
           (c.success ? "defeated" : "failed, both -1") + ")";
  };
  const std::optional<Combat> c = outcome && outcome->combat ? outcome->combat : preview_combat(before, a);
  auto target_name = [&]() { return std::string(unit_stats(before.at(a.target).face).name); };
  switch (a.type) {
    case ActionType::Move:
      if (before.at(a.target).empty())
        s = who + " " + from + "-" + to;
      else
        s = who + " " + from + "x" + to + " " + target_name() + (c ? combat_text(*c) : "");
      break;
    case ActionType::Ranged:
      s = who + " " + from + " shoots " + to + " " + target_name() + (c ? combat_text(*c) : "");
      break;
    case ActionType::Special:
      s = who + " " + from + " strikes " + to + " " + target_name() + (c ? combat_text(*c) : "");
      break;
    case ActionType::Reroll:
      s = who + " " + from + " rerolls" +
          (valid_face(a.face) ? " -> " + std::string(unit_stats(a.face).name) + " (" + std::to_string(a.face) + ")" : "");
      break;
    case ActionType::Guard:
      s = who + " " + from + " guards";
      break;
    case ActionType::Merge:
      s = who + " " + from + " merges with " + to;
      break;
  }
  if (outcome && outcome->winner >= 0) s += "; " + before.player(outcome->winner).id + " wins";
  return s;
}

}  // namespace hexdice
