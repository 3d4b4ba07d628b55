#include "companion/record/record_db.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <ctime>

namespace hexdice::record {

namespace {

// Schema migrations: kMigrations[v] takes user_version v to v + 1.
const char* const kMigrations[] = {
    // 0 -> 1: the tables.
    R"sql(
CREATE TABLE games (
  id             INTEGER PRIMARY KEY,
  ruleset        TEXT NOT NULL DEFAULT 'hexdice',
  config         TEXT NOT NULL,
  house_rules    TEXT NOT NULL,
  players        TEXT NOT NULL,
  event          TEXT NOT NULL DEFAULT '',
  site           TEXT NOT NULL DEFAULT '',
  start_position TEXT,
  started_at     TEXT NOT NULL,
  ended_at       TEXT,
  result_reason  TEXT CHECK (result_reason IN
                   ('annihilation', 'base_capture', 'elimination', 'resignation', 'draw_agreed')),
  result_winner  TEXT
);
CREATE TABLE setup_events (
  game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  event       TEXT NOT NULL,
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (game_id, seq)
);
CREATE TABLE events (
  game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('action', 'takeback', 'annotation')),
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (game_id, seq)
);
CREATE TABLE actions (
  game_id  INTEGER NOT NULL,
  seq      INTEGER NOT NULL,
  ply      INTEGER NOT NULL,
  player   TEXT NOT NULL,
  action   TEXT NOT NULL,
  outcome  TEXT NOT NULL,
  position TEXT NOT NULL,
  PRIMARY KEY (game_id, seq),
  FOREIGN KEY (game_id, seq) REFERENCES events(game_id, seq) ON DELETE CASCADE
);
CREATE TABLE takebacks (
  game_id INTEGER NOT NULL,
  seq     INTEGER NOT NULL,
  ply     INTEGER NOT NULL,
  PRIMARY KEY (game_id, seq),
  FOREIGN KEY (game_id, seq) REFERENCES events(game_id, seq) ON DELETE CASCADE
);
CREATE TABLE annotations (
  game_id INTEGER NOT NULL,
  seq     INTEGER NOT NULL,
  text    TEXT NOT NULL,
  PRIMARY KEY (game_id, seq),
  FOREIGN KEY (game_id, seq) REFERENCES events(game_id, seq) ON DELETE CASCADE
);
)sql",
    // 1 -> 2: finding the unfinished game (resume) without a scan.
    R"sql(
CREATE INDEX games_by_result ON games(result_reason, id);
)sql",
    // 2 -> 3: games of every ruleset (companion/record/ruleset_game.h): why such a game
    // ended (result_reason keeps Hex Dice's reasons), and finding a ruleset's unfinished game.
    // (The column is added in migrate(), only when missing: ADD COLUMN has no IF NOT EXISTS.)
    R"sql(
CREATE INDEX IF NOT EXISTS games_by_ruleset ON games(ruleset, ended_at, id);
)sql",
    // 3 -> 4: a solo game is one game (docs/scenarios.md). games.solo marks a solo game's
    // record (added in migrate() when missing; the solo games logged before, as linked
    // parts, are marked by their event); a solo game may end by its scenario
    // (result_reason 'scenario', its text in termination); events may also be a scenario
    // step, whose row is in scenario_steps. SQLite cannot change a CHECK, so games and
    // events are rebuilt (foreign keys are off during the migration: the rows that refer
    // to them stay, and migrate() runs PRAGMA foreign_key_check before turning them on).
    R"sql(
CREATE TABLE games_v4 (
  id             INTEGER PRIMARY KEY,
  ruleset        TEXT NOT NULL DEFAULT 'hexdice',
  config         TEXT NOT NULL,
  house_rules    TEXT NOT NULL,
  players        TEXT NOT NULL,
  event          TEXT NOT NULL DEFAULT '',
  site           TEXT NOT NULL DEFAULT '',
  start_position TEXT,
  started_at     TEXT NOT NULL,
  ended_at       TEXT,
  result_reason  TEXT CHECK (result_reason IN
                   ('annihilation', 'base_capture', 'elimination', 'resignation', 'draw_agreed', 'scenario')),
  result_winner  TEXT,
  termination    TEXT,
  solo           INTEGER NOT NULL DEFAULT 0
);
INSERT INTO games_v4 (id, ruleset, config, house_rules, players, event, site, start_position, started_at, ended_at,
                      result_reason, result_winner, termination, solo)
  SELECT id, ruleset, config, house_rules, players, event, site, start_position, started_at, ended_at,
         result_reason, result_winner, termination, solo FROM games;
DROP TABLE games;
ALTER TABLE games_v4 RENAME TO games;
CREATE INDEX games_by_result ON games(result_reason, id);
CREATE INDEX games_by_ruleset ON games(ruleset, ended_at, id);
CREATE TABLE events_v4 (
  game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('action', 'takeback', 'annotation', 'pass', 'again', 'place', 'rule')),
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (game_id, seq)
);
INSERT INTO events_v4 (game_id, seq, kind, recorded_at) SELECT game_id, seq, kind, recorded_at FROM events;
DROP TABLE events;
ALTER TABLE events_v4 RENAME TO events;
CREATE TABLE IF NOT EXISTS scenario_steps (
  game_id  INTEGER NOT NULL,
  seq      INTEGER NOT NULL,
  ply      INTEGER NOT NULL,
  player   TEXT,
  step     TEXT NOT NULL,
  position TEXT NOT NULL,
  PRIMARY KEY (game_id, seq),
  FOREIGN KEY (game_id, seq) REFERENCES events(game_id, seq) ON DELETE CASCADE
);
UPDATE games SET solo = 1 WHERE ruleset = 'hexdice' AND event LIKE 'solo: %';
)sql",
};
static_assert(std::size(kMigrations) == RecordDb::kSchemaVersion);

