// `hexdice hint POSITION.json`, `hexdice selfplay ...`: the hint engine and self-play
// (docs/hint-engine.md).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "core/ai/hint.h"
#include "core/ai/selfplay.h"
#include "core/json_io.h"
#include "companion/record/record_db.h"
#include "companion/solo/solo_record.h"
#include "core/solo/play.h"

namespace hexdice::cli {

namespace {

struct HintArgs {
  std::string position;
  int ms = 1000;
  int depth = 64;
  long long nodes = 0;
  std::uint64_t seed = 0;
  bool json = false;
};

int run_hint(const HintArgs& args) {
  std::string err;
  auto text = read_file(args.position, err);
  if (!text) return fail(err);
  auto pos = parse_position(*text);
  if (!pos) return fail(args.position + ": " + pos.error());
  if (pos->game_over()) return fail(args.position + ": the game is over (" + pos->player(pos->winner()).id + " has won)");
  if (args.ms <= 0 && args.nodes <= 0 && args.depth >= 64)
    return fail("give a budget: --ms > 0, --nodes or --depth");
  ai::SearchLimits limits{args.ms, args.depth, args.nodes};
  ai::Searcher searcher(20);
  const ai::Hint h = ai::hint(*pos, limits, args.seed, &searcher);
  if (!h.found) return fail(args.position + ": " + pos->player(pos->to_move()).id + " has no legal action");
  const Json action = to_json(h.action, pos->board());
  if (args.json) {
    Json pv = Json::array();
    for (const Action& a : h.search.pv) pv.push_back(to_json(a, pos->board()));
    Json out{{"action", action},
             {"reason", h.reason},
             {"describe", describe(*pos, h.action)},
             {"score", h.search.score},
             {"depth", h.search.depth},
             {"nodes", h.search.nodes},
             {"ms", h.search.ms},
             {"pv", pv}};
    std::cout << out.dump() << '\n';
  } else {
    std::cout << action.dump() << '\n' << describe(*pos, h.action) << ": " << h.reason << '\n';
  }
  return kExitOk;
}

struct SelfplayArgs {
  ai::SelfplayConfig cfg;
  bool verbose = false;
};

int run_selfplay(const SelfplayArgs& args) {
  const auto t0 = std::chrono::steady_clock::now();
  auto st = ai::run_selfplay(args.cfg, [&](int g, const ai::GameResult& r, bool a_is_red) {
    if (!args.verbose) return;
    const char* who = r.winner < 0 ? "draw" : ((r.winner == 0) == a_is_red ? "A" : "B");
    std::cerr << "game " << g << ": A=" << (a_is_red ? "red" : "blue") << " " << who << " after " << r.actions
              << " actions\n";
  });
  if (!st) return fail(st.error());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int n = static_cast<int>(st->results.size());
  std::printf("A=%s B=%s games=%d ms=%d seed=%llu cap=%d\n", args.cfg.a.c_str(), args.cfg.b.c_str(), n,
              args.cfg.limits.ms, static_cast<unsigned long long>(args.cfg.seed), args.cfg.max_actions);
  std::printf("A wins %d, B wins %d, draws %d\n", st->a_wins, st->b_wins, st->draws);
  std::printf("A score rate %.1f%% (win = 1, draw = 1/2); A win rate %.1f%%\n", 100.0 * st->a_rate(),
              n ? 100.0 * st->a_wins / n : 0.0);
  std::printf("%.1f actions per game, %.1f s\n", n ? static_cast<double>(st->actions) / n : 0.0, secs);
  return kExitOk;
}

struct SoloArgs {
  std::string scenario;
  std::uint64_t seed = 1;
  std::string player = "hint";
  int ms = 100;
  int max_rounds = 200;
  std::vector<int> rolls;
  std::string db;
};

int run_solo(const SoloArgs& args) {
  std::string err;
  auto text = read_file(args.scenario, err);
  if (!text) return fail(err);
  auto sc = solo::parse_scenario(*text);
  if (!sc) return fail(args.scenario + ": " + sc.error());
  if (args.db.empty()) {
    auto run = solo::play_solo(*sc, args.player, args.seed, ai::SearchLimits{args.ms, 64, 0}, args.max_rounds,
                               nullptr, args.rolls);
    if (!run) return fail(run.error());
    for (const auto& line : run->log) std::cout << line << '\n';
    return kExitOk;
  }
  // Logged: every step goes into the record as it is accepted (companion/solo/solo_record.h).
  auto db = record::RecordDb::open(args.db);
  if (!db) return fail(db.error());
  std::optional<solo::SoloRecorder> rec;
  const std::string site = "seed " + std::to_string(args.seed) + ", heroes played by " + args.player;
  auto observe = [&](const solo::SoloGame& g, const solo::SoloEvent& ev) -> Status {
    if (ev.start) {
      auto r = solo::SoloRecorder::create(**db, g, site);
      if (!r) return Error{r.error()};
      rec.emplace(std::move(*r));
      return {};
    }
    if (!ev.enemy_turn) return rec->log_hero(g);
    const solo::RollNote note{ev.round, ev.roll, ev.virtual_roll, ev.virtual_index, args.seed};
    return rec->log_enemy_turn(g, solo::enemy_turn_annotation(g.scenario(), note, ev.steps), ev.steps);
  };
  solo::SoloGame final_game;
  auto run = solo::play_solo(*sc, args.player, args.seed, ai::SearchLimits{args.ms, 64, 0}, args.max_rounds,
                             &final_game, args.rolls, observe);
  if (!run) return fail(rec ? run.error() + " (the game so far is logged as game " + std::to_string(rec->current_id()) + ")"
                            : run.error());
  if (Status s = rec->finish(final_game, final_game.over() ? "" : run->result_text); !s)
    return fail(s.error());
  for (const auto& line : run->log) std::cout << line << '\n';
  std::cout << "Logged as game " << rec->first_id();
  if (rec->parts() > 1) {
    std::cout << " in " << rec->parts() << " parts (games";
    for (auto id : rec->part_ids()) std::cout << ' ' << id;
    std::cout << "; docs/scenarios.md)";
  }
  std::cout << " in " << args.db << '\n';
  return kExitOk;
}

}  // namespace

void register_engine_commands(CLI::App& app, Registry& reg) {
  auto h = std::make_shared<HintArgs>();
  auto* hint = app.add_subcommand("hint", "The best action for the player to move, with a reason");
  hint->add_option("POSITION", h->position, "position JSON file (- for stdin)")->required();
  hint->add_option("--ms", h->ms, "time budget in milliseconds (default 1000)")->check(CLI::Range(0, 3600000));
  hint->add_option("--depth", h->depth, "maximum depth in plies (default 64)")->check(CLI::Range(1, 64));
  hint->add_option("--nodes", h->nodes, "node budget (0: none); with --ms 0 the result is reproducible")
      ->check(CLI::Range(0LL, 1000000000000LL));
  hint->add_option("--seed", h->seed, "seed for breaking ties between equal actions");
  hint->add_flag("--json", h->json, "one JSON object: action, reason, score, depth, nodes, pv");
  reg.add(hint, [h] { return run_hint(*h); });

  auto s = std::make_shared<SelfplayArgs>();
  auto* sp = app.add_subcommand("selfplay", "Engines against each other from seeded deployed starts");
  sp->add_option("--games", s->cfg.games, "number of games (sides swap every game)")->check(CLI::Range(0, 1000000));
  sp->add_option("--ms", s->cfg.limits.ms, "hint engine time per action in ms (default 100)")
      ->check(CLI::Range(0, 600000));
  sp->add_option("--depth", s->cfg.limits.max_depth, "hint engine maximum depth (default 64)")->check(CLI::Range(1, 64));
  sp->add_option("--nodes", s->cfg.limits.max_nodes, "hint engine node budget per action (0: none)");
  sp->add_option("--a", s->cfg.a, "engine A: random, greedy, hint, scenario-enemy")->required();
  sp->add_option("--b", s->cfg.b, "engine B: random, greedy, hint, scenario-enemy")->required();
  sp->add_option("--seed", s->cfg.seed, "seed (default 1)");
  sp->add_option("--cap", s->cfg.max_actions, "actions before a game is a draw (default 200)")->check(CLI::Range(1, 100000));
  sp->add_option("--dice", s->cfg.dice, "dice per army (default 6)")->check(CLI::Range(1, 9));
  sp->add_flag("--verbose", s->verbose, "one line per game on stderr");
  reg.add(sp, [s] { return run_selfplay(*s); });

  auto so = std::make_shared<SoloArgs>();
  auto* solo = app.add_subcommand("solo", "Play a whole solo scenario headless and print the log");
  solo->add_option("--scenario", so->scenario, "scenario JSON file (data/scenarios/)")->required();
  solo->add_option("--seed", so->seed, "seed of the virtual dice and the army roll (default 1)");
  solo->add_option("--auto-player", so->player, "engine playing the heroes: random, greedy, hint (default hint)");
  solo->add_option("--ms", so->ms, "hint engine time per action in ms (default 100)")->check(CLI::Range(1, 600000));
  solo->add_option("--max-rounds", so->max_rounds, "stop (draw) after this many rounds (default 200)")
      ->check(CLI::Range(1, 100000));
  solo->add_option("--rolls", so->rolls, "activation rolls to use first (dice rolled at the table), e.g. --rolls 3,5,1")
      ->delimiter(',')
      ->check(CLI::Range(1, 6));
  solo->add_option("--db", so->db, "log the game into this SQLite game record (hexdice history --db FILE lists it)");
  reg.add(solo, [so] { return run_solo(*so); });
}

}  // namespace hexdice::cli
