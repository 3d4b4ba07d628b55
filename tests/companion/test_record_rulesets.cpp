// Games of every ruleset in the SQLite record (issue 7): the RulesetGame API, the schema
// 2 -> 3 migration, and `hexdice record play|import` / `hexdice history` for Wizard Hex and
// Hexa Decimal beside Hex Dice.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "companion/record/record_db.h"
#include "companion/record/ruleset_game.h"
#include "companion/record/sample_game.h"
#include "core/ruleset.h"
#include "tests/companion/cli_runner.h"

namespace hexdice {
namespace {

namespace fs = std::filesystem;
using record::RecordDb;
using record::RulesetGame;
using testing::run_hexdice;

fs::path fresh_dir() {
  static int n = 0;
  const fs::path d = fs::temp_directory_path() / ("hexdice_rsrec_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

Json read_json(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return Json::parse(ss.str());
}

Json start_of(const std::string& file) {
  return read_json(fs::path(HEXDICE_SOURCE_DIR) / "data" / "positions" / (file + ".json"));
}

std::string raw_query(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return "open failed";
  std::string out;
  char* err = nullptr;
  sqlite3_exec(
      db, sql.c_str(),
      [](void* o, int n, char** v, char**) {
        auto* s = static_cast<std::string*>(o);
        for (int i = 0; i < n; ++i) *s += (i ? "|" : "") + std::string(v[i] ? v[i] : "NULL");
        *s += "\n";
        return 0;
      },
      &out, &err);
  if (err) {
    out += std::string("error: ") + err;
    sqlite3_free(err);
  }
  sqlite3_close(db);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// The k-th legal action (k taken modulo their number), as the core lists them.
Json pick(const Json& pos, std::size_t k) {
  const Ruleset* rs = *ruleset_for(pos);
  const Json acts = *rs->legal_actions(pos);
  return acts[k % acts.size()];
}

// A line of play of `n` plies from `start`, with the positions after each.
struct Line {
  std::vector<Json> actions, positions;
};
Line play_line(const Json& start, int n, std::size_t seed) {
  const Ruleset* rs = *ruleset_for(start);
  Line l;
  Json pos = *rs->normalize(start);
  for (int i = 0; i < n && !*rs->game_over(pos); ++i) {
    const Json a = pick(pos, seed * 7 + static_cast<std::size_t>(i) * 13);
    l.actions.push_back(a);
    pos = rs->apply(pos, a)->position;
    l.positions.push_back(pos);
  }
  return l;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

TEST(RulesetGame, EachActionIsCheckedCommittedAndResumedAfterReopening) {
  const fs::path dir = fresh_dir();
  const std::string path = (dir / "games.db").string();
  const Json start = start_of("hexadecimal_standard");
  const Line line = play_line(start, 5, 1);
  ASSERT_EQ(line.actions.size(), 5u);
  std::int64_t id = 0;
  {
    auto db = RecordDb::open(path);
    ASSERT_TRUE(db.ok()) << db.error();
    auto g = RulesetGame::create(**db, "hexadecimal", start, {{"white", "Ann"}, {"black", ""}});
    ASSERT_TRUE(g.ok()) << g.error();
    id = g->id();
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(g->act(line.actions[static_cast<std::size_t>(i)]).ok());
      // Committed before the next: a second reader sees it at once.
      EXPECT_EQ(raw_query(path, "SELECT count(*) FROM actions WHERE game_id = " + std::to_string(id)), std::to_string(i + 1));
    }
    // An illegal action (a legal one of the other side: not this player's turn) is refused
    // with the rule, and nothing is written.
    const Json wrong = pick(line.positions[2], 0);
    auto bad = g->act(wrong);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("illegal action"), std::string::npos) << bad.error();
    EXPECT_EQ(raw_query(path, "SELECT count(*) FROM events WHERE game_id = " + std::to_string(id)), "4");
    ASSERT_TRUE(g->takeback().ok());
    EXPECT_EQ(g->record().ply(), 3);
    EXPECT_EQ(g->record().current(), line.positions[2]);
  }
  // Reopened: the latest unfinished Hexa Decimal game, at the same position, goes on.
  auto db = RecordDb::open(path);
  ASSERT_TRUE(db.ok());
  auto none = RulesetGame::resume_unfinished(**db, "wizardhex");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE((*db)->unfinished_game()->has_value()) << "Hex Dice's resume must not pick another ruleset's game";
  auto g = RulesetGame::resume_unfinished(**db, "hexadecimal");
  ASSERT_TRUE(g.ok()) << g.error();
  ASSERT_TRUE(g->has_value());
  RulesetGame& r = **g;
  EXPECT_EQ(r.id(), id);
  EXPECT_EQ(r.record().ply(), 3);
  EXPECT_EQ(r.record().current(), line.positions[2]);
  EXPECT_EQ(r.record().players[0].name, "Ann");
  ASSERT_TRUE(r.act(line.actions[3]).ok());
  ASSERT_TRUE(r.act(line.actions[4]).ok());
  EXPECT_EQ(r.record().current(), line.positions[4]);
  ASSERT_TRUE(r.finish("black", "resignation").ok());
  EXPECT_FALSE(r.act(pick(line.positions[4], 0)).ok()) << "a finished game takes no more moves";
  auto list = (*db)->list_games();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].ruleset, "hexadecimal");
  EXPECT_EQ(record::result_line((*list)[0]), "black won (resignation)");
  EXPECT_EQ((*list)[0].actions, 6);  // takebacks are not subtracted
  // Hex Dice's reader refuses it by name instead of misreading it.
  auto hd = (*db)->load_game(id);
  ASSERT_FALSE(hd.ok());
  EXPECT_NE(hd.error().find("hexadecimal game"), std::string::npos) << hd.error();
}

TEST(RulesetGame, AWizardHexGamePlayedToTheEndIsFinishedByTheRules) {
  const fs::path dir = fresh_dir();
  auto db = RecordDb::open((dir / "g.db").string(), {false, record::Durability::Normal, 2000});
  ASSERT_TRUE(db.ok());
  const Ruleset& rs = *find_ruleset("wizardhex");
  auto g = RulesetGame::create(**db, "wizardhex", *rs.start_position("across"));
  ASSERT_TRUE(g.ok()) << g.error();
  for (int i = 0; i < 200 && !g->finished(); ++i) ASSERT_TRUE(g->act(pick(g->record().current(), static_cast<std::size_t>(i) * 5)).ok());
  ASSERT_TRUE(g->finished());
  const Json end = g->record().current();
  EXPECT_TRUE(*rs.game_over(end));
  const Json w = *rs.winner(end);
  EXPECT_EQ(g->record().result.winner, w.is_null() ? "" : w.get<std::string>());
  const std::string why = g->record().result.termination;
  EXPECT_TRUE(why == "score" || why == "elimination" || why == "draw") << why;
  auto back = record::load_ruleset_game(**db, g->id());
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->current(), end);
  EXPECT_EQ(back->result.termination, why);
}

TEST(RulesetGame, ATamperedPositionIsDetectedOnLoad) {
  const fs::path dir = fresh_dir();
  const std::string path = (dir / "g.db").string();
  const Line line = play_line(start_of("wizardhex_across"), 3, 2);
  {
    auto db = RecordDb::open(path);
    auto g = RulesetGame::create(**db, "wizardhex", start_of("wizardhex_across"));
    ASSERT_TRUE(g.ok());
    for (const auto& a : line.actions) ASSERT_TRUE(g->act(a).ok());
  }
  ASSERT_EQ(raw_query(path, "UPDATE actions SET position = json_set(position, '$.to_move', 'nobody') WHERE seq = 1"), "");
  auto db = RecordDb::open(path);
  auto r = record::load_ruleset_game(**db, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("event 1: the stored position differs from the replay"), std::string::npos) << r.error();
}

TEST(RecordDbMigration, AVersion2FileOpensAsTheCurrentVersionWithItsHexDiceGamesUnchanged) {
  const fs::path dir = fresh_dir();
  const std::string path = (dir / "v2.db").string();
  GameRecord before = sample_game(SampleOptions{});
  {
    auto db = RecordDb::open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->insert_game(before).ok());
  }
  // Make it a genuine version-2 file: no termination column, no ruleset index.
  ASSERT_EQ(raw_query(path, "DROP INDEX games_by_ruleset; ALTER TABLE games DROP COLUMN termination; PRAGMA user_version = 2"), "");
  ASSERT_EQ(raw_query(path, "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'termination'"), "0");
  {
    auto db = RecordDb::open(path, {true, record::Durability::Full, 2000});  // read-only: no migration
    ASSERT_TRUE(db.ok()) << db.error();
    EXPECT_EQ((*db)->schema_version(), 2);
  }
  auto db = RecordDb::open(path);
  ASSERT_TRUE(db.ok()) << db.error();
  EXPECT_EQ((*db)->schema_version(), RecordDb::kSchemaVersion);
  EXPECT_EQ(raw_query(path, "PRAGMA user_version"), std::to_string(RecordDb::kSchemaVersion));
  EXPECT_EQ(raw_query(path, "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'termination'"), "1");
  EXPECT_EQ(raw_query(path, "SELECT count(*) FROM sqlite_master WHERE name = 'games_by_ruleset'"), "1");
  auto back = (*db)->load_game(1);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(to_text(*back), to_text(before));
  auto g = RulesetGame::create(**db, "wizardhex", start_of("wizardhex_six"));
  ASSERT_TRUE(g.ok()) << g.error();
  ASSERT_TRUE(g->act(pick(g->record().current(), 0)).ok());
  auto list = (*db)->list_games();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].ruleset, "hexdice");
  EXPECT_EQ((*list)[1].ruleset, "wizardhex");
}

