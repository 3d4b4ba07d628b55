// Solo and co-op games in the SQLite game record (companion/solo/solo_record.h):
// one solo game is one game of the record; `hexdice solo --db` logs exactly the actions it
// prints, the record replays to the same positions and result, and the window's
// SoloSession logs each step and resumes an unfinished game with the same dice.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sqlite3.h>
#include <signal.h>
#include <sys/wait.h>
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

// The actions of a logged solo game (across its parts, for a game logged before schema 4):
// "heroes: TEXT" / "enemy: TEXT".
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

const std::vector<std::string> kScenarioFiles = {"01-first-steps.json", "02-archers-ridge.json", "03-the-hunt.json",
                                                "04-raiders.json", "05-warlord.json"};

// Every shipped scenario: one game in the record, the printed actions are the logged
// actions (count and order), it replays, it ends on the solo game's final board and result.
TEST(SoloRecord, CliLogsExactlyThePrintedActionsForEveryScenario) {
  const std::vector<std::string>& files = kScenarioFiles;
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
    ASSERT_EQ(games->size(), 1u) << "one solo game is one game of the record";
    const auto& row = games->front();
    EXPECT_EQ(row.event, "solo: " + load_scenario(f).name);
    EXPECT_TRUE(row.result.finished());
    EXPECT_TRUE(row.solo);
    EXPECT_EQ(row.actions, static_cast<int>(printed.size()));
    const std::int64_t last = row.id;
    EXPECT_NE(r.out.find("Logged as game " + std::to_string(last) + " in "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(" parts (games"), std::string::npos) << r.out;
    auto logged = solo::load_solo(**db, last);
    ASSERT_TRUE(logged.ok()) << logged.error();
    EXPECT_EQ(logged->parts, std::vector<std::int64_t>{last});
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
    // The result is the real one with its reason: the rules' own (annihilation, base
    // capture) or the scenario's, with the scenario's text; never a resignation or a draw.
    const GameResult& res = last_rec->header().result;
    const bool natural = res.reason == ResultReason::Annihilation || res.reason == ResultReason::BaseCapture;
    EXPECT_TRUE(natural || res.reason == ResultReason::Scenario) << reason_name(res.reason);
    if (!natural) EXPECT_EQ(res.detail, g.result_text());
    EXPECT_EQ(row.result, res) << "the history list reads the same result";
    EXPECT_NE(result_line.find(g.result_text()), std::string::npos);
    // `hexdice history` lists it and prints it with its annotations.
    const auto list = hexdice::testing::run_hexdice("history --db " + tmp.path.string());
    EXPECT_EQ(list.exit_code, 0);
    EXPECT_EQ(std::count(list.out.begin(), list.out.end(), '\n'), 1) << "one row: " << list.out;
    const auto text = hexdice::testing::run_hexdice("history --db " + tmp.path.string() + " " + std::to_string(logged->parts.front()));
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("[Result \"" + (winner.empty() ? std::string("draw") : winner) + "\"]"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("[Termination \"" + termination_text(res) + "\"]"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("resignation"), std::string::npos);
    EXPECT_EQ(text.out.find("draw_agreed"), std::string::npos);
    if (!natural) {
      EXPECT_NE(list.out.find("(scenario: " + g.result_text() + ")"), std::string::npos) << list.out;
      const auto js = hexdice::testing::run_hexdice("history --db " + tmp.path.string() + " --json");
      ASSERT_EQ(js.exit_code, 0) << js.err;
      const Json j = Json::parse(js.out.substr(0, js.out.find('\n')));
      EXPECT_EQ(j["result"]["reason"], "scenario") << js.out;
      EXPECT_EQ(j["result"]["detail"], g.result_text()) << js.out;
    }
    EXPECT_NE(text.out.find("[Event \"solo: "), std::string::npos);
    EXPECT_NE(text.out.find("[Site \"seed 4, heroes played by greedy\"]"), std::string::npos);
    EXPECT_NE(text.out.find("{Enemy Turn, round 1: activation roll "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("[Mode \"solo\"]"), std::string::npos);
    EXPECT_EQ(text.out.find("Solo game part"), std::string::npos) << "no parts";
    // The text record imports back into the same game (every step checked again).
    auto back = record_from_text(text.out);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, *last_rec);
  }
}

// A whole logged game of a scenario, in process, as `hexdice solo --db` logs it.
struct LoggedGame {
  std::int64_t id = 0;
  solo::SoloGame game;
  std::vector<std::string> printed_log;
  std::string error;
};
LoggedGame log_whole_game(record::RecordDb& db, const solo::Scenario& sc, const std::string& engine, std::uint64_t seed) {
  LoggedGame out;
  std::optional<solo::SoloRecorder> rec;
  auto observe = [&](const solo::SoloGame& g, const solo::SoloEvent& ev) -> Status {
    if (ev.start) {
      auto r = solo::SoloRecorder::create(db, g, "seed " + std::to_string(seed) + ", heroes played by " + engine);
      if (!r) return Error{r.error()};
      rec.emplace(std::move(*r));
      return {};
    }
    if (!ev.enemy_turn) return rec->log_hero(g);
    const solo::RollNote note{ev.round, ev.roll, ev.virtual_roll, ev.virtual_index, seed};
    return rec->log_enemy_turn(g, solo::enemy_turn_annotation(g.scenario(), note, ev.steps), ev.steps);
  };
  auto run = solo::play_solo(sc, engine, seed, ai::SearchLimits{100, 64, 0}, 200, &out.game, {}, observe);
  if (!run) {
    out.error = run.error();
    return out;
  }
  if (Status s = rec->finish(out.game, out.game.over() ? "" : run->result_text); !s) out.error = s.error();
  out.id = rec->first_id();
  EXPECT_EQ(rec->parts(), 1);
  out.printed_log = run->log;
  return out;
}

// Every shipped scenario, several seeds and engines: each solo game is ONE game; loading
// it replays every action and scenario step through the rules, and the replay is the
// played game: the same actions in the same order, each from the same position, and the
// same final board. Skipped turns, group activations and reinforcements all occur.
TEST(SoloRecord, EveryScenarioGameIsOneGameThatReplaysAsPlayed) {
  std::map<EntryKind, int> steps;
  int scenario_results = 0;
  for (const std::string& f : kScenarioFiles) {
    const solo::Scenario sc = load_scenario(f);
    TempDb tmp("whole_" + f);
    auto db = record::RecordDb::open(tmp.path.string(), {false, record::Durability::Normal, 2000});
    ASSERT_TRUE(db.ok());
    int games = 0;
    for (const std::string engine : {"greedy", "random"})
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        SCOPED_TRACE(f + " " + engine + " seed " + std::to_string(seed));
        LoggedGame lg = log_whole_game(**db, sc, engine, seed);
        ASSERT_TRUE(lg.error.empty()) << lg.error;
        ++games;
        auto rec = (*db)->load_game(lg.id);
        ASSERT_TRUE(rec.ok()) << rec.error();
        EXPECT_TRUE(rec->solo());
        EXPECT_TRUE(rec->finished());
        // The replay's actions are the played ones, each from the same position.
        const auto& hist = lg.game.history();
        ASSERT_EQ(static_cast<std::size_t>(rec->ply()), hist.size());
        for (int k = 0; k < rec->ply(); ++k) {
          const RecordEntry& e = rec->entries()[static_cast<std::size_t>(rec->line_entries()[static_cast<std::size_t>(k)])];
          EXPECT_TRUE(e.action == hist[static_cast<std::size_t>(k)].action) << "ply " << k + 1;
          EXPECT_EQ(e.player, hist[static_cast<std::size_t>(k)].enemy ? lg.game.enemy() : lg.game.hero()) << "ply " << k + 1;
          auto before = rec->position_after_entry(rec->line_entries()[static_cast<std::size_t>(k)] - 1);
          ASSERT_TRUE(before.ok());
          EXPECT_TRUE(*before == hist[static_cast<std::size_t>(k)].before) << "the position before ply " << k + 1;
        }
        EXPECT_TRUE(same_cells(rec->current(), lg.game.position())) << "the final board";
        // Its result says why it ended: the rules' reason or the scenario's own text.
        const GameResult& res = rec->header().result;
        const std::string winner = lg.game.result() > 0 ? lg.game.position().player(lg.game.hero()).id
                                   : lg.game.result() < 0 ? lg.game.position().player(lg.game.enemy()).id : "";
        EXPECT_EQ(res.winner, winner);
        if (res.reason == ResultReason::Scenario) {
          ++scenario_results;
          EXPECT_EQ(res.detail, lg.game.result_text());
        } else {
          EXPECT_TRUE(res.reason == ResultReason::Annihilation || res.reason == ResultReason::BaseCapture)
              << reason_name(res.reason);
        }
        if (seed == 1) {
          // The same record written in one go (record import) and step by step: the same game.
          auto copy = (*db)->insert_game(*rec);
          ASSERT_TRUE(copy.ok()) << copy.error();
          auto back = (*db)->load_game(*copy);
          ASSERT_TRUE(back.ok()) << back.error();
          EXPECT_EQ(*back, *rec);
          auto fresh = GameRecord::from_position(*rec->start_position(), rec->header(), RecordMode::Solo);
          ASSERT_TRUE(fresh.ok());
          auto relog = record::RecordedGame::create(**db, *fresh);
          ASSERT_TRUE(relog.ok());
          for (int k = 0; k < record::record_steps(*rec); ++k) ASSERT_TRUE(record::apply_step(*relog, *rec, k).ok()) << k;
          auto again = (*db)->load_game(relog->id());
          ASSERT_TRUE(again.ok()) << again.error();
          EXPECT_EQ(again->entries(), rec->entries());
          for (int k = 0; k <= rec->ply(); k += 7) {
            auto stored = (*db)->position_at(*copy, k);
            ASSERT_TRUE(stored.ok()) << stored.error();
            EXPECT_TRUE(*stored == *rec->position_at(k)) << "the stored position of ply " << k << " (steps after it included)";
          }
          games += 2;
        }
        for (const auto& e : rec->entries())
          if (is_scenario_step(e.kind)) ++steps[e.kind];
        // The activation rolls: virtual rolls #1, #2, ... of the seed, one per Enemy Turn.
        int rolls = 0;
        for (const auto& e : rec->entries())
          if (auto n = solo::parse_roll_annotation(e.text)) {
            EXPECT_EQ(n->index, ++rolls);
            EXPECT_EQ(n->seed, seed);
          }
        EXPECT_GT(rolls, 0);
      }
    auto list = (*db)->list_games();
    ASSERT_TRUE(list.ok());
    EXPECT_EQ(static_cast<int>(list->size()), games) << f << ": one row per solo game";
  }
  EXPECT_GT(steps[EntryKind::Pass], 0) << "skipped Enemy Turns";
  EXPECT_GT(steps[EntryKind::Again], 0) << "group activations";
  EXPECT_GT(steps[EntryKind::Place], 0) << "reinforcements";
  EXPECT_GT(scenario_results, 0) << "games ended by a scenario objective";
}

