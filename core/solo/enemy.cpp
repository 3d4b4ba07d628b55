#include "core/solo/enemy.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <sstream>

#include "core/ai/eval.h"

namespace hexdice::solo {

namespace {

constexpr int kUnreachable = 100;  // metric offset: unreachable targets rank by hex distance after these

std::string unit_at(const Position& pos, int cell) {
  return std::string(unit_stats(pos.at(cell).face).name) + " on " + pos.board().name(cell);
}

bool is_hero(const Position& pos, int cell, int enemy) {
  const Piece& p = pos.at(cell);
  return !p.empty() && p.owner != enemy;
}

std::vector<int> hero_cells(const Position& pos, int enemy) {
  std::vector<int> out;
  for (int c = 0; c < pos.board().size(); ++c)
    if (is_hero(pos, c, enemy)) out.push_back(c);
  return out;
}

bool is_attack_on(const Action& a, int target) {
  return a.target == target &&
         (a.type == ActionType::Move || a.type == ActionType::Ranged || a.type == ActionType::Special);
}

// Path metric from `from` to `target`: actions needed, or kUnreachable + hex distance.
int metric(const Position& pos, int from, int target) {
  const int n = actions_to_reach(pos, from, target);
  return n >= 0 ? n : kUnreachable + distance(pos.board().hex(from), pos.board().hex(target));
}

std::string combat_words(const Position& pos, const Action& a) {
  auto c = preview_combat(pos, a);
  if (!c) return "";
  return " (attack " + std::to_string(c->attack) + " vs armor " + std::to_string(c->armor) + ": " +
         (c->success ? "defeated" : "failed, both -1") + ")";
}

std::string action_words(const Position& pos, const Action& a) {
  const Board& b = pos.board();
  const std::string who = unit_at(pos, a.unit);
  switch (a.type) {
    case ActionType::Move:
      if (pos.at(a.target).empty()) return "the " + who + " moves to " + b.name(a.target);
      return "the " + who + " attacks the " + unit_at(pos, a.target) + combat_words(pos, a);
    case ActionType::Ranged:
      return "the " + who + " shoots the " + unit_at(pos, a.target) + combat_words(pos, a);
    case ActionType::Special:
      return "the " + who + " strikes the " + unit_at(pos, a.target) + combat_words(pos, a);
    case ActionType::Guard:
      return "the " + who + " guards (+1 armor)";
    case ActionType::Reroll:
      return "the " + who + " rerolls";
    case ActionType::Merge:
      return "the " + who + " merges";
  }
  return "?";
}

struct Candidate {
  Action action;
  long long harm;
};

// Picks the most harmful of equally good candidates; `tie` is set when the Dark Rule decided.
const Candidate* dark_rule(const std::vector<Candidate>& cs, bool* tie) {
  if (cs.empty()) return nullptr;
  const Candidate* best = &cs.front();
  for (const auto& c : cs)
    if (c.harm > best->harm) best = &c;
  if (tie) *tie = cs.size() > 1;
  return best;
}

bool within_x(const Position& pos, const Action& a, int x) {
  if (x < 0 || a.type != ActionType::Move) return true;
  return distance(pos.board().hex(a.unit), pos.board().hex(a.target)) <= x;
}

// Best approach of the unit on `cell` towards `target`: attack it if possible, else the
// legal move (within X) that most shortens the path; none when no move gets closer.
struct Plan {
  std::optional<Action> action;
  long long harm = 0;
  bool attack = false;
  bool dark = false;
  int before = 0, after = 0;
};

Plan approach(const Position& pos, int cell, int target, int x) {
  Plan plan;
  std::vector<Action> acts;
  unit_actions(pos, cell, acts);
  std::vector<Candidate> attacks;
  for (const Action& a : acts)
    if (is_attack_on(a, target) && within_x(pos, a, x)) attacks.push_back({a, harm(pos, a)});
  if (!attacks.empty()) {
    const Candidate* c = dark_rule(attacks, &plan.dark);
    plan.action = c->action;
    plan.harm = c->harm;
    plan.attack = true;
    return plan;
  }
  plan.before = metric(pos, cell, target);
  int best = plan.before;
  std::vector<Candidate> moves;
  Position next = pos;
  for (const Action& a : acts) {
    if (a.type != ActionType::Move || !pos.at(a.target).empty() || !within_x(pos, a, x)) continue;
    next = pos;
    apply_unchecked(next, a);
    next.set_to_move(pos.to_move());
    const int m = metric(next, a.target, target);
    if (m < best) {
      best = m;
      moves.clear();
    }
    if (m == best && m < plan.before) moves.push_back({a, harm(pos, a)});
  }
  plan.after = best;
  if (const Candidate* c = dark_rule(moves, &plan.dark)) {
    plan.action = c->action;
    plan.harm = c->harm;
  }
  return plan;
}

std::string steps_text(int m) {
  if (m >= kUnreachable) return "no path; " + std::to_string(m - kUnreachable) + " hexes away";
  return std::to_string(m) + (m == 1 ? " action away" : " actions away");
}

// Engage / Prey / Raid share this: choose among equally valid targets by the Dark Rule.
Decision pursue(const Position& pos, int cell, const Order& order, const std::vector<int>& targets,
                const std::string& why) {
  Decision d;
  const std::string kw = to_string(order);
  if (targets.empty()) {
    d.explanation = kw + ": no target on the board; the " + unit_at(pos, cell) + " does nothing";
    return d;
  }
  const Plan* best = nullptr;
  int best_target = targets.front();
  std::vector<Plan> plans;
  plans.reserve(targets.size());
  for (int t : targets) plans.push_back(approach(pos, cell, t, order.x));
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const Plan& p = plans[i];
    if (!p.action) continue;
    if (!best || p.harm > best->harm) {
      best = &p;
      best_target = targets[i];
    }
  }
  const bool target_tie = targets.size() > 1;
  std::string target_text = why;
  if (!best) {
    d.explanation = kw + ": " + target_text + "; the " + unit_at(pos, cell) +
                    " cannot get closer (blocked or already in position) and does nothing";
    return d;
  }
  const Plan& p = *best;
  d.action = p.action;
  d.harm = p.harm;
  std::string target_name = pos.at(best_target).empty() ? "the base " + pos.board().name(best_target)
                                                          : "the " + unit_at(pos, best_target);
  d.explanation = kw + ": " + target_text;
  if (target_tie) d.explanation += "; Dark Rule: of " + std::to_string(targets.size()) + " equal targets, " +
                                   target_name + " lets it do the most harm";
  d.explanation += "; " + action_words(pos, *p.action);
  if (!p.attack) d.explanation += " (" + steps_text(p.before) + " -> " + steps_text(p.after) + ")";
  if (p.dark && !target_tie) d.explanation += "; Dark Rule among equal moves";
  return d;
}

Decision engage(const Position& pos, int cell, const Order& order) {
  const int enemy = pos.at(cell).owner;
  const auto heroes = hero_cells(pos, enemy);
  int best = 1 << 30;
  std::vector<int> nearest;
  for (int h : heroes) {
    const int m = metric(pos, cell, h);
    if (m < best) {
      best = m;
      nearest.clear();
    }
    if (m == best) nearest.push_back(h);
  }
  std::string why = nearest.empty() ? "" : "the nearest hero is the " + unit_at(pos, nearest.front()) + " (" +
                                               steps_text(best) + ")";
  return pursue(pos, cell, order, nearest, why);
}

Decision prey(const Position& pos, int cell, const Order& order) {
  const int enemy = pos.at(cell).owner;
  const auto heroes = hero_cells(pos, enemy);
  int low = 1 << 30;
  for (int h : heroes) low = std::min(low, effective_armor(pos.at(h)));
  std::vector<int> weakest;
  for (int h : heroes)
    if (effective_armor(pos.at(h)) == low) weakest.push_back(h);
  int best = 1 << 30;
  std::vector<int> nearest;
  for (int h : weakest) {
    const int m = metric(pos, cell, h);
    if (m < best) {
      best = m;
      nearest.clear();
    }
    if (m == best) nearest.push_back(h);
  }
  std::string why = nearest.empty() ? ""
                                    : "the weakest hero is the " + unit_at(pos, nearest.front()) +
                                          " with effective armor " + std::to_string(low) +
                                          (weakest.size() > 1 ? " (nearest of " + std::to_string(weakest.size()) + ")"
                                                              : "");
  return pursue(pos, cell, order, nearest, why);
}

Decision raid(const Position& pos, int cell, const Order& order) {
  const int enemy = pos.at(cell).owner;
  std::vector<int> bases;
  for (int p = 0; p < pos.num_players(); ++p)
    if (p != enemy && !pos.player(p).eliminated && pos.num_players() == 2) bases.push_back(pos.base_cell(p));
  std::string why = bases.empty() ? "" : "the heroes' base is " + pos.board().name(bases.front());
  return pursue(pos, cell, order, bases, why);
}

int nearest_hero_distance(const Position& pos, Hex from, int enemy) {
  int best = 1 << 30;
  for (int c = 0; c < pos.board().size(); ++c)
    if (is_hero(pos, c, enemy)) best = std::min(best, distance(from, pos.board().hex(c)));
  return best;
}

// Could an Archer on `cell` shoot a hero next turn (a hero exactly 2 away in a line)?
bool can_shoot_from(const Position& pos, int cell, int enemy) {
  const Board& b = pos.board();
  for (int d = 0; d < 6; ++d) {
    const int t1 = b.neighbor(cell, d);
    if (t1 == kNoCell) continue;
    const int t2 = b.neighbor(t1, d);
    if (t2 == kNoCell || !is_hero(pos, t2, enemy)) continue;
    if (pos.rules().ranged_needs_clear_line && !pos.at(t1).empty()) continue;
    return true;
  }
  return false;
}

Decision keep_distance(const Position& pos, int cell, const Order& order) {
  Decision d;
  const std::string kw = to_string(order);
  const int enemy = pos.at(cell).owner;
  const Board& b = pos.board();
  std::vector<Action> acts;
  unit_actions(pos, cell, acts);
  std::vector<Candidate> shots;
  for (const Action& a : acts)
    if (a.type == ActionType::Ranged) shots.push_back({a, harm(pos, a)});
  bool tie = false;
  if (const Candidate* c = dark_rule(shots, &tie)) {
    d.action = c->action;
    d.harm = c->harm;
    d.explanation = kw + ": a hero is in range; " + action_words(pos, c->action) +
                    (tie ? "; Dark Rule: of " + std::to_string(shots.size()) + " targets in range, the most harmful" : "");
    return d;
  }
  const int d0 = nearest_hero_distance(pos, b.hex(cell), enemy);
  if (d0 >= (1 << 30)) {
    d.explanation = kw + ": no hero on the board; the " + unit_at(pos, cell) + " does nothing";
    return d;
  }
  auto err = [&](int dist) { return dist < order.a ? order.a - dist : (dist > order.b ? dist - order.b : 0); };
  const bool archer = pos.at(cell).face == 2;
  auto key = [&](int dist, bool shoot) { return err(dist) * 2 + ((archer && !shoot) ? 1 : 0); };
  const int stay = key(d0, false);
  int best = stay;
  std::vector<Candidate> moves;
  Position next = pos;
  for (const Action& a : acts) {
    if (a.type != ActionType::Move || !pos.at(a.target).empty() || !within_x(pos, a, order.x)) continue;
    next = pos;
    apply_unchecked(next, a);
    const int k = key(nearest_hero_distance(next, b.hex(a.target), enemy), can_shoot_from(next, a.target, enemy));
    if (k < best) {
      best = k;
      moves.clear();
    }
    if (k == best && k < stay) moves.push_back({a, harm(pos, a)});
  }
  const std::string where = "the nearest hero is " + std::to_string(d0) + " hexes away (band " +
                            std::to_string(order.a) + "-" + std::to_string(order.b) + ")";
  if (const Candidate* c = dark_rule(moves, &tie)) {
    d.action = c->action;
    d.harm = c->harm;
    const char* dir = d0 < order.a ? "backs off" : (d0 > order.b ? "closes in" : "repositions to shoot next turn");
    d.explanation = kw + ": " + where + "; it " + dir + ": " + action_words(pos, c->action) +
                    (tie ? "; Dark Rule among equal cells" : "");
    return d;
  }
  d.explanation = kw + ": " + where + "; no better cell, the " + unit_at(pos, cell) + " holds its position";
  return d;
}

Decision strike(const Position& pos, int cell, const Order& order) {
  Decision d;
  std::vector<Action> acts;
  unit_actions(pos, cell, acts);
  std::vector<Candidate> hits;
  for (const Action& a : acts) {
    const bool attack = a.type == ActionType::Ranged || a.type == ActionType::Special ||
                        (a.type == ActionType::Move && !pos.at(a.target).empty());
    if (attack && within_x(pos, a, order.x)) hits.push_back({a, harm(pos, a)});
  }
  bool tie = false;
  if (const Candidate* c = dark_rule(hits, &tie)) {
    d.action = c->action;
    d.harm = c->harm;
    d.explanation = to_string(order) + ": " + action_words(pos, c->action) +
                    (tie ? "; Dark Rule: of " + std::to_string(hits.size()) + " possible attacks, the most harmful" : "");
    return d;
  }
  d.explanation = to_string(order) + ": no hero within reach of the " + unit_at(pos, cell);
  return d;
}

}  // namespace