std::string col_text(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return t ? std::string(reinterpret_cast<const char*>(t), static_cast<std::size_t>(sqlite3_column_bytes(st, i)))
           : std::string();
}
bool col_null(sqlite3_stmt* st, int i) { return sqlite3_column_type(st, i) == SQLITE_NULL; }

// Binds by position; resets the statement when it goes out of scope.
class Binder {
 public:
  explicit Binder(sqlite3_stmt* st) : st_(st) {}
  ~Binder() {
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
  }
  Binder& text(const std::string& s) {
    sqlite3_bind_text(st_, ++i_, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Binder& integer(std::int64_t v) {
    sqlite3_bind_int64(st_, ++i_, v);
    return *this;
  }
  Binder& null() {
    sqlite3_bind_null(st_, ++i_);
    return *this;
  }

 private:
  sqlite3_stmt* st_;
  int i_ = 0;
};

}  // namespace

// BEGIN IMMEDIATE on construction (takes the write lock up front, so a busy database
// fails before anything is written); ROLLBACK unless commit() succeeded.
class RecordDb::Txn {
 public:
  explicit Txn(RecordDb& db) : db_(db) { status_ = db_.exec("BEGIN IMMEDIATE"); }
  ~Txn() {
    if (status_.ok() && !committed_) sqlite3_exec(db_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  const Status& begun() const { return status_; }
  Status commit() {
    Status s = db_.exec("COMMIT");
    committed_ = s.ok();
    return s;
  }

 private:
  RecordDb& db_;
  Status status_;
  bool committed_ = false;
};

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string RecordDb::sqlite_error(int rc) const {
  const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "the database " + path_ + " is locked by another writer (waited " +
             std::to_string(options_.busy_timeout_ms) + " ms); nothing was written";
    case SQLITE_READONLY: return "the database " + path_ + " is read-only; nothing was written";
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT: return path_ + " is not a hexdice game database (" + msg + ")";
    case SQLITE_FULL: return "the disk holding " + path_ + " is full; nothing was written";
    case SQLITE_CONSTRAINT:
      if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return "the game in " + path_ + " was logged to by another writer meanwhile (" + msg +
               "); reload it; nothing was written";
      return "database " + path_ + ": " + msg;
    case SQLITE_CANTOPEN: return "cannot open the database " + path_ + " (" + msg + ")";
    default: return "database " + path_ + ": " + msg;
  }
}

Status RecordDb::exec(const char* sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  return {};
}

sqlite3_stmt* RecordDb::prepare(const std::string& sql, std::string& error) {
  auto it = stmts_.find(sql);
  if (it != stmts_.end()) return it->second;
  sqlite3_stmt* st = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st,
                                    nullptr);
  if (rc != SQLITE_OK) {
    error = sqlite_error(rc);
    return nullptr;
  }
  stmts_.emplace(sql, st);
  return st;
}

Status RecordDb::step_done(sqlite3_stmt* st, const char* what) {
  if (inject_ == 0) {
    inject_ = -1;
    return Error{std::string("injected failure before ") + what + "; nothing was written"};
  }
  if (inject_ > 0) --inject_;
  const int rc = sqlite3_step(st);
  if (rc != SQLITE_DONE) return Error{sqlite_error(sqlite3_extended_errcode(db_)) + " (" + what + ")"};
  return {};
}

RecordDb::~RecordDb() {
  for (auto& [sql, st] : stmts_) sqlite3_finalize(st);
  if (db_) sqlite3_close_v2(db_);
}

Result<std::unique_ptr<RecordDb>> RecordDb::open(const std::string& path, DbOptions options) {
  std::unique_ptr<RecordDb> db(new RecordDb);
  db->path_ = path;
  db->options_ = options;
  // SQLite opens "" as a private temporary database and ":memory:" in memory: a game
  // recorded there would be lost at exit, so neither is taken for a file name.
  if (path.empty() || path == ":memory:")
    return Error{"the game database needs a file name (got \"" + path + "\")"};
  struct stat sb {};
  const bool exists = ::stat(path.c_str(), &sb) == 0;
  if (options.read_only && !exists) return Error{"no game database at " + path};
  if (exists && !S_ISREG(sb.st_mode)) return Error{path + " is not a regular file"};
  const int flags = options.read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const int rc = sqlite3_open_v2(path.c_str(), &db->db_, flags, nullptr);
  if (rc != SQLITE_OK) return Error{db->sqlite_error(rc)};
  sqlite3_extended_result_codes(db->db_, 1);
  sqlite3_busy_timeout(db->db_, options.busy_timeout_ms);
  if (!options.read_only && sqlite3_db_readonly(db->db_, "main") == 1)
    return Error{"the database " + path + " is read-only; cannot record games into it (nothing was written)"};

  // Reading the version reads the file header: a file that is not a database fails
  // here, before anything has been written to it.
  {
    std::string err;
    sqlite3_stmt* st = db->prepare("PRAGMA user_version", err);
    if (!st) return Error{err};
    Binder b(st);
    const int s = sqlite3_step(st);
    if (s != SQLITE_ROW) return Error{db->sqlite_error(sqlite3_extended_errcode(db->db_))};
    db->version_ = sqlite3_column_int(st, 0);
  }
  if (db->version_ > kSchemaVersion)
    return Error{path + " has schema version " + std::to_string(db->version_) + ", newer than this hexdice understands (" +
                 std::to_string(kSchemaVersion) + "); use a newer hexdice (nothing was written)"};
  if (db->version_ < 0) return Error{path + " has a negative schema version; it is not a hexdice game database"};
  if (Status s = db->exec("PRAGMA foreign_keys = ON"); !s) return Error{s.error()};
  if (options.read_only) {
    if (db->version_ == 0) return Error{path + " is not a hexdice game database (no schema)"};
    return db;
  }
  {
    std::string err;
    sqlite3_stmt* st = db->prepare("PRAGMA journal_mode = WAL", err);
    if (!st) return Error{err};
    Binder b(st);
    if (sqlite3_step(st) != SQLITE_ROW) return Error{db->sqlite_error(sqlite3_extended_errcode(db->db_))};
    if (col_text(st, 0) != "wal") return Error{"cannot switch " + path + " to WAL journaling (" + col_text(st, 0) + ")"};
  }
  if (Status s = db->exec(options.durability == Durability::Full ? "PRAGMA synchronous = FULL"
                                                                   : "PRAGMA synchronous = NORMAL");
      !s)
    return Error{s.error()};
  if (Status s = db->migrate(); !s) return Error{s.error()};
  return db;
}

Status RecordDb::migrate() {
  if (version_ >= kSchemaVersion) return {};
  // Off while the tables change (3 -> 4 rebuilds events); checked and back on after.
  if (Status s = exec("PRAGMA foreign_keys = OFF"); !s) return s;
  Status s = migrate_steps();
  if (s) {
    std::string err;
    sqlite3_stmt* fk = prepare("PRAGMA foreign_key_check", err);
    if (!fk) return Error{err};
    Binder b(fk);
    if (sqlite3_step(fk) == SQLITE_ROW)
      s = Error{"the migrated database " + path_ + " fails its foreign key check (table " + col_text(fk, 0) + ")"};
  }
  if (Status on = exec("PRAGMA foreign_keys = ON"); !on && s) return on;
  return s;
}

Status RecordDb::add_column_if_missing(const char* table, const char* column, const char* decl) {
  std::string err;
  const std::string q = std::string("SELECT count(*) FROM pragma_table_info('") + table + "') WHERE name = '" + column + "'";
  sqlite3_stmt* col = prepare(q, err);
  if (!col) return Error{err};
  int have = 0;
  {
    Binder b(col);
    if (sqlite3_step(col) != SQLITE_ROW) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
    have = sqlite3_column_int(col, 0);
  }
  if (have) return {};
  const std::string alter = std::string("ALTER TABLE ") + table + " ADD COLUMN " + column + " " + decl;
  return exec(alter.c_str());
}

Status RecordDb::migrate_steps() {
  while (version_ < kSchemaVersion) {
    Txn t(*this);
    if (!t.begun()) return t.begun();
    // Re-read inside the lock: another process may have migrated meanwhile.
    std::string err;
    sqlite3_stmt* st = prepare("PRAGMA user_version", err);
    if (!st) return Error{err};
    {
      Binder b(st);
      if (sqlite3_step(st) != SQLITE_ROW) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
      version_ = sqlite3_column_int(st, 0);
    }
    if (version_ >= kSchemaVersion) break;
    if (version_ == 2)
      if (Status s = add_column_if_missing("games", "termination", "TEXT"); !s)
        return Error{"cannot migrate " + path_ + " (schema 2 -> 3): " + s.error()};
    if (version_ == 3)
      if (Status s = add_column_if_missing("games", "solo", "INTEGER NOT NULL DEFAULT 0"); !s)
        return Error{"cannot migrate " + path_ + " (schema 3 -> 4): " + s.error()};
    if (Status s = exec(kMigrations[version_]); !s)
      return Error{"cannot create the game tables in " + path_ + " (schema " + std::to_string(version_) + " -> " +
                   std::to_string(version_ + 1) + "): " + s.error()};
    const std::string set = "PRAGMA user_version = " + std::to_string(version_ + 1);
    if (Status s = exec(set.c_str()); !s) return s;
    if (Status s = t.commit(); !s) return s;
    ++version_;
  }
  return {};
}

// ---- Writes ----------------------------------------------------------------------------

#define HEXDICE_PREPARE(var, sql)              \
  std::string var##_err;                       \
  sqlite3_stmt* var = prepare(sql, var##_err); \
  if (!var) return Error{var##_err}

Status RecordDb::insert_game_rows(const GameRecord& r, std::int64_t& id) {
  HEXDICE_PREPARE(st,
                  "INSERT INTO games (ruleset, config, house_rules, players, event, site, start_position, started_at, solo) "
                  "VALUES ('hexdice', ?, ?, ?, ?, ?, ?, ?, ?)");
  {
    const Json config = to_json(r.config());
    Binder b(st);
    b.text(config.dump()).text(config["house_rules"].dump()).text(players_json(r).dump());
    b.text(r.header().event).text(r.header().site);
    if (r.has_setup()) b.null();
    else b.text(to_json(*r.start_position()).dump());
    b.text(r.header().start_time).integer(r.solo() ? 1 : 0);
    if (Status s = step_done(st, "inserting the game"); !s) return s;
  }
  id = sqlite3_last_insert_rowid(db_);
  if (r.has_setup())
    for (std::size_t i = 0; i < r.setup().events().size(); ++i)
      if (Status s = insert_setup_event_rows(id, static_cast<int>(i), r.setup().events()[i]); !s) return s;
  std::vector<Position> stack;
  if (auto start = r.start_position()) stack.push_back(std::move(start).value());
  for (std::size_t i = 0; i < r.entries().size(); ++i) {
    const RecordEntry& e = r.entries()[i];
    const int seq = static_cast<int>(i);
    Status s;
    switch (e.kind) {
      case EntryKind::Action: {
        const Position& before = stack.back();
        Position after = before;
        apply_unchecked(after, e.action);
        s = insert_action_rows(id, seq, e.ply, before.player(e.player).id, to_json(e.action, before.board()),
                               to_json(e.outcome, before), to_json(after));
        stack.push_back(std::move(after));
        break;
      }
      case EntryKind::Takeback:
        s = insert_takeback_rows(id, seq, e.ply);
        stack.pop_back();
        break;
      case EntryKind::Annotation: s = insert_annotation_rows(id, seq, e.text); break;
      case EntryKind::Pass:
      case EntryKind::Again:
      case EntryKind::Place:
      case EntryKind::Rule: {
        const Position before = stack.back();
        if (Status a = apply_scenario_step(stack.back(), e); !a) return a;
        s = insert_scenario_step_rows(id, seq, e, before, stack.back());
        break;
      }
    }
    if (!s) return s;
  }
  if (r.finished()) return set_result_rows(id, r.header().result, r.header().end_time);
  return {};
}

Status RecordDb::insert_setup_event_rows(std::int64_t game, int seq, const SetupEvent& e) {
  HEXDICE_PREPARE(st, "INSERT INTO setup_events (game_id, seq, event) VALUES (?, ?, ?)");
  Binder b(st);
  b.integer(game).integer(seq).text(to_json(e).dump());
  return step_done(st, "inserting a setup event");
}

Status RecordDb::insert_event_row(std::int64_t game, int seq, const char* kind) {
  HEXDICE_PREPARE(st, "INSERT INTO events (game_id, seq, kind) VALUES (?, ?, ?)");
  Binder b(st);
  b.integer(game).integer(seq).text(kind);
  return step_done(st, "inserting an event");
}

Status RecordDb::insert_action_rows(std::int64_t game, int seq, int ply, const std::string& player, const Json& action,
                                    const Json& outcome, const Json& position_after) {
  if (Status s = insert_event_row(game, seq, "action"); !s) return s;
  HEXDICE_PREPARE(st,
                  "INSERT INTO actions (game_id, seq, ply, player, action, outcome, position) VALUES (?, ?, ?, ?, ?, ?, ?)");
  Binder b(st);
  b.integer(game).integer(seq).integer(ply).text(player).text(action.dump()).text(outcome.dump()).text(
      position_after.dump());
  return step_done(st, "inserting an action");
}

Status RecordDb::insert_takeback_rows(std::int64_t game, int seq, int ply) {
  if (Status s = insert_event_row(game, seq, "takeback"); !s) return s;
  HEXDICE_PREPARE(st, "INSERT INTO takebacks (game_id, seq, ply) VALUES (?, ?, ?)");
  Binder b(st);
  b.integer(game).integer(seq).integer(ply);
  return step_done(st, "inserting a takeback");
}

Status RecordDb::insert_annotation_rows(std::int64_t game, int seq, const std::string& text) {
  if (Status s = insert_event_row(game, seq, "annotation"); !s) return s;
  HEXDICE_PREPARE(st, "INSERT INTO annotations (game_id, seq, text) VALUES (?, ?, ?)");
  Binder b(st);
  b.integer(game).integer(seq).text(text);
  return step_done(st, "inserting an annotation");
}

Status RecordDb::insert_scenario_step_rows(std::int64_t game, int seq, const RecordEntry& e, const Position& before,
                                           const Position& after) {
  if (!is_scenario_step(e.kind)) return Error{"not a scenario step"};
  if (Status s = insert_event_row(game, seq, std::string(entry_kind_name(e.kind)).c_str()); !s) return s;
  HEXDICE_PREPARE(st, "INSERT INTO scenario_steps (game_id, seq, ply, player, step, position) VALUES (?, ?, ?, ?, ?, ?)");
  Binder b(st);
  b.integer(game).integer(seq).integer(e.ply);
  if (e.player >= 0 && e.player < before.num_players()) b.text(before.player(e.player).id);
  else b.null();
  b.text(scenario_step_json(e, before.board()).dump()).text(to_json(after).dump());
  return step_done(st, "inserting a scenario step");
}

Status RecordDb::set_result_rows(std::int64_t game, const GameResult& result, const std::string& end_time) {
  HEXDICE_PREPARE(st,
                  "UPDATE games SET ended_at = ?, result_reason = ?, result_winner = ?, termination = ? "
                  "WHERE id = ? AND result_reason IS NULL");
  Binder b(st);
  b.text(end_time).text(std::string(reason_name(result.reason)));
  if (result.winner.empty()) b.null();
  else b.text(result.winner);
  if (result.reason == ResultReason::Scenario) b.text(result.detail);  // what the scenario says happened
  else b.null();
  b.integer(game);
  if (Status s = step_done(st, "recording the result"); !s) return s;
  if (sqlite3_changes(db_) != 1) return Error{"game " + std::to_string(game) + " is unknown or already finished"};
  return {};
}

// One transaction around a group of row writes.
#define HEXDICE_IN_TXN(body)                  \
  do {                                        \
    if (options_.read_only)                   \
      return Error{"the database " + path_ + " was opened read-only"}; \
    Txn t(*this);                             \
    if (!t.begun()) return t.begun();         \
    if (Status s_ = (body); !s_) return s_;   \
    return t.commit();                        \
  } while (0)

Result<std::int64_t> RecordDb::insert_game(const GameRecord& record) {
  std::int64_t id = 0;
  Status s = [&]() -> Status { HEXDICE_IN_TXN(insert_game_rows(record, id)); }();
  if (!s) return Error{s.error()};
  return id;
}

Status RecordDb::insert_setup_event(std::int64_t game, int seq, const SetupEvent& e) {
  HEXDICE_IN_TXN(insert_setup_event_rows(game, seq, e));
}
Status RecordDb::insert_action(std::int64_t game, int seq, int ply, const std::string& player, const Json& action,
                               const Json& outcome, const Json& position_after) {
  HEXDICE_IN_TXN(insert_action_rows(game, seq, ply, player, action, outcome, position_after));
}
Status RecordDb::insert_takeback(std::int64_t game, int seq, int ply) { HEXDICE_IN_TXN(insert_takeback_rows(game, seq, ply)); }
Status RecordDb::insert_annotation(std::int64_t game, int seq, const std::string& text) {
  HEXDICE_IN_TXN(insert_annotation_rows(game, seq, text));
}
Status RecordDb::set_result(std::int64_t game, const GameResult& result, const std::string& end_time) {
  HEXDICE_IN_TXN(set_result_rows(game, result, end_time));
}
Status RecordDb::insert_scenario_step(std::int64_t game, int seq, const RecordEntry& step, const Position& before,
                                      const Position& after) {
  HEXDICE_IN_TXN(insert_scenario_step_rows(game, seq, step, before, after));
}

// ---- Reads -----------------------------------------------------------------------------

Result<std::vector<GameSummary>> RecordDb::list_games() {
  HEXDICE_PREPARE(st,
                  "SELECT g.id, g.event, g.players, g.started_at, g.ended_at, g.result_reason, g.result_winner, "
                  "(SELECT count(*) FROM actions a WHERE a.game_id = g.id), g.ruleset, g.termination, " +
                      std::string(version_ >= 4 ? "g.solo" : "g.event LIKE 'solo: %'") + " FROM games g ORDER BY g.id");
  Binder b(st);
  std::vector<GameSummary> out;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    GameSummary g;
    g.id = sqlite3_column_int64(st, 0);
    g.event = col_text(st, 1);
    const Json players = Json::parse(col_text(st, 2), nullptr, false);
    if (players.is_array())
      for (const auto& p : players) {
        if (!g.players.empty()) g.players += " vs ";
        g.players += p.value("id", "?");
        if (p.contains("name")) g.players += " (" + p.value("name", "") + ")";
      }
    g.started_at = col_text(st, 3);
    g.ended_at = col_text(st, 4);
    if (!col_null(st, 5)) g.result.reason = reason_from_name(col_text(st, 5)).value_or(ResultReason::None);
    g.result.winner = col_text(st, 6);
    g.actions = sqlite3_column_int(st, 7);
    g.ruleset = col_text(st, 8);
    g.ended = !col_null(st, 4);
    g.termination = col_text(st, 9);
    if (g.result.reason == ResultReason::Scenario) g.result.detail = g.termination;
    g.solo = g.ruleset == "hexdice" && sqlite3_column_int(st, 10) != 0;
    out.push_back(std::move(g));
  }
  if (rc != SQLITE_DONE) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  return out;
}

Result<Position> RecordDb::position_at(std::int64_t game, int ply) {
  if (ply == 0) {
    auto rec = load_game(game);
    if (!rec) return Error{rec.error()};
    return rec->position_at(0);
  }
  // The current line's ply k is the latest action row with ply k, as long as
  // k <= actions - takebacks (the length of the current line).
  // In a solo game a scenario step after ply k (its ply column is k) changes that position.
  HEXDICE_PREPARE(st, version_ >= 4
                          ? "SELECT (SELECT count(*) FROM actions WHERE game_id = ?1) - "
                            "(SELECT count(*) FROM takebacks WHERE game_id = ?1), "
                            "(SELECT position FROM (SELECT seq, position FROM actions WHERE game_id = ?1 AND ply = ?2 "
                            "UNION ALL SELECT seq, position FROM scenario_steps WHERE game_id = ?1 AND ply = ?2) "
                            "ORDER BY seq DESC LIMIT 1)"
                          : "SELECT (SELECT count(*) FROM actions WHERE game_id = ?1) - "
                            "(SELECT count(*) FROM takebacks WHERE game_id = ?1), "
                            "(SELECT position FROM actions WHERE game_id = ?1 AND ply = ?2 ORDER BY seq DESC LIMIT 1)");
  Binder b(st);
  b.integer(game).integer(ply);
  if (sqlite3_step(st) != SQLITE_ROW) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  const int length = sqlite3_column_int(st, 0);
  if (ply < 0 || ply > length || col_null(st, 1))
    return Error{"game " + std::to_string(game) + " has no ply " + std::to_string(ply) + " (0.." + std::to_string(length) +
                 ")"};
  auto pos = parse_position(col_text(st, 1));
  if (!pos) return Error{path_ + ": game " + std::to_string(game) + " ply " + std::to_string(ply) + ": " + pos.error()};
  return pos;
}

Result<std::optional<std::int64_t>> RecordDb::unfinished_game() {
  HEXDICE_PREPARE(st,
                  "SELECT id FROM games WHERE result_reason IS NULL AND ruleset = 'hexdice' "
                  "AND event NOT LIKE 'solo: %' " + std::string(version_ >= 4 ? "AND solo = 0 " : "") +
                      "ORDER BY id DESC LIMIT 1");
  Binder b(st);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) return std::optional<std::int64_t>(sqlite3_column_int64(st, 0));
  if (rc == SQLITE_DONE) return std::optional<std::int64_t>();
  return Error{sqlite_error(sqlite3_extended_errcode(db_))};
}

Result<std::optional<std::int64_t>> RecordDb::unfinished_game(std::string_view ruleset) {
  if (ruleset == "hexdice") return unfinished_game();
  HEXDICE_PREPARE(st, "SELECT id FROM games WHERE ruleset = ? AND ended_at IS NULL ORDER BY id DESC LIMIT 1");
  Binder b(st);
  b.text(std::string(ruleset));
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) return std::optional<std::int64_t>(sqlite3_column_int64(st, 0));
  if (rc == SQLITE_DONE) return std::optional<std::int64_t>();
  return Error{sqlite_error(sqlite3_extended_errcode(db_))};
}