// A hero win by the scenario's own objective (05 The Warlord: defeat the warlord): the
// first seed whose game ends so is recorded as blue's win with the scenario's text, and
// `hexdice history` shows it.
TEST(SoloRecord, DefeatingTheWarlordIsRecordedAsTheHeroesScenarioWin) {
  const solo::Scenario sc = load_scenario("05-warlord.json");
  TempDb tmp("warlord");
  std::int64_t id = 0;
  std::string text;
  {
    auto db = record::RecordDb::open(tmp.path.string(), {false, record::Durability::Normal, 2000});
    ASSERT_TRUE(db.ok());
    for (std::uint64_t seed = 1; seed <= 40 && !id; ++seed) {
      LoggedGame lg = log_whole_game(**db, sc, "greedy", seed);
      ASSERT_TRUE(lg.error.empty()) << lg.error;
      if (lg.game.result() > 0 && lg.game.result_text().find("defeated") != std::string::npos) {
        id = lg.id;
        text = lg.game.result_text();
      }
    }
    ASSERT_NE(id, 0) << "no greedy game of seeds 1-40 defeats the warlord";
    auto rec = (*db)->load_game(id);
    ASSERT_TRUE(rec.ok()) << rec.error();
    EXPECT_EQ(rec->header().result, (GameResult{ResultReason::Scenario, "blue", text}));
  }
  EXPECT_EQ(text, "heroes win: every target (warlord) is defeated");
  const auto out = hexdice::testing::run_hexdice("history --db " + tmp.path.string() + " " + std::to_string(id));
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("[Result \"blue\"]\n[Termination \"scenario: " + text + "\"]"), std::string::npos) << out.out;
  const auto list = hexdice::testing::run_hexdice("history --db " + tmp.path.string());
  EXPECT_NE(list.out.find("blue won (scenario: " + text + ")"), std::string::npos) << list.out;
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
    EXPECT_EQ(parts_at_stop, 1u);
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
  EXPECT_EQ(logged->parts.size(), 1u) << "one game before and after the resume";
  auto list = db->get()->list_games();
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), 1u);
  auto rec = (*db)->load_game(*s.record_id());
  ASSERT_TRUE(rec.ok()) << rec.error();
  EXPECT_TRUE(same_cells(rec->current(), s.position())) << "the record is on the game's board";
  int passes = 0;
  for (const auto& e : rec->entries()) passes += e.kind == EntryKind::Pass;
  EXPECT_GT(passes, 0) << "skipped Enemy Turns are passes in the one game";
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

