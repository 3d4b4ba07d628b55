// The live referee on recorded observation sequences: every action inferred and nothing
// else, nothing committed while a hand is over the sheet, misreads rejected, declared
// attacks, corrections, takebacks, resume after a kill, and one-line errors for bad sources.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "companion/record/record_db.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"
#include "cli_runner.h"
#include "loose_dice.h"

namespace hexdice::referee {
namespace {

namespace fs = std::filesystem;
using hexdice::testing::run_hexdice;
using hexdice::testing::run_hexdice_killed_when;

fs::path temp_dir(const std::string& name) { return hexdice::testing::temp_dir("hexdice_ref", name); }

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

// Cells the reader lists as hidden (under a hand that does not move, or off a partly
// visible map) are unknown, not empty: the referee neither infers an action nor alerts
// from such a view, however long it holds still; the full view afterwards is acted on.
TEST(Referee, HiddenCellsAreUnknownAndNeverActedOn) {
  const auto dir = temp_dir("hidden");
  const Position start = start_position();
  std::vector<Position> states;
  const std::vector<Action> played = random_game(start, 1, 7, &states);
  ASSERT_EQ(played.size(), 1u);
  auto ref = fresh(dir, start);
  Feed feed{*ref};
  feed.still(observation_of(start), 4);
  ASSERT_EQ(ref->view().ply, 0);
  // A still view with two of the start's units not seen: they are listed as hidden.
  Observation part = observation_of(start);
  ASSERT_GE(part.cells.size(), 3u);
  for (int k = 0; k < 2; ++k) {
    part.hidden.push_back(part.cells.back().hex);
    part.cells.pop_back();
  }
  feed.still(part, 30);
  RefereeView v = ref->view();
  EXPECT_EQ(v.ply, 0);
  EXPECT_TRUE(v.alert.empty()) << v.alert;
  EXPECT_EQ(v.hidden_cells, 2);
  EXPECT_FALSE(v.stable);
  // The played action in view, with one untouched cell hidden: still nothing committed.
  Observation after = observation_of(states[0]);
  const Observation before = observation_of(start);
  auto untouched = [&](const ObservedCell& c) {
    for (const ObservedCell& b : before.cells)
      if (b.hex == c.hex && b.color == c.color && b.face == c.face && b.guard == c.guard) return true;
    return false;
  };
  std::size_t hide = 0;
  while (hide < after.cells.size() && !untouched(after.cells[hide])) ++hide;
  ASSERT_LT(hide, after.cells.size());
  Observation after_part = after;
  after_part.hidden.push_back(after_part.cells[hide].hex);
  after_part.cells.erase(after_part.cells.begin() + static_cast<long>(hide));
  feed.still(after_part, 30);
  v = ref->view();
  EXPECT_EQ(v.ply, 0);
  EXPECT_TRUE(v.alert.empty()) << v.alert;
  // The whole board in view: the action is inferred (the hidden period counts as the dice
  // having been handled, so it is not taken for a misread).
  feed.still(after, 3);
  v = ref->view();
  EXPECT_EQ(v.ply, 1);
  EXPECT_TRUE(v.alert.empty()) << v.alert;
  EXPECT_EQ(v.hidden_cells, 0);
  EXPECT_EQ(v.position, states[0]);
  // The observation JSON carries the hidden cells both ways.
  auto back = observation_from_json(to_json(after_part));
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back->hidden.size(), 1u);
  EXPECT_EQ(back->hidden[0], after_part.hidden[0]);
  EXPECT_FALSE(observation_from_json(Json{{"board_found", true}, {"hidden", 3}}).ok());
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

// A video file is opened with FFmpeg (or GStreamer, or as an image sequence), never by
// CAP_ANY, which would also scan USB for gphoto2 cameras: frames come back in order and at
// their size, and the source ends at the file's end.
TEST(FrameSource, VideoFileGivesItsFramesInOrder) {
  const auto dir = temp_dir("video");
  const std::string path = (dir / "game.avi").string();
  {
    cv::VideoWriter w(path, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, cv::Size(320, 240));
    ASSERT_TRUE(w.isOpened()) << "no MJPG writer";
    for (int i = 0; i < 5; ++i) w.write(cv::Mat(240, 320, CV_8UC3, cv::Scalar(40 * i, 255 - 40 * i, 128)));
  }
  auto src = open_source(path);
  ASSERT_TRUE(src.ok()) << src.error();
  Frame f;
  std::vector<double> blue;
  while ((*src)->next(f)) {
    ASSERT_EQ(f.image.size(), cv::Size(320, 240));
    blue.push_back(cv::mean(f.image)[0]);
  }
  ASSERT_EQ(blue.size(), 5u);
  for (std::size_t i = 0; i < blue.size(); ++i) EXPECT_NEAR(blue[i], 40.0 * static_cast<double>(i), 6.0) << "frame " << i;
  EXPECT_FALSE((*src)->live());
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
  // A frame cut short (a copy interrupted): refused with the reason, not read half grey.
  fs::create_directories(dir / "cut");
  {
    std::ifstream in(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/setup_roll.jpg", std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    ASSERT_GT(bytes.size(), 4000u);
    std::ofstream(dir / "cut" / "0001.jpg", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  const std::string start = std::string(HEXDICE_SOURCE_DIR) + "/data/demo/start.json";
  for (const Case& c : std::vector<Case>{
           {"--source 57", "no camera at index 57"},
           {"--source /nonexistent/x.mp4", "no such file"},
           {"--source " + (dir / "notavideo.mp4").string(), "notavideo.mp4"},
           {"--source " + (dir / "empty").string(), "no images"},
           {"--source " + (dir / "cut").string(), "truncated JPEG"},
           {"--observations " + (dir / "empty").string(), "no *.json"},
           {"--observations " + (dir / "garbage").string(), "not valid JSON"},
       }) {
    const auto r = run_hexdice("referee " + c.args + " --db " + db + " --start " + start + " --no-stdin --fps 0");
    EXPECT_EQ(r.exit_code, 1) << c.args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << " -> " << r.err;
    // Refused before the game record is opened: no empty game is left to resume.
    EXPECT_FALSE(fs::exists(db)) << c.args << " left a game record behind";
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
  // Run at 20 fps and SIGKILL it as soon as it has printed two commits (the machine may be
  // slow to start it).
  const bool killed = run_hexdice_killed_when({"referee", "--observations", (dir / "obs").string(), "--db", db,
                                               "--start", start_file, "--fps", "20", "--no-stdin"},
                                              out, "committed", 2, std::chrono::seconds(30));
  ASSERT_TRUE(killed) << "finished before the kill; make the sequence longer";
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

// ---- The rendered demo (tests/render/demo_frames.py): camera frames through the whole path
#include <opencv2/imgcodecs.hpp>

#include "companion/referee/setup_camera.h"
#include "vision/dice.h"
#include "vision/die_face.h"
#include "vision/sheet.h"
#include "vision/reader_synth.h"

namespace hexdice::referee {
namespace {

struct DemoTruth {
  bool hand = false;
  bool misread = false;
};

// data/demo/frames.json: per frame, what it shows.
std::vector<DemoTruth> demo_truth() {
  const Json j = Json::parse(hexdice::testing::slurp(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/frames.json"), nullptr, false);
  std::vector<DemoTruth> out;
  if (j.is_discarded()) return out;
  for (const Json& f : j["frames"]) out.push_back({f["hand"].get<bool>(), !f["misread"].is_null()});
  return out;
}

FrameCommands demo_commands() {
  auto c = parse_frame_commands(hexdice::testing::slurp(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/commands.txt"), "commands.txt");
  EXPECT_TRUE(c.ok()) << c.error();
  return c.ok() ? *c : FrameCommands{};
}

// The rendered demo game through FrameReader (motion + board reader) and the referee, as
// `hexdice referee --source data/demo/frames` runs it: exactly the five actions, none
// committed on a frame with a hand in view, the misread alerted and not committed, red wins.
// DISABLED: the board reader on main misreads some of these frames (see docs/referee.md);
// the lead enables it once the new reader (branch reader) is merged.
TEST(RefereeFrames, RenderedDemoEveryActionInferredAndNothingElse) {
  const fs::path frames = fs::path(HEXDICE_SOURCE_DIR) / "data/demo/frames";
  const std::vector<DemoTruth> truth = demo_truth();
  ASSERT_FALSE(truth.empty()) << "data/demo/frames.json missing (tests/render/demo_frames.py)";
  auto src = open_source(frames.string());
  ASSERT_TRUE(src.ok()) << src.error();
  std::string start_text = hexdice::testing::slurp(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/start.json");
  auto start = parse_position(start_text);
  ASSERT_TRUE(start.ok());
  const auto dir = temp_dir("frames");
  auto ref = fresh(dir, *start);
  const auto commands = demo_commands();
  FrameReader reader(vision::standard_sheet());
  Frame f;
  int n = 0;
  while ((*src)->next(f)) {
    auto [lo, hi] = commands.equal_range(f.index);
    for (auto it = lo; it != hi; ++it) (void)ref->command(it->second);
    ref->process(reader.see(f.image), f.index * 100.0, f.index);
    ++n;
  }
  ASSERT_EQ(n, static_cast<int>(truth.size()));
  const RefereeView v = ref->view();
  std::vector<int> commit_frames;
  bool misread_alerted = false;
  std::string log;
  for (const LogLine& l : v.log) {
    log += std::to_string(l.frame) + ": " + l.text + "\n";
    if (l.text.find("(seen, committed)") != std::string::npos) commit_frames.push_back(l.frame);
    if (l.alert && l.text.find("misread") != std::string::npos) {
      misread_alerted = true;
      EXPECT_TRUE(truth[static_cast<std::size_t>(l.frame)].misread) << "misread alert on a good frame " << l.frame << "\n" << log;
    }
  }
  for (int fr : commit_frames) {
    EXPECT_FALSE(truth[static_cast<std::size_t>(fr)].hand) << "committed with a hand in view at frame " << fr;
    EXPECT_FALSE(truth[static_cast<std::size_t>(fr)].misread) << "committed the misread at frame " << fr;
  }
  EXPECT_TRUE(misread_alerted) << log;
  EXPECT_EQ(commit_frames.size(), 4u) << log;  // move, reroll, guard, move; the attack is declared
  EXPECT_TRUE(v.finished) << log;
  EXPECT_EQ(v.result, "red won (base_capture)") << log;
  auto db = record::RecordDb::open((dir / "game.db").string());
  ASSERT_TRUE(db.ok());
  auto rec = (*db)->load_game(v.game_id);
  ASSERT_TRUE(rec.ok());
  std::vector<ActionType> types;
  for (int e : rec->line_entries()) types.push_back(rec->entries()[static_cast<std::size_t>(e)].action.type);
  EXPECT_EQ(types, (std::vector<ActionType>{ActionType::Move, ActionType::Move, ActionType::Reroll, ActionType::Guard,
                                            ActionType::Move}))
      << log;
  // Hand gone -> commit: the first frame without a hand to the commit, at the demo's 10 fps.
  for (int fr : commit_frames) {
    int first_clear = fr;
    while (first_clear > 0 && !truth[static_cast<std::size_t>(first_clear - 1)].hand) --first_clear;
    EXPECT_LE((fr - first_clear) * 100, 300) << "frame " << fr;
  }
  fs::remove_all(dir);
}

// What the reader of main does on the rendered demo, frame by frame, whatever it reads: the
// hand frames are the ones flagged as motion, and the frames after a rest state's first are
// not (repeated frames are the same image).
TEST(RefereeFrames, MotionFlagsExactlyTheHandPasses) {
  const fs::path frames = fs::path(HEXDICE_SOURCE_DIR) / "data/demo/frames";
  const std::vector<DemoTruth> truth = demo_truth();
  ASSERT_FALSE(truth.empty());
  auto src = open_source(frames.string());
  ASSERT_TRUE(src.ok()) << src.error();
  Frame f;
  cv::Mat prev;
  const MotionParams p;
  while ((*src)->next(f)) {
    cv::Mat thumb = motion_thumb(f.image, p);
    const bool moved = motion_fraction(prev, thumb, p) > p.min_fraction;
    const auto i = static_cast<std::size_t>(f.index);
    if (truth[i].hand) EXPECT_TRUE(moved) << "hand frame " << i << " not seen as motion";
    // A still frame after a still frame: no motion (the misread's one changed face included).
    if (i > 0 && !truth[i].hand && !truth[i - 1].hand) EXPECT_FALSE(moved) << "frame " << i;
    prev = std::move(thumb);
  }
}

}  // namespace
}  // namespace hexdice::referee

// ---- Setup by camera (companion/referee/setup_camera.h) --------------------------------------
namespace hexdice::referee {
namespace {

SetupConfig two_players() {
  SetupConfig c;
  c.radius = 5;
  c.players = {Player{"red", 0}, Player{"blue", 3}};
  c.dice_per_player = 6;
  return c;
}

TEST(SetupCamera, TypedSetupReachesTheStartPosition) {
  auto cs = CameraSetup::create(two_players());
  ASSERT_TRUE(cs.ok()) << cs.error();
  for (const char* line : {"roll red 1 2 3 3 5 6", "roll blue 6 6 5 4 2 1", "reroll red 6 5 to 2 1", "reroll blue none"})
    ASSERT_TRUE(cs->command(line).ok()) << line << ": " << cs->command(line).error();
  EXPECT_EQ(cs->setup().phase(), SetupPhase::Deploy);
  // Deployment outside the zone is refused, naming the cell; inside is fine.
  auto bad = cs->command("place red 3 f6");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("deployment zone"), std::string::npos) << bad.error();
  const Position& b = cs->setup().board();
  const auto red_zone = b.deployment_zone(0), blue_zone = b.deployment_zone(1);
  const std::vector<int> red_army = cs->setup().army(0), blue_army = cs->setup().army(1);
  for (std::size_t i = 0; i < 6; ++i) {
    ASSERT_TRUE(cs->command("place red " + std::to_string(red_army[i]) + " " + b.board().name(red_zone[i])).ok());
    ASSERT_TRUE(cs->command("place blue " + std::to_string(blue_army[i]) + " " + b.board().name(blue_zone[i])).ok());
  }
  EXPECT_EQ(cs->setup().phase(), SetupPhase::FirstPlayer);
  ASSERT_TRUE(cs->command("first red 4").ok());
  ASSERT_TRUE(cs->command("first blue 4").ok());  // a tie: both roll again
  EXPECT_EQ(cs->setup().phase(), SetupPhase::FirstPlayer);
  ASSERT_TRUE(cs->command("first red 2").ok());
  ASSERT_TRUE(cs->command("first blue 5").ok());
  ASSERT_TRUE(cs->setup().done());
  auto start = cs->setup().start_position();
  ASSERT_TRUE(start.ok()) << start.error();
  EXPECT_EQ(start->player(start->to_move()).id, "blue");
  EXPECT_NE(cs->prompt().find("blue moves first"), std::string::npos) << cs->prompt();
}

TEST(SetupCamera, ArmyRollRerollAndFirstRollFromImages) {
  auto cs = CameraSetup::create(two_players());
  ASSERT_TRUE(cs.ok());
  // Both armies loose on the table; each roll takes the dice of its colour.
  const std::vector<LooseDie> table = {{"red", 1}, {"red", 2}, {"red", 3}, {"red", 3}, {"red", 5}, {"red", 6},
                                       {"blue", 6}, {"blue", 6}, {"blue", 5}, {"blue", 4}, {"blue", 2}, {"blue", 1}};
  const cv::Mat img = dice_on_table(table, 1);
  auto r = cs->roll_from_image("red", img);
  ASSERT_TRUE(r.ok()) << r.error();
  std::vector<int> army = cs->setup().army(0);
  std::sort(army.begin(), army.end());
  EXPECT_EQ(army, (std::vector<int>{1, 2, 3, 3, 5, 6}));
  ASSERT_TRUE(cs->roll_from_image("blue", img).ok());
  // A roll of the wrong number of dice is refused and changes nothing.
  auto cs2 = CameraSetup::create(two_players());
  auto few = cs2->roll_from_image("red", dice_on_table({{"red", 1}, {"red", 2}, {"red", 3}}, 2));
  ASSERT_FALSE(few.ok());
  EXPECT_NE(few.error().find("sees 3 red dice"), std::string::npos) << few.error();
  EXPECT_FALSE(cs2->setup().has_rolled(0));
  // Red rerolls three dice: over the allowance of 2, refused; then two, accepted.
  auto over = cs->reroll_from_image("red", dice_on_table({{"red", 4}, {"red", 4}, {"red", 4}, {"red", 3}, {"red", 5}, {"red", 6}}, 3));
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().find("allowance is 2"), std::string::npos) << over.error();
  EXPECT_FALSE(cs->setup().has_rerolled(0));
  auto ok = cs->reroll_from_image("red", dice_on_table({{"red", 4}, {"red", 4}, {"red", 3}, {"red", 3}, {"red", 5}, {"red", 6}}, 4));
  ASSERT_TRUE(ok.ok()) << ok.error();
  ASSERT_EQ(ok->size(), 1u);
  std::vector<int> from = ok->front().faces, to = ok->front().to;
  std::sort(from.begin(), from.end());
  EXPECT_EQ(from, (std::vector<int>{1, 2}));
  EXPECT_EQ(to, (std::vector<int>{4, 4}));
  // Blue shows the same army: nothing changed, the reroll is declined.
  auto same = cs->reroll_from_image("blue", img);
  ASSERT_TRUE(same.ok()) << same.error();
  EXPECT_TRUE(same->front().faces.empty());
  EXPECT_EQ(cs->setup().phase(), SetupPhase::Deploy);
  // Typed deployment, then the first-player roll from one image with a die of each colour.
  const Position& b = cs->setup().board();
  for (int p = 0; p < 2; ++p) {
    const auto zone = b.deployment_zone(p);
    const std::vector<int> a = cs->setup().army(p);
    for (std::size_t i = 0; i < a.size(); ++i)
      ASSERT_TRUE(cs->command(std::string(p ? "place blue " : "place red ") + std::to_string(a[i]) + " " + b.board().name(zone[i])).ok());
  }
  auto first = cs->first_roll_from_image(dice_on_table({{"red", 6}, {"blue", 3}}, 5));
  ASSERT_TRUE(first.ok()) << first.error();
  ASSERT_TRUE(cs->setup().done());
  EXPECT_EQ(cs->setup().first_player(), 0);
}

// The rendered army roll (data/demo/setup_roll.jpg, tests/render/demo_frames.py --setup-roll):
// both armies are read exactly from the one picture (find_dice with the library defaults:
// body blobs and distance peaks read by the lattice pip reader at full resolution).
TEST(SetupCamera, RenderedArmyRollIsReadExactly) {
  const std::string dir = std::string(HEXDICE_SOURCE_DIR) + "/data/demo/";
  const cv::Mat img = cv::imread(dir + "setup_roll.jpg");
  ASSERT_FALSE(img.empty());
  const Json label = Json::parse(hexdice::testing::slurp(dir + "setup_roll.json"), nullptr, false);
  ASSERT_FALSE(label.is_discarded());
  auto cs = CameraSetup::create(two_players());
  ASSERT_TRUE(cs.ok());
  for (const std::string player : {"red", "blue"}) {
    std::vector<int> truth;
    for (const Json& d : label["dice"])
      if (d["color"] == player) truth.push_back(d["face"].get<int>());
    ASSERT_EQ(truth.size(), 6u);
    std::sort(truth.begin(), truth.end());
    const int p = player == "red" ? 0 : 1;
    auto r = cs->roll_from_image(player, img);
    ASSERT_TRUE(r.ok()) << player << ": " << r.error();
    ASSERT_TRUE(cs->setup().has_rolled(p));
    std::vector<int> army = cs->setup().army(p);
    std::sort(army.begin(), army.end());
    EXPECT_EQ(army, truth) << player;
  }
  // Every die of the picture, where it lies: twelve detections, each on a labelled die's
  // top face with its colour and face, none left over.
  const auto dice = vision::find_dice(img);
  ASSERT_EQ(dice.size(), label["dice"].size());
  std::vector<bool> used(dice.size(), false);
  for (const Json& d : label["dice"]) {
    const double tx = d["top_px"][0].get<double>(), ty = d["top_px"][1].get<double>();
    int hit = -1;
    for (std::size_t i = 0; i < dice.size(); ++i) {
      const double cx = dice[i].box.x + dice[i].box.width / 2.0, cy = dice[i].box.y + dice[i].box.height / 2.0;
      if (!used[i] && std::hypot(cx - tx, cy - ty) < 0.35 * dice[i].box.width) hit = static_cast<int>(i);
    }
    ASSERT_GE(hit, 0) << "no detection on the " << d["color"] << " " << d["face"] << " at " << tx << "," << ty;
    used[static_cast<std::size_t>(hit)] = true;
    EXPECT_EQ(dice[static_cast<std::size_t>(hit)].face, d["face"].get<int>()) << d["color"] << " at " << tx << "," << ty;
    EXPECT_EQ(dice[static_cast<std::size_t>(hit)].color, d["color"].get<std::string>()) << d["face"] << " at " << tx << "," << ty;
  }
}

TEST(SetupCamera, DeploymentFromTheSheetCheckedAgainstTheZones) {
  auto cs = CameraSetup::create(two_players());
  ASSERT_TRUE(cs.ok());
  ASSERT_TRUE(cs->command("roll red 1 2 3 4 5 6").ok());
  ASSERT_TRUE(cs->command("roll blue 1 2 3 4 5 6").ok());
  ASSERT_TRUE(cs->command("reroll red none").ok());
  ASSERT_TRUE(cs->command("reroll blue none").ok());
  const Position& b = cs->setup().board();
  const auto red_zone = b.deployment_zone(0);
  // The reader sees red's dice in its zone: placed, all at once.
  vision::Observation obs;
  obs.board_found = true;
  for (int i = 0; i < 6; ++i) obs.cells.push_back({red_zone[static_cast<std::size_t>(i)], "red", i + 1, false, 0.9});
  auto r = cs->deploy_from_observation(obs);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->size(), 6u);
  EXPECT_TRUE(cs->setup().unplaced(0).empty());
  // A blue die in the middle of the map: outside the zone, refused, nothing of blue placed.
  vision::Observation more = obs;
  const auto blue_zone = b.deployment_zone(1);
  more.cells.push_back({blue_zone[0], "blue", 1, false, 0.9});
  more.cells.push_back({Hex{0, 0}, "blue", 2, false, 0.9});
  auto bad = cs->deploy_from_observation(more);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("deployment zone"), std::string::npos) << bad.error();
  EXPECT_EQ(cs->setup().unplaced(1).size(), 6u);
  // A die already deployed that now reads differently is named, not silently changed.
  vision::Observation changed = obs;
  changed.cells[0].face = 6;
  auto ch = cs->deploy_from_observation(changed);
  ASSERT_FALSE(ch.ok());
  EXPECT_NE(ch.error().find("the camera sees red 6"), std::string::npos) << ch.error();
  // The same through an image of the sheet (the reader's own synthetic renderer, top-down).
  const vision::SheetLayout layout = vision::standard_sheet();
  std::vector<vision::SynthDie> dice;
  for (int i = 0; i < 6; ++i) dice.push_back({red_zone[static_cast<std::size_t>(i)], "red", i + 1, false});
  for (int i = 0; i < 6; ++i) dice.push_back({blue_zone[static_cast<std::size_t>(i)], "blue", 6 - i, false});
  vision::SynthOptions o;
  o.noise_sigma = 1.5;
  const auto scene = vision::render_synth_scene(layout, dice, o);
  auto img = cs->deploy_from_image(scene.image);
  ASSERT_TRUE(img.ok()) << img.error();
  EXPECT_EQ(img->size(), 6u);
  EXPECT_EQ(cs->setup().phase(), SetupPhase::FirstPlayer);
}

TEST(SetupCli, ScriptWithImagesAndTypedFallbackWritesTheStart) {
  const auto dir = temp_dir("setupcli");
  const std::string tray = (dir / "tray.jpg").string();
  cv::imwrite(tray, dice_on_table({{"red", 1}, {"red", 2}, {"red", 3}, {"red", 3}, {"red", 5}, {"red", 6}}, 7));
  std::ofstream(dir / "config.json") << to_json(two_players()).dump();
  std::ofstream(dir / "script.txt") << "roll red @" << tray << "\n"
                                    << "roll blue @" << tray << "\n"  // no blue dice: refused, then typed
                                    << "roll blue 2 2 4 4 6 6\nreroll red none\nreroll blue 2 2 to 1 1\n"
                                    << "place red 1 a1\n";
  const auto r = run_hexdice("setup " + (dir / "config.json").string() + " --script " + (dir / "script.txt").string() +
                             " --out " + (dir / "start.json").string());
  // The script stops in the deployment: one clear error line, nothing written.
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("refused: setup: the camera sees 0 blue dice"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"type\":\"reroll\""), std::string::npos) << r.out;
  EXPECT_EQ(r.err.rfind("hexdice: setup: not finished", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(dir / "start.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice::referee
