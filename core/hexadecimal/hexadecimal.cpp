#include "core/hexadecimal/hexadecimal.h"

#include <algorithm>
#include <set>

namespace hexdice::hexadecimal {

namespace {

using Cells = std::array<Cell, kCells>;

struct Tables {
  int hole = -1;
  std::array<std::int16_t, kCells * 6> nb{};
  std::array<std::int8_t, kCells> seg{};
};

const Tables& tables() {
  static const Tables t = [] {
    Tables tb;
    const Board& b = State::board();
    tb.hole = b.index(Hex{0, 0});
    for (int i = 0; i < kCells; ++i)
      for (int d = 0; d < 6; ++d) {
        const int n = b.neighbor(i, d);
        tb.nb[static_cast<std::size_t>(i * 6 + d)] = static_cast<std::int16_t>(n == tb.hole ? kNoCell : n);
      }
    tb.seg.fill(-1);
    for (int s = 0; s < 6; ++s)
      for (int a = 1; a < kRadius; ++a)
        for (int c = 1; a + c <= kRadius; ++c)
          tb.seg[static_cast<std::size_t>(b.index(direction(s) * a + direction(s + 1) * c))] = static_cast<std::int8_t>(s);
    return tb;
  }();
  return t;
}

inline int nb(int c, int d) { return tables().nb[static_cast<std::size_t>(c * 6 + ((d % 6) + 6) % 6)]; }
inline const Cell& at(const Cells& cs, int i) { return cs[static_cast<std::size_t>(i)]; }
inline Cell& at(Cells& cs, int i) { return cs[static_cast<std::size_t>(i)]; }
inline bool own_pawn(const Cells& cs, int i, int p) {
  return i != kNoCell && at(cs, i).owner == p && at(cs, i).kind == Kind::Pawn;
}
inline bool enemy(const Cells& cs, int i, int p) { return i != kNoCell && at(cs, i).owner >= 0 && at(cs, i).owner != p; }
inline bool empty(const Cells& cs, int i) { return i != kNoCell && at(cs, i).empty(); }

int count_of(const Cells& cs, int p, Kind k) {
  int n = 0;
  for (const Cell& c : cs)
    if (c.owner == p && c.kind == k) ++n;
  return n;
}

std::string name(int i) { return State::board().name(i); }

// Direction from a to b along a straight line, and the number of steps; -1 when not on a line.
int line_dir(int a, int b, int& steps) {
  const Board& bd = State::board();
  const Hex d = bd.hex(b) - bd.hex(a);
  const int len = d.length();
  steps = len;
  if (len == 0) return -1;
  for (int k = 0; k < 6; ++k)
    if (direction(k) * len == d) return k;
  return -1;
}

// Cells a Prince/King on `from` reaches by orbiting friendly Pawns (section 4.3):
// empties it may stop on, and enemy pieces it may capture.
void orbit(const Cells& cs, int from, int p, std::vector<int>& dests) {
  std::array<bool, kCells> seen{};
  std::array<bool, kCells> hit{};
  std::array<std::int16_t, kCells> queue{};
  int head = 0, tail = 0;
  queue[static_cast<std::size_t>(tail++)] = static_cast<std::int16_t>(from);
  seen[static_cast<std::size_t>(from)] = true;
  while (head < tail) {
    const int a = queue[static_cast<std::size_t>(head++)];
    for (int d = 0; d < 6; ++d) {
      const int b = nb(a, d);
      if (b == kNoCell || b == from) continue;
      // a and b are adjacent; their two common neighbours are a+(d-1) and a+(d+1).
      if (!own_pawn(cs, nb(a, d - 1), p) && !own_pawn(cs, nb(a, d + 1), p)) continue;
      if (at(cs, b).empty()) {
        if (!seen[static_cast<std::size_t>(b)]) {
          seen[static_cast<std::size_t>(b)] = true;
          dests.push_back(b);
          queue[static_cast<std::size_t>(tail++)] = static_cast<std::int16_t>(b);
        }
      } else if (at(cs, b).owner != p && !hit[static_cast<std::size_t>(b)]) {
        hit[static_cast<std::size_t>(b)] = true;
        dests.push_back(b);
      }
    }
  }
}

// Friendly Pawns connected to `start` (itself a friendly Pawn), appended to `out`.
void cluster(const Cells& cs, int start, int owner, std::array<bool, kCells>& seen, std::vector<int>& out) {
  if (seen[static_cast<std::size_t>(start)]) return;
  std::size_t first = out.size();
  seen[static_cast<std::size_t>(start)] = true;
  out.push_back(start);
  for (std::size_t i = first; i < out.size(); ++i)
    for (int d = 0; d < 6; ++d) {
      const int n = nb(out[i], d);
      if (own_pawn(cs, n, owner) && !seen[static_cast<std::size_t>(n)]) {
        seen[static_cast<std::size_t>(n)] = true;
        out.push_back(n);
      }
    }
}

struct Meta {
  Variant variant;
  int num_players;
  HouseRules rules;
};

// Moves of the piece on `c` (owned by p). With `captures_only`, only the moves that can
// take a non-Pawn piece are generated (for check detection).
void piece_moves(const Cells& cs, int c, int p, const Meta& m, std::vector<Action>& out, bool captures_only) {
  const Kind k = at(cs, c).kind;
  auto add = [&](int to) { out.push_back(Action{Type::Move, static_cast<std::int16_t>(c), static_cast<std::int16_t>(to)}); };
  switch (k) {
    case Kind::Pawn:
    case Kind::PawnMaster:
    case Kind::Wizard: {
      if (captures_only) return;
      int limit = 99;
      if (k == Kind::PawnMaster) limit = kMaxPawns - count_of(cs, p, Kind::Pawn);
      for (int d = 0; d < 6; ++d)
        for (int n = nb(c, d), steps = 1; empty(cs, n) && steps <= limit; n = nb(n, d), ++steps) add(n);
      if (k != Kind::Wizard) return;
      // Wizard: leap the first piece behind it over itself onto a friendly Pawn (section 4.8).
      for (int d = 0; d < 6; ++d) {
        const int pawn = nb(c, d);
        if (!own_pawn(cs, pawn, p)) continue;
        int n = nb(c, d + 3);
        while (empty(cs, n)) n = nb(n, d + 3);
        if (n == kNoCell) continue;
        out.push_back(Action{Type::Wizard, static_cast<std::int16_t>(n), static_cast<std::int16_t>(pawn),
                             static_cast<std::int16_t>(c)});
      }
      return;
    }
    case Kind::Soldier:
      for (int d = 0; d < 6; ++d) {
        const int n1 = nb(c, d);
        if (n1 == kNoCell) continue;
        if (own_pawn(cs, n1, p)) {
          int n = n1;
          while (own_pawn(cs, n, p)) n = nb(n, d);
          if (n != kNoCell && (at(cs, n).empty() ? !captures_only : at(cs, n).owner != p)) add(n);
        } else if (at(cs, n1).empty()) {
          if (!captures_only) add(n1);
        } else if (at(cs, n1).owner != p && own_pawn(cs, nb(c, d + 3), p)) {
          add(n1);
        }
      }
      return;
    case Kind::Prince:
    case Kind::King: {
      std::vector<int> dests;
      orbit(cs, c, p, dests);
      for (int to : dests)
        if (!captures_only || !at(cs, to).empty()) add(to);
      return;
    }
    case Kind::Disruptor:
      if (captures_only) return;
      for (int d = 0; d < 6; ++d) {
        const int n1 = nb(c, d);
        if (!empty(cs, n1)) continue;  // blocked on the first hex: no step, no capture
        add(n1);
        int n = nb(n1, d);
        while (empty(cs, n)) n = nb(n, d);
        if (n != kNoCell && at(cs, n).owner != p && at(cs, n).kind == Kind::Pawn) add(n);
      }
      return;
    case Kind::Elephant:
      for (int d = 0; d < 6; ++d) {
        int n = nb(c, d);
        if (n == kNoCell) continue;
        if (at(cs, n).empty() && !captures_only) add(n);  // the one-hex step
        int steps = 1;
        while (empty(cs, n)) {
          if (steps > 1 && m.rules.elephant_slide && !captures_only) add(n);
          n = nb(n, d);
          ++steps;
        }
        if (!own_pawn(cs, n, p)) continue;  // the first piece trampled must be a friendly Pawn
        for (; n != kNoCell; n = nb(n, d)) {
          const Cell& x = at(cs, n);
          if (x.empty() || x.kind == Kind::Pawn) {
            if (!captures_only) add(n);
            continue;
          }
          if (x.owner != p) add(n);
          break;
        }
      }
      return;
    case Kind::Guard:
      for (int d = 0; d < 6; ++d) {
        const int n1 = nb(c, d);
        if (enemy(cs, n1, p)) {
          if (!captures_only || at(cs, n1).kind != Kind::Pawn) add(n1);
          continue;
        }
        if (captures_only) continue;
        int n = n1;
        while (empty(cs, n)) n = nb(n, d);
        if (own_pawn(cs, n, p)) add(n);
      }
      return;
    case Kind::Star: {
      std::array<bool, kCells> seen{};
      std::vector<int> pawns;
      for (int d = 0; d < 6; ++d)
        if (own_pawn(cs, nb(c, d), p)) cluster(cs, nb(c, d), p, seen, pawns);
      std::sort(pawns.begin(), pawns.end());
      for (int to : pawns) add(to);
      return;
    }
  }
}

bool attacked_cells(const Cells& cs, int target, int by, const Meta& m);

int pawn_master_cell(const Cells& cs, int p) {
  for (int i = 0; i < kCells; ++i)
    if (at(cs, i).owner == p && at(cs, i).kind == Kind::PawnMaster) return i;
  return kNoCell;
}

void special_actions(const Cells& cs, int p, const Meta& m, std::vector<Action>& out) {
  // Promotion (section 6).
  if (pawn_master_cell(cs, p) != kNoCell) {
    std::vector<Kind> lost;
    for (int k = static_cast<int>(Kind::Soldier); k <= static_cast<int>(Kind::Wizard); ++k)
      if (count_of(cs, p, static_cast<Kind>(k)) < initial_count(m.variant, static_cast<Kind>(k)))
        lost.push_back(static_cast<Kind>(k));
    if (m.variant == Variant::Threcimal && count_of(cs, p, Kind::King) == 0) lost.push_back(Kind::King);
    if (!lost.empty())
      for (int sg : invadable_segments(m.variant, m.num_players, p)) {
        int mine = 0, theirs = 0;
        for (int i = 0; i < kCells; ++i)
          if (tables().seg[static_cast<std::size_t>(i)] == sg && at(cs, i).owner >= 0 && at(cs, i).kind == Kind::Pawn)
            ++(at(cs, i).owner == p ? mine : theirs);
        if (mine > theirs)
          for (Kind k : lost) out.push_back(Action{Type::Promote, -1, -1, -1, static_cast<std::int8_t>(sg), k});
      }
  }
  // Demotion of one of two Kings into the Pawn Master (section 7); without the house
  // rule only a King in check may be demoted.
  if (m.variant != Variant::Standard && pawn_master_cell(cs, p) == kNoCell && count_of(cs, p, Kind::King) >= 2)
    for (int i = 0; i < kCells; ++i) {
      if (at(cs, i).owner != p || at(cs, i).kind != Kind::King) continue;
      bool allowed = m.rules.demote_any_time;
      for (int o = 0; o < m.num_players && !allowed; ++o)
        if (o != p && attacked_cells(cs, i, o, m)) allowed = true;
      if (allowed) out.push_back(Action{Type::Demote, static_cast<std::int16_t>(i)});
    }
}

void pseudo(const Cells& cs, int p, const Meta& m, std::vector<Action>& out) {
  for (int i = 0; i < kCells; ++i)
    if (at(cs, i).owner == p) piece_moves(cs, i, p, m, out, false);
  special_actions(cs, p, m, out);
}

bool attacked_cells(const Cells& cs, int target, int by, const Meta& m) {
  // Every capture of a non-Pawn needs either adjacency (Guard, Soldier step), a line
  // (Elephant), or an attacker's Pawn next to the target (orbits, Star, Soldier leap):
  // only those pieces are asked for their moves.
  bool pawn_next = false;
  for (int d = 0; d < 6; ++d) pawn_next = pawn_next || own_pawn(cs, nb(target, d), by);
  const Board& b = State::board();
  std::vector<Action> moves;
  for (int i = 0; i < kCells; ++i) {
    if (at(cs, i).owner != by) continue;
    const Kind k = at(cs, i).kind;
    const int dist = distance(b.hex(i), b.hex(target));
    bool ask = false;
    switch (k) {
      case Kind::Guard:
        if (dist == 1) return true;
        break;
      case Kind::Soldier:
        ask = dist == 1 || pawn_next;
        break;
      case Kind::Prince:
      case Kind::King:
      case Kind::Star:
        ask = pawn_next;
        break;
      case Kind::Elephant: {
        int steps = 0;
        ask = line_dir(i, target, steps) >= 0;
        break;
      }
      default:
        break;
    }
    if (!ask) continue;
    moves.clear();
    const bool star = k == Kind::Star;
    piece_moves(cs, i, by, m, moves, !star);
    for (const Action& a : moves) {
      if (a.to == target) return true;
      if (star && distance(b.hex(a.to), b.hex(target)) == 1) return true;
    }
  }
  return false;
}

// The effects of an action on the cells (section 4-7), without passing the turn.
void effects(Cells& cs, int p, const Action& a, Outcome* out) {
  auto remove = [&](int i) {
    if (at(cs, i).empty()) return;
    at(cs, i) = Cell{};
    if (out) out->removed.push_back(i);
  };
  auto place = [&](int i, Kind k) {
    at(cs, i) = Cell{static_cast<std::int8_t>(p), k};
    if (out) out->placed.emplace_back(i, k);
  };
  switch (a.type) {
    case Type::Wizard: {
      const Cell mover = at(cs, a.from);
      remove(a.to);
      at(cs, a.from) = Cell{};
      at(cs, a.to) = mover;
      return;
    }
    case Type::Promote: {
      for (int i = 0; i < kCells; ++i)
        if (tables().seg[static_cast<std::size_t>(i)] == a.segment && own_pawn(cs, i, p)) remove(i);
      place(pawn_master_cell(cs, p), a.kind);
      return;
    }
    case Type::Demote:
      place(a.from, Kind::PawnMaster);
      return;
    case Type::Move:
      break;
  }
  const Cell mover = at(cs, a.from);
  int steps = 0;
  const int d = line_dir(a.from, a.to, steps);
  switch (mover.kind) {
    case Kind::Disruptor:
      if (!at(cs, a.to).empty()) {
        const int owner = at(cs, a.to).owner;
        std::array<bool, kCells> seen{};
        std::vector<int> pawns;
        cluster(cs, a.to, owner, seen, pawns);
        for (int i : pawns) remove(i);
      }
      break;
    case Kind::Elephant:
      for (int i = 1, n = nb(a.from, d); i <= steps; ++i, n = nb(n, d)) remove(n);
      break;
    default:
      remove(a.to);
      break;
  }
  at(cs, a.from) = Cell{};
  at(cs, a.to) = mover;
  if (mover.kind == Kind::PawnMaster)
    for (int i = 0, n = a.from; i < steps; ++i, n = nb(n, d)) place(n, Kind::Pawn);
  if (mover.kind == Kind::Star)
    for (int k = 0; k < 6; ++k)
      if (enemy(cs, nb(a.to, k), p)) remove(nb(a.to, k));
  if (mover.kind == Kind::King && pawn_master_cell(cs, p) == kNoCell) {
    int other = kNoCell;
    for (int i = 0; i < kCells; ++i)
      if (i != a.to && at(cs, i).owner == p && at(cs, i).kind == Kind::King) other = i;
    place(other != kNoCell ? other : a.from, Kind::PawnMaster);
  }
}

Meta meta(const State& s) { return Meta{s.variant, s.num_players(), s.rules}; }

bool king_safe(const Cells& cs, int p, const State& s) {
  const Meta m = meta(s);
  for (int i = 0; i < kCells; ++i) {
    if (at(cs, i).owner != p || at(cs, i).kind != Kind::King) continue;
    for (int o = 0; o < s.num_players(); ++o)
      if (o != p && !s.eliminated[static_cast<std::size_t>(o)] && attacked_cells(cs, i, o, m)) return false;
  }
  return true;
}

}  // namespace

const Board& State::board() {
  static const auto b = Board::get(kRadius);
  return *b;
}

int State::count(int p, Kind k) const { return count_of(cells, p, k); }

int State::player_index(std::string_view id) const {
  for (int i = 0; i < num_players(); ++i)
    if (ids[static_cast<std::size_t>(i)] == id) return i;
  return -1;
}

std::uint64_t State::hash() const {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&](std::uint64_t v) {
    h ^= v;
    h *= 1099511628211ULL;
  };
  for (const Cell& c : cells) mix(c.empty() ? 0xff : static_cast<std::uint64_t>(c.owner) * 16 + static_cast<std::uint64_t>(c.kind));
  mix(static_cast<std::uint64_t>(to_move) + 0x100);
  return h;
}