Result<std::string> RecordDb::game_ruleset(std::int64_t id) {
  HEXDICE_PREPARE(st, "SELECT ruleset FROM games WHERE id = ?");
  Binder b(st);
  b.integer(id);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) return col_text(st, 0);
  if (rc == SQLITE_DONE) return Error{"no game " + std::to_string(id) + " in " + path_};
  return Error{sqlite_error(sqlite3_extended_errcode(db_))};
}

Result<std::int64_t> RecordDb::insert_ruleset_game(const StoredGame& g) {
  if (g.ruleset.empty() || g.ruleset == "hexdice")
    return Error{"insert_ruleset_game: Hex Dice games are logged through GameRecord"};
  std::int64_t id = 0;
  auto rows = [&]() -> Status {
      HEXDICE_PREPARE(st,
                      "INSERT INTO games (ruleset, config, house_rules, players, event, site, start_position, "
                      "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
      const Json config{{"ruleset", g.ruleset}, {"variant", g.start.value("variant", Json(nullptr))}};
      Binder b(st);
      b.text(g.ruleset).text(config.dump()).text(g.start.value("house_rules", Json::object()).dump());
      b.text(g.players.dump()).text(g.event).text(g.site).text(g.start.dump()).text(g.started_at);
      if (Status s2 = step_done(st, "inserting the game"); !s2) return s2;
      id = sqlite3_last_insert_rowid(db_);
      return {};
  };
  Status s = [&]() -> Status { HEXDICE_IN_TXN(rows()); }();
  if (!s) return Error{s.error()};
  return id;
}

Status RecordDb::set_ruleset_result(std::int64_t game, const std::string& winner, const std::string& termination,
                                    const std::string& end_time) {
  auto rows = [&]() -> Status {
    HEXDICE_PREPARE(st,
                    "UPDATE games SET ended_at = ?, termination = ?, result_winner = ? "
                    "WHERE id = ? AND ended_at IS NULL AND ruleset <> 'hexdice'");
    Binder b(st);
    b.text(end_time).text(termination);
    if (winner.empty()) b.null();
    else b.text(winner);
    b.integer(game);
    if (Status s = step_done(st, "recording the result"); !s) return s;
    if (sqlite3_changes(db_) != 1)
      return Error{"game " + std::to_string(game) + " is unknown, a Hex Dice game or already finished"};
    return {};
  };
  HEXDICE_IN_TXN(rows());
}

Result<StoredGame> RecordDb::stored_game(std::int64_t id) {
  HEXDICE_PREPARE(st,
                  "SELECT ruleset, start_position, players, event, site, started_at, ended_at, result_winner, "
                  "termination FROM games WHERE id = ?");
  Binder b(st);
  b.integer(id);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_DONE) return Error{"no game " + std::to_string(id) + " in " + path_};
  if (rc != SQLITE_ROW) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  StoredGame g;
  g.id = id;
  g.ruleset = col_text(st, 0);
  g.start = col_null(st, 1) ? Json(nullptr) : Json::parse(col_text(st, 1), nullptr, false);
  g.players = Json::parse(col_text(st, 2), nullptr, false);
  g.event = col_text(st, 3);
  g.site = col_text(st, 4);
  g.started_at = col_text(st, 5);
  g.ended_at = col_text(st, 6);
  g.winner = col_text(st, 7);
  g.termination = col_text(st, 8);
  if (g.start.is_discarded() || g.players.is_discarded())
    return Error{path_ + ": game " + std::to_string(id) + ": malformed JSON in its row"};
  return g;
}

