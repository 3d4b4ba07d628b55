// Rules-core speed for search: legal actions, apply, random playouts.
// Targets (issue "Solo and co-op play"): legal actions of a 16-unit mid-game position
// < 1 us; one apply < 0.3 us; >= 20,000 random playouts/s (cap 300 actions) on one core.
#include <benchmark/benchmark.h>

#include "core/playout.h"
#include "core/ai/search.h"
#include "core/ai/selfplay.h"
#include "core/playout.h"
#include "core/rules.h"

namespace {

using namespace hexdice;

// A 2-player mid-game position with 16 units: two mirrored 8-dice armies, then 16
// seeded random moves into empty cells (nobody is taken), so the units are spread out.
Position midgame() {
  Position pos = ai::deployed_start(7, 5, 8);
  Rng rng(11);
  std::vector<Action> acts, quiet;
  for (int i = 0; i < 16; ++i) {
    legal_actions(pos, acts);
    quiet.clear();
    for (const Action& a : acts)
      if (a.type == ActionType::Move && pos.at(a.target).empty() && a.target != pos.base_cell(0) &&
          a.target != pos.base_cell(1))
        quiet.push_back(a);
    apply_unchecked(pos, quiet[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(quiet.size())))]);
  }
  return pos;
}

void BM_LegalActions(benchmark::State& state) {
  const Position pos = midgame();
  std::vector<Action> buf;
  buf.reserve(256);
  for (auto _ : state) {
    legal_actions(pos, buf);
    benchmark::DoNotOptimize(buf.data());
  }
  state.counters["units"] = pos.total_units();
  state.counters["actions"] = static_cast<double>(buf.size());
}
BENCHMARK(BM_LegalActions);

// Copy + apply_unchecked, cycling through every legal action (as a search does).
void BM_ApplyOnCopy(benchmark::State& state) {
  const Position pos = midgame();
  std::vector<Action> acts;
  legal_actions(pos, acts);
  for (auto& a : acts)
    if (a.type == ActionType::Reroll) a.face = 3;
  Position scratch = pos;
  std::size_t i = 0;
  for (auto _ : state) {
    scratch = pos;
    apply_unchecked(scratch, acts[i]);
    if (++i == acts.size()) i = 0;
    benchmark::DoNotOptimize(scratch.to_move());
  }
}
BENCHMARK(BM_ApplyOnCopy);

// The copy alone (a Position holds vectors and a shared_ptr).
void BM_CopyPosition(benchmark::State& state) {
  const Position pos = midgame();
  Position scratch = pos;
  for (auto _ : state) {
    scratch = pos;
    benchmark::DoNotOptimize(scratch.to_move());
  }
}
BENCHMARK(BM_CopyPosition);

// Uniform random playouts the fast way: core/playout.h draws an exactly uniform legal
// action by rejection sampling, generating one unit's actions instead of all of them.
void BM_RandomPlayout(benchmark::State& state) {
  const Position start = ai::deployed_start(3, 5, 6);
  Rng rng(5);
  Position pos = start;
  long long actions = 0;
  for (auto _ : state) {
    pos = start;
    actions += random_playout(pos, rng, 300);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions/playout"] = static_cast<double>(actions) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RandomPlayout);

// The same playouts generating the full legal list each action (what search does).
void BM_RandomPlayoutFullList(benchmark::State& state) {
  const Position start = ai::deployed_start(3, 5, 6);
  Rng rng(5);
  std::vector<Action> acts;
  acts.reserve(256);
  Position pos = start;
  long long actions = 0;
  for (auto _ : state) {
    pos = start;
    for (int n = 0; n < 300 && !pos.game_over(); ++n) {
      legal_actions(pos, acts);
      Action a = acts[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(acts.size())))];
      if (a.type == ActionType::Reroll) a.face = static_cast<std::uint8_t>(rng.face());
      apply_unchecked(pos, a);
      ++actions;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions/playout"] = static_cast<double>(actions) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RandomPlayoutFullList);

void BM_Evaluate(benchmark::State& state) {
  const Position pos = midgame();
  for (auto _ : state) benchmark::DoNotOptimize(ai::evaluate(pos, 0));
}
BENCHMARK(BM_Evaluate);

void BM_HintSearchNodes(benchmark::State& state) {
  const Position pos = midgame();
  long long nodes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ai::Searcher s(16);  // a fresh table: every iteration searches the same tree
    state.ResumeTiming();
    auto r = s.search(pos, ai::SearchLimits{0, 3, 0});
    nodes += r.nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HintSearchNodes)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