int kind_from_name(std::string_view n) {
  for (int i = 0; i < kNumKinds; ++i)
    if (kKindNames[static_cast<std::size_t>(i)] == n) return i;
  return -1;
}

bool is_hole(int idx) { return idx == tables().hole; }
int segment_of(int idx) { return tables().seg[static_cast<std::size_t>(idx)]; }

namespace {
int road_of(Variant v, int player) {
  if (v == Variant::Threcimal) return std::array{4, 0, 2}[static_cast<std::size_t>(player)];
  return player == 0 ? 4 : 1;
}
}  // namespace

std::vector<int> home_segments(Variant v, int player) {
  if (v == Variant::Standard) return player == 0 ? std::vector<int>{3, 4, 5} : std::vector<int>{0, 1, 2};
  const int d = road_of(v, player);
  return {(d + 5) % 6, d};
}

std::vector<int> invadable_segments(Variant v, int num_players, int player) {
  std::vector<int> out;
  for (int o = 0; o < num_players; ++o)
    if (o != player)
      for (int sg : home_segments(v, o)) out.push_back(sg);
  std::sort(out.begin(), out.end());
  return out;
}

int initial_count(Variant v, Kind k) {
  static constexpr std::array<int, kNumKinds> kStandard = {10, 6, 4, 2, 2, 2, 2, 2, 1, 1};
  static constexpr std::array<int, kNumKinds> kDemi = {10, 2, 2, 1, 1, 1, 1, 1, 1, 1};
  return (v == Variant::Standard ? kStandard : kDemi)[static_cast<std::size_t>(k)];
}

