// The live referee on recorded observation sequences: every action inferred and nothing
// else, nothing committed while a hand is over the sheet, misreads rejected, declared
// attacks, corrections, takebacks, resume after a kill, and one-line errors for bad sources.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <opencv2/imgproc.hpp>

#include "companion/record/record_db.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"
#include "cli_runner.h"

namespace hexdice::referee {
namespace {

namespace fs = std::filesystem;
using hexdice::testing::run_hexdice;

fs::path temp_dir(const std::string& name) {
  const auto p = fs::temp_directory_path() / ("hexdice_ref_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

Position start_position() {
  auto pos = Position::create(5, {Player{"red", 0}, Player{"blue", 3}});
  EXPECT_TRUE(pos.ok());
  Position p = *pos;
  EXPECT_TRUE(p.place(Hex{0, -4}, 0, 3).ok());
  EXPECT_TRUE(p.place(Hex{0, -3}, 0, 1).ok());
  EXPECT_TRUE(p.place(Hex{1, -3}, 0, 4).ok());
  EXPECT_TRUE(p.place(Hex{0, 4}, 1, 5).ok());
  EXPECT_TRUE(p.place(Hex{0, 2}, 1, 2).ok());
  EXPECT_TRUE(p.place(Hex{-1, 3}, 1, 1).ok());
  return p;
}

// A recorded sequence at 10 fps: still frames of a view, and hand frames.
struct Feed {
  Referee& ref;
  int frame = 0;
  void still(const Observation& o, int n) {
    for (int i = 0; i < n; ++i, ++frame) ref.process(o, frame * 100.0, frame);
  }
  // A hand over the sheet: motion, and the dice under it half read (the new view, some cells lost).
  void hand(const Observation& o, int n) {
    for (int i = 0; i < n; ++i, ++frame) {
      Observation h = o;
      h.motion = true;
      if (!h.cells.empty() && i % 2 == 0) h.cells.pop_back();
      ref.process(h, frame * 100.0, frame);
    }
  }
};

std::unique_ptr<Referee> fresh(const fs::path& dir, const Position& start) {
  auto r = Referee::open((dir / "game.db").string(), start);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
  return std::move(*r);
}

// Random legal actions that leave a trace on the table (rerolls get a new face).
std::vector<Action> random_game(const Position& start, int plies, unsigned seed, std::vector<Position>* after) {
  std::mt19937 rng(seed);
  Position pos = start;
  std::vector<Action> out;
  for (int k = 0; k < plies && !pos.game_over(); ++k) {
    std::vector<Action> legal = legal_actions(pos);
    std::vector<Action> ok;
    for (Action a : legal) {
      if (a.type == ActionType::Reroll) a.face = static_cast<std::uint8_t>(pos.at(a.unit).face % 6 + 1);
      if (!leaves_no_trace(pos, a)) ok.push_back(a);
    }
    if (ok.empty()) break;
    const Action a = ok[rng() % ok.size()];
    auto ap = apply(pos, a);
    EXPECT_TRUE(ap.ok());
    pos = ap->position;
    out.push_back(a);
    if (after) after->push_back(pos);
  }
  return out;
}

TEST(Referee, EveryActionInferredAndNothingElse) {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const auto dir = temp_dir("every" + std::to_string(seed));
    const Position start = start_position();
    std::vector<Position> states;
    const std::vector<Action> played = random_game(start, 14, seed, &states);
    ASSERT_GE(played.size(), 4u);
    auto ref = fresh(dir, start);
    Feed feed{*ref};
    feed.still(observation_of(start), 5);
    for (const Position& p : states) {
      feed.hand(observation_of(p), 4);
      feed.still(observation_of(p), 6);
    }
    const RefereeView v = ref->view();
    EXPECT_TRUE(v.alert.empty()) << v.alert;
    ASSERT_EQ(v.ply, static_cast<int>(played.size()));
    // The record holds exactly the played actions, in order.
    auto db = record::RecordDb::open((dir / "game.db").string());
    ASSERT_TRUE(db.ok());
    auto rec = (*db)->load_game(v.game_id);
    ASSERT_TRUE(rec.ok());
    ASSERT_EQ(rec->line_entries().size(), played.size());
    for (std::size_t i = 0; i < played.size(); ++i)
      EXPECT_EQ(rec->entries()[static_cast<std::size_t>(rec->line_entries()[i])].action, played[i]) << "ply " << i + 1;
    EXPECT_EQ(rec->current(), states.back());
    // Latency: hand gone -> commit within 300 ms at 10 fps.
    ASSERT_EQ(v.commit_latency_ms.size(), played.size());
    for (double l : v.commit_latency_ms) EXPECT_LE(l, 300.0);
    fs::remove_all(dir);
  }
}

TEST(Referee, NothingCommittedWhileAHandIsInView) {
  const auto dir = temp_dir("hand");
  const Position start = start_position();
  std::vector<Position> states;
  random_game(start, 1, 7, &states);
  auto ref = fresh(dir, start);
  Feed feed{*ref};
  feed.still(observation_of(start), 4);
  // The hand stays for 3 s over the already-changed board, with every die readable.
  for (int i = 0; i < 30; ++i) {
    Observation o = observation_of(states[0]);
    o.motion = true;
    ref->process(o, feed.frame * 100.0, feed.frame);
    ++feed.frame;
    ASSERT_EQ(ref->view().ply, 0) << "committed under a hand at frame " << feed.frame;
  }
  // Marker loss counts as something over the sheet too.
  Observation lost;
  lost.board_found = false;
  feed.still(lost, 5);
  EXPECT_EQ(ref->view().ply, 0);
  // The hand leaves: committed once the view held still for the window.
  feed.still(observation_of(states[0]), 1);
  EXPECT_EQ(ref->view().ply, 0);
  feed.still(observation_of(states[0]), 2);
  EXPECT_EQ(ref->view().ply, 1);
  fs::remove_all(dir);
}

TEST(Referee, MisreadIsRejectedNotCommitted) {
  const auto dir = temp_dir("misread");
  const Position start = start_position();
  auto ref = fresh(dir, start);
  Feed feed{*ref};
  feed.still(observation_of(start), 4);
  // The reader now reports a different face with no hand seen: a misread, not a reroll.
  Observation bad = observation_of(start);
  for (auto& c : bad.cells)
    if (c.hex.q == 0 && c.hex.r == -4) c.face = 6;
  feed.still(bad, 6);
  RefereeView v = ref->view();
  EXPECT_EQ(v.ply, 0);
  EXPECT_NE(v.alert.find("misread"), std::string::npos) << v.alert;
  // A one-frame flicker is not even looked at.
  feed.still(observation_of(start), 3);
  v = ref->view();
  EXPECT_TRUE(v.alert.empty()) << v.alert;
  feed.still(bad, 1);
  feed.still(observation_of(start), 3);
  EXPECT_TRUE(ref->view().alert.empty());
  // The same face change with a hand before it is a reroll.
  feed.hand(bad, 3);
  feed.still(bad, 3);
  v = ref->view();
  ASSERT_EQ(v.ply, 1);
  EXPECT_EQ(v.position.at(Hex{0, -4})->face, 6);
  fs::remove_all(dir);
}

TEST(Referee, UnexplainedChangeAlertsWithNearestAndConfirmAccepts) {
  const auto dir = temp_dir("unexplained");
  const Position start = start_position();
  auto ref = fresh(dir, start);
  Feed feed{*ref};
  feed.still(observation_of(start), 3);
  // Blue moves although red is to move.
  Observation o = observation_of(start);
  for (auto& c : o.cells)
    if (c.hex.q == 0 && c.hex.r == 2) c.hex = Hex{0, 1};
  feed.hand(o, 2);
  feed.still(o, 4);
  RefereeView v = ref->view();
  EXPECT_EQ(v.ply, 0);
  ASSERT_TRUE(v.last_sync);
  EXPECT_EQ(v.last_sync->kind, SyncKind::WrongPlayer);
  EXPECT_FALSE(v.alert.empty());
  // A knight jumps to an unreachable cell: unexplained, the nearest legal actions named.
  feed.hand(observation_of(start), 2);
  feed.still(observation_of(start), 3);
  Observation far = observation_of(start);
  for (auto& c : far.cells)
    if (c.hex.q == 0 && c.hex.r == -4) c.hex = Hex{3, 1};
  feed.hand(far, 2);
  feed.still(far, 4);
  v = ref->view();
  EXPECT_EQ(v.ply, 0);
  EXPECT_EQ(v.last_sync->kind, SyncKind::Unexplained);
  EXPECT_NE(v.alert.find("nearest"), std::string::npos) << v.alert;
  ASSERT_FALSE(v.proposals.empty());
  EXPECT_FALSE(ref->command("confirm 99").ok());
  ASSERT_TRUE(ref->command("confirm 1").ok());
  EXPECT_EQ(ref->view().ply, 1);
  fs::remove_all(dir);
}

TEST(Referee, DeclaredFailedAttackSaysWhatTheTableMustDo) {
  const auto dir = temp_dir("declare");
  auto created = Position::create(5, {Player{"red", 0}, Player{"blue", 3}});
  ASSERT_TRUE(created.ok());
  Position p = *created;
  ASSERT_TRUE(p.place(Hex{0, -1}, 0, 1).ok());  // red Infantry, attack 2
  ASSERT_TRUE(p.place(Hex{0, 0}, 1, 5).ok());   // blue Tanker, armor 4
  ASSERT_TRUE(p.place(Hex{0, 4}, 1, 1).ok());
  auto ref = fresh(dir, p);
  Feed feed{*ref};
  feed.still(observation_of(p), 3);
  EXPECT_FALSE(ref->command("declare f6 f5").ok());   // blue's unit, red to move
  EXPECT_FALSE(ref->command("declare z9 f6").ok());   // not a cell
  auto r = ref->command("declare f5 f6");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_NE(r->find("put a -1 token on f5"), std::string::npos) << *r;
  EXPECT_NE(r->find("put a -1 token on f6"), std::string::npos) << *r;
  RefereeView v = ref->view();
  EXPECT_EQ(v.ply, 1);
  EXPECT_EQ(v.position.at(Hex{0, 0})->tokens, 1);
  // The table looks the same (tokens are not seen): it matches, nothing more is committed.
  feed.hand(observation_of(p), 2);
  feed.still(observation_of(p), 4);
  v = ref->view();
  EXPECT_EQ(v.ply, 1);
  EXPECT_TRUE(v.alert.empty()) << v.alert;
  EXPECT_NE(v.log.back().text.find("matches"), std::string::npos) << v.log.back().text;
  fs::remove_all(dir);
}

TEST(Referee, TakebackAndCorrections) {
  const auto dir = temp_dir("takeback");
  const Position start = start_position();
  std::vector<Position> states;
  const auto played = random_game(start, 1, 11, &states);
  auto ref = fresh(dir, start);
  Feed feed{*ref};
  feed.still(observation_of(start), 3);
  feed.hand(observation_of(states[0]), 2);
  feed.still(observation_of(states[0]), 3);
  ASSERT_EQ(ref->view().ply, 1);
  if (played[0].type != ActionType::Reroll) {
    ASSERT_TRUE(ref->command("takeback").ok());
    EXPECT_EQ(ref->view().ply, 0);
    feed.hand(observation_of(start), 2);
    feed.still(observation_of(start), 3);
    EXPECT_EQ(ref->view().ply, 0);
    EXPECT_TRUE(ref->view().alert.empty()) << ref->view().alert;
  }
  // A cell the camera keeps misreading is corrected by hand, then handed back to the camera.
  const Position& now = ref->view().position;
  Observation o = observation_of(now);
  const ObservedCell first = o.cells.front();
  o.cells.front().face = first.face % 6 + 1;  // the camera misreads it ...
  const std::string name = now.board().name(first.hex);
  ASSERT_TRUE(ref->command("set " + name + " " + first.color + " " + std::to_string(first.face)).ok());
  feed.hand(o, 2);
  feed.still(o, 4);
  EXPECT_TRUE(ref->view().alert.empty()) << ref->view().alert;
  EXPECT_FALSE(ref->command("set " + name + " red 9").ok());
  EXPECT_FALSE(ref->command("frobnicate").ok());
  ASSERT_TRUE(ref->command("clear " + name).ok());
  fs::remove_all(dir);
}

TEST(Referee, ThreadedQueueKeepsOrderAndResumesAfterReopen) {
  const auto dir = temp_dir("thread");
  const Position start = start_position();
  std::vector<Position> states;
  const auto played = random_game(start, 6, 5, &states);
  int frame = 0;
  {
    auto ref = fresh(dir, start);
    ref->start();
    auto post = [&](const Observation& o, int n, bool motion) {
      for (int i = 0; i < n; ++i, ++frame) {
        Observation x = o;
        x.motion = motion;
        ref->post_frame(x, frame * 100.0, frame);
      }
    };
    post(observation_of(start), 3, false);
    for (std::size_t k = 0; k < 3; ++k) {
      post(observation_of(states[k]), 2, true);
      post(observation_of(states[k]), 3, false);
    }
    ref->stop();
    EXPECT_EQ(ref->view().ply, 3);
  }
  // Reopened on the same database: the game goes on from ply 3.
  auto again = Referee::open((dir / "game.db").string(), std::nullopt);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE((*again)->resumed());
  EXPECT_EQ((*again)->view().position, states[2]);
  fs::remove_all(dir);
}

// ---- The binary: bad sources, and SIGKILL at any moment loses nothing -------------------

void write_sequence(const fs::path& dir, const Position& start, const std::vector<Position>& states) {
  int n = 0;
  auto put = [&](const Observation& o) {
    char name[32];
    std::snprintf(name, sizeof name, "%05d.json", n++);
    std::ofstream(dir / name) << to_json(o).dump();
  };
  for (int i = 0; i < 3; ++i) put(observation_of(start));
  for (const Position& p : states) {
    Observation h = observation_of(p);
    h.motion = true;
    for (int i = 0; i < 2; ++i) put(h);
    for (int i = 0; i < 5; ++i) put(observation_of(p));  // 250 ms at 20 fps: stable
  }
}

TEST(RefereeCli, BadSourcesGiveOneClearLine) {
  const auto dir = temp_dir("bad");
  const std::string db = (dir / "g.db").string();
  struct Case {
    std::string args;
    std::string expect;
  };
  fs::create_directories(dir / "empty");
  fs::create_directories(dir / "garbage");
  std::ofstream(dir / "garbage" / "0001.json") << "{not json";
  std::ofstream(dir / "notavideo.mp4") << "hello";
  const std::string start = std::string(HEXDICE_SOURCE_DIR) + "/data/demo/start.json";
  for (const Case& c : std::vector<Case>{
           {"--source 57", "no camera at index 57"},
           {"--source /nonexistent/x.mp4", "no such file"},
           {"--source " + (dir / "notavideo.mp4").string(), "notavideo.mp4"},
           {"--source " + (dir / "empty").string(), "no images"},
           {"--observations " + (dir / "empty").string(), "no *.json"},
           {"--observations " + (dir / "garbage").string(), "not valid JSON"},
       }) {
    const auto r = run_hexdice("referee " + c.args + " --db " + db + " --start " + start + " --no-stdin --fps 0");
    EXPECT_EQ(r.exit_code, 1) << c.args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << " -> " << r.err;
  }
  fs::remove_all(dir);
}

TEST(RefereeCli, KilledAtAnyMomentResumesLosingNothing) {
  const auto dir = temp_dir("kill");
  const Position start = start_position();
  std::vector<Position> states;
  const auto played = random_game(start, 10, 3, &states);
  ASSERT_GE(played.size(), 6u);
  fs::create_directories(dir / "obs");
  write_sequence(dir / "obs", start, states);
  const std::string start_file = (dir / "start.json").string();
  std::ofstream(start_file) << to_json(start).dump();
  const std::string db = (dir / "g.db").string();
  const std::string out = (dir / "out.txt").string();
  // Run at 40 fps and SIGKILL it after some commits.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string bin = std::string(HEXDICE_BIN_DIR) + "/hexdice";
    FILE* f = std::freopen(out.c_str(), "w", stdout);
    (void)f;
    ::execl(bin.c_str(), bin.c_str(), "referee", "--observations", (dir / "obs").c_str(), "--db", db.c_str(),
            "--start", start_file.c_str(), "--fps", "20", "--no-stdin", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Kill it as soon as it has printed two commits (the machine may be slow to start it).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    const std::string so_far = hexdice::testing::slurp(out);
    std::size_t n = 0;
    for (std::size_t at = so_far.find("committed"); at != std::string::npos; at = so_far.find("committed", at + 1)) ++n;
    if (n >= 2 || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "finished before the kill; make the sequence longer";
  // Every commit it printed is in the database.
  const std::string printed = hexdice::testing::slurp(out);
  int printed_commits = 0;
  int last_commit_frame = 0;
  for (std::size_t at = printed.find("committed"); at != std::string::npos; at = printed.find("committed", at + 1)) {
    ++printed_commits;
    const std::size_t fr = printed.rfind("[frame ", at);
    last_commit_frame = std::atoi(printed.c_str() + fr + 7);
  }
  ASSERT_GE(printed_commits, 1) << printed;
  ASSERT_LT(printed_commits, static_cast<int>(played.size()));
  {
    auto dbh = record::RecordDb::open(db, {true});
    ASSERT_TRUE(dbh.ok());
    auto g = (*dbh)->unfinished_game();
    ASSERT_TRUE(g.ok() && g->has_value());
    auto rec = (*dbh)->load_game(**g);
    ASSERT_TRUE(rec.ok());
    EXPECT_GE(rec->ply(), printed_commits);
    EXPECT_EQ(rec->current(), states[static_cast<std::size_t>(rec->ply() - 1)]);
  }
  // Restart on the same database with the frames from the last printed commit on.
  fs::create_directories(dir / "rest");
  for (const auto& e : fs::directory_iterator(dir / "obs"))
    if (std::atoi(e.path().filename().c_str()) >= last_commit_frame)
      fs::create_symlink(e.path(), dir / "rest" / e.path().filename());
  const auto r = run_hexdice("referee --observations " + (dir / "rest").string() + " --db " + db + " --start " +
                             start_file + " --fps 0 --no-stdin");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("resumed game"), std::string::npos) << r.out;
  auto dbh = record::RecordDb::open(db, {true});
  ASSERT_TRUE(dbh.ok());
  auto games = (*dbh)->list_games();
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 1u);
  auto rec = (*dbh)->load_game(games->front().id);
  ASSERT_TRUE(rec.ok());
  ASSERT_EQ(rec->ply(), static_cast<int>(played.size())) << r.out;
  for (std::size_t i = 0; i < played.size(); ++i)
    EXPECT_EQ(rec->entries()[static_cast<std::size_t>(rec->line_entries()[i])].action, played[i]);
  fs::remove_all(dir);
}

TEST(Motion, HandSizedChangeMovesNoiseDoesNot) {
  cv::Mat a(720, 1280, CV_8UC3, cv::Scalar(200, 200, 200));
  cv::Mat noisy = a.clone();
  cv::Mat noise(a.size(), CV_8UC3);
  cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(4));
  noisy += noise;
  cv::Mat hand = a.clone();
  cv::rectangle(hand, cv::Rect(900, 200, 380, 260), cv::Scalar(90, 120, 190), cv::FILLED);
  const MotionParams p;
  const cv::Mat ta = motion_thumb(a, p);
  EXPECT_LT(motion_fraction(ta, motion_thumb(noisy, p), p), p.min_fraction);
  EXPECT_GT(motion_fraction(ta, motion_thumb(hand, p), p), p.min_fraction);
  EXPECT_EQ(motion_fraction(cv::Mat(), ta, p), 0.0);
}

}  // namespace
}  // namespace hexdice::referee

namespace hexdice::referee {
namespace {

// The bundled demo (scripts/make_demo.py): exactly its five actions, the misread alerted.
TEST(RefereeCli, DemoGameLogsExactlyItsActions) {
  const std::string demo = std::string(HEXDICE_SOURCE_DIR) + "/data/demo";
  const auto dir = temp_dir("demo");
  const std::string db = (dir / "d.db").string();
  const auto r = run_hexdice("referee --observations " + demo + "/observations --commands " + demo +
                             "/commands.txt --start " + demo + "/start.json --db " + db + " --fps 0 --no-stdin");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ALERT: misread"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("put a -1 token on f4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("red won (base_capture)"), std::string::npos) << r.out;
  const auto h = run_hexdice("history --db " + db + " 1 --json");
  ASSERT_EQ(h.exit_code, 0) << h.err;
  std::vector<std::string> types;
  std::istringstream in(h.out);
  std::string line;
  while (std::getline(in, line)) {
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("action")) types.push_back(j["action"]["type"].get<std::string>());
  }
  EXPECT_EQ(types, (std::vector<std::string>{"move", "move", "reroll", "guard", "move"})) << h.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice::referee
