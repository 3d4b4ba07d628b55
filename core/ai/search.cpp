#include "core/ai/search.h"

#include <algorithm>
#include <cstdlib>

#include "core/playout.h"

namespace hexdice::ai {

namespace {

constexpr int kInf = kWin + 1000;
constexpr int kQDepth = 6;

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

bool is_attack(const Position& pos, const Action& a) {
  if (a.type == ActionType::Ranged || a.type == ActionType::Special) return true;
  return a.type == ActionType::Move && !pos.at(a.target).empty();
}

bool attack_succeeds(const Position& pos, const Action& a) {
  return unit_stats(pos.at(a.unit).face).attack >= effective_armor(pos.at(a.target));
}

// Does this action put a unit on an opponent's base cell (an immediate capture in 2p)?
bool reaches_enemy_base(const Position& pos, const Action& a) {
  if (a.type != ActionType::Move && a.type != ActionType::Special) return false;
  for (int p = 0; p < pos.num_players(); ++p)
    if (p != pos.to_move() && !pos.player(p).eliminated && pos.base_cell(p) == a.target) return true;
  return false;
}

}  // namespace

std::uint64_t position_hash(const Position& pos) {
  std::uint64_t h = mix64(0x51ed270b27a5a1ULL + static_cast<std::uint64_t>(pos.to_move()));
  const int n = pos.board().size();
  for (int c = 0; c < n; ++c) {
    const Piece& p = pos.at(c);
    if (p.empty()) continue;
    const std::uint64_t code = (static_cast<std::uint64_t>(c) << 16) | (static_cast<std::uint64_t>(p.owner) << 12) |
                               (static_cast<std::uint64_t>(p.face) << 8) | (static_cast<std::uint64_t>(p.tokens) << 1) |
                               (p.guard ? 1u : 0u);
    h ^= mix64(code * 0x9e3779b97f4a7c15ULL + 0x1234567ULL);
  }
  return h;
}

Searcher::Searcher(int tt_bits) {
  tt_.resize(std::size_t{1} << tt_bits);
  tt_mask_ = (std::uint64_t{1} << tt_bits) - 1;
  moves_.resize(kMaxPly + 1);
  keys_.resize(kMaxPly + 1);
}

int Searcher::plies_to_result(int score) {
  if (score > kWinThreshold) return kWin - score;
  if (score < -kWinThreshold) return -(kWin + score);
  return 0;
}

bool Searcher::out_of_budget() {
  if (abort_) return true;
  if ((nodes_ & 255) != 0) return false;
  if (limits_.max_nodes > 0 && nodes_ >= limits_.max_nodes) abort_ = true;
  if (limits_.ms > 0) {
    const auto el = std::chrono::steady_clock::now() - start_;
    if (std::chrono::duration_cast<std::chrono::microseconds>(el).count() >= static_cast<long long>(limits_.ms) * 1000)
      abort_ = true;
  }
  return abort_;
}

int Searcher::terminal(const Position& pos, int ply) const {
  return pos.winner() == root_ ? kWin - ply : -(kWin - ply);
}

void Searcher::order(int ply, std::vector<Action>& moves, const Action* tt_move) {
  const Position& pos = stack_[static_cast<std::size_t>(ply)];
  auto& keys = keys_[static_cast<std::size_t>(ply)];
  keys.resize(moves.size());
  // Drop duplicate passes: guarding an already guarded unit changes nothing.
  bool pass_seen = false;
  std::size_t w = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Action& a = moves[i];
    if (a.type == ActionType::Guard && pos.at(a.unit).guard) {
      if (pass_seen) continue;
      pass_seen = true;
    }
    moves[w++] = a;
  }
  moves.resize(w);
  keys.resize(w);
  const Board& b = pos.board();
  const int me = pos.to_move();
  const int target_base = pos.num_players() == 2 ? pos.base_cell(1 - me) : kNoCell;
  for (std::size_t i = 0; i < w; ++i) {
    const Action& a = moves[i];
    int k = 0;
    if (tt_move && a == *tt_move) {
      k = 1 << 30;
    } else if (reaches_enemy_base(pos, a)) {
      k = 1 << 29;
    } else if (is_attack(pos, a)) {
      if (attack_succeeds(pos, a))
        k = (1 << 28) + unit_value(pos.at(a.target)) * 16 - unit_value(pos.at(a.unit));
      else
        k = 2000;
    } else if (ply < kMaxPly && (a == killers_[ply][0] || a == killers_[ply][1])) {
      k = 1 << 27;
    } else if (a.type == ActionType::Move) {
      k = 1000;
      if (target_base != kNoCell)
        k += 10 * (distance(b.hex(a.unit), b.hex(target_base)) - distance(b.hex(a.target), b.hex(target_base)));
    } else if (a.type == ActionType::Guard) {
      k = 500;
    } else {
      k = 0;  // reroll, merge: expensive or rarely best; searched last
    }
    keys[i] = k;
  }
  // Insertion sort by key, descending (lists are short).
  for (std::size_t i = 1; i < w; ++i) {
    const Action a = moves[i];
    const int k = keys[i];
    std::size_t j = i;
    while (j > 0 && keys[j - 1] < k) {
      moves[j] = moves[j - 1];
      keys[j] = keys[j - 1];
      --j;
    }
    moves[j] = a;
    keys[j] = k;
  }
}

