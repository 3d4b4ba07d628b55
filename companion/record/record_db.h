// The SQLite game record (rules.md section 8: never lose a game already logged).
//
// One database file holds any number of games, of any ruleset (core/ruleset.h). Schema (versioned with PRAGMA
// user_version, migrated forward on open; a newer version is refused):
//
//   games         id, ruleset, config JSON (radius, players, dice, house rules), house_rules
//                 JSON, players JSON (id, corner, name), event, site, start_position JSON
//                 (only when the setup was skipped), started_at, ended_at, result_reason,
//                 result_winner, termination (v3: why a game of another ruleset ended,
//                 e.g. "checkmate"; such games keep result_reason NULL, ended_at marks the end),
//                 solo (v4: 1 = a solo game's record, GameRecord RecordMode::Solo)
//   setup_events  (game_id, seq) -> setup event JSON (core/setup.h)
//   events        (game_id, seq) -> kind: action | takeback | annotation | (v4, solo games
//                 only) pass | again | place | rule, recorded_at; the order of everything
//                 after the setup
//   actions       (game_id, seq) -> ply, player, action JSON, outcome JSON, the position
//                 JSON after it (so a viewer can jump to any ply without replaying)
//   takebacks     (game_id, seq) -> the ply taken back (an event, never a deletion)
//   annotations   (game_id, seq) -> free text
//   scenario_steps (game_id, seq) -> ply (actions before it), player id, step JSON
//                 (core/game_record.h scenario_step_json), the position JSON after it (v4)
//
// Hex Dice games (ruleset 'hexdice') are written and read through GameRecord below; games of
// the other rulesets (Wizard Hex, Hexa Decimal) through companion/record/ruleset_game.h, with
// the same events / actions / takebacks tables (action JSON, outcome JSON, position after it,
// player id). Version 3 adds games.termination and an index by ruleset (2 -> 3 on open).
// Version 4 makes one solo game one game: games.solo, the scenario step kinds and their
// table (3 -> 4 rebuilds events with foreign keys off, then checks them).
//
// Every write is ONE transaction (BEGIN IMMEDIATE ... COMMIT): an accepted action, its
// outcome and its position land together or not at all. Foreign keys are on; the journal
// is WAL; statements are prepared once and reused.
//
// Durability (PRAGMA synchronous, under WAL):
//   FULL (the default): the WAL is fsync'ed at every commit, so a committed action
//     survives a power cut or OS crash as well as a killed process.
//   NORMAL: the WAL is fsync'ed only at checkpoints; a committed action survives a
//     killed or crashed process (the WAL is in the OS cache), but the last commits may be
//     rolled back by a power cut or OS crash. The database is never corrupted either way.
//   See tests/bench/bench_record.cpp for the cost of each.
//
// Failures (locked by another writer, read-only file, not a database, a newer schema,
// a disk error) come back as one clear message; nothing is half-written.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game_record.h"

struct sqlite3;
struct sqlite3_stmt;

namespace hexdice::record {

enum class Durability { Full, Normal };

struct DbOptions {
  bool read_only = false;                   // open an existing database for reading only
  Durability durability = Durability::Full; // PRAGMA synchronous (see above)
  int busy_timeout_ms = 2000;               // wait this long for another writer's lock
};

struct GameSummary {
  std::int64_t id = 0;
  std::string event;
  std::string players;       // "red (Ann) vs blue"
  std::string started_at;
  std::string ended_at;      // empty while unfinished
  GameResult result;
  int actions = 0;           // accepted actions logged (takebacks not subtracted)
  std::string ruleset = "hexdice";
  // Games of the other rulesets (result stays unfinished for them):
  bool ended = false;        // the game has ended (ended_at set)
  std::string termination;   // "checkmate", "elimination", "resignation", ...
  bool solo = false;         // a solo game's record (v4 games.solo; before v4: event "solo: ...")
};
// "red won (annihilation)", "draw (stalemate)", "unfinished": any ruleset.
std::string result_line(const GameSummary& g);

// A game's row and its events as stored, for readers of the other rulesets.
struct StoredGame {
  std::int64_t id = 0;
  std::string ruleset;
  Json start;                // start_position (null when the setup was played)
  Json players;              // [{"id", "name"?}]
  std::string event, site, started_at, ended_at;
  std::string winner;        // result_winner ("" = none / draw)
  std::string termination;   // v3 column ("" = none)
};
struct StoredEvent {
  int seq = 0;
  std::string kind;          // "action", "takeback", "annotation"
  int ply = 0;               // action: its ply; takeback: the ply undone
  std::string player;
  Json action, outcome, position;
  std::string text;          // annotation
};

class RecordDb {
 public:
  static constexpr int kSchemaVersion = 4;

  // Opens (creating and migrating when writable) the database at `path`.
  static Result<std::unique_ptr<RecordDb>> open(const std::string& path, DbOptions options = {});
  ~RecordDb();
  RecordDb(const RecordDb&) = delete;
  RecordDb& operator=(const RecordDb&) = delete;

  const std::string& path() const { return path_; }
  int schema_version() const { return version_; }