namespace {

// One row of one column (or "" when none), straight from SQLite.
std::string raw_value(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* t = sqlite3_column_text(st, 0);
      out = t ? reinterpret_cast<const char*>(t) : "";
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

bool raw_exec(const fs::path& path, const std::string& sql, std::string* error = nullptr) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return false;
  char* msg = nullptr;
  const bool ok = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) == SQLITE_OK;
  if (msg && error) *error = msg;
  sqlite3_free(msg);
  sqlite3_close(db);
  return ok;
}

}  // namespace

// A real schema-3 file (tests/companion/data/solo_v3.sql: `sqlite3 F .dump` of what the
// hexdice of schema 3, commit e01f2fb, wrote for `hexdice record sample --seed 3
// --max-plies 6`, then `hexdice solo --auto-player greedy --max-rounds 6` with
// 01-first-steps.json --seed 2 (4 parts) and 04-raiders.json --seed 1 (6 parts), plus its
// user_version). Read-only it opens as it is; writable it migrates to 4: every
// game loads to the same record, the parts still chain into one solo game, the foreign
// keys still hold (deleting a game removes its events), and a new solo game is one game.
TEST(SoloRecord, AVersion3FileMigratesAndItsSoloPartsStillLoad) {
  TempDb tmp("v3");
  ASSERT_TRUE(raw_exec(tmp.path, hexdice::testing::slurp(std::string(HEXDICE_SOURCE_DIR) + "/tests/companion/data/solo_v3.sql")));
  ASSERT_EQ(raw_value(tmp.path, "PRAGMA user_version"), "3");
  const std::string events = raw_value(tmp.path, "SELECT count(*) FROM events");
  const std::string actions = raw_value(tmp.path, "SELECT count(*) FROM actions");
  ASSERT_NE(events, "0");
  // Read-only: no migration; the old file is read as it is.
  std::vector<std::string> texts;
  std::size_t old_parts = 0;
  std::int64_t last_part = 0;
  std::vector<std::string> old_actions;
  {
    auto db = record::RecordDb::open(tmp.path.string(), {true});
    ASSERT_TRUE(db.ok()) << db.error();
    EXPECT_EQ((*db)->schema_version(), 3);
    auto list = (*db)->list_games();
    ASSERT_TRUE(list.ok()) << list.error();
    ASSERT_GT(list->size(), 2u);
    for (const auto& g : *list) {
      auto rec = (*db)->load_game(g.id);
      ASSERT_TRUE(rec.ok()) << rec.error();
      EXPECT_FALSE(rec->solo()) << "before schema 4 no record is a solo record";
      EXPECT_EQ(g.solo, g.event.rfind("solo: ", 0) == 0);
      texts.push_back(to_text(*rec));
      last_part = std::max(last_part, g.id);
    }
    auto logged = solo::load_solo(**db, last_part);
    ASSERT_TRUE(logged.ok()) << logged.error();
    old_parts = logged->parts.size();
    EXPECT_GT(old_parts, 1u) << "the fixture's solo game is in parts";
    old_actions = logged_actions(**db, *logged);
  }
  EXPECT_EQ(raw_value(tmp.path, "PRAGMA user_version"), "3") << "read-only: nothing written";
  // Writable: migrated.
  {
    auto db = record::RecordDb::open(tmp.path.string());
    ASSERT_TRUE(db.ok()) << db.error();
    EXPECT_EQ((*db)->schema_version(), 4);
    auto list = (*db)->list_games();
    ASSERT_TRUE(list.ok());
    ASSERT_EQ(list->size(), texts.size());
    for (std::size_t i = 0; i < list->size(); ++i) {
      const auto& g = (*list)[i];
      auto rec = (*db)->load_game(g.id);
      ASSERT_TRUE(rec.ok()) << rec.error();
      const bool is_solo = g.event.rfind("solo: ", 0) == 0;
      EXPECT_EQ(rec->solo(), is_solo) << "the old solo parts are marked solo";
      EXPECT_EQ(g.solo, is_solo);
      std::string text = to_text(*rec);
      if (is_solo) text.erase(text.find("[Mode \"solo\"]\n"), std::string("[Mode \"solo\"]\n").size());
      EXPECT_EQ(text, texts[i]) << "game " << g.id << " is unchanged";
    }
    auto logged = solo::load_solo(**db, last_part);
    ASSERT_TRUE(logged.ok()) << logged.error();
    EXPECT_EQ(logged->parts.size(), old_parts);
    EXPECT_EQ(logged_actions(**db, *logged), old_actions);
    // A new solo game in the migrated file is one game.
    LoggedGame lg = log_whole_game(**db, load_scenario("01-first-steps.json"), "greedy", 2);
    ASSERT_TRUE(lg.error.empty()) << lg.error;
    auto after = (*db)->list_games();
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->size(), texts.size() + 1);
  }
  EXPECT_EQ(raw_value(tmp.path, "PRAGMA user_version"), "4");
  EXPECT_EQ(raw_value(tmp.path, "PRAGMA foreign_key_check"), "");
  EXPECT_NE(raw_value(tmp.path, "SELECT sql FROM sqlite_master WHERE name = 'events'").find("'pass'"), std::string::npos);
  // games was rebuilt too: its CHECK takes a scenario result, every row and both indexes stayed.
  EXPECT_NE(raw_value(tmp.path, "SELECT sql FROM sqlite_master WHERE name = 'games'").find("'scenario'"), std::string::npos);
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
                                "('games_by_result', 'games_by_ruleset')"),
            "2");
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM games WHERE id <= " + std::to_string(last_part)),
            std::to_string(texts.size()));
  EXPECT_FALSE(raw_exec(tmp.path, "UPDATE games SET result_reason = 'gave_up' WHERE id = 1")) << "the CHECK holds";
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM events WHERE game_id <= " + std::to_string(last_part)), events);
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM actions WHERE game_id <= " + std::to_string(last_part)), actions);
  // The rebuilt events table still cascades: a game deleted takes its events and rows along.
  ASSERT_TRUE(raw_exec(tmp.path, "PRAGMA foreign_keys = ON; DELETE FROM games WHERE id = 1"));
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM events WHERE game_id = 1"), "0");
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM actions WHERE game_id = 1"), "0");
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM annotations WHERE game_id = 1"), "0");
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM setup_events WHERE game_id = 1"), "0");
  EXPECT_EQ(raw_value(tmp.path, "PRAGMA foreign_key_check"), "");
}