Result<std::vector<StoredEvent>> RecordDb::stored_events(std::int64_t id) {
  HEXDICE_PREPARE(ev,
                  "SELECT e.seq, e.kind, a.ply, a.player, a.action, a.outcome, a.position, t.ply, n.text FROM events e "
                  "LEFT JOIN actions a ON a.game_id = e.game_id AND a.seq = e.seq "
                  "LEFT JOIN takebacks t ON t.game_id = e.game_id AND t.seq = e.seq "
                  "LEFT JOIN annotations n ON n.game_id = e.game_id AND n.seq = e.seq "
                  "WHERE e.game_id = ? ORDER BY e.seq");
  Binder b(ev);
  b.integer(id);
  std::vector<StoredEvent> out;
  int rc;
  while ((rc = sqlite3_step(ev)) == SQLITE_ROW) {
    StoredEvent e;
    e.seq = sqlite3_column_int(ev, 0);
    e.kind = col_text(ev, 1);
    const std::string where = path_ + ": game " + std::to_string(id) + " event " + std::to_string(e.seq);
    if (e.kind == "action") {
      if (col_null(ev, 2)) return Error{where + " has no action row"};
      e.ply = sqlite3_column_int(ev, 2);
      e.player = col_text(ev, 3);
      e.action = Json::parse(col_text(ev, 4), nullptr, false);
      e.outcome = Json::parse(col_text(ev, 5), nullptr, false);
      e.position = Json::parse(col_text(ev, 6), nullptr, false);
      if (e.action.is_discarded() || e.outcome.is_discarded() || e.position.is_discarded())
        return Error{where + ": malformed JSON"};
    } else if (e.kind == "takeback") {
      if (col_null(ev, 7)) return Error{where + " has no takeback row"};
      e.ply = sqlite3_column_int(ev, 7);
    } else if (e.kind == "annotation") {
      e.text = col_text(ev, 8);
    }
    out.push_back(std::move(e));
  }
  if (rc != SQLITE_DONE) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  return out;
}