std::string to_string(const Order& o) {
  std::string s;
  switch (o.keyword) {
    case Keyword::Engage: s = "Engage"; break;
    case Keyword::Prey: s = "Prey"; break;
    case Keyword::Distance: s = "Distance"; break;
    case Keyword::Raid: s = "Raid"; break;
    case Keyword::Strike: s = "Strike"; break;
    case Keyword::Hold: s = "Hold"; break;
  }
  if (o.x >= 0) s += " " + std::to_string(o.x);
  if (o.keyword == Keyword::Distance) s += " (" + std::to_string(o.a) + "-" + std::to_string(o.b) + ")";
  return s;
}

std::optional<Order> parse_order(const std::string& text) {
  std::string t;
  for (char c : text) t += (c == '(' || c == ')' || c == '-' || c == ',') ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::istringstream in(t);
  std::string word;
  if (!(in >> word)) return std::nullopt;
  Order o;
  if (word == "engage") o.keyword = Keyword::Engage;
  else if (word == "prey") o.keyword = Keyword::Prey;
  else if (word == "distance") o.keyword = Keyword::Distance;
  else if (word == "raid") o.keyword = Keyword::Raid;
  else if (word == "strike") o.keyword = Keyword::Strike;
  else if (word == "hold" || word == "guard") o.keyword = Keyword::Hold;
  else return std::nullopt;
  std::vector<int> nums;
  std::string w;
  while (in >> w) {
    if (w.empty() || w.size() > 3 || !std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    nums.push_back(std::stoi(w));
  }
  if (o.keyword == Keyword::Distance) {
    if (nums.size() == 3) {
      o.x = nums[0];
      o.a = nums[1];
      o.b = nums[2];
    } else if (nums.size() == 2) {
      o.a = nums[0];
      o.b = nums[1];
    } else if (nums.size() == 1) {
      o.x = nums[0];
    } else if (!nums.empty()) {
      return std::nullopt;
    }
    if (o.a > o.b) return std::nullopt;
  } else {
    if (nums.size() > 1) return std::nullopt;
    if (nums.size() == 1) o.x = nums[0];
  }
  return o;
}

int actions_to_reach(const Position& pos, int from, int target, int max_steps) {
  const Board& b = pos.board();
  const Piece unit = pos.at(from);
  if (unit.empty() || from == target) return from == target ? 0 : -1;
  Position scratch = pos;
  scratch.set_winner(-1);
  scratch.set_to_move(unit.owner);
  scratch.clear(from);
  std::vector<int> dist(static_cast<std::size_t>(b.size()), -1);
  std::deque<int> queue{from};
  dist[static_cast<std::size_t>(from)] = 0;
  std::vector<Action> acts;
  while (!queue.empty()) {
    const int c = queue.front();
    queue.pop_front();
    const int dc = dist[static_cast<std::size_t>(c)];
    if (dc >= max_steps) continue;
    scratch.set(c, unit);
    unit_actions(scratch, c, acts);
    scratch.clear(c);
    for (const Action& a : acts) {
      if (is_attack_on(a, target)) return dc + 1;
      if (a.type != ActionType::Move || !scratch.at(a.target).empty()) continue;
      auto& dt = dist[static_cast<std::size_t>(a.target)];
      if (dt >= 0) continue;
      dt = dc + 1;
      queue.push_back(a.target);
    }
  }
  return -1;
}

long long harm(const Position& pos, const Action& a) {
  const int enemy = pos.to_move();
  Position next = pos;
  Outcome out;
  apply_unchecked(next, a, &out);
  if (next.winner() == enemy) return 1LL << 60;
  long long h = 0;
  if (out.combat) {
    const Piece& victim = pos.at(a.target);
    if (out.combat->success)
      h += 10000000LL + 1000LL * ai::unit_value(victim);
    else
      h += 1000000LL + 1000LL * (effective_armor(victim) <= 1 ? 2 : 1);
  }
  const int cell = (a.type == ActionType::Move || a.type == ActionType::Special) && next.at(a.unit).empty()
                       ? a.target
                       : a.unit;
  // Threats from the new cell: heroes it could defeat with its next action.
  next.set_to_move(enemy);
  if (!next.game_over() && !next.at(cell).empty() && next.at(cell).owner == enemy) {
    std::vector<Action> acts;
    unit_actions(next, cell, acts);
    for (const Action& b : acts) {
      if (b.type != ActionType::Move && b.type != ActionType::Ranged && b.type != ActionType::Special) continue;
      if (!is_hero(next, b.target, enemy)) continue;
      if (unit_stats(next.at(cell).face).attack >= effective_armor(next.at(b.target)))
        h += 10000 + ai::unit_value(next.at(b.target));
    }
  }
  // Closeness to the heroes' base (2 players).
  if (pos.num_players() == 2 && !next.at(cell).empty())
    h -= 100LL * distance(pos.board().hex(cell), pos.board().hex(pos.base_cell(1 - enemy)));
  // Last, deterministic: prefer lower cell indices (stable across runs).
  h = h * 1024 - a.target - (a.unit * 2);
  return h;
}

Decision decide(const Position& pos, int cell, const Order& order) {
  Decision d;
  if (cell < 0 || cell >= pos.board().size() || pos.at(cell).empty() || pos.at(cell).owner != pos.to_move() ||
      pos.game_over()) {
    d.explanation = to_string(order) + ": no enemy unit to act on that cell";
    return d;
  }
  switch (order.keyword) {
    case Keyword::Engage: return engage(pos, cell, order);
    case Keyword::Prey: return prey(pos, cell, order);
    case Keyword::Distance: return keep_distance(pos, cell, order);
    case Keyword::Raid: return raid(pos, cell, order);
    case Keyword::Strike: return strike(pos, cell, order);
    case Keyword::Hold: {
      Action g{ActionType::Guard, static_cast<std::int16_t>(cell), kNoCell, 0};
      d.action = g;
      d.harm = harm(pos, g);
      d.explanation = to_string(order) + ": " + action_words(pos, g);
      return d;
    }
  }
  return d;
}

Decision decide_chain(const Position& pos, int cell, const std::vector<Order>& orders) {
  Decision last;
  std::string tried;
  for (const Order& o : orders) {
    Decision d = decide(pos, cell, o);
    if (d.action) {
      if (!tried.empty()) d.explanation = tried + " | " + d.explanation;
      return d;
    }
    tried += (tried.empty() ? "" : " | ") + d.explanation;
    last = std::move(d);
  }
  last.explanation = tried.empty() ? "no order" : tried;
  return last;
}

std::vector<Order> default_orders(int face) {
  switch (face) {
    case 1: return {{Keyword::Engage}, {Keyword::Hold}};
    case 2: return {{Keyword::Distance, -1, 2, 3}};
    case 3: return {{Keyword::Prey}, {Keyword::Engage}};
    case 4: return {{Keyword::Prey}, {Keyword::Engage}};
    case 5: return {{Keyword::Engage}, {Keyword::Hold}};
    case 6: return {{Keyword::Strike}, {Keyword::Hold}};
    default: return {{Keyword::Engage}};
  }
}

}  // namespace hexdice::solo