// A two-player Hex Dice game never takes a scenario step: not through the live record,
// and not from a database row someone wrote by hand.
TEST(SoloRecord, ATwoPlayerGameRefusesScenarioStepsInTheDatabase) {
  TempDb tmp("two_player");
  auto db = record::RecordDb::open(tmp.path.string());
  ASSERT_TRUE(db.ok());
  const solo::Scenario sc = load_scenario("01-first-steps.json");
  Rng rng(1);
  auto g = solo::SoloGame::start(sc, solo::auto_setup(sc, rng));
  ASSERT_TRUE(g.ok());
  auto rec = GameRecord::from_position(g->position());  // a two-player game from the same board
  ASSERT_TRUE(rec.ok());
  auto game = record::RecordedGame::create(**db, *rec);
  ASSERT_TRUE(game.ok());
  Status s = game->step(RecordEntry::pass(game->record().current().to_move()));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("two-player Hex Dice game"), std::string::npos) << s.error();
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM events"), "0") << "nothing written";
  EXPECT_TRUE(game->record().entries().empty());
  // Nor a scenario result: not through the live record, not from a row written by hand.
  Status fin = game->finish(GameResult{ResultReason::Scenario, "red", "heroes win: a hero reached f10"}, "");
  ASSERT_FALSE(fin.ok());
  EXPECT_NE(fin.error().find("two-player Hex Dice game"), std::string::npos) << fin.error();
  EXPECT_EQ(raw_value(tmp.path, "SELECT count(*) FROM games WHERE result_reason IS NOT NULL"), "0") << "nothing written";
  {
    const std::string gid = std::to_string(game->id());
    ASSERT_TRUE(raw_exec(tmp.path, "UPDATE games SET result_reason = 'scenario', result_winner = 'red', termination = "
                                   "'heroes win', ended_at = '2026-12-01T08:00:00Z' WHERE id = " + gid));
    auto bad = (*db)->load_game(game->id());
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("two-player Hex Dice game"), std::string::npos) << bad.error();
    ASSERT_TRUE(raw_exec(tmp.path, "UPDATE games SET result_reason = NULL, result_winner = NULL, termination = NULL, "
                                   "ended_at = NULL WHERE id = " + gid));
  }
  // A pass row written by hand: the game no longer loads, and says why.
  const Position& pos = game->record().current();
  Position after = pos;  // the pass's position: the other side to move
  after.set_to_move(1 - pos.to_move());
  const std::string id = std::to_string(game->id());
  ASSERT_TRUE(raw_exec(tmp.path, "INSERT INTO events (game_id, seq, kind) VALUES (" + id + ", 0, 'pass');"
                                 "INSERT INTO scenario_steps (game_id, seq, ply, player, step, position) VALUES (" + id +
                                 ", 0, 0, '" + pos.player(pos.to_move()).id + "', '{\"kind\":\"pass\"}', '" +
                                 to_json(after).dump() + "')"));
  auto loaded = (*db)->load_game(game->id());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("event 0: pass: refused: this is a two-player Hex Dice game"), std::string::npos)
      << loaded.error();
  // The same row in a solo game's record loads.
  ASSERT_TRUE(raw_exec(tmp.path, "UPDATE games SET solo = 1 WHERE id = " + id));
  auto solo_loaded = (*db)->load_game(game->id());
  ASSERT_TRUE(solo_loaded.ok()) << solo_loaded.error();
  EXPECT_EQ(solo_loaded->entries().size(), 1u);
  EXPECT_EQ(solo_loaded->current().to_move(), 1 - pos.to_move());
  // ... unless its stored position is not the replay's.
  ASSERT_TRUE(raw_exec(tmp.path, "UPDATE scenario_steps SET position = '" + to_json(pos).dump() + "' WHERE game_id = " + id));
  auto tampered = (*db)->load_game(game->id());
  ASSERT_FALSE(tampered.ok());
  EXPECT_NE(tampered.error().find("the stored position differs from the replay"), std::string::npos) << tampered.error();
}

