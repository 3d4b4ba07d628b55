// Solo and co-op games in the SQLite game record (companion/solo/solo_record.h):
// `hexdice solo --db` logs exactly the actions it prints, the record replays to the same
// final position and result, and the window's SoloSession logs each step and resumes an
// unfinished game with the same dice.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <sqlite3.h>
#include <unistd.h>

#include "companion/gui/live_model.h"
#include "companion/record/record_db.h"
#include "companion/solo/solo_record.h"
#include "core/solo/play.h"
#include "tests/companion/cli_runner.h"

namespace fs = std::filesystem;
using namespace hexdice;

namespace {

std::string scenario_path(const std::string& file) { return std::string(HEXDICE_SOURCE_DIR) + "/data/scenarios/" + file; }

solo::Scenario load_scenario(const std::string& file) {
  auto sc = solo::parse_scenario(hexdice::testing::slurp(scenario_path(file)));
  EXPECT_TRUE(sc.ok()) << file << ": " << sc.error();
  return sc.ok() ? *sc : solo::Scenario{};
}

struct TempDb {
  fs::path path;
  explicit TempDb(const std::string& name) {
    path = fs::temp_directory_path() / ("hexdice_solo_rec_" + std::to_string(::getpid()) + "_" + name + ".sqlite");
    clean();
  }
  ~TempDb() { clean(); }
  void clean() {
    std::error_code ec;
    for (const char* s : {"", "-wal", "-shm", "-journal"}) fs::remove(path.string() + s, ec);
  }
};

// The actions of a logged solo game, across its parts: "heroes: TEXT" / "enemy: TEXT".
std::vector<std::string> logged_actions(record::RecordDb& db, const solo::LoggedSolo& s, Position* final_pos = nullptr) {
  std::vector<std::string> out;
  for (std::int64_t id : s.parts) {
    auto rec = db.load_game(id);
    EXPECT_TRUE(rec.ok()) << rec.error();
    if (!rec) return out;
    for (int k = 1; k <= rec->ply(); ++k) {
      const RecordEntry& e = rec->entries()[static_cast<std::size_t>(rec->line_entries()[static_cast<std::size_t>(k - 1)])];
      auto before = rec->position_at(k - 1);
      EXPECT_TRUE(before.ok());
      const bool enemy = rec->header().names[static_cast<std::size_t>(e.player)] == "enemy";
      out.push_back(std::string(enemy ? "enemy: " : "heroes: ") + describe(*before, e.action, &e.outcome));
    }
    if (final_pos) *final_pos = rec->current();
  }
  return out;
}

bool same_cells(const Position& a, const Position& b) {
  if (a.board().size() != b.board().size()) return false;
  for (int c = 0; c < a.board().size(); ++c)
    if (!(a.at(c) == b.at(c))) return false;
  return true;
}

}  // namespace

TEST(SoloRecord, RollAnnotationRoundTrips) {
  const solo::RollNote v{3, 5, true, 7, 42};
  auto p = solo::parse_roll_annotation(solo::roll_annotation(v, "selects Knight"));
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->round, 3);
  EXPECT_EQ(p->roll, 5);
  EXPECT_TRUE(p->virtual_die);
  EXPECT_EQ(p->index, 7);
  EXPECT_EQ(p->seed, 42u);
  auto c = solo::parse_roll_annotation(solo::roll_annotation({2, 6, false, 0, 0}, "no enemy matches: skipped"));
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->virtual_die);
  EXPECT_EQ(c->roll, 6);
  EXPECT_FALSE(solo::parse_roll_annotation("Enemy: Engage: the nearest hero ...").has_value());
}