Result<State> start(Variant v, HouseRules rules) {
  State s;
  s.variant = v;
  s.rules = rules;
  s.ids = v == Variant::Threcimal ? std::vector<std::string>{"white", "black", "green"}
                                  : std::vector<std::string>{"white", "black"};
  s.eliminated.assign(s.ids.size(), false);
  const Board& b = State::board();
  using K = Kind;
  auto put = [&](Hex h, int p, K k) { s.cells[static_cast<std::size_t>(b.index(h))] = Cell{static_cast<std::int8_t>(p), k}; };
  if (v == Variant::Standard) {
    constexpr K P = K::Pawn, S = K::Soldier, R = K::Prince, D = K::Disruptor, E = K::Elephant, G = K::Guard,
                T = K::Star, W = K::Wizard, M = K::PawnMaster, Kg = K::King;
    const std::vector<std::vector<int>> lines = {
        {int(S), int(T), int(E), int(E), int(T), int(S)},
        {int(G), int(R), int(P), int(Kg), int(P), int(R), int(G)},
        {int(D), int(W), int(S), int(P), int(P), int(S), int(W), int(D)},
        {int(P), int(P), int(P), int(R), int(M), int(R), int(P), int(P), int(P)},
        {-1, -1, -1, -1, int(S), int(S), -1, -1, -1, -1}};
    for (int line = 0; line < 5; ++line) {
      const int q = line - 5;
      const int r0 = std::max(-kRadius, -q - kRadius);
      for (std::size_t i = 0; i < lines[static_cast<std::size_t>(line)].size(); ++i) {
        const int k = lines[static_cast<std::size_t>(line)][i];
        if (k < 0) continue;
        const Hex h{q, r0 + static_cast<int>(i)};
        put(h, 0, static_cast<K>(k));
        put(Hex{-h.q, -h.r}, 1, static_cast<K>(k));
      }
    }
  } else {
    // Two segments and the road between (docs/rules-hexadecimal.md section 2.2): ring k
    // from the hole, offset j along the ring, 0 on the road.
    struct Slot {
      int k, j;
      K kind;
    };
    const std::vector<Slot> half = {{5, 4, K::Soldier}, {5, 3, K::Prince}, {5, 2, K::King}, {5, 1, K::Pawn},
                                    {4, 3, K::Pawn},    {4, 2, K::Pawn},   {4, 1, K::Pawn}, {3, 1, K::Pawn}};
    const std::vector<Slot> road = {{5, 0, K::Elephant}, {4, 0, K::Star}, {3, 0, K::Wizard}, {2, 0, K::Guard},
                                    {1, 0, K::Disruptor}};
    for (int p = 0; p < s.num_players(); ++p) {
      const int d = road_of(v, p);
      auto cell = [&](int k, int j) {
        if (j == 0) return direction(d) * k;
        if (j > 0) return direction(d) * (k - j) + direction(d + 1) * j;
        return direction(d - 1) * (-j) + direction(d) * (k + j);
      };
      for (const Slot& sl : road) put(cell(sl.k, 0), p, sl.kind);
      for (const Slot& sl : half) {
        put(cell(sl.k, sl.j), p, sl.kind);
        put(cell(sl.k, -sl.j), p, sl.kind);
      }
    }
  }
  s.history.push_back(s.hash());
  return s;
}

