// Perft-style legal-action counts (rules.md sections 4-5). The generator is checked
// against an independent, slow oracle written straight from the rules text (per
// target cell, not per ray), on random positions and by perft to depth 2; the fixed
// counts below are then the published regression figures (docs/perft.md).
//
// perft(depth): leaves of the action tree where a reroll is a chance node with six
// children (faces 1-6), every other action one child; a finished game is a leaf.
#include <gtest/gtest.h>

#include <random>

#include "tests/core/test_util.h"

namespace hexdice {
namespace {

// ---- the oracle ------------------------------------------------------------------------------

bool is_enemy(const Position& p, Hex h, int me) {
  const Piece* c = p.at(h);
  return c && !c->empty() && c->owner != me;
}
bool is_friend(const Position& p, Hex h, int me) {
  const Piece* c = p.at(h);
  return c && c->owner == me;
}
bool is_empty(const Position& p, Hex h) {
  const Piece* c = p.at(h);
  return c && c->empty();
}

// Straight ray of exactly k steps with every intermediate cell empty.
bool straight_clear(const Position& p, Hex from, Hex to, int d, int k) {
  if (to != from + direction(d) * k) return false;
  for (int i = 1; i < k; ++i)
    if (!is_empty(p, from + direction(d) * i)) return false;
  return true;
}

std::multiset<std::tuple<int, Hex, Hex>> oracle(const Position& p) {
  std::multiset<std::tuple<int, Hex, Hex>> out;
  if (p.game_over()) return out;
  const int me = p.to_move();
  const HouseRules& hr = p.rules();
  const Hex none{99, 99};
  for (Hex h : p.board().cells()) {
    const Piece* u = p.at(h);
    if (u->owner != me) continue;
    const int fwd = p.forward(me);
    for (Hex t : p.board().cells()) {
      if (t == h) continue;
      bool move = false;
      if (!is_friend(p, t, me)) {
        switch (u->face) {
          case 1:
            move = straight_clear(p, h, t, fwd, 1) || straight_clear(p, h, t, fwd, 2) ||
                   straight_clear(p, h, t, opposite(fwd), 1);
            break;
          case 2:
            if (hr.archer_star_free_path) {
              if (distance(h, t) == 1) move = true;
              if (distance(h, t) == 2)
                for (int d = 0; d < 6; ++d) {
                  const Hex m = h + direction(d);
                  if (is_empty(p, m) && distance(m, t) == 1) move = true;
                }
            } else {
              for (int d = 0; d < 6; ++d) move |= straight_clear(p, h, t, d, 1) || straight_clear(p, h, t, d, 2);
            }
            break;
          case 3:
            for (int d = 0; d < 6; ++d)
              for (int e : {d + 1, d + 5}) {
                const Hex a = h + direction(d), b = a + direction(d);
                if (t == b + direction(e) && p.board().contains(a) && p.board().contains(b) && !is_enemy(p, a, me) &&
                    !is_enemy(p, b, me))
                  move = true;
              }
            break;
          case 4:
            for (int d = 0; d < 6; ++d)
              if (d != fwd && d != opposite(fwd)) move |= straight_clear(p, h, t, d, 1) || straight_clear(p, h, t, d, 2);
            break;
          case 5:
            move = distance(h, t) == 1;
            break;
          default:
            break;
        }
      }
      if (move) out.insert({static_cast<int>(ActionType::Move), h, t});
      if (u->face == 2 && is_enemy(p, t, me)) {
        for (int d = 0; d < 6; ++d)
          if (t == h + direction(d) * 2 && (!hr.ranged_needs_clear_line || is_empty(p, h + direction(d))))
            out.insert({static_cast<int>(ActionType::Ranged), h, t});
      }
      if (u->face == 6 && is_enemy(p, t, me) && distance(h, t) == 1)
        out.insert({static_cast<int>(ActionType::Special), h, t});
      if (hr.merge_sum && is_friend(p, t, me) && distance(h, t) == 1)
        out.insert({static_cast<int>(ActionType::Merge), h, t});
    }
    out.insert({static_cast<int>(ActionType::Reroll), h, none});
    out.insert({static_cast<int>(ActionType::Guard), h, none});
  }
  return out;
}

std::multiset<std::tuple<int, Hex, Hex>> generated(const Position& p) {
  std::multiset<std::tuple<int, Hex, Hex>> out;
  for (const Action& a : legal_actions(p))
    out.insert({static_cast<int>(a.type), p.board().hex(a.unit),
                a.target == kNoCell ? Hex{99, 99} : p.board().hex(a.target)});
  return out;
}

TEST(Perft_Oracle, GeneratorMatchesOracleOnRandomPositions) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    HouseRules hr;
    hr.archer_star_free_path = rng() % 2;
    hr.ranged_needs_clear_line = rng() % 2;
    hr.merge_sum = rng() % 2;
    const bool three = trial % 4 == 0;
    auto c = three ? Position::create(5, {{"a", 0}, {"b", 2}, {"c", 4}}, hr) : Position::create(5, {{"a", 0}, {"b", 3}}, hr);
    ASSERT_TRUE(c.ok());
    Position p = *c;
    const int n = 4 + static_cast<int>(rng() % 30);
    for (int k = 0; k < n; ++k) {
      const Hex h = p.board().hex(static_cast<int>(rng() % static_cast<unsigned>(p.board().size())));
      (void)p.place(h, static_cast<int>(rng() % static_cast<unsigned>(p.num_players())), 1 + static_cast<int>(rng() % 6),
                    static_cast<int>(rng() % 3), rng() % 4 == 0);
    }
    p.set_to_move(static_cast<int>(rng() % static_cast<unsigned>(p.num_players())));
    ASSERT_EQ(generated(p), oracle(p)) << to_json(p).dump();
  }
}

