// The hint engine's search (docs/hint-engine.md): expectimax over a minimax tree.
//
// Decision nodes are alpha-beta (the side to move maximises its own score; with more
// than two players every opponent is assumed to play against the root player, the
// "paranoid" reduction). A Reroll is a chance node: the value is the average over
// the six faces, searched with Star1 bounds so that alpha-beta cuts still apply.
// Combat is deterministic, so captures are ordinary edges. Iterative deepening under
// a time and/or node budget, a transposition table, killer moves, and a capture-only
// quiescence search at the leaves.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "core/ai/eval.h"
#include "core/rules.h"

namespace hexdice::ai {

struct SearchLimits {
  int ms = 100;                // wall-clock budget; <= 0: no time limit
  int max_depth = 64;          // plies
  std::int64_t max_nodes = 0;  // 0: no node limit
};

struct SearchResult {
  bool found = false;          // false when the player to move has no action
  Action best;                 // a reroll here has face 0 (the die decides)
  int score = 0;               // centi-units for the player to move; +-kWin-ply: forced
  int depth = 0;               // deepest completed iteration
  std::int64_t nodes = 0;
  double ms = 0;
  std::vector<Action> pv;      // principal variation from the transposition table (no chance moves resolved)
};

class Searcher {
 public:
  explicit Searcher(int tt_bits = 18);
  // `only`, when given, restricts the root to those actions (matched by type, unit, target).
  SearchResult search(const Position& root, const SearchLimits& limits, std::uint64_t seed = 0,
                      const std::vector<Action>* only = nullptr);

  // Plies to a forced win (> 0) or loss (< 0) encoded in a score, 0 if none.
  static int plies_to_result(int score);

 private:
  struct TTEntry {
    std::uint64_t key = 0;
    std::int32_t value = 0;
    std::int16_t depth = -1;
    std::uint8_t flag = 0;  // 0 exact, 1 lower bound, 2 upper bound
    Action move;
  };
  static constexpr int kMaxPly = 96;

  int value(int ply, int depth, int alpha, int beta);
  int chance(int ply, const Action& a, int depth, int alpha, int beta);
  int quiesce(int ply, int alpha, int beta, int qdepth);
  int child(int ply, const Action& a, int depth, int alpha, int beta);
  void order(int ply, std::vector<Action>& moves, const Action* tt_move);
  bool out_of_budget();
  int terminal(const Position& pos, int ply) const;

  std::vector<TTEntry> tt_;
  std::uint64_t tt_mask_;
  std::vector<Position> stack_;
  std::vector<std::vector<Action>> moves_;
  std::vector<std::vector<int>> keys_;
  Action killers_[kMaxPly][2];
  int root_ = 0;
  std::int64_t nodes_ = 0;
  bool abort_ = false;
  SearchLimits limits_;
  std::chrono::steady_clock::time_point start_;
};

// Zobrist-style hash of a position (cells, side to move).
std::uint64_t position_hash(const Position& pos);

}  // namespace hexdice::ai
