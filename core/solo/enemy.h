// The enemy of solo and co-op play (seeds/004 "Solo and Cooperative Play", rules.md
// section 9): movement keywords translated to Hex Dice, targets chosen by the Dark
// Rule, and a human explanation for every decision. See docs/scenarios.md.
//
// An enemy unit is an ordinary Hex Dice unit of the enemy player; it moves by its own
// face's pattern (rules.md section 4), so every decision is a legal action of that unit
// (hexdice::validate accepts it) or no action at all.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/rules.h"

namespace hexdice::solo {

// Engage X: towards the nearest hero by the shortest legal path; attacks it when it can.
// Prey X:   towards the weakest hero (lowest effective armor, then nearest); attacks it when it can.
// Distance X (a-b): keeps the nearest hero between a and b hexes away; shoots when it can.
// Raid X:   towards the heroes' base cell; enters it (attacking its occupant) when it can.
// Strike:   attacks an enemy it can attack now (melee, ranged or special), no movement.
// Hold:     guards (+1 armor until it acts otherwise).
// X caps the hex distance of the move (-1: the unit's own pattern is the only limit).
enum class Keyword { Engage, Prey, Distance, Raid, Strike, Hold };

struct Order {
  Keyword keyword = Keyword::Engage;
  int x = -1;
  int a = 2;  // Distance band
  int b = 2;
  bool operator==(const Order&) const = default;
};

std::string to_string(const Order& o);  // "Engage 2", "Distance 2 (2-3)", "Strike"
// Parses "engage", "Engage 2", "distance 2 (2-3)", "prey", "hold"...; nullopt when unknown.
std::optional<Order> parse_order(const std::string& text);

struct Decision {
  std::optional<Action> action;  // none: the order could not be carried out at all
  std::string explanation;       // "Prey: the Archer on d4 has effective armor 0; ..."
  long long harm = 0;            // Dark Rule score of the action (higher: worse for the heroes)
};

// The Dark Rule's measure of an enemy action: how much it harms the heroes
// (a win, then a kill and its value, then wearing a hero down, then threats and
// closeness to the heroes' base). pos.to_move() must be the acting side.
long long harm(const Position& pos, const Action& a);

// The unit on `cell` (owned by pos.to_move()) carries out one order.
Decision decide(const Position& pos, int cell, const Order& order);
// Tries each order in turn; the first that yields an action is used.
Decision decide_chain(const Position& pos, int cell, const std::vector<Order>& orders);

// Number of the unit's own actions (by its face's pattern, on the current board) needed
// to attack or enter `target` from `from`; -1 when it cannot within max_steps.
int actions_to_reach(const Position& pos, int from, int target, int max_steps = 6);

// The default order of each face when a table names none (index 1..6).
std::vector<Order> default_orders(int face);

}  // namespace hexdice::solo