// ---- perft -----------------------------------------------------------------------------------

std::uint64_t perft(const Position& p, int depth, bool use_oracle = false) {
  if (depth == 0 || p.game_over()) return 1;
  std::vector<Action> acts;
  if (use_oracle) {
    for (auto& [type, from, to] : oracle(p)) {
      Action a;
      a.type = static_cast<ActionType>(type);
      a.unit = static_cast<std::int16_t>(p.board().index(from));
      a.target = static_cast<std::int16_t>(p.board().contains(to) ? p.board().index(to) : kNoCell);
      acts.push_back(a);
    }
  } else {
    legal_actions(p, acts);
  }
  std::uint64_t n = 0;
  for (const Action& a : acts) {
    const int faces = a.type == ActionType::Reroll ? 6 : 1;
    for (int f = 1; f <= faces; ++f) {
      Position q = p;
      Action b = a;
      if (a.type == ActionType::Reroll) b.face = static_cast<std::uint8_t>(f);
      apply_unchecked(q, b);
      n += perft(q, depth - 1, use_oracle);
    }
  }
  return n;
}

// The standard opening used in docs/perft.md: red N, blue S, one of each unit each.
Position opening() {
  auto p = parse_position(R"({"ruleset":"hexdice","radius":5,
    "players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red","units":[
    {"q":0,"r":-4,"owner":"red","face":3},{"q":-1,"r":-3,"owner":"red","face":2},
    {"q":1,"r":-4,"owner":"red","face":1},{"q":0,"r":-3,"owner":"red","face":4},
    {"q":-1,"r":-4,"owner":"red","face":5},{"q":1,"r":-5,"owner":"red","face":6},
    {"q":0,"r":4,"owner":"blue","face":3},{"q":1,"r":3,"owner":"blue","face":2},
    {"q":-1,"r":4,"owner":"blue","face":1},{"q":0,"r":3,"owner":"blue","face":4},
    {"q":1,"r":4,"owner":"blue","face":5},{"q":-1,"r":5,"owner":"blue","face":6}]})");
  EXPECT_TRUE(p.ok()) << p.error();
  return *p;
}

// A mid-game 2-player position with 16 units, tokens and guards (also used by the benchmark).
Position midgame() {
  auto p = parse_position(R"({"ruleset":"hexdice","radius":5,
    "players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red","units":[
    {"q":0,"r":-4,"owner":"red","face":6},{"q":-1,"r":-2,"owner":"red","face":2},
    {"q":1,"r":-2,"owner":"red","face":1,"tokens":1},{"q":0,"r":-1,"owner":"red","face":4},
    {"q":-2,"r":0,"owner":"red","face":3},{"q":2,"r":-1,"owner":"red","face":5,"guard":true},
    {"q":-1,"r":1,"owner":"red","face":1},{"q":3,"r":-3,"owner":"red","face":3},
    {"q":0,"r":4,"owner":"blue","face":5},{"q":1,"r":1,"owner":"blue","face":2,"tokens":2},
    {"q":-1,"r":3,"owner":"blue","face":1},{"q":0,"r":1,"owner":"blue","face":4},
    {"q":2,"r":0,"owner":"blue","face":3},{"q":-2,"r":2,"owner":"blue","face":6},
    {"q":1,"r":2,"owner":"blue","face":1,"guard":true},{"q":-3,"r":3,"owner":"blue","face":2}]})");
  EXPECT_TRUE(p.ok()) << p.error();
  return *p;
}

TEST(Perft_Oracle, PerftDepth2MatchesOracle) {
  EXPECT_EQ(perft(opening(), 2), perft(opening(), 2, true));
  EXPECT_EQ(perft(midgame(), 2), perft(midgame(), 2, true));
}

TEST(Perft_Counts, Opening) {
  // Depth 1 by hand: 22 moves (Knight 6, Archer 8, Infantry 2, Assault 4, Tanker 2,
  // Balance 0) + 6 guards + 6 rerolls x 6 faces = 64.
  EXPECT_EQ(perft(opening(), 1), 64u);
  EXPECT_EQ(perft(opening(), 2), 4096u);
  EXPECT_EQ(perft(opening(), 3), 267392u);
}

TEST(Perft_Counts, Midgame) {
  EXPECT_EQ(perft(midgame(), 1), 103u);
  EXPECT_EQ(perft(midgame(), 2), 11267u);
  EXPECT_EQ(perft(midgame(), 3), 1147190u);
}

}  // namespace
}  // namespace hexdice
