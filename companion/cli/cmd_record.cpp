// The game record on the command line (interfaces.md "Command line"):
//   hexdice history --db FILE [GAME] [--json]        list games, or one game's record
//   hexdice record export --db FILE GAME [--out F]   the text record (PGN-like) of a game
//   hexdice record import --db FILE RECORD.txt       a text record into the database (prints its id)
//   hexdice record sample --db FILE [--seed N] ...   a seeded random legal game, logged action by action
//   hexdice record play --db FILE --ruleset R [--start POS.json] [--resume] ACTIONS.jsonl
//                                                     a Wizard Hex / Hexa Decimal game, logged action by action
//   hexdice record import --db FILE GAME.json         {"ruleset","start","actions"} (the companion's saved game)
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <unistd.h>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "companion/record/record_db.h"
#include "companion/record/ruleset_game.h"
#include "companion/record/sample_game.h"

namespace hexdice::cli {

namespace {

using record::DbOptions;
using record::RecordDb;

Result<std::unique_ptr<RecordDb>> open_db(const std::string& path, bool read_only) {
  DbOptions o;
  o.read_only = read_only;
  return RecordDb::open(path, o);
}

Result<std::int64_t> game_id(const std::string& s) {
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
    return Error{"GAME must be a game number (see hexdice history --db FILE), got \"" + s + "\""};
  return static_cast<std::int64_t>(std::stoll(s));
}

Json summary_result(const record::GameSummary& g) {
  if (g.ruleset == "hexdice") return to_json(g.result);
  if (!g.ended) return nullptr;
  return Json{{"reason", g.termination}, {"winner", g.result.winner.empty() ? Json(nullptr) : Json(g.result.winner)}};
}

int run_history(const std::string& db_path, const std::string& game, bool json, const std::string& ruleset) {
  if (!ruleset.empty() && !find_ruleset(ruleset)) {
    std::string known;
    for (const auto& n : ruleset_names()) known += (known.empty() ? "" : ", ") + n;
    return fail("--ruleset: unknown ruleset \"" + ruleset + "\" (known: " + known + ")");
  }
  auto db = open_db(db_path, true);
  if (!db) return fail(db.error());
  if (game.empty()) {
    auto games = (*db)->list_games();
    if (!games) return fail(games.error());
    for (const auto& g : *games) {
      if (!ruleset.empty() && g.ruleset != ruleset) continue;
      if (json) {
        std::cout << Json{{"id", g.id},
                          {"ruleset", g.ruleset},
                          {"event", g.event},
                          {"players", g.players},
                          {"started_at", g.started_at},
                          {"ended_at", g.ended_at.empty() ? Json(nullptr) : Json(g.ended_at)},
                          {"result", summary_result(g)},
                          {"actions", g.actions}}
                         .dump()
                  << '\n';
      } else {
        std::cout << g.id << "  " << (g.started_at.empty() ? "-" : g.started_at) << "  " << g.ruleset << "  "
                  << g.players << "  " << record::result_line(g) << "  " << g.actions << " actions"
                  << (g.event.empty() ? "" : "  " + g.event) << '\n';
      }
    }
    return kExitOk;
  }
  auto id = game_id(game);
  if (!id) return fail(id.error());
  auto rs = (*db)->game_ruleset(*id);
  if (!rs) return fail(rs.error());
  if (*rs != "hexdice") {
    auto rec = record::load_ruleset_game(**db, *id);
    if (!rec) return fail(rec.error());
    if (json)
      for (const auto& line : record::record_json_lines(*rec)) std::cout << line.dump() << '\n';
    else
      std::cout << record::to_text(*rec);
    return kExitOk;
  }
  auto rec = (*db)->load_game(*id);
  if (!rec) return fail(rec.error());
  if (json)
    for (const auto& line : record_json_lines(*rec)) std::cout << line.dump() << '\n';
  else
    std::cout << to_text(*rec);
  return kExitOk;
}

int run_export(const std::string& db_path, const std::string& game, const std::string& out) {
  auto db = open_db(db_path, true);
  if (!db) return fail(db.error());
  auto id = game_id(game);
  if (!id) return fail(id.error());
  auto rs = (*db)->game_ruleset(*id);
  if (!rs) return fail(rs.error());
  std::string text;
  if (*rs != "hexdice") {
    auto rec = record::load_ruleset_game(**db, *id);
    if (!rec) return fail(rec.error());
    text = record::to_text(*rec);
  } else {
    auto rec = (*db)->load_game(*id);
    if (!rec) return fail(rec.error());
    text = to_text(*rec);
  }
  if (out.empty() || out == "-") {
    std::cout << text;
    return kExitOk;
  }
  // Write beside the target, then rename: never a half-written record file.
  const std::string tmp = out + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return fail("cannot write " + out);
    }
  }
  if (std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::remove(tmp.c_str());
    return fail("cannot write " + out);
  }
  return kExitOk;
}

