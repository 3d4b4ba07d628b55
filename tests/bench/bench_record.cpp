// Time to log one accepted action into the SQLite game record: validate against the
// rules, then ONE transaction (events row + actions row with action, outcome and the
// position after it), on a real file in the current directory (run it from a disk-backed
// directory: on tmpfs fsync is free).
//
//   build/bench/bench_record --benchmark_filter=LogAction
//
// Arg 0 = PRAGMA synchronous=FULL (the default: fsync at every commit, survives power
// loss), arg 1 = NORMAL (survives a killed process; the last commits may be lost on
// power loss). Reported times are wall-clock; the median over 5 repetitions is the figure.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "companion/record/record_db.h"
#include "companion/record/sample_game.h"

namespace hexdice::record {
namespace {

void BM_LogAction(benchmark::State& state) {
  const Durability durability = state.range(0) == 0 ? Durability::Full : Durability::Normal;
  const std::string path = "bench_record_" + std::to_string(::getpid()) + ".db";
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
  {
    DbOptions o;
    o.durability = durability;
    auto db = RecordDb::open(path, o);
    if (!db) {
      state.SkipWithError(db.error().c_str());
      return;
    }
    // A real mid-game position: the first 20 plies of a sample game.
    SampleOptions so;
    so.seed = 11;
    so.takebacks = false;
    so.annotations = false;
    auto start = sample_game(so).position_at(20);
    if (!start) {
      state.SkipWithError(start.error().c_str());
      return;
    }
    auto game = RecordedGame::create(**db, std::move(GameRecord::from_position(*start)).value());
    if (!game) {
      state.SkipWithError(game.error().c_str());
      return;
    }
    std::vector<Action> legal;
    for (auto _ : state) {
      // The player to move guards a unit: always legal, so the game never ends.
      state.PauseTiming();
      legal_actions(game->record().current(), legal);
      Action a = legal.back();
      for (const Action& x : legal)
        if (x.type == ActionType::Guard) a = x;
      state.ResumeTiming();
      auto out = game->act(a);
      if (!out) {
        state.SkipWithError(out.error().c_str());
        break;
      }
    }
    state.SetLabel(durability == Durability::Full ? "synchronous=FULL (WAL)" : "synchronous=NORMAL (WAL)");
  }
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
}
BENCHMARK(BM_LogAction)->Arg(0)->Arg(1)->Iterations(200)->Repetitions(5)->UseRealTime()->Unit(benchmark::kMicrosecond);

// Loading (and replaying) a whole logged game.
void BM_LoadGame(benchmark::State& state) {
  const std::string path = "bench_record_load_" + std::to_string(::getpid()) + ".db";
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
  {
    auto db = RecordDb::open(path);
    if (!db) {
      state.SkipWithError(db.error().c_str());
      return;
    }
    SampleOptions so;
    so.seed = 12;
    const GameRecord src = sample_game(so);
    auto id = (*db)->insert_game(src);
    if (!id) {
      state.SkipWithError(id.error().c_str());
      return;
    }
    for (auto _ : state) benchmark::DoNotOptimize((*db)->load_game(*id));
    state.SetLabel(std::to_string(src.ply()) + " plies");
  }
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
}
BENCHMARK(BM_LoadGame)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hexdice::record

BENCHMARK_MAIN();