void pseudo_actions(const State& s, std::vector<Action>& out) {
  out.clear();
  if (s.over) return;
  pseudo(s.cells, s.to_move, meta(s), out);
}

void legal_actions(const State& s, std::vector<Action>& out) {
  pseudo_actions(s, out);
  if (s.variant == Variant::Threcimal) return;  // Kings may be put or left in check (section 9)
  std::vector<Action> legal;
  legal.reserve(out.size());
  for (const Action& a : out) {
    Cells cs = s.cells;
    effects(cs, s.to_move, a, nullptr);
    if (king_safe(cs, s.to_move, s)) legal.push_back(a);
  }
  out.swap(legal);
}

std::vector<Action> legal_actions(const State& s) {
  std::vector<Action> v;
  legal_actions(s, v);
  return v;
}

bool attacked(const State& s, int cell, int by) { return attacked_cells(s.cells, cell, by, meta(s)); }

bool in_check(const State& s, int p) { return !king_safe(s.cells, p, s); }

Status validate(const State& s, const Action& a) {
  if (s.over) return Error{"the game is over (section 8)"};
  const int p = s.to_move;
  auto on = [](int c) { return c >= 0 && c < kCells && !is_hole(c); };
  std::vector<Action> pseudo_list;
  pseudo_actions(s, pseudo_list);
  const bool listed = std::find(pseudo_list.begin(), pseudo_list.end(), a) != pseudo_list.end();
  if (!listed) {
    switch (a.type) {
      case Type::Move: {
        if (!on(a.from) || !on(a.to)) return Error{"move: a cell is off the board or the hole (section 1)"};
        const Cell& c = s.cells[static_cast<std::size_t>(a.from)];
        if (c.empty()) return Error{"move: no piece on " + name(a.from)};
        if (c.owner != p) return Error{"move: the piece on " + name(a.from) + " is not " + s.ids[static_cast<std::size_t>(p)] + "'s"};
        static constexpr std::array<std::string_view, kNumKinds> kSection = {
            "4.1 Pawn", "4.2 Soldier", "4.3 Prince", "4.4 Disruptor", "4.5 Elephant",
            "4.6 Guard", "4.7 Star", "4.8 Wizard", "4.9 Pawn Master", "4.10 King"};
        std::string why = "move: a " + std::string(kind_name(c.kind)) + " cannot go from " + name(a.from) + " to " +
                          name(a.to) + " (section " + std::string(kSection[static_cast<std::size_t>(c.kind)]);
        if (c.kind == Kind::PawnMaster && s.count(p, Kind::Pawn) >= kMaxPawns) why += ": ten Pawns already";
        return Error{why + ")"};
      }
      case Type::Wizard:
        if (!on(a.from) || !on(a.to) || !on(a.via)) return Error{"wizard: a cell is off the board or the hole"};
        return Error{"wizard: the Wizard on " + name(a.via) + " cannot leap the piece on " + name(a.from) + " onto " +
                     name(a.to) + " (section 4.8: first piece behind the Wizard, onto an adjacent friendly Pawn)"};
      case Type::Promote:
        if (s.count(p, Kind::PawnMaster) == 0) return Error{"promote: no Pawn Master on the board (section 6)"};
        return Error{"promote: segment not invaded, not an enemy home segment, or no such piece lost (section 6)"};
      case Type::Demote:
        return Error{"demote: only one of two Kings may become the Pawn Master, when there is none (section 7)"};
    }
  }
  if (s.variant != Variant::Threcimal) {
    Cells cs = s.cells;
    effects(cs, p, a, nullptr);
    if (!king_safe(cs, p, s)) return Error{"this leaves " + s.ids[static_cast<std::size_t>(p)] + "'s King in check (section 8)"};
  }
  return Status::Ok();
}