int log_ruleset_game(const std::string& db_path, const std::string& ruleset, const Json* start,
                     const std::vector<Json>& steps, const std::vector<std::string>& where, bool resume,
                     const std::string& event);

int run_import(const std::string& db_path, const std::string& file) {
  std::string err;
  auto text = read_file(file, err);
  if (!text) return fail(err);
  if (const auto first = text->find_first_not_of(" \t\r\n"); first != std::string::npos && (*text)[first] == '{') {
    // The companion's saved game of another ruleset: {"ruleset", "start", "actions"}.
    auto j = parse_json(*text, "game record");
    if (!j) return fail(file + ": " + j.error());
    if (!j->is_object() || !j->contains("start") || !j->contains("actions") || !(*j)["actions"].is_array())
      return fail(file + ": expected {\"ruleset\", \"start\": POSITION, \"actions\": [ACTION...]}");
    const Json& start = (*j)["start"];
    const std::string rs = j->contains("ruleset") && (*j)["ruleset"].is_string() ? (*j)["ruleset"].get<std::string>()
                                                                                 : ruleset_key(start);
    std::vector<Json> steps;
    std::vector<std::string> where;
    for (std::size_t k = 0; k < (*j)["actions"].size(); ++k) {
      steps.push_back((*j)["actions"][k]);
      where.push_back(file + ": action " + std::to_string(k + 1));
    }
    return log_ruleset_game(db_path, rs, &start, steps, where, false, "Imported " + file);
  }
  auto rec = record_from_text(*text);
  if (!rec) return fail(file + ": " + rec.error());
  auto db = open_db(db_path, false);
  if (!db) return fail(db.error());
  auto id = (*db)->insert_game(*rec);  // one transaction: all of it or nothing
  if (!id) return fail(id.error());
  std::cout << *id << '\n';
  return kExitOk;
}

struct SampleArgs {
  std::string db;
  SampleOptions o;
};

int run_sample(const SampleArgs& a) {
  if (a.o.players != 2 && a.o.players != 3 && a.o.players != 4 && a.o.players != 6)
    return fail("--players must be 2, 3, 4 or 6 (rules.md section 2)");
  SetupConfig probe;
  const auto allowed = allowed_dice_counts(a.o.players);
  probe.dice_per_player = a.o.dice > 0 ? a.o.dice : allowed.front();
  for (int i = 0; i < a.o.players; ++i) probe.players.push_back(Player{"p" + std::to_string(i), i, false});
  if (Status s = validate_config(probe); !s && a.o.dice > 0) return fail(s.error());
  if (a.o.radius < 4 || a.o.radius > kMaxRadius) return fail("--radius must be 4.." + std::to_string(kMaxRadius));
  if (a.o.max_plies < 0) return fail("--max-plies must not be negative");
  const GameRecord src = sample_game(a.o);
  auto db = open_db(a.db, false);
  if (!db) return fail(db.error());
  // Logged like a live game: the header first, then one transaction per event.
  auto fresh = GameRecord::with_setup(src.config(), src.header());
  if (!fresh) return fail(fresh.error());
  auto game = record::RecordedGame::create(**db, *fresh);
  if (!game) return fail(game.error());
  for (int step = 0; step < record::record_steps(src); ++step)
    if (Status s = record::apply_step(*game, src, step); !s) return fail(s.error());
  std::cout << game->id() << '\n';
  return kExitOk;
}

