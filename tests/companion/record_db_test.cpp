// The SQLite game record: round trips, one transaction per action, crash safety (a
// SIGKILLed writer), injected failures, and bad databases (locked, read-only, corrupt,
// newer schema).
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "companion/record/record_db.h"
#include "companion/record/sample_game.h"

namespace hexdice::record {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Temporary directories, removed when the test process ends normally (a forked
// child leaves through _exit and removes nothing).
struct TempDirs {
  std::vector<std::string> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
  }
};
TempDirs g_temp_dirs;

// A fresh path in a fresh directory (so -wal / -shm files are ours alone).
std::string fresh_path(const std::string& name) {
  static std::atomic<int> counter{0};
  std::string dir = ::testing::TempDir() + "hexdice_record_" + std::to_string(::getpid()) + "_" +
                    std::to_string(counter++);
  ::mkdir(dir.c_str(), 0755);
  g_temp_dirs.dirs.push_back(dir);
  const std::string p = dir + "/" + name;
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((p + suffix).c_str());
  return p;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
bool exists(const std::string& path) {
  struct stat sb {};
  return ::stat(path.c_str(), &sb) == 0;
}

std::unique_ptr<RecordDb> open_ok(const std::string& path, DbOptions o = {}) {
  auto db = RecordDb::open(path, o);
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error());
  return db.ok() ? std::move(db).value() : nullptr;
}

// Raw SQL on a second connection: the first column of the first row as text.
std::string raw_query(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
  sqlite3_stmt* st = nullptr;
  std::string out = "<error>";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      const unsigned char* t = sqlite3_column_text(st, 0);
      out = t ? reinterpret_cast<const char*>(t) : "NULL";
    } else if (rc == SQLITE_DONE) {
      out = "";
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

SampleOptions sample(std::uint64_t seed, int players = 2) {
  SampleOptions o;
  o.seed = seed;
  o.players = players;
  o.max_plies = 120;
  return o;
}

GameRecord fresh_like(const GameRecord& src) {
  auto r = GameRecord::with_setup(src.config(), src.header());
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

// Logs src step by step (one transaction per step) into a new game; returns its id.
std::int64_t log_all(RecordDb& db, const GameRecord& src) {
  auto g = RecordedGame::create(db, fresh_like(src));
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error());
  for (int k = 0; k < record_steps(src); ++k) {
    Status s = apply_step(*g, src, k);
    EXPECT_TRUE(s.ok()) << "step " << k << ": " << (s.ok() ? "" : s.error());
  }
  return g->id();
}

// `got` is `src` cut after some number of steps.
void expect_prefix(const GameRecord& got, const GameRecord& src) {
  const auto& ge = got.setup().events();
  const auto& se = src.setup().events();
  ASSERT_LE(ge.size(), se.size());
  for (std::size_t i = 0; i < ge.size(); ++i) EXPECT_EQ(ge[i], se[i]) << "setup event " << i;
  ASSERT_LE(got.entries().size(), src.entries().size());
  for (std::size_t i = 0; i < got.entries().size(); ++i) EXPECT_EQ(got.entries()[i], src.entries()[i]) << "entry " << i;
  if (!got.entries().empty()) EXPECT_EQ(ge.size(), se.size());
}

TEST(RecordDb, FreshDatabaseIsWalWithCurrentSchemaAndForeignKeys) {
  const std::string path = fresh_path("g.db");
  auto db = open_ok(path);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->schema_version(), RecordDb::kSchemaVersion);
  EXPECT_EQ(raw_query(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(raw_query(path, "PRAGMA user_version"), std::to_string(RecordDb::kSchemaVersion));
  // Foreign keys are on: an action of a game that does not exist is refused.
  Status s = db->insert_action(999, 0, 1, "red", Json::object(), Json::object(), Json::object());
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "FOREIGN KEY")) << s.error();
  EXPECT_EQ(raw_query(path, "SELECT count(*) FROM events"), "0");
}

TEST(RecordDb, GamesRoundTripStepByStepAndInOneGo) {
  const std::string path = fresh_path("g.db");
  auto db = open_ok(path);
  ASSERT_TRUE(db);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const GameRecord src = sample_game(sample(seed, seed == 3 ? 3 : 2));
    const std::int64_t a = log_all(*db, src);
    auto loaded = db->load_game(a);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(*loaded, src);
    EXPECT_EQ(to_text(*loaded), to_text(src));
    auto b = db->insert_game(src);
    ASSERT_TRUE(b.ok()) << b.error();
    auto loaded_b = db->load_game(*b);
    ASSERT_TRUE(loaded_b.ok()) << loaded_b.error();
    EXPECT_EQ(*loaded_b, src);
  }
  auto games = db->list_games();
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 6u);
  EXPECT_TRUE((*games)[0].result.finished());
  EXPECT_GT((*games)[0].actions, 0);
  // A game started from a given position (no setup) round-trips too.
  GameRecord scenario = std::move(GameRecord::from_position(*sample_game(sample(4)).position_at(10))).value();
  ASSERT_TRUE(scenario.annotate("from a scenario").ok());
  auto c = db->insert_game(scenario);
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(*db->load_game(*c), scenario);
}

