// The live loop under bad camera frames (robust20): a grey or colourless frame, a frame of
// another size mid-game, a camera that stops giving frames. None may produce an action;
// each is said (the referee's log and alert, the overlay's frame line), and the game goes on
// by itself once the frames are usable again.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "cli_runner.h"
#include "demo_game.h"
#include "companion/gui/live_loop.h"
#include "companion/gui/live_model.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"
#include "tests/vision/png_warning.h"

namespace hexdice::referee {
namespace {

namespace fs = std::filesystem;

struct DemoRun {
  std::vector<LogLine> log;
  Position final_position;
  int ply = 0;
  bool finished = false;
  std::string problem_after_first_bad;  // view().frame_problem right after the first bad frame
};

// The rendered demo game through FrameReader and the referee, each frame passed through
// `spoil` first (frame index -> the picture the camera gave).
template <class Spoil>
DemoRun referee_demo(const std::string& name, Spoil&& spoil) {
  DemoRun out;
  DemoGame game("hexdice_bad_frames", name);
  if (!game.ok()) return out;
  FrameReader reader(vision::standard_sheet());
  Frame f;
  bool seen_bad = false;
  while (game.src->next(f)) {
    game.type_commands(f.index);
    const cv::Mat image = spoil(f.index, f.image);
    const Observation o = reader.see(image);
    game.ref->process(o, f.index * 100.0, f.index, image);
    if (!seen_bad && !o.unusable.empty()) {
      seen_bad = true;
      out.problem_after_first_bad = game.ref->view().frame_problem;
    }
  }
  const RefereeView v = game.ref->view();
  out.log = v.log;
  out.final_position = v.position;
  out.ply = v.ply;
  out.finished = v.finished;
  return out;
}

bool committed(const LogLine& l) { return l.text.find("committed") != std::string::npos; }

TEST(RefereeBadFrames, GreyFramesAreSaidAndNeverActedOnAndTheGameGoesOn) {
  const DemoRun clean = referee_demo("clean", [](int, const cv::Mat& m) { return m; });
  ASSERT_TRUE(clean.finished);
  // The second action the camera saw (the first is followed at once by a typed attack,
  // which needs it committed): the two still frames before the one it was committed on are
  // made grey, the first one channel (a grey camera mode), the second colourless BGR. The
  // demo's table stays still for three frames after them (frames.json: the hand comes back
  // at 35): the action is seen then, two frames late.
  std::vector<int> seen;
  for (const LogLine& l : clean.log)
    if (committed(l) && l.text.find("(seen,") != std::string::npos) seen.push_back(l.frame);
  ASSERT_GE(seen.size(), 3u);
  const int from = seen[1] - 2, to = seen[1] - 1;
  ASSERT_GT(from, seen[0] + 3);
  const DemoRun grey = referee_demo("grey", [&](int i, const cv::Mat& m) {
    if (i < from || i > to) return m;
    cv::Mat g;
    cv::cvtColor(m, g, cv::COLOR_BGR2GRAY);
    if (i > (from + to) / 2) cv::cvtColor(g, g, cv::COLOR_GRAY2BGR);
    return g;
  });
  int said_grey = 0, said_colourless = 0, usable_again = -1;
  for (const LogLine& l : grey.log) {
    if (l.frame >= from && l.frame <= to) EXPECT_FALSE(committed(l)) << l.frame << ": " << l.text;
    if (l.text.rfind("camera frame not used: a grey frame", 0) == 0) {
      EXPECT_TRUE(l.alert);
      EXPECT_EQ(l.frame, from);
      ++said_grey;
    }
    if (l.text.rfind("camera frame not used: a colourless frame", 0) == 0) {
      EXPECT_EQ(l.frame, (from + to) / 2 + 1);
      ++said_colourless;
    }
    if (l.text == "camera frames usable again") usable_again = l.frame;
  }
  EXPECT_EQ(said_grey, 1);  // once per run of such frames, not once a frame
  EXPECT_EQ(said_colourless, 1);
  EXPECT_EQ(usable_again, to + 1);
  EXPECT_NE(grey.problem_after_first_bad.find("a grey frame"), std::string::npos) << grey.problem_after_first_bad;
  // The action done while the camera was grey is seen once colour is back: the same game.
  std::string text;
  int late = -1;
  for (const LogLine& l : grey.log) {
    text += std::to_string(l.frame) + (l.alert ? " ALERT " : " ") + l.text + "\n";
    if (late < 0 && l.frame > to && committed(l)) late = l.frame;
  }
  EXPECT_EQ(late, seen[1] + 2) << text;
  EXPECT_TRUE(grey.finished) << text;
  EXPECT_EQ(grey.ply, clean.ply);
  EXPECT_TRUE(grey.final_position == clean.final_position);
}

TEST(RefereeBadFrames, AFrameOfAnotherSizeIsNotReadWithTheOldPose) {
  const std::string demo = std::string(HEXDICE_SOURCE_DIR) + "/data/demo/frames/00000.jpg";
  const cv::Mat first = cv::imread(demo);
  ASSERT_FALSE(first.empty());
  FrameReader reader(vision::standard_sheet());
  const Observation a = reader.see(first);
  ASSERT_TRUE(a.board_found);
  ASSERT_FALSE(a.cells.empty());
  // The camera comes back at another size showing something else (no sheet, no markers):
  // the last pose is of the old picture and must not be read through.
  cv::Mat other(first.rows / 2 + 7, first.cols / 2 + 3, CV_8UC3, cv::Scalar(40, 160, 90));
  cv::circle(other, {other.cols / 3, other.rows / 2}, 40, cv::Scalar(30, 30, 220), cv::FILLED);
  const Observation b = reader.see(other);
  EXPECT_FALSE(b.board_found);
  EXPECT_TRUE(b.cells.empty());
  EXPECT_NE(b.unusable.find("the frame size changed from 1280x720 to"), std::string::npos) << b.unusable;
  // The next frame of the new size is read as any frame (no sheet in it: not found).
  const Observation c = reader.see(other);
  EXPECT_TRUE(c.unusable.empty()) << c.unusable;
  EXPECT_FALSE(c.board_found);
  EXPECT_TRUE(c.cells.empty());
  // An empty frame is said too.
  EXPECT_NE(reader.see(cv::Mat()).unusable.find("empty"), std::string::npos);
}

TEST(RefereeBadFrames, ACameraThatStopsGivingFramesIsAnErrorAVideoJustEnds) {
  const fs::path dir = hexdice::testing::temp_dir("hexdice_bad_frames", "camera");
  cv::Mat img(48, 64, CV_8UC3, cv::Scalar(20, 120, 220));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(cv::imwrite((dir / ("f_" + std::to_string(i) + ".png")).string(), img));
  for (const bool live : {true, false}) {
    auto cap = std::make_unique<cv::VideoCapture>();
    ASSERT_TRUE(cap->open((dir / "f_%d.png").string(), cv::CAP_IMAGES));
    auto src = capture_source(std::move(cap), live, "7");
    Frame f;
    int n = 0;
    while (src->next(f)) ++n;
    EXPECT_EQ(n, 3);
    if (live)
      EXPECT_EQ(src->error().rfind("camera 7 stopped giving frames after 3", 0), 0u) << src->error();
    else
      EXPECT_EQ(src->error(), "");
  }
  fs::remove_all(dir);
}

// The camera gone (the referee stops with its error), an action done on the table before it
// is back: the resumed referee sees it, as after a hand over the sheet. It called it a
// misread ("no hand seen since the last action"), to be confirmed by hand.
TEST(RefereeBadFrames, AnActionDoneWhileTheRefereeWasDownIsSeenOnResume) {
  const std::string demo = std::string(HEXDICE_SOURCE_DIR) + "/data/demo";
  auto start = parse_position(hexdice::testing::slurp(demo + "/start.json"));
  ASSERT_TRUE(start.ok());
  std::vector<Action> acts;
  legal_actions(*start, acts);
  const auto move = std::find_if(acts.begin(), acts.end(), [](const Action& a) { return a.type == ActionType::Move; });
  ASSERT_NE(move, acts.end());
  auto after = apply(*start, *move);
  ASSERT_TRUE(after.ok());
  const fs::path dir = hexdice::testing::temp_dir("hexdice_bad_frames", "resume");
  const std::string db = (dir / "game.db").string();
  {
    auto ref = Referee::open(db, *start);
    ASSERT_TRUE(ref.ok()) << ref.error();
    for (int i = 0; i < 4; ++i) (*ref)->process(observation_of(*start), i * 100.0, i);
    EXPECT_EQ((*ref)->view().ply, 0);
  }
  auto ref = Referee::open(db, std::nullopt);
  ASSERT_TRUE(ref.ok()) << ref.error();
  ASSERT_TRUE((*ref)->resumed());
  for (int i = 0; i < 4; ++i) (*ref)->process(observation_of(after->position), i * 100.0, i);
  EXPECT_EQ((*ref)->view().ply, 1) << (*ref)->view().alert;
  EXPECT_TRUE((*ref)->view().alert.empty()) << (*ref)->view().alert;
  ref->reset();
  fs::remove_all(dir);
}

TEST(RefereeBadFrames, TheOverlaySaysWhatToDoAboutAnUnusableFrame) {
  RefereeView v;
  v.alert = "camera frame not used: a grey frame (one channel): the dice's colours cannot be read from it; nothing "
            "is acted on until a usable frame";
  const auto a = gui::referee_alert(v);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->severity, gui::Severity::Error);
  EXPECT_NE(a->todo.find("colour"), std::string::npos) << a->todo;
  EXPECT_EQ(a->allowed.find("no legal action"), std::string::npos) << a->allowed;
}

// A camera that stops giving frames: LiveLoop keeps the source's error, and the overlay shows
// it with what to do (before, the live picture just stopped and no panel said why).
TEST(RefereeBadFrames, TheOverlaySaysACameraStoppedAndHowToGoOn) {
  EXPECT_FALSE(gui::source_alert("").has_value());
  const auto a = gui::source_alert("camera 0 stopped giving frames after 812 (unplugged, or taken by another program?)");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->severity, gui::Severity::Error);
  EXPECT_EQ(a->seen.rfind("camera 0 stopped giving frames", 0), 0u) << a->seen;
  EXPECT_NE(a->todo.find("same --db"), std::string::npos) << a->todo;
}