// Logs a game of another ruleset: `steps` are actions, or the strings "takeback", "draw"
// (agreed) and "resign" (the player to move resigns). Every step is first checked in memory
// from the start (or the resumed game), so an illegal one is refused with its line and the
// rule it breaks before anything is written; then the game is logged like a live one, one
// transaction per action. Prints the game number.
int log_ruleset_game(const std::string& db_path, const std::string& ruleset, const Json* start,
                     const std::vector<Json>& steps, const std::vector<std::string>& where, bool resume,
                     const std::string& event) {
  const Ruleset* rs = find_ruleset(ruleset);
  if (!rs || ruleset == "hexdice") {
    std::string known;
    for (const auto& n : ruleset_names())
      if (n != "hexdice") known += (known.empty() ? "" : ", ") + n;
    return fail("--ruleset: \"" + ruleset + "\" is not a ruleset logged this way (" + known +
                "; Hex Dice: record import / sample)");
  }
  if (start && ruleset_key(*start) != ruleset)
    return fail("the start position is a " + ruleset_key(*start) + " position, not " + ruleset);
  auto db = open_db(db_path, false);
  if (!db) return fail(db.error());
  std::optional<record::RulesetGame> game;
  if (resume) {
    auto g = record::RulesetGame::resume_unfinished(**db, ruleset);
    if (!g) return fail(g.error());
    if (!g->has_value()) return fail("--resume: no unfinished " + ruleset + " game in " + db_path);
    game = std::move(**g);
  }
  // Dry run: every step from the current position, nothing written yet.
  Json pos;
  if (game) {
    pos = game->record().current();
  } else {
    Json s0 = start ? *start : Json();
    if (!start) {
      auto d = rs->start_position("");
      if (!d) return fail(d.error());
      s0 = *d;
    }
    auto n = rs->normalize(s0);
    if (!n) return fail("start position: " + n.error());
    pos = *n;
  }
  std::vector<Json> line{pos};
  bool ended = false;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Json& st = steps[k];
    if (ended) return fail(where[k] + ": the game is already over");
    if (st == "takeback") {
      if (line.size() < 2) return fail(where[k] + ": nothing to take back");
      line.pop_back();
      continue;
    }
    if (st == "draw" || st == "resign") {
      ended = true;
      continue;
    }
    if (auto over = rs->game_over(line.back()); over && *over) return fail(where[k] + ": the game is already over");
    auto a = rs->apply(line.back(), st);
    if (!a) return fail(where[k] + ": " + a.error());
    line.push_back(a->position);
    if (auto over = rs->game_over(line.back()); over && *over) ended = true;
  }
  if (!game) {
    auto g = record::RulesetGame::create(**db, ruleset, pos, {}, event, "hexdice record");
    if (!g) return fail(g.error());
    game = std::move(*g);
  }
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Json& st = steps[k];
    Status s;
    if (st == "takeback") {
      s = game->takeback();
    } else if (st == "draw") {
      s = game->finish("", "draw_agreed");
    } else if (st == "resign") {
      const std::string loser = game->rules().to_move(game->record().current());
      std::string winner;
      for (const auto& p : game->record().players)
        if (p.id != loser) winner = winner.empty() ? p.id : winner;
      // With more than two players a resignation names no single winner.
      if (game->record().players.size() > 2) winner.clear();
      s = game->finish(winner, "resignation");
    } else if (auto out = game->act(st); !out) {
      s = Error{out.error()};
    }
    if (!s) return fail(where[k] + ": " + s.error() + " (game " + std::to_string(game->id()) + " holds the steps before)");
  }
  std::cout << game->id() << '\n';
  return kExitOk;
}

struct PlayArgs {
  std::string db, ruleset, start, actions, variant, event;
  bool resume = false;
};

int run_play(const PlayArgs& a) {
  if (a.resume && (!a.start.empty() || !a.variant.empty())) return fail("--resume continues a game: no --start or --variant");
  if (!a.start.empty() && !a.variant.empty()) return fail("give --start or --variant, not both");
  std::string err;
  std::optional<Json> start;
  if (!a.start.empty()) {
    auto t = read_file(a.start, err);
    if (!t) return fail(err);
    auto j = parse_json(*t, "position");
    if (!j) return fail(a.start + ": " + j.error());
    start = *j;
  } else if (!a.variant.empty()) {
    const Ruleset* rs = find_ruleset(a.ruleset);
    if (!rs) return fail("--ruleset: unknown ruleset \"" + a.ruleset + "\"");
    auto j = rs->start_position(a.variant);
    if (!j) return fail("--variant: " + j.error());
    start = *j;
  }
  auto t = read_file(a.actions, err);
  if (!t) return fail(err);
  std::vector<Json> steps;
  std::vector<std::string> where;
  std::istringstream in(*t);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = parse_json(l, "action");
    const std::string at = a.actions + " line " + std::to_string(n);
    if (!j) return fail(at + ": " + j.error());
    if (j->is_string() && *j != "takeback" && *j != "draw" && *j != "resign")
      return fail(at + ": a string line must be \"takeback\", \"draw\" or \"resign\"");
    steps.push_back(std::move(*j));
    where.push_back(at);
  }
  return log_ruleset_game(a.db, a.ruleset, start ? &*start : nullptr, steps, where, a.resume,
                          a.event.empty() ? "Logged from " + a.actions : a.event);
}

}  // namespace