// ---- Command line ---------------------------------------------------------------------

std::string write_jsonl(const fs::path& p, const std::vector<Json>& steps) {
  std::ofstream out(p);
  for (const auto& s : steps) out << s.dump() << '\n';
  return p.string();
}

TEST(CliRecordRulesets, WizardHexAndHexaDecimalGamesWithTakebacksBesideHexDice) {
  const fs::path dir = fresh_dir();
  const std::string db = (dir / "games.db").string();
  ASSERT_EQ(run_hexdice("record sample --db " + db + " --seed 3 --max-plies 10").out, "1\n");

  struct Case {
    std::string ruleset, start;
  };
  const std::vector<Case> cases = {{"wizardhex", "wizardhex_across"}, {"hexadecimal", "hexadecimal_demial"}};
  std::int64_t expect_id = 2;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.ruleset);
    const Json start = start_of(c.start);
    const Ruleset& rs = *find_ruleset(c.ruleset);
    // 4 plies, take the 4th back, then 2 more from ply 3.
    const Line a = play_line(start, 4, 3);
    ASSERT_EQ(a.actions.size(), 4u);
    Line b = play_line(a.positions[2], 2, 5);
    ASSERT_EQ(b.actions.size(), 2u);
    std::vector<Json> steps = a.actions;
    steps.push_back("takeback");
    steps.insert(steps.end(), b.actions.begin(), b.actions.end());
    const fs::path start_file = dir / (c.start + ".json");
    std::ofstream(start_file) << start.dump();
    const std::string jl = write_jsonl(dir / (c.ruleset + ".jsonl"), steps);
    auto r = run_hexdice("record play --db " + db + " --ruleset " + c.ruleset + " --start " + start_file.string() + " " + jl);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, std::to_string(expect_id) + "\n");

    // The text record: numbered moves in the game's notation, the takeback, the result.
    auto t = run_hexdice("history --db " + db + " " + std::to_string(expect_id));
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.out.find("[Ruleset \"" + c.ruleset + "\"]"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("[Result \"*\"]"), std::string::npos) << t.out;
    Json pos = *rs.normalize(start);
    std::vector<Json> at{pos};
    std::string moves;
    int ply = 0;
    for (const auto& s : steps) {
      if (s == "takeback") {
        moves += "takeback " + std::to_string(ply--) + "\n";
        at.pop_back();
        continue;
      }
      moves += std::to_string(++ply) + ". " + rs.to_move(at.back()) + " " + rs.describe(at.back(), s) + "\n";
      at.push_back(rs.apply(at.back(), s)->position);
    }
    EXPECT_NE(t.out.find("\n\n" + moves), std::string::npos) << t.out << "\nexpected:\n" << moves;
    // --json: start, then each event; the database's position after the last move is the replay's.
    auto js = run_hexdice("history --db " + db + " " + std::to_string(expect_id) + " --json");
    ASSERT_EQ(js.exit_code, 0) << js.err;
    const auto jl2 = lines_of(js.out);
    ASSERT_EQ(jl2.size(), steps.size() + 1);
    EXPECT_EQ(Json::parse(jl2[0])["kind"], "start");
    EXPECT_EQ(Json::parse(jl2[0])["start"], *rs.normalize(start));
    EXPECT_EQ(Json::parse(jl2[5])["kind"], "takeback");
    EXPECT_EQ(Json::parse(jl2[5])["ply"], 4);
    EXPECT_EQ(Json::parse(jl2.back())["action"], b.actions[1]);
    auto opened = RecordDb::open(db, {true, record::Durability::Full, 2000});
    auto rec = record::load_ruleset_game(**opened, expect_id);
    ASSERT_TRUE(rec.ok()) << rec.error();
    EXPECT_EQ(rec->current(), b.positions[1]);
    ++expect_id;
  }
  // The list: all three rulesets, a ruleset column, and the filter.
  auto list = run_hexdice("history --db " + db);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto rows = lines_of(list.out);
  ASSERT_EQ(rows.size(), 3u) << list.out;
  EXPECT_NE(rows[0].find("  hexdice  "), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find("  wizardhex  "), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find("  hexadecimal  "), std::string::npos) << rows[2];
  EXPECT_NE(rows[1].find("unfinished  6 actions"), std::string::npos) << rows[1];
  auto only = run_hexdice("history --db " + db + " --ruleset hexadecimal --json");
  ASSERT_EQ(only.exit_code, 0) << only.err;
  ASSERT_EQ(lines_of(only.out).size(), 1u) << only.out;
  EXPECT_EQ(Json::parse(only.out)["id"], 3);
  EXPECT_EQ(Json::parse(only.out)["ruleset"], "hexadecimal");
  // Hex Dice's record still prints as before.
  auto hd = run_hexdice("history --db " + db + " 1");
  ASSERT_EQ(hd.exit_code, 0) << hd.err;
  EXPECT_NE(hd.out.find("[Ruleset \"hexdice\"]"), std::string::npos);
  auto unknown = run_hexdice("history --db " + db + " --ruleset chess");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("unknown ruleset \"chess\""), std::string::npos) << unknown.err;
}

