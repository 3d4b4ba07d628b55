#include "core/ai/hint.h"

#include <algorithm>
#include <cstdio>

namespace hexdice::ai {

namespace {

std::string unit_at(const Position& pos, int cell) {
  return std::string(unit_stats(pos.at(cell).face).name) + " on " + pos.board().name(cell);
}

std::string score_text(int score) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", score / 100.0);
  return buf;
}

}  // namespace

std::vector<int> units_under_attack(const Position& pos, int side) {
  std::vector<int> out;
  if (pos.game_over()) return out;
  Position p = pos;
  p.set_to_move(side);  // so that `next_player` is defined below
  std::vector<Action> acts;
  for (int o = 0; o < pos.num_players(); ++o) {
    if (o == side || pos.player(o).eliminated) continue;
    p.set_to_move(o);
    legal_actions(p, acts);
    for (const Action& a : acts) {
      if (a.type != ActionType::Move && a.type != ActionType::Ranged && a.type != ActionType::Special) continue;
      const Piece& t = p.at(a.target);
      if (t.empty() || t.owner != side) continue;
      if (unit_stats(p.at(a.unit).face).attack < effective_armor(t)) continue;
      if (std::find(out.begin(), out.end(), a.target) == out.end()) out.push_back(a.target);
    }
  }
  return out;
}

std::string explain(const Position& pos, const Action& a, const SearchResult& sr) {
  const int me = pos.to_move();
  std::vector<std::string> parts;
  const int plies = Searcher::plies_to_result(sr.score);
  if (plies > 0) {
    const int mine = (plies + 1) / 2;
    if (mine == 1) {
      Position next = pos;
      Action b = a;
      if (b.type == ActionType::Reroll && b.face == 0) b.face = 1;
      apply_unchecked(next, b);
      bool annihilated = false;
      for (int o = 0; o < pos.num_players(); ++o)
        if (o != me && pos.unit_count(o) > 0 && next.unit_count(o) == 0) annihilated = true;
      parts.push_back(annihilated ? "wins now: removes the last enemy unit" : "wins now: captures the enemy base");
    } else {
      parts.push_back("forces a win in " + std::to_string(mine) + " of your actions, whatever the reply");
    }
  } else if (plies < 0) {
    parts.push_back("every action loses by force; this one holds out longest (" + std::to_string((-plies + 1) / 2) +
                    " enemy actions)");
  }
  // What it wins.
  if (auto c = preview_combat(pos, a)) {
    const std::string what = unit_at(pos, a.target);
    if (c->success)
      parts.push_back("takes the " + what + " (attack " + std::to_string(c->attack) + " vs armor " +
                      std::to_string(c->armor) + ")");
    else
      parts.push_back("wears down the " + what + " (attack " + std::to_string(c->attack) + " vs armor " +
                      std::to_string(c->armor) + ": both get a -1 token)");
  }
  // What it saves: units attacked now and safe after the action.
  if (!(a.type == ActionType::Reroll && a.face == 0)) {
    const auto before = units_under_attack(pos, me);
    if (!before.empty()) {
      Position next = pos;
      apply_unchecked(next, a);
      if (!next.game_over()) {
        const auto after = units_under_attack(next, me);
        for (int cell : before) {
          int now = cell;
          if (cell == a.unit && (a.type == ActionType::Move || a.type == ActionType::Special) && next.at(cell).empty())
            now = a.target;
          if (next.at(now).empty() || next.at(now).owner != me) continue;
          if (std::find(after.begin(), after.end(), now) == after.end())
            parts.push_back("saves the " + unit_at(pos, cell) + " (it was under attack)");
        }
      }
    }
  } else {
    parts.push_back("rerolls the " + unit_at(pos, a.unit) + ": the average over the six faces is best");
  }
  // What it threatens: enemy units it could defeat next, that it could not before.
  if (parts.empty() && a.type == ActionType::Move && pos.num_players() == 2) {
    Position next = pos;
    apply_unchecked(next, a);
    if (!next.game_over()) {
      const auto before = units_under_attack(pos, 1 - me);
      const auto after = units_under_attack(next, 1 - me);
      for (int cell : after)
        if (std::find(before.begin(), before.end(), cell) == before.end()) {
          parts.push_back("threatens the " + unit_at(next, cell));
          break;
        }
    }
  }
  if (parts.empty()) {
    if (a.type == ActionType::Guard)
      parts.push_back("guards the " + unit_at(pos, a.unit) + " (+1 armor); nothing better is available");
    else if (a.type == ActionType::Move)
      parts.push_back("best positional move: " + unit_at(pos, a.unit) + " to " + pos.board().name(a.target));
    else
      parts.push_back("best positional action");
  }
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
  s += " [score " + (plies != 0 ? std::string(plies > 0 ? "win" : "loss") : score_text(sr.score)) + ", depth " +
       std::to_string(sr.depth) + ", " + std::to_string(sr.nodes) + " nodes]";
  return s;
}

Hint hint(const Position& pos, const SearchLimits& limits, std::uint64_t seed, Searcher* searcher) {
  Hint h;
  Searcher local(16);
  Searcher& s = searcher ? *searcher : local;
  h.search = s.search(pos, limits, seed);
  if (!h.search.found) return h;
  h.found = true;
  h.action = h.search.best;
  h.reason = explain(pos, h.action, h.search);
  return h;
}

}  // namespace hexdice::ai