std::string result_line(const GameSummary& g) {
  if (g.ruleset == "hexdice" || g.ruleset.empty()) {
    const GameResult& r = g.result;
    if (!r.finished()) return "unfinished";
    if (r.reason == ResultReason::DrawAgreed) return "draw (agreed)";
    return (r.winner.empty() ? std::string("draw") : r.winner + " won") + " (" + termination_text(r) + ")";
  }
  if (!g.ended) return "unfinished";
  const std::string why = g.termination.empty() ? "" : " (" + g.termination + ")";
  return (g.result.winner.empty() ? "draw" : g.result.winner + " won") + why;
}

Result<GameRecord> RecordDb::load_game(std::int64_t id) {
  const std::string g = "game " + std::to_string(id);
  auto bad = [&](const std::string& m) { return Error{path_ + ": " + g + ": " + m}; };
  HEXDICE_PREPARE(st,
                  "SELECT config, players, event, site, start_position, started_at, ended_at, result_reason, "
                  "result_winner, ruleset, " + std::string(version_ >= 4 ? "solo, termination" : "0, NULL") +
                      " FROM games WHERE id = ?");
  Result<GameRecord> rec = Error{""};
  GameResult result;
  std::string ended;
  {
    Binder b(st);
    b.integer(id);
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return Error{"no " + g + " in " + path_};
    if (rc != SQLITE_ROW) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
    if (const std::string rs = col_text(st, 9); rs != "hexdice")
      return Error{g + " in " + path_ + " is a " + rs + " game, not Hex Dice (read it with companion/record/ruleset_game.h)"};
    auto config = setup_config_from_json(Json::parse(col_text(st, 0), nullptr, false));
    if (!config) return bad(config.error());
    RecordHeader h;
    const Json players = Json::parse(col_text(st, 1), nullptr, false);
    if (players.is_array())
      for (const auto& p : players) h.names.push_back(p.is_object() ? p.value("name", "") : "");
    h.event = col_text(st, 2);
    h.site = col_text(st, 3);
    h.start_time = col_text(st, 5);
    ended = col_text(st, 6);
    if (!col_null(st, 7)) {
      auto reason = reason_from_name(col_text(st, 7));
      if (!reason) return bad("unknown result reason \"" + col_text(st, 7) + "\"");
      result = GameResult{*reason, col_text(st, 8), *reason == ResultReason::Scenario ? col_text(st, 11) : ""};
    }
    if (!col_null(st, 4)) {
      auto pos = parse_position(col_text(st, 4));
      if (!pos) return bad(pos.error());
      rec = GameRecord::from_position(*pos, h, sqlite3_column_int(st, 10) ? RecordMode::Solo : RecordMode::Standard);
    } else {
      rec = GameRecord::with_setup(*config, h);
    }
    if (!rec) return bad(rec.error());
  }
  GameRecord& r = *rec;
  {
    HEXDICE_PREPARE(se, "SELECT seq, event FROM setup_events WHERE game_id = ? ORDER BY seq");
    Binder b(se);
    b.integer(id);
    int rc, expect = 0;
    while ((rc = sqlite3_step(se)) == SQLITE_ROW) {
      if (sqlite3_column_int(se, 0) != expect++) return bad("setup events are not numbered 0, 1, 2, ...");
      auto e = setup_event_from_json(Json::parse(col_text(se, 1), nullptr, false));
      if (!e) return bad(e.error());
      if (Status s = r.add_setup_event(*e); !s) return bad("setup event " + std::to_string(expect - 1) + ": " + s.error());
    }
    if (rc != SQLITE_DONE) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  }
  {
    HEXDICE_PREPARE(ev,
                    "SELECT e.seq, e.kind, a.ply, a.player, a.action, a.outcome, t.ply, n.text, " +
                        std::string(version_ >= 4 ? "s.ply, s.player, s.step, s.position" : "NULL, NULL, NULL, NULL") +
                        " FROM events e "
                        "LEFT JOIN actions a ON a.game_id = e.game_id AND a.seq = e.seq "
                        "LEFT JOIN takebacks t ON t.game_id = e.game_id AND t.seq = e.seq "
                        "LEFT JOIN annotations n ON n.game_id = e.game_id AND n.seq = e.seq " +
                        std::string(version_ >= 4 ? "LEFT JOIN scenario_steps s ON s.game_id = e.game_id AND s.seq = e.seq "
                                                  : "") +
                        "WHERE e.game_id = ? ORDER BY e.seq");
    Binder b(ev);
    b.integer(id);
    int rc, expect = 0;
    while ((rc = sqlite3_step(ev)) == SQLITE_ROW) {
      const int seq = sqlite3_column_int(ev, 0);
      const std::string where = "event " + std::to_string(seq);
      if (seq != expect++) return bad("events are not numbered 0, 1, 2, ... (" + where + ")");
      const std::string kind = col_text(ev, 1);
      if (kind == "action") {
        if (col_null(ev, 2)) return bad(where + " has no action row");
        const Position before = r.current();
        auto a = action_from_json(Json::parse(col_text(ev, 4), nullptr, false), before);
        if (!a) return bad(where + ": " + a.error());
        auto out = r.add_action(*a);
        if (!out) return bad(where + ": " + out.error());
        if (sqlite3_column_int(ev, 2) != r.ply()) return bad(where + ": stored ply does not match the replay");
        // Every field stored must match the replay (fields a later version adds are not
        // in old rows, so old games still load).
        const Json stored = Json::parse(col_text(ev, 5), nullptr, false);
        const Json fresh = to_json(*out, before);
        bool same = stored.is_object();
        if (same)
          for (const auto& [key, value] : stored.items()) same = same && fresh.contains(key) && fresh[key] == value;
        if (!same) return bad(where + ": the stored outcome differs from the replay");
      } else if (kind == "takeback") {
        if (col_null(ev, 6)) return bad(where + " has no takeback row");
        if (sqlite3_column_int(ev, 6) != r.ply()) return bad(where + ": takeback of a ply that is not the last");
        if (Status s = r.takeback(); !s) return bad(where + ": " + s.error());
      } else if (kind == "annotation") {
        if (col_null(ev, 7)) return bad(where + " has no annotation row");
        if (Status s = r.annotate(col_text(ev, 7)); !s) return bad(where + ": " + s.error());
      } else if (auto k = entry_kind_from_name(kind); k && is_scenario_step(*k)) {
        // A solo game's scenario step: replayed by the record (which refuses it in a
        // two-player game), and the stored position after it must be the replay's.
        if (col_null(ev, 10)) return bad(where + " has no scenario step row");
        const Position& before = r.current();
        int player = -1;
        if (!col_null(ev, 9)) {
          player = before.player_index(col_text(ev, 9));
          if (player < 0) return bad(where + ": unknown player \"" + col_text(ev, 9) + "\"");
        }
        auto step = scenario_step_from_json(Json::parse(col_text(ev, 10), nullptr, false), player, before.board());
        if (!step) return bad(where + ": " + step.error());
        if (step->kind != *k) return bad(where + ": the step row is a " + std::string(entry_kind_name(step->kind)) + ", the event a " + kind);
        if (Status s = r.add_scenario_step(*step); !s) return bad(where + ": " + s.error());
        if (sqlite3_column_int(ev, 8) != r.ply()) return bad(where + ": stored ply does not match the replay");
        auto stored = parse_position(col_text(ev, 11));
        if (!stored || !(*stored == r.current())) return bad(where + ": the stored position differs from the replay");
      } else {
        return bad(where + " has unknown kind \"" + kind + "\"");
      }
    }
    if (rc != SQLITE_DONE) return Error{sqlite_error(sqlite3_extended_errcode(db_))};
  }
  if (result.finished())
    if (Status s = r.finish(result, ended); !s) return bad(s.error());
  return rec;
}