// The window killed (SIGKILL) at random moments, again and again, in a scenario with every
// kind of scenario step (04 Raiders: skipped turns, groups, reinforcements, a base capture
// not counted): each restart resumes the one logged game with the same dice, and the game
// that ends in the record is the game played without interruption.
TEST(SoloRecord, AKilledWindowResumesTheSameGameWithTheSameDice) {
  const solo::Scenario sc = load_scenario("04-raiders.json");
  TempDb tmp("killed");
  const std::uint64_t seed = 7;
  // The heroes' choice depends on the game only, so a resumed game chooses the same.
  auto choose = [](const gui::SoloSession& s) {
    const auto acts = s.game().hero_actions();
    const std::size_t n = s.game().history().size();
    Action a = acts[(n * 7 + 3) % acts.size()];
    if (a.type == ActionType::Reroll && a.face == 0) a.face = static_cast<std::uint8_t>(1 + n % 6);  // the die rolled
    return a;
  };
  auto step = [&](gui::SoloSession& s) -> bool {
    if (s.game().heroes_turn()) return s.hero(choose(s)).ok();
    s.enemy_turn();
    return s.record_error().empty();
  };
  auto ref = gui::SoloSession::start(sc, seed);
  ASSERT_TRUE(ref.ok());
  for (int i = 0; i < 400 && !ref->game().over(); ++i) ASSERT_TRUE(step(*ref)) << "step " << i;
  ASSERT_TRUE(ref->game().over());

  std::mt19937 rng(20261201);
  int kills = 0;
  bool done = false;
  for (int round = 0; round < 100 && !done; ++round) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto db = record::RecordDb::open(tmp.path.string(), {false, record::Durability::Normal, 2000});
      if (!db) _exit(2);
      auto games = (*db)->list_games();
      if (!games) _exit(3);
      if (!games->empty() && games->back().result.finished()) _exit(0);
      auto resumed = gui::SoloSession::resume(sc, **db, seed);
      if (!resumed) _exit(4);
      std::optional<gui::SoloSession> s;
      if (resumed->has_value()) s.emplace(std::move(**resumed));
      else {
        auto started = gui::SoloSession::start(sc, seed, db->get());
        if (!started) _exit(5);
        s.emplace(std::move(*started));
      }
      while (!s->game().over())
        if (!step(*s)) _exit(6);
      _exit(0);
    }
    ::usleep(static_cast<useconds_t>(1000 + rng() % (4000 + 1000 * static_cast<unsigned>(round))));  // a longer game takes longer to resume
    kills += ::kill(pid, SIGKILL) == 0;
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status)) {
      ASSERT_EQ(WEXITSTATUS(status), 0) << "the window failed by itself";
      done = true;
    }
  }
  ASSERT_TRUE(done) << "the game never finished";
  EXPECT_GE(kills, 3);
  auto db = record::RecordDb::open(tmp.path.string());
  ASSERT_TRUE(db.ok());
  auto games = (*db)->list_games();
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 1u) << "one game across every kill";
  auto rec = (*db)->load_game(games->front().id);
  ASSERT_TRUE(rec.ok()) << rec.error();
  EXPECT_TRUE(rec->finished());
  const auto& hist = ref->game().history();
  ASSERT_EQ(static_cast<std::size_t>(rec->ply()), hist.size());
  for (int k = 0; k < rec->ply(); ++k) {
    const RecordEntry& e = rec->entries()[static_cast<std::size_t>(rec->line_entries()[static_cast<std::size_t>(k)])];
    EXPECT_TRUE(e.action == hist[static_cast<std::size_t>(k)].action) << "ply " << k + 1;
  }
  EXPECT_TRUE(same_cells(rec->current(), ref->position()));
  int rolls = 0;
  for (const auto& e : rec->entries())
    if (auto n = solo::parse_roll_annotation(e.text)) EXPECT_EQ(n->index, ++rolls) << "virtual rolls continue across kills";
  EXPECT_EQ(rolls, ref->virtual_rolls());
  std::map<EntryKind, int> steps;
  for (const auto& e : rec->entries()) ++steps[e.kind];
  EXPECT_GT(steps[EntryKind::Place], 0);
  EXPECT_GT(steps[EntryKind::Again], 0);
}