// Every shipped scenario: the printed actions are the logged actions (count and order),
// every part replays, the last part ends on the solo game's final board and result.
TEST(SoloRecord, CliLogsExactlyThePrintedActionsForEveryScenario) {
  const std::vector<std::string> files = {"01-first-steps.json", "02-archers-ridge.json", "03-the-hunt.json",
                                          "04-raiders.json", "05-warlord.json"};
  int multi_part = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    TempDb tmp(f);
    const std::uint64_t seed = 4;
    const auto r = hexdice::testing::run_hexdice("solo --scenario " + scenario_path(f) + " --seed " + std::to_string(seed) +
                                        " --auto-player greedy --db " + tmp.path.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The printed actions, in order.
    std::vector<std::string> printed;
    std::string result_line;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      const auto h = line.find(" heroes: ");
      const auto arrow = line.find(" => ");
      if (line.rfind("Round ", 0) == 0 && h != std::string::npos && line.find(" enemy: ") == std::string::npos)
        printed.push_back("heroes: " + line.substr(h + 9));
      else if (line.rfind("Round ", 0) == 0 && arrow != std::string::npos)
        printed.push_back("enemy: " + line.substr(arrow + 4));
      if (line.rfind("Result: ", 0) == 0) result_line = line;
    }
    ASSERT_FALSE(printed.empty());
    auto db = record::RecordDb::open(tmp.path.string());
    ASSERT_TRUE(db.ok()) << db.error();
    auto games = (*db)->list_games();
    ASSERT_TRUE(games.ok());
    std::int64_t last = 0;
    for (const auto& g : *games) {
      EXPECT_EQ(g.event, "solo: " + load_scenario(f).name);
      EXPECT_TRUE(g.result.finished()) << "every part of a finished solo game is closed";
      last = std::max(last, g.id);
    }
    auto logged = solo::load_solo(**db, last);
    ASSERT_TRUE(logged.ok()) << logged.error();
    EXPECT_EQ(logged->parts.size(), games->size()) << "the parts chain back to the first";
    multi_part += logged->parts.size() > 1;
    Position final_pos;
    const auto actions = logged_actions(**db, *logged, &final_pos);
    EXPECT_EQ(actions, printed);
    // One roll annotation per Enemy Turn, in the rounds' order.
    int rolls = 0, prev_round = 0;
    for (const auto& e : logged->entries)
      if (auto n = solo::parse_roll_annotation(e.text)) {
        ++rolls;
        EXPECT_GT(n->round, prev_round);
        prev_round = n->round;
        EXPECT_TRUE(n->virtual_die);
        EXPECT_EQ(n->index, rolls);
        EXPECT_EQ(n->seed, seed);
      }
    EXPECT_GT(rolls, 0);
    // The same game in process: the final board and the result.
    solo::SoloGame g;
    auto run = solo::play_solo(load_scenario(f), "greedy", seed, ai::SearchLimits{100, 64, 0}, 200, &g);
    ASSERT_TRUE(run.ok());
    EXPECT_TRUE(same_cells(final_pos, g.position())) << "the record ends on the game's final board";
    ASSERT_TRUE(g.over());
    auto last_rec = (*db)->load_game(logged->parts.back());
    ASSERT_TRUE(last_rec.ok());
    const std::string winner =
        g.result() > 0 ? g.position().player(g.hero()).id : (g.result() < 0 ? g.position().player(g.enemy()).id : "");
    EXPECT_EQ(last_rec->header().result.winner, winner);
    bool result_noted = false;
    for (const auto& e : last_rec->entries()) result_noted |= e.text.rfind("Scenario result: " + g.result_text(), 0) == 0;
    EXPECT_TRUE(result_noted || last_rec->header().result.reason == ResultReason::Annihilation ||
                last_rec->header().result.reason == ResultReason::BaseCapture);
    EXPECT_NE(result_line.find(g.result_text()), std::string::npos);
    // `hexdice history` lists it and prints it with its annotations.
    const auto list = hexdice::testing::run_hexdice("history --db " + tmp.path.string());
    EXPECT_EQ(list.exit_code, 0);
    EXPECT_NE(list.out.find("solo: "), std::string::npos) << list.out;
    const auto text = hexdice::testing::run_hexdice("history --db " + tmp.path.string() + " " + std::to_string(logged->parts.front()));
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("[Event \"solo: "), std::string::npos);
    EXPECT_NE(text.out.find("[Site \"seed 4, heroes played by greedy\"]"), std::string::npos);
    EXPECT_NE(text.out.find("{Enemy Turn, round 1: activation roll "), std::string::npos) << text.out;
  }
  EXPECT_GT(multi_part, 0) << "some game needs a second part (skipped turns, groups, reinforcements)";
}

