// Helpers for the core tests: build positions by hand, find actions by cell names.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/rules.h"

namespace hexdice::testing {

// Two players, red at N and blue at S, empty radius-5 board, red to move.
inline Position two_player(HouseRules rules = {}, int radius = 5) {
  auto p = Position::create(radius, {{"red", 0}, {"blue", 3}}, rules);
  EXPECT_TRUE(p.ok());
  return std::move(p).value();
}

inline void put(Position& pos, Hex h, int owner, int face, int tokens = 0, bool guard = false) {
  Status s = pos.place(h, owner, face, tokens, guard);
  ASSERT_TRUE(s.ok()) << s.error();
}

// Destinations (as hexes) of the unit's actions of one type.
inline std::set<Hex> targets(const Position& pos, Hex unit, ActionType type) {
  std::vector<Action> acts;
  unit_actions(pos, pos.board().index(unit), acts);
  std::set<Hex> out;
  for (const Action& a : acts)
    if (a.type == type) out.insert(pos.board().hex(a.target));
  return out;
}

inline Action act(const Position& pos, ActionType t, Hex unit, Hex target = {99, 99}, int face = 0) {
  Action a;
  a.type = t;
  a.unit = static_cast<std::int16_t>(pos.board().index(unit));
  a.target = static_cast<std::int16_t>(pos.board().contains(target) ? pos.board().index(target) : kNoCell);
  a.face = static_cast<std::uint8_t>(face);
  return a;
}

inline Applied must_apply(const Position& pos, const Action& a) {
  auto r = apply(pos, a);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
  if (!r.ok()) return Applied{pos, {}};
  return std::move(r).value();
}

}  // namespace hexdice::testing