void apply_unchecked(State& s, const Action& a, Outcome* out) {
  const int p = s.to_move;
  effects(s.cells, p, a, out);
  const int n = s.num_players();
  if (s.variant == Variant::Threcimal) {
    for (int o = 0; o < n; ++o) {
      if (s.eliminated[static_cast<std::size_t>(o)]) continue;
      if (s.count(o, Kind::King) == 0 && s.count(o, Kind::PawnMaster) == 0) {
        s.eliminated[static_cast<std::size_t>(o)] = true;
        if (out) out->eliminated.push_back(o);
        for (int i = 0; i < kCells; ++i)
          if (s.cells[static_cast<std::size_t>(i)].owner == o) {
            s.cells[static_cast<std::size_t>(i)] = Cell{};
            if (out) out->removed.push_back(i);
          }
      }
    }
    int alive = 0, last = -1;
    for (int o = 0; o < n; ++o)
      if (!s.eliminated[static_cast<std::size_t>(o)]) { ++alive; last = o; }
    if (alive <= 1) {
      s.over = true;
      s.winner = last;
      s.reason = "last_player";
      s.history.push_back(s.hash());
      return;
    }
  }
  // Pass the turn on.
  int next = p;
  for (int k = 1; k <= n; ++k) {
    next = (p + k) % n;
    if (!s.eliminated[static_cast<std::size_t>(next)]) break;
  }
  s.to_move = next;
  const std::uint64_t h = s.hash();
  s.history.push_back(h);
  if (out)
    for (int o = 0; o < n; ++o)
      if (!s.eliminated[static_cast<std::size_t>(o)] && in_check(s, o)) out->in_check.push_back(o);
  if (s.rules.repetition_draw && std::count(s.history.begin(), s.history.end(), h) >= 3) {
    s.over = true;
    s.winner = -1;
    s.reason = "repetition";
    return;
  }
  std::vector<Action> moves;
  if (s.variant != Variant::Threcimal) {
    legal_actions(s, moves);
    if (moves.empty()) {
      s.over = true;
      if (in_check(s, next)) {
        s.winner = p;
        s.reason = "checkmate";
      } else {
        s.winner = -1;
        s.reason = "stalemate";
      }
    }
    return;
  }
  // Threcimal: a player without a move is skipped; nobody able to move is a draw.
  for (int k = 0; k < n; ++k) {
    const int o = (next + k) % n;
    if (s.eliminated[static_cast<std::size_t>(o)]) continue;
    s.to_move = o;
    pseudo_actions(s, moves);
    if (!moves.empty()) return;
  }
  s.over = true;
  s.winner = -1;
  s.reason = "no_moves";
}

