#include "core/sync.h"

#include <algorithm>
#include <map>

namespace hexdice {

SeenBoard visible(const Position& pos) {
  SeenBoard b;
  const Board& board = pos.board();
  for (int i = 0; i < board.size(); ++i) {
    const Piece& p = pos.at(i);
    if (!p.empty()) b.units.push_back(SeenUnit{board.hex(i), p.owner, p.face, p.guard, 1.0});
  }
  return b;
}

namespace {

std::string who(const Position& pos, int owner, int face) {
  const std::string id = owner >= 0 && owner < pos.num_players() ? pos.player(owner).id : "unknown-colour";
  return id + " " + std::string(unit_stats(face).name);
}

using SeenMap = std::map<Hex, const SeenUnit*>;

SeenMap index_seen(const SeenBoard& seen) {
  SeenMap m;
  for (const SeenUnit& u : seen.units) m[u.hex] = &u;
  return m;
}

// Cells where pos and seen disagree, counted over the union of occupied cells.
int mismatches(const Position& pos, const SeenMap& seen, double min_conf) {
  int n = 0;
  const Board& board = pos.board();
  for (int i = 0; i < board.size(); ++i) {
    const Piece& p = pos.at(i);
    const auto it = seen.find(board.hex(i));
    const SeenUnit* s = it == seen.end() ? nullptr : it->second;
    if (s && s->confidence < min_conf) continue;  // too unsure to count either way
    if (p.empty() && !s) continue;
    if (p.empty() != !s) {
      ++n;
      continue;
    }
    if (p.owner != s->owner || p.face != s->face || p.guard != s->guard) ++n;
  }
  for (const auto& [h, s] : seen)
    if (!board.contains(h)) ++n;
  return n;
}

// The action list of `player` with rerolls given the face seen on their cell (a reroll
// whose cell shows no unit of that player cannot explain anything and is dropped).
std::vector<Action> candidates(const Position& pos, const SeenMap& seen) {
  std::vector<Action> out;
  for (Action a : legal_actions(pos)) {
    if (a.type == ActionType::Reroll) {
      const auto it = seen.find(pos.board().hex(a.unit));
      if (it == seen.end() || it->second->owner != pos.to_move() || !valid_face(it->second->face)) continue;
      a.face = static_cast<std::uint8_t>(it->second->face);
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace

std::vector<CellDiff> diff(const Position& pos, const SeenBoard& seen_board) {
  std::vector<CellDiff> out;
  const SeenMap seen = index_seen(seen_board);
  const Board& board = pos.board();
  for (int i = 0; i < board.size(); ++i) {
    const Piece& p = pos.at(i);
    const Hex h = board.hex(i);
    const auto it = seen.find(h);
    const SeenUnit* s = it == seen.end() ? nullptr : it->second;
    const std::string cell = board.name(h);
    if (p.empty() && !s) continue;
    if (!p.empty() && !s) {
      out.push_back({h, cell + ": " + who(pos, p.owner, p.face) + " gone"});
    } else if (p.empty()) {
      out.push_back({h, cell + ": " + who(pos, s->owner, s->face) + " appeared"});
    } else if (p.owner != s->owner) {
      out.push_back({h, cell + ": " + who(pos, p.owner, p.face) + " replaced by " + who(pos, s->owner, s->face)});
    } else if (p.face != s->face) {
      out.push_back({h, cell + ": face " + std::to_string(p.face) + " -> " + std::to_string(s->face)});
    } else if (p.guard != s->guard) {
      out.push_back({h, cell + ": guard token " + (s->guard ? "placed" : "removed")});
    }
  }
  for (const auto& [h, s] : seen)
    if (!board.contains(h)) out.push_back({h, "a die off the map"});
  return out;
}

bool leaves_no_trace(const Position& before, const Action& a) {
  Position after = before;
  apply_unchecked(after, a);
  const SeenBoard v = visible(after);
  return mismatches(before, index_seen(v), 0.0) == 0;
}

SyncResult explain(const Position& committed, const SeenBoard& seen_board, const SyncOptions& opt) {
  SyncResult r;
  r.changes = diff(committed, seen_board);
  if (r.changes.empty() || mismatches(committed, index_seen(seen_board), opt.min_confidence) == 0) {
    r.kind = SyncKind::NoChange;
    r.changes.clear();
    r.message = "no change";
    return r;
  }
  if (committed.game_over()) {
    r.kind = SyncKind::Unexplained;
    r.message = "the game is over (" + committed.player(committed.winner()).id + " won); the table changed at " +
                r.changes.front().what;
    return r;
  }
  const SeenMap seen = index_seen(seen_board);
  const int mover = committed.to_move();

  std::vector<Candidate> scored;
  std::vector<Action> exact;
  for (const Action& a : candidates(committed, seen)) {
    Position after = committed;
    apply_unchecked(after, a);
    const int m = mismatches(after, seen, opt.min_confidence);
    if (m == 0) exact.push_back(a);
    scored.push_back({a, mover, m, describe(committed, a)});
  }
  if (exact.size() == 1) {
    r.kind = SyncKind::Explained;
    r.action = exact.front();
    r.message = committed.player(mover).id + ": " + describe(committed, exact.front());
    return r;
  }
  std::stable_sort(scored.begin(), scored.end(), [](const Candidate& a, const Candidate& b) { return a.mismatches < b.mismatches; });
  if (exact.size() > 1) {
    r.kind = SyncKind::Ambiguous;
    for (const Candidate& c : scored)
      if (c.mismatches == 0 && static_cast<int>(r.nearest.size()) < opt.max_nearest) r.nearest.push_back(c);
    r.message = "ambiguous: " + std::to_string(exact.size()) + " actions of " + committed.player(mover).id +
                " match the table; declare which one";
    return r;
  }

  // Another player's action?
  for (int p = 0; p < committed.num_players(); ++p) {
    if (p == mover || committed.player(p).eliminated) continue;
    Position other = committed;
    other.set_to_move(p);
    for (const Action& a : candidates(other, seen)) {
      Position after = other;
      apply_unchecked(after, a);
      if (mismatches(after, seen, opt.min_confidence) == 0) {
        r.kind = SyncKind::WrongPlayer;
        r.nearest.push_back({a, p, 0, describe(other, a)});
        r.message = "out of turn: it is " + committed.player(mover).id + "'s turn, but the table shows " +
                    committed.player(p).id + ": " + describe(other, a) + " (rules.md section 5)";
        return r;
      }
    }
  }

  // Two actions by the player to move?
  for (const Action& a1 : candidates(committed, seen)) {
    Position mid = committed;
    apply_unchecked(mid, a1);
    if (mid.game_over()) continue;
    mid.set_to_move(mover);
    for (const Action& a2 : candidates(mid, seen)) {
      Position after = mid;
      apply_unchecked(after, a2);
      if (mismatches(after, seen, opt.min_confidence) == 0) {
        r.kind = SyncKind::TwoActions;
        r.nearest.push_back({a1, mover, 0, describe(committed, a1)});
        r.nearest.push_back({a2, mover, 0, describe(mid, a2)});
        r.message = "two actions in one turn by " + committed.player(mover).id + ": " + describe(committed, a1) +
                    ", then " + describe(mid, a2) + " (rules.md section 5: one unit, one action)";
        return r;
      }
    }
  }

  r.kind = SyncKind::Unexplained;
  for (const Candidate& c : scored) {
    if (static_cast<int>(r.nearest.size()) >= opt.max_nearest) break;
    r.nearest.push_back(c);
  }
  std::string what;
  for (const CellDiff& d : r.changes) what += (what.empty() ? "" : "; ") + d.what;
  r.message = "no legal action of " + committed.player(mover).id + " explains the table (" + what + ")";
  if (!r.nearest.empty()) {
    r.message += "; nearest:";
    for (const Candidate& c : r.nearest) r.message += " [" + c.text + ", " + std::to_string(c.mismatches) + " cell(s) off]";
  }
  return r;
}

}  // namespace hexdice