TEST(RecordDb, StoredPositionsJumpToAnyPlyOfTheCurrentLine) {
  const std::string path = fresh_path("g.db");
  auto db = open_ok(path);
  SampleOptions o = sample(12);
  const GameRecord src = sample_game(o);
  const int takebacks = static_cast<int>(std::count_if(src.entries().begin(), src.entries().end(),
                                                       [](const RecordEntry& e) { return e.kind == EntryKind::Takeback; }));
  ASSERT_GT(takebacks, 0) << "pick a seed whose sample game has takebacks";
  const std::int64_t id = log_all(*db, src);
  for (int k = 0; k <= src.ply(); ++k) {
    auto p = db->position_at(id, k);
    ASSERT_TRUE(p.ok()) << p.error();
    EXPECT_EQ(*p, *src.position_at(k)) << "ply " << k;
  }
  EXPECT_FALSE(db->position_at(id, src.ply() + 1).ok());
  EXPECT_FALSE(db->position_at(id, -1).ok());
  EXPECT_FALSE(db->position_at(id + 1, 1).ok());
}

TEST(RecordDb, EachActionIsCommittedBeforeTheNextAndTheGameResumes) {
  const std::string path = fresh_path("g.db");
  const GameRecord src = sample_game(sample(5));
  std::int64_t id = 0;
  {
    auto db = open_ok(path);
    auto g = RecordedGame::create(*db, fresh_like(src));
    ASSERT_TRUE(g.ok());
    id = g->id();
    const int total = record_steps(src);
    for (int k = 0; k < total - 1; ++k) {  // all but the result
      ASSERT_TRUE(apply_step(*g, src, k).ok());
      // Another connection sees every action as soon as act() returns.
      const int actions = static_cast<int>(std::count_if(g->record().entries().begin(), g->record().entries().end(),
                                                         [](const RecordEntry& e) { return e.kind == EntryKind::Action; }));
      if (k % 25 == 0) EXPECT_EQ(raw_query(path, "SELECT count(*) FROM actions"), std::to_string(actions));
    }
    auto open_game = db->unfinished_game();
    ASSERT_TRUE(open_game.ok());
    EXPECT_EQ(open_game->value_or(-1), id);
  }
  auto db = open_ok(path);
  auto resumed = RecordedGame::resume_unfinished(*db);
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  ASSERT_TRUE(resumed->has_value());
  RecordedGame* g = &**resumed;
  EXPECT_EQ(g->id(), id);
  EXPECT_EQ(g->record().current(), src.current());
  ASSERT_TRUE(apply_step(*g, src, record_steps(src) - 1).ok());
  EXPECT_FALSE(db->unfinished_game()->has_value());
  EXPECT_FALSE(RecordedGame::resume_unfinished(*db)->has_value());
  EXPECT_EQ(*db->load_game(id), src);
}