Result<Applied> apply(const State& s, const Action& a) {
  if (Status st = validate(s, a); !st) return Error{st.error()};
  Applied r{s, {}};
  apply_unchecked(r.state, a, &r.outcome);
  return r;
}

std::uint64_t perft(const State& s, int depth) {
  std::vector<Action> moves;
  legal_actions(s, moves);
  if (depth <= 1) return depth == 1 ? moves.size() : 1;
  std::uint64_t total = 0;
  for (const Action& a : moves) {
    State t = s;
    apply_unchecked(t, a, nullptr);
    total += t.over ? 0 : perft(t, depth - 1);
  }
  return total;
}

// ---- JSON -----------------------------------------------------------------------------

namespace {

Json cell_json(int i) {
  const Hex h = State::board().hex(i);
  return Json::array({h.q, h.r});
}

Result<int> cell_from(const Json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer())
    return Error{"\"" + what + "\" must be a [q, r] pair of integers"};
  const auto q = j[0].get<long long>(), r = j[1].get<long long>();
  if (q < -kRadius || q > kRadius || r < -kRadius || r > kRadius) return Error{"\"" + what + "\" is off the board"};
  const int i = State::board().index(Hex{static_cast<int>(q), static_cast<int>(r)});
  if (i == kNoCell) return Error{"\"" + what + "\" is off the board"};
  if (is_hole(i)) return Error{"\"" + what + "\" is the hole in the middle of the board (section 1)"};
  return i;
}

std::string hash_text(std::uint64_t h) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) s[static_cast<std::size_t>(i)] = kHex[h & 15];
  return s;
}

}  // namespace

Json to_json(const State& s) {
  Json players = Json::array();
  for (int p = 0; p < s.num_players(); ++p) {
    Json pj{{"id", s.ids[static_cast<std::size_t>(p)]}};
    if (s.eliminated[static_cast<std::size_t>(p)]) pj["eliminated"] = true;
    players.push_back(pj);
  }
  Json pieces = Json::array();
  for (int i = 0; i < kCells; ++i) {
    const Cell& c = s.cells[static_cast<std::size_t>(i)];
    if (c.empty()) continue;
    const Hex h = State::board().hex(i);
    pieces.push_back(Json{{"q", h.q}, {"r", h.r}, {"owner", s.ids[static_cast<std::size_t>(c.owner)]},
                          {"type", kind_name(c.kind)}});
  }
  Json hist = Json::array();
  for (auto h : s.history) hist.push_back(hash_text(h));
  Json j{{"ruleset", "hexadecimal"},
         {"variant", kVariantNames[static_cast<std::size_t>(s.variant)]},
         {"players", players},
         {"to_move", s.ids[static_cast<std::size_t>(s.to_move)]},
         {"pieces", pieces},
         {"history", hist},
         {"house_rules", Json{{"elephant_slide", s.rules.elephant_slide},
                              {"demote_any_time", s.rules.demote_any_time},
                              {"repetition_draw", s.rules.repetition_draw}}},
         {"over", s.over}};
  j["winner"] = s.winner >= 0 ? Json(s.ids[static_cast<std::size_t>(s.winner)]) : Json(nullptr);
  j["reason"] = s.reason.empty() ? Json(nullptr) : Json(s.reason);
  return j;
}