// A fake webcam: frames (the position's observation) while `plugged`, then, as a real
// CaptureSource does when its reads fail, false with the camera's error. Opening it while
// unplugged fails as open_source does ("no camera at index ...").
class FakeCamera : public FrameSource {
 public:
  FakeCamera(const std::atomic<bool>& plugged, Observation obs) : plugged_(plugged), obs_(std::move(obs)) {}
  bool next(Frame& f) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!plugged_) {
      error_ = "camera fake stopped giving frames after " + std::to_string(n_) + " (unplugged, or taken by another program?)";
      return false;
    }
    f = Frame{};
    f.index = n_++;
    f.obs = obs_;
    return true;
  }
  bool live() const override { return true; }

 private:
  const std::atomic<bool>& plugged_;
  Observation obs_;
  int n_ = 0;
};

template <class Pred>
bool wait_for(Pred&& p, double seconds = 20) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!p()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// The live loop on a folder of frame files, from the demo's start position, its record in
// DIR/game.db, frames read as fast as they come.
Result<std::unique_ptr<gui::LiveLoop>> live_on_frames(const fs::path& dir, const fs::path& frames) {
  auto start = parse_position(hexdice::testing::slurp(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/start.json"));
  if (!start.ok()) return Error{"data/demo/start.json: " + start.error()};
  gui::LiveOptions o;
  o.source = frames.string();
  o.db_path = (dir / "game.db").string();
  o.start = *start;
  o.fps = 0;
  return gui::LiveLoop::open(o);
}

// The webcam unplugged mid-game (robust22): the window says so and that it is being opened
// again, the referee keeps the game (same game, its frames go on), and the loop tries the
// camera again until it is back; then frames flow into the same game. Before, the capture
// thread ended at the first failed read and the game stopped until the companion was
// started again.
TEST(RefereeBadFrames, AnUnpluggedCameraIsOpenedAgainAndTheGameGoesOn) {
  const std::string demo = std::string(HEXDICE_SOURCE_DIR) + "/data/demo";
  auto start = parse_position(hexdice::testing::slurp(demo + "/start.json"));
  ASSERT_TRUE(start.ok());
  const fs::path dir = hexdice::testing::temp_dir("hexdice_bad_frames", "unplugged");
  std::atomic<bool> plugged{true};
  std::atomic<int> opens{0};
  gui::LiveOptions o;
  o.source = "fake";
  o.db_path = (dir / "game.db").string();
  o.start = *start;
  o.reopen_every_s = 0.05;
  o.open_source = [&](const std::string& spec) -> Result<std::unique_ptr<FrameSource>> {
    ++opens;
    if (!plugged) return Error{"no camera at index " + spec};
    return std::unique_ptr<FrameSource>(new FakeCamera(plugged, observation_of(*start)));
  };
  auto loop = gui::LiveLoop::open(o);
  ASSERT_TRUE(loop.ok()) << loop.error();
  gui::LiveLoop& l = **loop;
  ASSERT_TRUE(wait_for([&] { return l.view().frame >= 3; }));
  const std::int64_t game = l.view().game_id;

  plugged = false;  // the cable pulled
  ASSERT_TRUE(wait_for([&] { return opens.load() >= 4; })) << "the camera is tried again";
  const std::string said = l.source_error();
  EXPECT_EQ(said.rfind("camera fake stopped giving frames after ", 0), 0u) << said;
  EXPECT_NE(said.find("trying to open it again every 0.05 s"), std::string::npos) << said;
  EXPECT_NE(said.find(": no camera at index fake)"), std::string::npos) << said;
  EXPECT_TRUE(l.reopening());
  EXPECT_FALSE(l.source_done());
  const auto a = gui::source_alert(said, l.reopening());
  ASSERT_TRUE(a.has_value());
  EXPECT_NE(a->todo.find("opens it again by itself"), std::string::npos) << a->todo;
  const int frame_lost = l.view().frame;

  plugged = true;  // back
  ASSERT_TRUE(wait_for([&] { return l.view().frame >= frame_lost + 3; })) << "frames flow again";
  EXPECT_EQ(l.source_error(), "");
  EXPECT_FALSE(l.reopening());
  EXPECT_EQ(l.reconnects(), 1);
  EXPECT_EQ(l.view().game_id, game) << "the same game, its record kept";
  EXPECT_FALSE(l.view().finished);
  loop->reset();
  fs::remove_all(dir);
}

// A frame file's decoder warning in the window (robust23): `hexdice referee` printed it
// (robust22), the live loop dropped it. Now each is a line of the Event log where its frame
// came (LiveLoop::frame_warnings, log_with_frame_warnings) and the live view says the shown
// frame's (LivePicture::warning); the run goes on and the frame is read.
TEST(RefereeBadFrames, AFrameFilesDecoderWarningIsShownInTheWindow) {
  const fs::path dir = hexdice::testing::temp_dir("hexdice_bad_frames", "png_warning");
  const fs::path frames = dir / "frames";
  fs::create_directories(frames);
  ASSERT_TRUE(cv::imwrite((frames / "f0.png").string(), cv::Mat(4, 8, CV_8UC3, cv::Scalar(90, 120, 150))));
  const auto png = hexdice::testing::png_with_bad_gamma();
  for (const char* name : {"f1.png", "f2.png"})
    std::ofstream(frames / name, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  auto loop = live_on_frames(dir, frames);
  ASSERT_TRUE(loop.ok()) << loop.error();
  gui::LiveLoop& l = **loop;
  ASSERT_TRUE(wait_for([&] { return l.source_done() && l.view().frame >= 2; }));
  EXPECT_EQ(l.source_error(), "") << "a warning is no error: the frames are read";
  const std::string said = " libpng: gAMA: gamma value out of range (a warning: the picture was read as it is)";
  const auto w = l.frame_warnings();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(l.frame_warning_count(), 2);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(w[static_cast<std::size_t>(k)].frame, k + 1);
    EXPECT_TRUE(w[static_cast<std::size_t>(k)].alert);
    EXPECT_EQ(w[static_cast<std::size_t>(k)].text, "warning: " + (frames / ("f" + std::to_string(k + 1) + ".png")).string() + ":" + said);
  }
  gui::LivePicture pic;
  ASSERT_TRUE(l.latest(pic));
  EXPECT_EQ(pic.index, 2);
  EXPECT_EQ(pic.warning, (frames / "f2.png").string() + ":" + said);
  // The Event log: the referee's lines with the warnings in by frame.
  const auto shown = gui::log_with_frame_warnings(l.view().log, w);
  EXPECT_EQ(shown.size(), l.view().log.size() + 2);
  EXPECT_EQ(std::count_if(shown.begin(), shown.end(), [](const LogLine& x) { return x.text.rfind("warning: ", 0) == 0; }), 2);
  loop->reset();
  fs::remove_all(dir);
}

// The order of the Event log's lines: a frame's warning before the referee's lines of that
// frame, a command's line (frame -1) where it was said, the warnings not kept counted last.
TEST(RefereeBadFrames, FrameWarningsGoInTheLogByFrame) {
  const std::vector<LogLine> log = {{0, false, "a"}, {1, false, "b"}, {-1, false, "cmd"}, {2, true, "c"}, {4, false, "d"}};
  const std::vector<LogLine> warn = {{1, true, "w1"}, {2, true, "w2"}, {3, true, "w3"}, {6, true, "w6"}};
  std::string order;
  for (const auto& l : gui::log_with_frame_warnings(log, warn, 2)) order += l.text.substr(0, 2) + ",";
  EXPECT_EQ(order, "a,w1,b,cm,w2,c,w3,d,w6,2 ,");
  EXPECT_EQ(gui::log_with_frame_warnings(log, warn, 2).back().text, "2 more frame files gave a decoder warning (not listed)");
  EXPECT_EQ(gui::log_with_frame_warnings(log, {}).size(), log.size());
}

// A folder of frames with a file that cannot be read (cut short): the source ends there, as in
// `hexdice referee`, and the Alerts panel said "Camera: ..." and to check the camera's cable
// (robust23: no camera here). Now it names the file's fix.
TEST(RefereeBadFrames, AFrameFileThatCannotBeReadIsNoCameraCable) {
  const fs::path dir = hexdice::testing::temp_dir("hexdice_bad_frames", "cut_frame");
  const fs::path frames = dir / "frames";
  fs::create_directories(frames);
  std::vector<uchar> png;
  ASSERT_TRUE(cv::imencode(".png", cv::Mat(48, 64, CV_8UC3, cv::Scalar(90, 120, 150)), png));
  std::ofstream(frames / "f0.png", std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  std::ofstream(frames / "f1.png", std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size() / 2));
  auto loop = live_on_frames(dir, frames);
  ASSERT_TRUE(loop.ok()) << loop.error();
  gui::LiveLoop& l = **loop;
  ASSERT_TRUE(wait_for([&] { return l.source_done(); }));
  const std::string said = l.source_error();
  EXPECT_NE(said.find("f1.png"), std::string::npos) << said;
  EXPECT_FALSE(l.live());
  const auto a = gui::source_alert(said, l.reopening(), l.live());
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->todo.find("cable"), std::string::npos) << a->todo;
  EXPECT_NE(a->todo.find("replace or remove that file"), std::string::npos) << a->todo;
  EXPECT_NE(a->todo.find("same --db"), std::string::npos) << a->todo;
  // A camera's error still says the cable.
  EXPECT_NE(gui::source_alert("camera 0 stopped giving frames after 3", false, true)->todo.find("cable"), std::string::npos);
  loop->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice::referee