TEST(RecordDb, TheRefereeNeverResumesASoloGame) {
  const std::string path = fresh_path("solo_skip.db");
  const GameRecord src = sample_game(sample(5));
  auto db = open_ok(path);
  auto two_player = RecordedGame::create(*db, fresh_like(src));
  ASSERT_TRUE(two_player.ok());
  GameRecord solo = fresh_like(src);
  solo.set_event("solo: The Crossing");
  auto solo_game = RecordedGame::create(*db, solo);
  ASSERT_TRUE(solo_game.ok());
  ASSERT_GT(solo_game->id(), two_player->id());
  // The newest unfinished game is the solo one; the referee must take the two-player game.
  auto open_game = db->unfinished_game();
  ASSERT_TRUE(open_game.ok());
  EXPECT_EQ(open_game->value_or(-1), two_player->id());
  auto only_solo = open_ok(fresh_path("solo_only2.db"));
  ASSERT_TRUE(RecordedGame::create(*only_solo, solo).ok());
  EXPECT_FALSE(only_solo->unfinished_game()->has_value()) << "a database holding only a solo game has nothing to referee";
}

TEST(RecordDb, InjectedFailureBetweenStatementsLeavesNothingPartial) {
  const std::string path = fresh_path("g.db");
  auto db = open_ok(path);
  const GameRecord src = sample_game(sample(6));
  auto g = RecordedGame::create(*db, fresh_like(src));
  ASSERT_TRUE(g.ok());
  const int setup = static_cast<int>(src.setup().events().size());
  for (int k = 0; k < setup + 5; ++k) ASSERT_TRUE(apply_step(*g, src, k).ok());
  for (int k = setup + 5; k < setup + 20; ++k) {
    const GameRecord before = g->record();
    const std::string events = raw_query(path, "SELECT count(*) FROM events");
    // Statement 0 is the events row, statement 1 the action/takeback/annotation row.
    for (int fail_at : {0, 1}) {
      db->inject_failure_after(fail_at);
      Status s = apply_step(*g, src, k);
      ASSERT_FALSE(s.ok());
      EXPECT_TRUE(contains(s.error(), "injected failure")) << s.error();
      EXPECT_EQ(g->record(), before);
      EXPECT_EQ(raw_query(path, "SELECT count(*) FROM events"), events);
      EXPECT_EQ(raw_query(path, "SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT 1 FROM actions a WHERE "
                                "a.game_id = e.game_id AND a.seq = e.seq) AND NOT EXISTS (SELECT 1 FROM takebacks t "
                                "WHERE t.game_id = e.game_id AND t.seq = e.seq) AND NOT EXISTS (SELECT 1 FROM "
                                "annotations n WHERE n.game_id = e.game_id AND n.seq = e.seq)"),
                "0");
    }
    ASSERT_TRUE(apply_step(*g, src, k).ok());
  }
  // A whole-game import that fails half-way leaves no game behind.
  const std::string games = raw_query(path, "SELECT count(*) FROM games");
  db->inject_failure_after(40);
  auto imported = db->insert_game(src);
  ASSERT_FALSE(imported.ok());
  EXPECT_EQ(raw_query(path, "SELECT count(*) FROM games"), games);
  EXPECT_EQ(*db->load_game(g->id()), g->record());
}

TEST(RecordDb, ALockedDatabaseGivesAClearErrorAndWritesNothing) {
  const std::string path = fresh_path("g.db");
  DbOptions o;
  o.busy_timeout_ms = 50;
  auto db = open_ok(path, o);
  const GameRecord src = sample_game(sample(7));
  auto g = RecordedGame::create(*db, fresh_like(src));
  ASSERT_TRUE(g.ok());
  const int setup = static_cast<int>(src.setup().events().size());
  for (int k = 0; k < setup + 3; ++k) ASSERT_TRUE(apply_step(*g, src, k).ok());

  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);  // holds the write lock
  const GameRecord before = g->record();
  Status s = apply_step(*g, src, setup + 3);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "is locked by another writer")) << s.error();
  EXPECT_EQ(g->record(), before);
  ASSERT_EQ(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  ASSERT_TRUE(apply_step(*g, src, setup + 3).ok());
  EXPECT_EQ(*db->load_game(g->id()), g->record());
}