Result<State> state_from_json(const Json& j) {
  if (!j.is_object()) return Error{"position: expected a JSON object"};
  if (ruleset_key(j) != "hexadecimal") return Error{"position: ruleset must be \"hexadecimal\" here"};
  State s;
  if (j.contains("variant")) {
    if (!j["variant"].is_string()) return Error{"position: \"variant\" must be a string"};
    const std::string v = j["variant"].get<std::string>();
    auto it = std::find(kVariantNames.begin(), kVariantNames.end(), v);
    if (it == kVariantNames.end()) return Error{"position: unknown variant \"" + v + "\" (standard, demial, threcimal)"};
    s.variant = static_cast<Variant>(it - kVariantNames.begin());
  }
  const std::size_t want = s.variant == Variant::Threcimal ? 3 : 2;
  if (!j.contains("players") || !j["players"].is_array() || j["players"].size() != want)
    return Error{"position: \"players\" must list " + std::to_string(want) + " players for " +
                 std::string(kVariantNames[static_cast<std::size_t>(s.variant)])};
  std::set<std::string> seen;
  for (const auto& p : j["players"]) {
    if (!p.is_object() || !p.contains("id") || !p["id"].is_string() || p["id"].get<std::string>().empty())
      return Error{"position: each player needs a string \"id\""};
    const std::string id = p["id"].get<std::string>();
    if (!seen.insert(id).second) return Error{"position: player \"" + id + "\" is listed twice"};
    s.ids.push_back(id);
    bool el = false;
    if (p.contains("eliminated")) {
      if (!p["eliminated"].is_boolean()) return Error{"position: \"eliminated\" must be true or false"};
      el = p["eliminated"].get<bool>();
    }
    s.eliminated.push_back(el);
  }
  if (j.contains("house_rules") && j["house_rules"].is_object()) {
    const Json& h = j["house_rules"];
    for (auto [k, v] : {std::pair{"elephant_slide", &s.rules.elephant_slide},
                        {"demote_any_time", &s.rules.demote_any_time},
                        {"repetition_draw", &s.rules.repetition_draw}})
      if (h.contains(k) && h[k].is_boolean()) *v = h[k].get<bool>();
  }
  if (!j.contains("to_move") || !j["to_move"].is_string()) return Error{"position: \"to_move\" must be a player id"};
  s.to_move = s.player_index(j["to_move"].get<std::string>());
  if (s.to_move < 0) return Error{"position: to_move \"" + j["to_move"].get<std::string>() + "\" is not a listed player"};
  if (s.eliminated[static_cast<std::size_t>(s.to_move)]) return Error{"position: to_move is eliminated"};
  if (!j.contains("pieces") || !j["pieces"].is_array()) return Error{"position: \"pieces\" must be an array"};
  for (const auto& pc : j["pieces"]) {
    if (!pc.is_object() || !pc.contains("q") || !pc.contains("r")) return Error{"position: each piece needs \"q\" and \"r\""};
    auto c = cell_from(Json::array({pc["q"], pc["r"]}), "piece cell");
    if (!c) return Error{"position: " + c.error()};
    if (!pc.contains("owner") || !pc["owner"].is_string()) return Error{"position: a piece needs a string \"owner\""};
    const int o = s.player_index(pc["owner"].get<std::string>());
    if (o < 0) return Error{"position: piece on " + name(*c) + " has unknown owner \"" + pc["owner"].get<std::string>() + "\""};
    if (!pc.contains("type") || !pc["type"].is_string()) return Error{"position: a piece needs a string \"type\""};
    const int k = kind_from_name(pc["type"].get<std::string>());
    if (k < 0)
      return Error{"position: unknown piece type \"" + pc["type"].get<std::string>() +
                   "\" (pawn, soldier, prince, disruptor, elephant, guard, star, wizard, pawn_master, king)"};
    Cell& dst = s.cells[static_cast<std::size_t>(*c)];
    if (!dst.empty()) return Error{"position: two pieces on " + name(*c)};
    dst = Cell{static_cast<std::int8_t>(o), static_cast<Kind>(k)};
  }
  for (int p = 0; p < s.num_players(); ++p) {
    const std::string& id = s.ids[static_cast<std::size_t>(p)];
    if (s.count(p, Kind::Pawn) > kMaxPawns) return Error{"position: " + id + " has more than ten Pawns (section 4.9)"};
    if (s.count(p, Kind::PawnMaster) > 1) return Error{"position: " + id + " has two Pawn Masters"};
    if (s.count(p, Kind::King) > 2) return Error{"position: " + id + " has more than two Kings"};
    if (s.variant == Variant::Standard && s.count(p, Kind::King) != 1)
      return Error{"position: " + id + " must have exactly one King (section 4.10)"};
    if (s.variant == Variant::Demial && s.count(p, Kind::King) < 1)
      return Error{"position: " + id + " has no King (section 9)"};
  }
  if (j.contains("history")) {
    if (!j["history"].is_array()) return Error{"position: \"history\" must be an array of hashes"};
    for (const auto& h : j["history"]) {
      if (!h.is_string() || h.get<std::string>().size() != 16 ||
          h.get<std::string>().find_first_not_of("0123456789abcdef") != std::string::npos)
        return Error{"position: history entries are 16 hex digits"};
      s.history.push_back(std::stoull(h.get<std::string>(), nullptr, 16));
    }
  }
  if (s.history.empty() || s.history.back() != s.hash()) s.history.push_back(s.hash());
  if (j.contains("over") && j["over"].is_boolean()) s.over = j["over"].get<bool>();
  if (j.contains("reason") && j["reason"].is_string()) s.reason = j["reason"].get<std::string>();
  if (j.contains("winner") && !j["winner"].is_null()) {
    if (!j["winner"].is_string()) return Error{"position: \"winner\" must be a player id or null"};
    s.winner = s.player_index(j["winner"].get<std::string>());
    if (s.winner < 0) return Error{"position: winner is not a listed player"};
    s.over = true;
  }
  return s;
}

Json to_json(const Action& a) {
  switch (a.type) {
    case Type::Move:
      return Json{{"type", "move"}, {"from", cell_json(a.from)}, {"to", cell_json(a.to)}};
    case Type::Wizard:
      return Json{{"type", "wizard"}, {"wizard", cell_json(a.via)}, {"from", cell_json(a.from)}, {"to", cell_json(a.to)}};
    case Type::Promote:
      return Json{{"type", "promote"}, {"segment", kSegmentNames[static_cast<std::size_t>(a.segment)]}, {"piece", kind_name(a.kind)}};
    case Type::Demote:
      return Json{{"type", "demote"}, {"king", cell_json(a.from)}};
  }
  return Json();
}