// ---- RecordedGame -------------------------------------------------------------------------

Result<RecordedGame> RecordedGame::create(RecordDb& db, const GameRecord& fresh) {
  auto id = db.insert_game(fresh);
  if (!id) return Error{id.error()};
  return RecordedGame(db, *id, fresh);
}

Result<RecordedGame> RecordedGame::resume(RecordDb& db, std::int64_t id) {
  auto rec = db.load_game(id);
  if (!rec) return Error{rec.error()};
  return RecordedGame(db, id, std::move(rec).value());
}

Result<std::optional<RecordedGame>> RecordedGame::resume_unfinished(RecordDb& db) {
  auto id = db.unfinished_game();
  if (!id) return Error{id.error()};
  if (!id->has_value()) return std::optional<RecordedGame>();
  auto g = resume(db, **id);
  if (!g) return Error{g.error()};
  return std::optional<RecordedGame>(std::move(g).value());
}

Status RecordedGame::setup(const SetupEvent& e) {
  GameRecord next = rec_;
  if (Status s = next.add_setup_event(e); !s) return s;
  if (Status s = db_->insert_setup_event(id_, static_cast<int>(rec_.setup().events().size()), e); !s) return s;
  rec_ = std::move(next);
  return {};
}

Result<Outcome> RecordedGame::act(const Action& a) {
  if (rec_.finished() || !rec_.in_play()) return rec_.add_action(a);  // the record names the reason
  const Position& before = rec_.current();
  auto applied = apply(before, a);
  if (!applied) return Error{applied.error()};
  if (Status s = db_->insert_action(id_, static_cast<int>(rec_.entries().size()), rec_.ply() + 1,
                                    before.player(before.to_move()).id, to_json(a, before.board()),
                                    to_json(applied->outcome, before), to_json(applied->position));
      !s)
    return Error{s.error()};
  auto out = rec_.add_action(a);
  HEXDICE_CHECK(out.ok());
  return out;
}