int Searcher::child(int ply, const Action& a, int depth, int alpha, int beta) {
  if (a.type == ActionType::Reroll && a.face == 0) return chance(ply, a, depth, alpha, beta);
  Position& next = stack_[static_cast<std::size_t>(ply + 1)];
  next = stack_[static_cast<std::size_t>(ply)];
  apply_unchecked(next, a);
  return value(ply + 1, depth - 1, alpha, beta);
}

int Searcher::chance(int ply, const Action& a, int depth, int alpha, int beta) {
  // Star1: the average of six children lies in (alpha, beta) only if each child stays
  // within bounds derived from the children already searched and the score range.
  const long long L = -kWin, U = kWin;
  long long sum = 0;
  for (int f = 1; f <= 6; ++f) {
    const long long rest = 6 - f;
    const long long lo = 6LL * alpha - sum - U * rest;
    const long long hi = 6LL * beta - sum - L * rest;
    const int ca = static_cast<int>(std::max(lo, L - 1));
    const int cb = static_cast<int>(std::min(hi, U + 1));
    Action r = a;
    r.face = static_cast<std::uint8_t>(f);
    Position& next = stack_[static_cast<std::size_t>(ply + 1)];
    next = stack_[static_cast<std::size_t>(ply)];
    apply_unchecked(next, r);
    const int v = value(ply + 1, depth - 1, ca, cb);
    if (abort_) return 0;
    if (v <= lo) return alpha;
    if (v >= hi) return beta;
    sum += v;
  }
  return static_cast<int>(sum / 6);
}

int Searcher::quiesce(int ply, int alpha, int beta, int qdepth) {
  ++nodes_;
  const Position& pos = stack_[static_cast<std::size_t>(ply)];
  if (pos.game_over()) return terminal(pos, ply);
  const int stand = evaluate(pos, root_);
  const bool maxing = pos.to_move() == root_;
  if (maxing) {
    if (stand >= beta) return stand;
    alpha = std::max(alpha, stand);
  } else {
    if (stand <= alpha) return stand;
    beta = std::min(beta, stand);
  }
  if (qdepth <= 0 || ply >= kMaxPly - 1 || out_of_budget()) return stand;
  auto& moves = moves_[static_cast<std::size_t>(ply)];
  legal_actions(pos, moves);
  // Keep winning attacks and base captures only.
  std::size_t w = 0;
  for (const Action& a : moves)
    if (reaches_enemy_base(pos, a) || (is_attack(pos, a) && attack_succeeds(pos, a))) moves[w++] = a;
  moves.resize(w);
  if (moves.empty()) return stand;
  order(ply, moves, nullptr);
  int best = stand;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Action a = moves_[static_cast<std::size_t>(ply)][i];
    Position& next = stack_[static_cast<std::size_t>(ply + 1)];
    next = stack_[static_cast<std::size_t>(ply)];
    apply_unchecked(next, a);
    const int v = quiesce(ply + 1, alpha, beta, qdepth - 1);
    if (abort_) return 0;
    if (maxing) {
      best = std::max(best, v);
      alpha = std::max(alpha, v);
    } else {
      best = std::min(best, v);
      beta = std::min(beta, v);
    }
    if (alpha >= beta) break;
  }
  return best;
}

int Searcher::value(int ply, int depth, int alpha, int beta) {
  const Position& pos = stack_[static_cast<std::size_t>(ply)];
  if (pos.game_over()) return terminal(pos, ply);
  if (depth <= 0 || ply >= kMaxPly - 1) return quiesce(ply, alpha, beta, kQDepth);
  ++nodes_;
  if (out_of_budget()) return 0;

  const std::uint64_t key = position_hash(pos) ^ mix64(0xabcdefULL + static_cast<std::uint64_t>(root_));
  TTEntry& e = tt_[key & tt_mask_];
  const Action* tt_move = nullptr;
  Action tt_action;
  if (e.key == key) {
    tt_action = e.move;
    tt_move = &tt_action;
    if (e.depth >= depth) {
      int v = e.value;
      if (v > kWinThreshold) v -= ply;
      if (v < -kWinThreshold) v += ply;
      if (e.flag == 0) return v;
      if (e.flag == 1 && v >= beta) return v;
      if (e.flag == 2 && v <= alpha) return v;
    }
  }

  auto& moves = moves_[static_cast<std::size_t>(ply)];
  legal_actions(pos, moves);
  if (moves.empty()) return evaluate(pos, root_);
  order(ply, moves, tt_move);

  const bool maxing = pos.to_move() == root_;
  const int alpha0 = alpha, beta0 = beta;
  int best = maxing ? -kInf : kInf;
  Action best_a = moves.front();
  for (std::size_t i = 0; i < moves_[static_cast<std::size_t>(ply)].size(); ++i) {
    const Action a = moves_[static_cast<std::size_t>(ply)][i];
    const int v = child(ply, a, depth, alpha, beta);
    if (abort_) return 0;
    if (maxing ? v > best : v < best) {
      best = v;
      best_a = a;
    }
    if (maxing)
      alpha = std::max(alpha, v);
    else
      beta = std::min(beta, v);
    if (alpha >= beta) {
      if (!is_attack(stack_[static_cast<std::size_t>(ply)], a) && a.type != ActionType::Reroll && ply < kMaxPly) {
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = a;
      }
      break;
    }
  }
  int stored = best;
  if (stored > kWinThreshold) stored += ply;
  if (stored < -kWinThreshold) stored -= ply;
  e.key = key;
  e.value = stored;
  e.depth = static_cast<std::int16_t>(depth);
  e.move = best_a;
  if (maxing)
    e.flag = best >= beta0 ? 1 : (best > alpha0 ? 0 : 2);
  else
    e.flag = best <= alpha0 ? 2 : (best < beta0 ? 0 : 1);
  return best;
}