Result<Action> action_from_json(const Json& j) {
  if (!j.is_object()) return Error{"action: expected a JSON object"};
  if (!j.contains("type") || !j["type"].is_string()) return Error{"action: \"type\" must be a string"};
  const std::string type = j["type"].get<std::string>();
  auto need = [&](const char* k, std::int16_t& dst) -> Status {
    if (!j.contains(k)) return Error{"action: " + type + " needs \"" + k + "\""};
    auto c = cell_from(j[k], k);
    if (!c) return Error{"action: " + c.error()};
    dst = static_cast<std::int16_t>(*c);
    return Status::Ok();
  };
  Action a;
  if (type == "move" || type == "wizard") {
    a.type = type == "move" ? Type::Move : Type::Wizard;
    if (Status st = need("from", a.from); !st) return Error{st.error()};
    if (Status st = need("to", a.to); !st) return Error{st.error()};
    if (a.type == Type::Wizard)
      if (Status st = need("wizard", a.via); !st) return Error{st.error()};
  } else if (type == "promote") {
    a.type = Type::Promote;
    if (!j.contains("segment") || !j["segment"].is_string()) return Error{"action: promote needs a \"segment\" (e.g. \"N-NE\")"};
    auto it = std::find(kSegmentNames.begin(), kSegmentNames.end(), j["segment"].get<std::string>());
    if (it == kSegmentNames.end())
      return Error{"action: unknown segment \"" + j["segment"].get<std::string>() + "\" (N-NE, NE-SE, SE-S, S-SW, SW-NW, NW-N)"};
    a.segment = static_cast<std::int8_t>(it - kSegmentNames.begin());
    if (!j.contains("piece") || !j["piece"].is_string()) return Error{"action: promote needs a \"piece\""};
    const int k = kind_from_name(j["piece"].get<std::string>());
    if (k < 0) return Error{"action: unknown piece type \"" + j["piece"].get<std::string>() + "\""};
    a.kind = static_cast<Kind>(k);
  } else if (type == "demote") {
    a.type = Type::Demote;
    if (Status st = need("king", a.from); !st) return Error{st.error()};
  } else {
    return Error{"action: unknown type \"" + type + "\" (move, wizard, promote, demote)"};
  }
  return a;
}

Json to_json(const Outcome& o, const State& after) {
  Json removed = Json::array();
  for (int c : o.removed) removed.push_back(cell_json(c));
  Json placed = Json::array();
  for (const auto& [c, k] : o.placed) {
    const Hex h = State::board().hex(c);
    placed.push_back(Json{{"q", h.q}, {"r", h.r}, {"type", kind_name(k)}});
  }
  auto ids = [&](const std::vector<int>& v) {
    Json a = Json::array();
    for (int p : v) a.push_back(after.ids[static_cast<std::size_t>(p)]);
    return a;
  };
  Json j{{"removed", removed}, {"placed", placed}, {"eliminated", ids(o.eliminated)}, {"check", ids(o.in_check)},
         {"game_over", after.over}, {"draw", after.over && after.winner < 0}};
  j["winner"] = after.winner >= 0 ? Json(after.ids[static_cast<std::size_t>(after.winner)]) : Json(nullptr);
  j["reason"] = after.reason.empty() ? Json(nullptr) : Json(after.reason);
  return j;
}

Json winner_id(const State& s) { return s.winner >= 0 ? Json(s.ids[static_cast<std::size_t>(s.winner)]) : Json(nullptr); }

std::string describe(const State& s, const Action& a) {
  auto piece = [&](int c) {
    std::string n(kind_name(s.cells[static_cast<std::size_t>(c)].kind));
    if (!n.empty()) n[0] = static_cast<char>(n[0] - 'a' + 'A');
    return s.cells[static_cast<std::size_t>(c)].empty() ? std::string("nothing") : n;
  };
  auto on = [](int c) { return c >= 0 && c < kCells && !is_hole(c); };
  switch (a.type) {
    case Type::Move:
      if (!on(a.from) || !on(a.to)) return "?";
      if (s.cells[static_cast<std::size_t>(a.to)].empty()) return piece(a.from) + " " + name(a.from) + "-" + name(a.to);
      return piece(a.from) + " " + name(a.from) + "x" + name(a.to) + " (" + piece(a.to) + ")";
    case Type::Wizard:
      if (!on(a.from) || !on(a.to) || !on(a.via)) return "?";
      return "Wizard " + name(a.via) + " leaps " + piece(a.from) + " " + name(a.from) + " onto " + name(a.to);
    case Type::Promote:
      if (a.segment < 0 || a.segment > 5) return "?";
      return "promote in " + std::string(kSegmentNames[static_cast<std::size_t>(a.segment)]) + ": Pawn Master to " +
             std::string(kind_name(a.kind));
    case Type::Demote:
      if (!on(a.from)) return "?";
      return "King " + name(a.from) + " becomes the Pawn Master";
  }
  return "?";
}

namespace {

class HexaDecimalRuleset final : public TypedRuleset<State, Action, &state_from_json, &action_from_json> {
 public:
  std::string_view name() const override { return "hexadecimal"; }
  std::vector<std::string> variants() const override { return {"standard", "demial", "threcimal"}; }
  Result<Json> start_position(std::string_view variant) const override {
    if (variant.empty()) variant = "standard";
    auto it = std::find(kVariantNames.begin(), kVariantNames.end(), variant);
    if (it == kVariantNames.end()) return Error{"hexadecimal: unknown variant \"" + std::string(variant) + "\""};
    auto s = start(static_cast<Variant>(it - kVariantNames.begin()));
    if (!s) return Error{s.error()};
    return to_json(*s);
  }
  std::string cell_name(const Json&, Hex h) const override {
    const int i = State::board().index(h);
    return i == kNoCell || is_hole(i) ? std::string() : State::board().name(i);
  }
  Result<std::vector<Hex>> cells(const Json&) const override {
    std::vector<Hex> out;
    for (int i = 0; i < kCells; ++i)
      if (!is_hole(i)) out.push_back(State::board().hex(i));
    return out;
  }
};

}  // namespace

std::shared_ptr<const Ruleset> make_ruleset() { return std::make_shared<HexaDecimalRuleset>(); }

}  // namespace hexdice::hexadecimal
