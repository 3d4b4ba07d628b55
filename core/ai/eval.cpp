#include "core/ai/eval.h"

#include <algorithm>

namespace hexdice::ai {

namespace {

// Base worth of each face (index 1..6), before armor: a mobile hitter (Assault,
// Knight) is worth more than a wall (Tanker, Balance) or a fragile Archer.
constexpr int kFaceValue[7] = {0, 260, 240, 330, 360, 250, 230};
constexpr int kArmorValue = 35;  // per point of effective armor
constexpr int kTempo = 15;       // having the move
constexpr int kGuardValue = 8;   // a guard token
constexpr int kAdvance = 12;     // per hex closer to the enemy base

}  // namespace

int unit_value(const Piece& p) {
  if (p.empty() || !valid_face(p.face)) return 0;
  // Guard is worth little statically: it lasts only until the unit acts.
  const int armor = std::max(0, unit_stats(p.face).armor - static_cast<int>(p.tokens));
  return kFaceValue[p.face] + kArmorValue * armor + (p.guard ? kGuardValue : 0);
}

int evaluate(const Position& pos, int me) {
  if (pos.game_over()) return pos.winner() == me ? kWin : -kWin;
  const Board& b = pos.board();
  const int n = pos.num_players();
  const int R = pos.radius();
  // The base each player aims at: with 2 players the opponent's; with more, the
  // nearest live opponent's base is approximated by the board centre (paranoid view).
  int score = 0;
  int best_dist[kMaxPlayers];
  std::fill(best_dist, best_dist + kMaxPlayers, 99);
  for (int c = 0; c < b.size(); ++c) {
    const Piece& p = pos.at(c);
    if (p.empty()) continue;
    const int o = p.owner;
    int v = unit_value(p);
    if (p.face != 6) {
      int d;
      if (n == 2) {
        d = distance(b.hex(c), b.hex(pos.base_cell(1 - o)));
      } else {
        d = b.hex(c).length() + R;
      }
      v += (2 * R - d) * kAdvance;
      best_dist[o] = std::min(best_dist[o], d);
    }
    score += (o == me) ? v : -v;
  }
  // The unit nearest the enemy base is a standing threat.
  for (int o = 0; o < n; ++o) {
    if (best_dist[o] > 4) continue;
    const int t = (5 - best_dist[o]) * (5 - best_dist[o]) * 15;
    score += (o == me) ? t : -t;
  }
  score += pos.to_move() == me ? kTempo : -kTempo;
  return score;
}

}  // namespace hexdice::ai