SearchResult Searcher::search(const Position& root, const SearchLimits& limits, std::uint64_t seed,
                              const std::vector<Action>* only) {
  start_ = std::chrono::steady_clock::now();
  limits_ = limits;
  abort_ = false;
  nodes_ = 0;
  root_ = root.to_move();
  for (auto& k : killers_) k[0] = k[1] = Action{ActionType::Merge, kNoCell, kNoCell, 0};
  if (stack_.size() != static_cast<std::size_t>(kMaxPly + 1) || stack_[0].board().radius() != root.radius() ||
      stack_[0].num_players() != root.num_players())
    stack_.assign(static_cast<std::size_t>(kMaxPly + 1), root);
  stack_[0] = root;

  SearchResult res;
  std::vector<Action> root_moves;
  legal_actions(root, root_moves);
  if (only) {
    std::erase_if(root_moves, [&](const Action& a) {
      return std::none_of(only->begin(), only->end(), [&](const Action& b) {
        return a.type == b.type && a.unit == b.unit && a.target == b.target;
      });
    });
  }
  if (root_moves.empty()) return res;
  res.found = true;
  // Seeded shuffle: ties between equal actions are broken by the seed, not by list order.
  Rng rng(seed);
  for (std::size_t i = root_moves.size(); i > 1; --i)
    std::swap(root_moves[i - 1], root_moves[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(i)))]);
  moves_[0] = root_moves;
  order(0, moves_[0], nullptr);
  root_moves = moves_[0];
  res.best = root_moves.front();
  res.score = evaluate(root, root_);

  std::vector<int> scores(root_moves.size(), -kInf);
  for (int depth = 1; depth <= limits.max_depth; ++depth) {
    int alpha = -kInf;
    Action iter_best = root_moves.front();
    int iter_score = -kInf;
    bool complete = true;
    for (std::size_t i = 0; i < root_moves.size(); ++i) {
      const int v = child(0, root_moves[i], depth, alpha, kInf);
      if (abort_) {
        complete = false;
        break;
      }
      scores[i] = v;
      if (v > iter_score) {
        iter_score = v;
        iter_best = root_moves[i];
      }
      alpha = std::max(alpha, v);
    }
    if (!complete) {
      // A partial iteration still counts if it beat the previous best (searched first).
      if (iter_score > -kInf && iter_best != res.best && iter_score > res.score) {
        res.best = iter_best;
        res.score = iter_score;
      }
      break;
    }
    res.best = iter_best;
    res.score = iter_score;
    res.depth = depth;
    // Best first, then the rest by this iteration's (bound) scores.
    std::vector<std::size_t> idx(root_moves.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      const bool ba = root_moves[a] == iter_best, bb = root_moves[b] == iter_best;
      if (ba != bb) return ba;
      return scores[a] > scores[b];
    });
    std::vector<Action> re;
    for (std::size_t i : idx) re.push_back(root_moves[i]);
    root_moves.swap(re);
    if (iter_score > kWinThreshold || iter_score < -kWinThreshold) {
      // A forced result: deeper search only confirms it (a forced loss may yet be delayed).
      if (iter_score > kWinThreshold) break;
    }
    if (root_moves.size() == 1) break;
    if (limits.ms > 0) {
      const double el =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
      if (el * 3 > limits.ms) break;  // the next iteration would not finish
    }
    if (limits.max_nodes > 0 && nodes_ >= limits.max_nodes) break;
  }
  res.nodes = nodes_;
  res.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  // Principal variation from the table (deterministic moves only).
  {
    Position p = root;
    Action a = res.best;
    for (int i = 0; i < 8; ++i) {
      res.pv.push_back(a);
      if (a.type == ActionType::Reroll) break;
      apply_unchecked(p, a);
      if (p.game_over()) break;
      const std::uint64_t key = position_hash(p) ^ mix64(0xabcdefULL + static_cast<std::uint64_t>(root_));
      const TTEntry& e = tt_[key & tt_mask_];
      if (e.key != key) break;
      std::vector<Action> legal;
      legal_actions(p, legal);
      if (std::find(legal.begin(), legal.end(), e.move) == legal.end()) break;
      a = e.move;
    }
  }
  return res;
}

}  // namespace hexdice::ai
