// The game record on the command line (interfaces.md "Command line"):
//   hexdice history --db FILE [GAME] [--json]        list games, or one game's record
//   hexdice record export --db FILE GAME [--out F]   the text record (PGN-like) of a game
//   hexdice record import --db FILE RECORD.txt       a text record into the database (prints its id)
//   hexdice record sample --db FILE [--seed N] ...   a seeded random legal game, logged action by action
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "companion/record/record_db.h"
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

std::string result_text(const GameResult& r) {
  if (!r.finished()) return "unfinished";
  if (r.reason == ResultReason::DrawAgreed) return "draw (agreed)";
  return r.winner + " won (" + std::string(reason_name(r.reason)) + ")";
}

int run_history(const std::string& db_path, const std::string& game, bool json) {
  auto db = open_db(db_path, true);
  if (!db) return fail(db.error());
  if (game.empty()) {
    auto games = (*db)->list_games();
    if (!games) return fail(games.error());
    for (const auto& g : *games) {
      if (json) {
        std::cout << Json{{"id", g.id},
                          {"event", g.event},
                          {"players", g.players},
                          {"started_at", g.started_at},
                          {"ended_at", g.ended_at.empty() ? Json(nullptr) : Json(g.ended_at)},
                          {"result", to_json(g.result)},
                          {"actions", g.actions}}
                         .dump()
                  << '\n';
      } else {
        std::cout << g.id << "  " << (g.started_at.empty() ? "-" : g.started_at) << "  " << g.players << "  "
                  << result_text(g.result) << "  " << g.actions << " actions" << (g.event.empty() ? "" : "  " + g.event)
                  << '\n';
      }
    }
    return kExitOk;
  }
  auto id = game_id(game);
  if (!id) return fail(id.error());
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
  auto rec = (*db)->load_game(*id);
  if (!rec) return fail(rec.error());
  const std::string text = to_text(*rec);
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

int run_import(const std::string& db_path, const std::string& file) {
  std::string err;
  auto text = read_file(file, err);
  if (!text) return fail(err);
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

}  // namespace

void register_record_commands(CLI::App& app, Registry& reg) {
  struct HistoryArgs {
    std::string db, game;
    bool json = false;
  };
  auto h = std::make_shared<HistoryArgs>();
  auto* history = app.add_subcommand("history", "List logged games, or print one game's record");
  history->add_option("--db", h->db, "game database (SQLite)")->required();
  history->add_option("GAME", h->game, "game number (omit to list the games)");
  history->add_flag("--json", h->json,
                    "JSON, one object per line (a game list; or the setup, then each action with its outcome)");
  reg.add(history, [h] { return run_history(h->db, h->game, h->json); });

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
  auto* imp = rec->add_subcommand("import", "Add a game from its text record; prints the new game number");
  imp->add_option("--db", i->db, "game database (created if missing)")->required();
  imp->add_option("RECORD", i->file, "text record file (- for stdin)")->required();
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
}

}  // namespace hexdice::cli