TEST(RecordDb, TwoWritersOnOneGameCannotInterleave) {
  const std::string path = fresh_path("g.db");
  auto db1 = open_ok(path);
  auto db2 = open_ok(path);
  const GameRecord src = sample_game(sample(13));
  auto g1 = RecordedGame::create(*db1, fresh_like(src));
  ASSERT_TRUE(g1.ok());
  auto g2 = RecordedGame::resume(*db2, g1->id());
  ASSERT_TRUE(g2.ok());
  ASSERT_TRUE(apply_step(*g1, src, 0).ok());
  const GameRecord before = g2->record();
  Status s = apply_step(*g2, src, 0);  // g2 has not seen g1's event
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "logged to by another writer")) << s.error();
  EXPECT_EQ(g2->record(), before);
  EXPECT_EQ(db1->load_game(g1->id())->setup().events().size(), 1u);
}

TEST(RecordDb, AReadOnlyFileGivesAClearErrorAndStaysUnchanged) {
  const std::string path = fresh_path("g.db");
  {
    auto db = open_ok(path);
    log_all(*db, sample_game(sample(8)));
  }  // closed: WAL checkpointed into the file
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  const std::string dir = path.substr(0, path.rfind('/'));
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  const std::string bytes = slurp(path);
  // root ignores file modes: check as an unprivileged user in a child process.
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) _exit(10);
    auto db = RecordDb::open(path);
    if (db.ok()) _exit(11);
    if (!contains(db.error(), "read-only")) _exit(12);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: cannot drop privileges, 11: opened for writing, 12: unclear error";
  EXPECT_EQ(slurp(path), bytes);
  ::chmod(path.c_str(), 0644);
}

TEST(RecordDb, ACorruptFileGivesAClearErrorAndIsNotTouched) {
  std::mt19937 rng(1);
  for (std::size_t size : {64u, 4096u, 100000u}) {
    const std::string path = fresh_path("junk.db");
    {
      std::ofstream f(path, std::ios::binary);
      for (std::size_t i = 0; i < size; ++i) f.put(static_cast<char>(rng()));
    }
    const std::string bytes = slurp(path);
    for (bool read_only : {false, true}) {
      DbOptions o;
      o.read_only = read_only;
      auto db = RecordDb::open(path, o);
      ASSERT_FALSE(db.ok()) << size;
      EXPECT_TRUE(contains(db.error(), "is not a hexdice game database")) << db.error();
    }
    EXPECT_EQ(slurp(path), bytes);
    EXPECT_FALSE(exists(path + "-wal"));
  }
}

TEST(RecordDb, ANewerSchemaIsRefusedAndAnOlderOneMigrated) {
  const std::string path = fresh_path("g.db");
  { open_ok(path); }
  ASSERT_EQ(raw_query(path, "PRAGMA user_version = 99"), "");
  const std::string bytes = slurp(path);
  auto db = RecordDb::open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_TRUE(contains(db.error(), "schema version 99, newer than this hexdice understands")) << db.error();
  EXPECT_EQ(slurp(path), bytes);
  EXPECT_EQ(raw_query(path, "PRAGMA user_version"), "99");

  // Back to version 1 (before the index): opening migrates it to the current version.
  ASSERT_EQ(raw_query(path, "PRAGMA user_version = 1"), "");
  ASSERT_EQ(raw_query(path, "DROP INDEX games_by_result"), "");
  {
    auto db1 = open_ok(path);
    ASSERT_TRUE(db1);
    EXPECT_EQ(db1->schema_version(), RecordDb::kSchemaVersion);
  }
  EXPECT_EQ(raw_query(path, "SELECT count(*) FROM sqlite_master WHERE name = 'games_by_result'"), "1");
  // Not ours: an SQLite file with a table called games already.
  const std::string other = fresh_path("other.db");
  sqlite3* o = nullptr;
  sqlite3_open(other.c_str(), &o);
  sqlite3_exec(o, "CREATE TABLE games (x)", nullptr, nullptr, nullptr);
  sqlite3_close(o);
  auto db2 = RecordDb::open(other);
  ASSERT_FALSE(db2.ok());
  EXPECT_TRUE(contains(db2.error(), "cannot create the game tables")) << db2.error();
  EXPECT_EQ(raw_query(other, "PRAGMA user_version"), "0");
}