// The window's session: every step is in the record as soon as it is accepted; closing
// and resuming mid-game continues the same game with the same dice.
TEST(SoloRecord, SessionLogsEachStepAndResumesTheSameGame) {
  const solo::Scenario sc = load_scenario("01-first-steps.json");  // its natural table skips many Enemy Turns
  TempDb tmp("resume");
  const std::uint64_t seed = 11;
  // The hero's choice: the first legal action whose kind cycles, so the game moves along.
  auto choose = [](const gui::SoloSession& s, int i) {
    const auto acts = s.game().hero_actions();
    std::vector<Action> moves;
    for (const Action& a : acts)
      if (a.type == ActionType::Move) moves.push_back(a);
    return moves.empty() ? acts.front() : moves[static_cast<std::size_t>(i * 7) % moves.size()];
  };
  // The reference: the same game, not logged.
  auto ref = gui::SoloSession::start(sc, seed);
  ASSERT_TRUE(ref.ok());
  const int kSteps = 24, kStop = 11;
  std::vector<std::string> ref_log;
  for (int i = 0; i < kSteps && !ref->game().over(); ++i) {
    if (ref->game().heroes_turn()) ASSERT_TRUE(ref->hero(choose(*ref, i)).ok());
    else ref->enemy_turn(i == 5 ? std::optional<int>(2) : std::nullopt);  // one die "read by the camera"
  }
  std::size_t parts_at_stop = 0;
  {
    auto db = record::RecordDb::open(tmp.path.string());
    ASSERT_TRUE(db.ok());
    auto s = gui::SoloSession::start(sc, seed, db->get());
    ASSERT_TRUE(s.ok()) << s.error();
    ASSERT_TRUE(s->record_id().has_value());
    for (int i = 0; i < kStop; ++i) {
      const std::size_t before = s->game().history().size();
      if (s->game().heroes_turn()) ASSERT_TRUE(s->hero(choose(*s, i)).ok());
      else s->enemy_turn(i == 5 ? std::optional<int>(2) : std::nullopt);
      EXPECT_TRUE(s->record_error().empty()) << s->record_error();
      // Logged at once: read back through a second connection.
      auto other = record::RecordDb::open(tmp.path.string(), {true});
      ASSERT_TRUE(other.ok());
      auto logged = solo::load_solo(**other, *s->record_id());
      ASSERT_TRUE(logged.ok()) << logged.error();
      EXPECT_EQ(logged_actions(**other, *logged).size(), s->game().history().size()) << "step " << i;
      EXPECT_GE(s->game().history().size(), before);
    }
    parts_at_stop = solo::load_solo(**db, *s->record_id())->parts.size();
    EXPECT_GT(parts_at_stop, 1u);
  }  // the window closes
  auto db = record::RecordDb::open(tmp.path.string());
  ASSERT_TRUE(db.ok());
  auto other_seed = gui::SoloSession::resume(sc, **db, seed + 1);
  ASSERT_TRUE(other_seed.ok());
  EXPECT_FALSE(other_seed->has_value()) << "a game of another seed is not resumed";
  auto resumed = gui::SoloSession::resume(sc, **db, seed);
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  ASSERT_TRUE(resumed->has_value());
  gui::SoloSession& s = **resumed;
  EXPECT_EQ(s.seed(), seed);
  for (int i = kStop; i < kSteps && !s.game().over(); ++i) {
    if (s.game().heroes_turn()) ASSERT_TRUE(s.hero(choose(s, i)).ok());
    else s.enemy_turn(i == 5 ? std::optional<int>(2) : std::nullopt);
  }
  EXPECT_TRUE(s.position() == ref->position()) << "the resumed game continues with the same dice";
  EXPECT_EQ(s.game().round(), ref->game().round());
  EXPECT_EQ(s.virtual_rolls(), ref->virtual_rolls());
  auto logged = solo::load_solo(**db, *s.record_id());
  ASSERT_TRUE(logged.ok());
  EXPECT_EQ(logged_actions(**db, *logged).size(), ref->game().history().size());
  EXPECT_GT(logged->parts.size(), 2u) << "the game spans parts (skipped Enemy Turns) before and after the resume";
  EXPECT_GT(logged->parts.size(), parts_at_stop);
  int camera = 0;
  for (const auto& e : logged->entries)
    if (auto n = solo::parse_roll_annotation(e.text)) camera += !n->virtual_die;
  EXPECT_EQ(camera, 1);
}

// A record that does not replay is refused, not half-resumed: the same record read
// under another seed (its virtual rolls are not that seed's).
TEST(SoloRecord, ResumeRefusesARecordThatDoesNotReplay) {
  const solo::Scenario sc = load_scenario("01-first-steps.json");
  TempDb tmp("tamper");
  auto db = record::RecordDb::open(tmp.path.string());
  ASSERT_TRUE(db.ok());
  {
    auto s = gui::SoloSession::start(sc, 3, db->get());
    ASSERT_TRUE(s.ok());
    for (int i = 0; i < 8 && !s->game().over(); ++i) {
      if (s->game().heroes_turn()) ASSERT_TRUE(s->hero(s->game().hero_actions().front()).ok());
      else s->enemy_turn();
    }
    ASSERT_GT(s->virtual_rolls(), 0);
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path.c_str(), &raw), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(raw, "UPDATE games SET site = 'seed 4'", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  auto resumed = gui::SoloSession::resume(sc, **db, 4);
  ASSERT_FALSE(resumed.ok()) << "the record does not replay under another seed";
  EXPECT_NE(resumed.error().find("virtual roll"), std::string::npos) << resumed.error();
  // Under its own seed it does.
  raw = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path.c_str(), &raw), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(raw, "UPDATE games SET site = 'seed 3'", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  auto ok = gui::SoloSession::resume(sc, **db, 3);
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_TRUE(ok->has_value());
}