Status RecordedGame::takeback() {
  GameRecord next = rec_;
  if (Status s = next.takeback(); !s) return s;
  if (Status s = db_->insert_takeback(id_, static_cast<int>(rec_.entries().size()), rec_.ply()); !s) return s;
  rec_ = std::move(next);
  return {};
}

Status RecordedGame::annotate(std::string text) {
  if (text.empty()) return rec_.annotate(text);
  if (Status s = db_->insert_annotation(id_, static_cast<int>(rec_.entries().size()), text); !s) return s;
  return rec_.annotate(std::move(text));
}

Status RecordedGame::step(const RecordEntry& step) {
  GameRecord next = rec_;
  if (Status s = next.add_scenario_step(step); !s) return s;
  if (Status s = db_->insert_scenario_step(id_, static_cast<int>(rec_.entries().size()), next.entries().back(),
                                           rec_.current(), next.current());
      !s)
    return s;
  rec_ = std::move(next);
  return {};
}

Status RecordedGame::finish(const GameResult& result, const std::string& end_time) {
  GameRecord next = rec_;
  if (Status s = next.finish(result, end_time); !s) return s;
  if (Status s = db_->set_result(id_, result, end_time); !s) return s;
  rec_ = std::move(next);
  return {};
}

int record_steps(const GameRecord& r) {
  const int setup = r.has_setup() ? static_cast<int>(r.setup().events().size()) : 0;
  return setup + static_cast<int>(r.entries().size()) + (r.finished() ? 1 : 0);
}

Status apply_step(RecordedGame& game, const GameRecord& src, int step) {
  const int setup = src.has_setup() ? static_cast<int>(src.setup().events().size()) : 0;
  const int entries = static_cast<int>(src.entries().size());
  if (step < 0 || step >= record_steps(src)) return Error{"step " + std::to_string(step) + " is outside the record"};
  if (step < setup) return game.setup(src.setup().events()[static_cast<std::size_t>(step)]);
  if (step < setup + entries) {
    const RecordEntry& e = src.entries()[static_cast<std::size_t>(step - setup)];
    switch (e.kind) {
      case EntryKind::Action: {
        auto out = game.act(e.action);
        if (!out) return Error{out.error()};
        if (*out != e.outcome) return Error{"step " + std::to_string(step) + ": the outcome differs from the source"};
        return {};
      }
      case EntryKind::Takeback: return game.takeback();
      case EntryKind::Annotation: return game.annotate(e.text);
      case EntryKind::Pass:
      case EntryKind::Again:
      case EntryKind::Place:
      case EntryKind::Rule: return game.step(e);
    }
  }
  return game.finish(src.header().result, src.header().end_time);
}

}  // namespace hexdice::record