void register_record_commands(CLI::App& app, Registry& reg) {
  struct HistoryArgs {
    std::string db, game, ruleset;
    bool json = false;
  };
  auto h = std::make_shared<HistoryArgs>();
  auto* history = app.add_subcommand("history", "List logged games, or print one game's record");
  history->add_option("--db", h->db, "game database (SQLite)")->required();
  history->add_option("GAME", h->game, "game number (omit to list the games)");
  history->add_flag("--json", h->json,
                    "JSON, one object per line (a game list; or the setup, then each action with its outcome)");
  history->add_option("--ruleset", h->ruleset, "list only the games of this ruleset (hexdice, wizardhex, hexadecimal)");
  reg.add(history, [h] { return run_history(h->db, h->game, h->json, h->ruleset); });

  auto* rec = app.add_subcommand("record", "Export, import or generate game records");
  rec->require_subcommand(1);

  struct ExportArgs {
    std::string db, game, out;
  };
  auto e = std::make_shared<ExportArgs>();
  auto* exp = rec->add_subcommand("export", "Write one game's text record (PGN-like)");
  exp->add_option("--db", e->db, "game database")->required();
  exp->add_option("GAME", e->game, "game number")->required();
  exp->add_option("--out", e->out, "output file (default: stdout)");
  reg.add(exp, [e] { return run_export(e->db, e->game, e->out); });

  struct ImportArgs {
    std::string db, file;
  };
  auto i = std::make_shared<ImportArgs>();
  auto* imp = rec->add_subcommand("import",
                                  "Add a game from its text record, or a saved Wizard Hex / Hexa Decimal game "
                                  "({\"ruleset\",\"start\",\"actions\"}); prints the new game number");
  imp->add_option("--db", i->db, "game database (created if missing)")->required();
  imp->add_option("RECORD", i->file, "text record or JSON game file (- for stdin)")->required();
  reg.add(imp, [i] { return run_import(i->db, i->file); });

  auto s = std::make_shared<SampleArgs>();
  auto* smp = rec->add_subcommand("sample", "Log a seeded random legal game (demo data); prints its game number");
  smp->add_option("--db", s->db, "game database (created if missing)")->required();
  smp->add_option("--seed", s->o.seed, "random seed")->capture_default_str();
  smp->add_option("--players", s->o.players, "2, 3, 4 or 6")->capture_default_str();
  smp->add_option("--dice", s->o.dice, "dice per player (default: the smallest count rules.md section 2 allows)");
  smp->add_option("--radius", s->o.radius, "map radius")->capture_default_str();
  smp->add_option("--max-plies", s->o.max_plies, "then the players agree a draw")->capture_default_str();
  reg.add(smp, [s] { return run_sample(*s); });

  auto p = std::make_shared<PlayArgs>();
  auto* play = rec->add_subcommand(
      "play", "Log a game of another ruleset from a file of actions (one JSON action per line; \"takeback\", "
              "\"draw\", \"resign\"); checked first, then logged action by action; prints the game number");
  play->add_option("--db", p->db, "game database (created if missing)")->required();
  play->add_option("--ruleset", p->ruleset, "wizardhex or hexadecimal")->required();
  play->add_option("--start", p->start, "start position (POSITION.json; default: the ruleset's default start)");
  play->add_option("--variant", p->variant, "a start preset / variant instead of --start (e.g. demial, six)");
  play->add_flag("--resume", p->resume, "continue the latest unfinished game of that ruleset");
  play->add_option("--event", p->event, "the game's Event tag");
  play->add_option("ACTIONS", p->actions, "actions, one JSON per line (JSON Lines; - for stdin)")->required();
  reg.add(play, [p] { return run_play(*p); });
}

}  // namespace hexdice::cli