TEST(CliRecordRulesets, AnIllegalMoveIsRefusedWithItsRuleAndNothingIsWritten) {
  const fs::path dir = fresh_dir();
  const std::string db = (dir / "games.db").string();
  ASSERT_EQ(run_hexdice("record sample --db " + db + " --seed 3 --max-plies 4").exit_code, 0);
  const std::string before = raw_query(db, "SELECT count(*) FROM games; SELECT count(*) FROM events");
  const Json start = start_of("wizardhex_across");
  const Line a = play_line(start, 2, 1);
  // Green's first move must enter on one of its three starting spaces (section 5): an
  // expand anywhere else breaks that rule.
  Json bad = a.actions[0];
  const Ruleset& rs = *find_ruleset("wizardhex");
  const Json legal = *rs.legal_actions(*rs.normalize(start));
  for (const auto& q : {Json::array({0, 0}), Json::array({1, -1}), Json::array({-1, 1})}) {
    bool is_legal = false;
    for (const auto& l : legal) is_legal = is_legal || (l.contains("to") && l["to"] == q);
    if (!is_legal) { bad["to"] = q; break; }
  }
  ASSERT_NE(bad, a.actions[0]);
  const std::string jl = write_jsonl(dir / "bad.jsonl", {bad, a.actions[1]});
  auto r = run_hexdice("record play --db " + db + " --ruleset wizardhex " + jl);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("bad.jsonl line 1: illegal action"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(section 5)"), std::string::npos) << r.err;
  // A later illegal line refuses the whole file too: no game, no event written.
  const std::string jl2 = write_jsonl(dir / "late.jsonl", {a.actions[0], a.actions[1], a.actions[0]});
  auto r2 = run_hexdice("record play --db " + db + " --ruleset wizardhex " + jl2);
  EXPECT_EQ(r2.exit_code, 1);
  EXPECT_NE(r2.err.find("late.jsonl line 3: illegal action"), std::string::npos) << r2.err;
  EXPECT_EQ(raw_query(db, "SELECT count(*) FROM games; SELECT count(*) FROM events"), before);
  for (const auto& [args, msg] : std::vector<std::pair<std::string, std::string>>{
           {"record play --db " + db + " --ruleset hexdice " + jl, "is not a ruleset logged this way"},
           {"record play --db " + db + " --ruleset wizardhex --resume " + jl, "no unfinished wizardhex game"},
           {"record play --db " + db + " --ruleset hexadecimal --variant six " + jl, "--variant"}}) {
    auto e = run_hexdice(args);
    EXPECT_EQ(e.exit_code, 1) << args;
    EXPECT_NE(e.err.find(msg), std::string::npos) << args << ": " << e.err;
  }
  EXPECT_EQ(raw_query(db, "SELECT count(*) FROM games; SELECT count(*) FROM events"), before);
}

TEST(CliRecordRulesets, ResumeContinuesTheUnfinishedGameAndImportReadsASavedGame) {
  const fs::path dir = fresh_dir();
  const std::string db = (dir / "games.db").string();
  const Json start = *find_ruleset("hexadecimal")->start_position("threcimal");
  const Line a = play_line(start, 6, 4);
  ASSERT_EQ(a.actions.size(), 6u);
  const std::string first = write_jsonl(dir / "a.jsonl", {a.actions.begin(), a.actions.begin() + 3});
  const std::string rest = write_jsonl(dir / "b.jsonl", {a.actions.begin() + 3, a.actions.end()});
  ASSERT_EQ(run_hexdice("record play --db " + db + " --ruleset hexadecimal --variant threcimal " + first).out, "1\n");
  auto r = run_hexdice("record play --db " + db + " --ruleset hexadecimal --resume " + rest);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\n");
  auto t = run_hexdice("history --db " + db + " 1");
  EXPECT_NE(t.out.find("[Variant \"threcimal\"]"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("\n6. "), std::string::npos) << t.out;
  // Resigning ends it; the list shows the result.
  const std::string resign = write_jsonl(dir / "c.jsonl", {Json("resign")});
  ASSERT_EQ(run_hexdice("record play --db " + db + " --ruleset hexadecimal --resume " + resign).exit_code, 0);
  auto list = run_hexdice("history --db " + db + " --json");
  const Json row = Json::parse(list.out);
  EXPECT_EQ(row["result"]["reason"], "resignation");
  EXPECT_TRUE(row["result"]["winner"].is_null()) << "three players: a resignation names no single winner";
  EXPECT_FALSE(row["ended_at"].is_null());

  // The companion's saved game file ({"ruleset", "start", "actions"}) imports as a new game.
  const Json saved{{"ruleset", "wizardhex"}, {"start", start_of("wizardhex_adjacent")},
                   {"actions", play_line(start_of("wizardhex_adjacent"), 5, 6).actions}};
  std::ofstream(dir / "saved.json") << saved.dump(1);
  auto imp = run_hexdice("record import --db " + db + " " + (dir / "saved.json").string());
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  EXPECT_EQ(imp.out, "2\n");
  auto js = run_hexdice("history --db " + db + " 2 --json");
  EXPECT_EQ(lines_of(js.out).size(), 6u) << js.out;
}

}  // namespace
}  // namespace hexdice