TEST(RecordDb, ATamperedOutcomeIsDetectedOnLoad) {
  const std::string path = fresh_path("g.db");
  auto db = open_ok(path);
  const std::int64_t id = log_all(*db, sample_game(sample(9)));
  ASSERT_EQ(raw_query(path, "UPDATE actions SET outcome = '{\"combat\":null,\"removed\":[[0,0]],\"winner\":null}' "
                            "WHERE seq = (SELECT min(seq) FROM actions)"),
            "");
  auto r = db->load_game(id);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error(), "stored outcome differs from the replay")) << r.error();
}

// A writer logging a game is SIGKILLed at random moments; every action it had committed
// (and reported through a pipe after the commit) must be there, and the game resumes.
TEST(RecordDbCrash, AKilledWriterLosesNoCommittedActionAndTheGameResumes) {
  const std::string path = fresh_path("g.db");
  const GameRecord src = sample_game(sample(10));
  const int total = record_steps(src);
  std::int64_t id = 0;
  {
    auto db = open_ok(path);
    auto g = RecordedGame::create(*db, fresh_like(src));
    ASSERT_TRUE(g.ok());
    id = g->id();
  }
  std::mt19937 rng(20261129);
  int have = 0, kills = 0;
  for (int round = 0; round < 12 && have < total; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      auto db = RecordDb::open(path);
      if (!db) _exit(2);
      auto g = RecordedGame::resume(**db, id);
      if (!g) _exit(3);
      for (int k = record_steps(g->record()); k < total; ++k) {
        if (!apply_step(*g, src, k)) _exit(4);
        const std::int32_t n = k + 1;
        if (::write(fds[1], &n, sizeof n) != sizeof n) _exit(5);
      }
      _exit(0);
    }
    ::close(fds[1]);
    ::usleep(static_cast<useconds_t>(2000 + rng() % 60000));
    kills += ::kill(pid, SIGKILL) == 0;
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status)) ASSERT_EQ(WEXITSTATUS(status), 0) << "the writer failed by itself";
    std::int32_t reported = -1, n = 0;
    while (::read(fds[0], &n, sizeof n) == sizeof n) reported = n;
    ::close(fds[0]);

    auto db = RecordDb::open(path);
    ASSERT_TRUE(db.ok()) << db.error();
    auto loaded = (*db)->load_game(id);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    const int now = record_steps(*loaded);
    // Every reported step was committed; at most one more committed but not yet reported.
    EXPECT_GE(now, std::max(have, static_cast<int>(reported)));
    if (reported >= 0) EXPECT_LE(now, reported + 1);
    expect_prefix(*loaded, src);
    have = now;
  }
  EXPECT_GE(kills, 3);
  auto db = open_ok(path);
  auto g = RecordedGame::resume(*db, id);
  ASSERT_TRUE(g.ok()) << g.error();
  for (int k = record_steps(g->record()); k < total; ++k) ASSERT_TRUE(apply_step(*g, src, k).ok());
  EXPECT_EQ(*db->load_game(id), src);
}

}  // namespace
}  // namespace hexdice::record