  // Whole games.
  Result<std::int64_t> insert_game(const GameRecord& record);  // everything in it, one transaction
  Result<std::vector<GameSummary>> list_games();
  Result<GameRecord> load_game(std::int64_t id);
  // The position after `ply` actions of the game's current line (takebacks honoured),
  // read from the stored position JSON without replaying the game (ply 0 replays the setup).
  Result<Position> position_at(std::int64_t game, int ply);
  // The most recent unfinished Hex Dice game, if any, that the live referee may resume:
  // solo games (event "solo: <scenario>", companion/solo/solo_record.h) are resumed only
  // by their own solo session, never refereed as a plain two-player game.
  Result<std::optional<std::int64_t>> unfinished_game();
  // The most recent unfinished game of a ruleset, if any.
  Result<std::optional<std::int64_t>> unfinished_game(std::string_view ruleset);
  // The ruleset a game was played with (an error for an unknown game).
  Result<std::string> game_ruleset(std::int64_t id);

  // Games of any ruleset, as stored (companion/record/ruleset_game.h builds on these).
  Result<std::int64_t> insert_ruleset_game(const StoredGame& g);  // ruleset, start, players, event, site, started_at
  Result<StoredGame> stored_game(std::int64_t id);
  Result<std::vector<StoredEvent>> stored_events(std::int64_t id);
  // Ends a game of another ruleset: winner ("" = draw) and termination; one transaction.
  Status set_ruleset_result(std::int64_t game, const std::string& winner, const std::string& termination,
                            const std::string& end_time);

  // Single events, each its own transaction. `seq` is the index in the record
  // (setup events and entries counted separately).
  Status insert_setup_event(std::int64_t game, int seq, const SetupEvent& e);
  Status insert_action(std::int64_t game, int seq, int ply, const std::string& player, const Json& action,
                       const Json& outcome, const Json& position_after);
  Status insert_takeback(std::int64_t game, int seq, int ply);
  Status insert_annotation(std::int64_t game, int seq, const std::string& text);
  Status set_result(std::int64_t game, const GameResult& result, const std::string& end_time);
  // A solo game's scenario step (pass, again, place, rule) with the positions before and after it.
  Status insert_scenario_step(std::int64_t game, int seq, const RecordEntry& step, const Position& before,
                              const Position& after);

  // Test hook: the `n`-th data statement (0-based) of the next write fails as if the disk
  // had failed between statements; -1 turns it off. The transaction is rolled back.
  void inject_failure_after(int n) { inject_ = n; }

 private:
  class Stmt;
  class Txn;
  RecordDb() = default;
  Status migrate();
  Status migrate_steps();
  Status add_column_if_missing(const char* table, const char* column, const char* decl);
  sqlite3_stmt* prepare(const std::string& sql, std::string& error);
  Status step_done(sqlite3_stmt* st, const char* what);
  Status exec(const char* sql);
  std::string sqlite_error(int rc) const;

  Status insert_game_rows(const GameRecord& record, std::int64_t& id);
  Status insert_setup_event_rows(std::int64_t game, int seq, const SetupEvent& e);
  Status insert_event_row(std::int64_t game, int seq, const char* kind);
  Status insert_action_rows(std::int64_t game, int seq, int ply, const std::string& player, const Json& action,
                            const Json& outcome, const Json& position_after);
  Status insert_takeback_rows(std::int64_t game, int seq, int ply);
  Status insert_annotation_rows(std::int64_t game, int seq, const std::string& text);
  Status set_result_rows(std::int64_t game, const GameResult& result, const std::string& end_time);
  Status insert_scenario_step_rows(std::int64_t game, int seq, const RecordEntry& step, const Position& before,
                                   const Position& after);

  sqlite3* db_ = nullptr;
  std::string path_;
  DbOptions options_;
  int version_ = 0;
  int inject_ = -1;
  std::map<std::string, sqlite3_stmt*> stmts_;
};

// One game being played and logged: every change is checked against the rules in memory,
// committed in one transaction, and only then becomes part of record(). On any error the
// database and record() are unchanged.
class RecordedGame {
 public:
  static Result<RecordedGame> create(RecordDb& db, const GameRecord& fresh);
  static Result<RecordedGame> resume(RecordDb& db, std::int64_t id);
  // The most recent unfinished game (nullopt when every game is finished).
  static Result<std::optional<RecordedGame>> resume_unfinished(RecordDb& db);

  std::int64_t id() const { return id_; }
  const GameRecord& record() const { return rec_; }

  Status setup(const SetupEvent& e);
  Result<Outcome> act(const Action& a);
  Status takeback();
  Status annotate(std::string text);
  // A scenario step of a solo game (GameRecord::add_scenario_step; refused in a two-player game).
  Status step(const RecordEntry& step);
  Status finish(const GameResult& result, const std::string& end_time);

 private:
  RecordedGame(RecordDb& db, std::int64_t id, GameRecord rec) : db_(&db), id_(id), rec_(std::move(rec)) {}
  RecordDb* db_;
  std::int64_t id_;
  GameRecord rec_;
};

// A record as a list of steps (setup events, entries, then the result when finished),
// so a game can be re-logged one transaction at a time (tests, the sample generator).
int record_steps(const GameRecord& r);
Status apply_step(RecordedGame& game, const GameRecord& src, int step);

// Current UTC time as "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now();

}  // namespace hexdice::record
