// Runs hexdice-companion under Xvfb like a user would: a few frames on the history with a
// replay and the demo frame, a screenshot and the list of windows drawn. Skipped when the
// GUI is not built or Xvfb is not installed.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "companion/record/record_db.h"
#include "companion/solo/solo_record.h"
#include "tests/companion/window_test.h"
#include "tests/vision/png_warning.h"

namespace fs = std::filesystem;

namespace {

using hexdice::testing::on_path;
using hexdice::testing::Xvfb;
using hexdice::testing::read_dump;
using hexdice::testing::any_starts;
using hexdice::testing::any_contains;

}  // namespace

// Every window test: skipped without the companion binary or Xvfb; an Xvfb server of its
// own and a fresh temporary directory named after the test.
class CompanionGui : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
    if (!on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
    ASSERT_TRUE(x.start()) << "Xvfb did not start";
    dir = fs::temp_directory_path() /
          ("hexdice_gui_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  Xvfb x;
  fs::path dir;
};

TEST_F(CompanionGui, OpensOnHistoryAndDemoDrawsEveryPanelAndANonBlankPicture) {
  const fs::path png = dir / "shot.png", ui = dir / "ui.json", db = dir / "games.sqlite";
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --history --db " + db.string() + " --frames 8 --screenshot " + png.string() +
                          " --dump-ui " + ui.string() + " 2>" + (dir / "err.txt").string();
  const int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << cmd;

  const cv::Mat img = cv::imread(png.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(img.empty());
  EXPECT_EQ(img.cols, 1600);
  EXPECT_EQ(img.rows, 900);
  cv::Mat grey;
  cv::cvtColor(img, grey, cv::COLOR_BGR2GRAY);
  cv::Scalar mean, stddev;
  cv::meanStdDev(grey, mean, stddev);
  EXPECT_GT(stddev[0], 15.0) << "the screenshot looks blank";
  // The demo picture is in it: many distinct colours, not just the flat UI theme.
  cv::Mat small;
  cv::resize(img, small, cv::Size(400, 225), 0, 0, cv::INTER_AREA);
  std::set<int> colours;
  for (int y = 0; y < small.rows; ++y)
    for (int xx = 0; xx < small.cols; ++xx) {
      const cv::Vec3b p = small.at<cv::Vec3b>(y, xx);
      colours.insert((p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3));
    }
  EXPECT_GT(colours.size(), 500u);

  std::ifstream in(ui);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<std::string, std::vector<std::string>> windows;
  for (const auto& w : j) windows[w.at("title").get<std::string>()] = w.at("labels").get<std::vector<std::string>>();
  for (const char* t : {"Board", "Live view", "History", "Turn", "Event log", "Alerts", "Players", "House rules", "Camera"})
    EXPECT_TRUE(windows.count(t)) << "window not drawn: " << t;
  // The board replays the latest sample game: units with their labels (name and armor).
  const auto& board = windows["Board"];
  ASSERT_FALSE(board.empty());
  EXPECT_EQ(board[0].rfind("Replay: ", 0), 0u) << board[0];
  int units = 0;
  for (const auto& l : board) units += l.find(" A") != std::string::npos;
  EXPECT_GT(units, 0);
  const auto& hist = windows["History"];
  EXPECT_NE(std::find(hist.begin(), hist.end(), "5 games"), hist.end());
  EXPECT_NE(std::find(hist.begin(), hist.end(), "replay"), hist.end());
  const auto& cam = windows["Camera"];
  EXPECT_NE(std::find(cam.begin(), cam.end(), "no camera"), cam.end());
  fs::remove_all(dir);
}


// The History panel at the default window size with a replay open: the list with the
// scrubber, and the statistics tab, each without scrolling the panel (the statistics
// were below the fold before they had their own tab).
TEST_F(CompanionGui, HistoryListAndStatisticsFitThePanelWithoutScrolling) {
  const fs::path db = dir / "games.sqlite";
  const std::string base = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                           " --history --no-live --db " + db.string() + " --frames 4 ";
  for (const char* size : {"", "--width 1280 --height 720 "}) {
    ASSERT_EQ(std::system((base + size + "--dump-ui " + (dir / "list.json").string()).c_str()), 0);
    auto w = read_dump(dir / "list.json");
    const auto& list = w["History"];
    EXPECT_TRUE(hexdice::testing::has(list, "5 games")) << size;
    EXPECT_TRUE(hexdice::testing::has(list, "replay")) << size;
    EXPECT_FALSE(any_starts(list, "needs scrolling")) << size << ::testing::PrintToString(list);
    ASSERT_EQ(std::system((base + size + "--history-stats --dump-ui " + (dir / "stats.json").string()).c_str()), 0);
    w = read_dump(dir / "stats.json");
    const auto& stats = w["History"];
    EXPECT_TRUE(any_starts(stats, "stats: ")) << "the statistics tab is drawn";
    EXPECT_TRUE(any_starts(stats, "stats combats won, lost: red: ")) << ::testing::PrintToString(stats);
    EXPECT_TRUE(any_starts(stats, "stats rolled 4, 5, 6: blue rolled a 4 ")) << ::testing::PrintToString(stats);
    EXPECT_FALSE(any_starts(stats, "needs scrolling")) << size << ::testing::PrintToString(stats);
  }
  fs::remove_all(dir);
}

// The window drives the referee on the bundled demo (no camera): run until the demo's
// misread, screenshot the live view, and check the panels a user needs at that moment.
TEST_F(CompanionGui, DemoRefereeLiveViewShowsLabelledDiceTheMisreadAlertAndItsProposal) {
  const fs::path png = dir / "live.png", ui = dir / "ui.json", db = dir / "games.sqlite";
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --db " + db.string() + " --fps 0 --until-frame 48 --frames 3 --screenshot " + png.string() +
                          " --dump-ui " + ui.string() + " 2>" + (dir / "err.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const cv::Mat img = cv::imread(png.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(img.empty());
  auto w = read_dump(ui);
  ASSERT_TRUE(w.count("Board") && w.count("Live view") && w.count("Alerts") && w.count("Event log") && w.count("Camera"));
  EXPECT_EQ(w["Board"].front().rfind("Referee: ", 0), 0u) << w["Board"].front();
  // Live view: every die labelled from the game (unit name and effective armor).
  int live = 0;
  for (const auto& l : w["Live view"]) live += l.rfind("live: ", 0) == 0 && l.find(" A") != std::string::npos;
  EXPECT_GE(live, 3);
  // The misread die says what the game has there (no bare "?").
  EXPECT_TRUE(any_starts(w["Live view"], "live: f4 Balance (game: Tanker)")) << ::testing::PrintToString(w["Live view"]);
  // The referee's misread, in three parts, and its proposal on the board with Confirm.
  EXPECT_TRUE(any_starts(w["Alerts"], "referee alert: misread")) << "no misread alert";
  EXPECT_TRUE(any_starts(w["Alerts"], "referee todo: ")) ;
  EXPECT_TRUE(any_starts(w["Board"], "referee proposal 1: "));
  EXPECT_TRUE(any_starts(w["Event log"], "ply 1 ")) << "the referee's committed actions are logged";
  EXPECT_TRUE(any_starts(w["Camera"], "markers 4"));
  // No hint unasked.
  EXPECT_FALSE(any_starts(w["Board"], "hint: "));
  fs::remove_all(dir);
}

// A damaged game database (robust23): its alert came below the demo's note and told the user to
// use "a writable disk". Now it is the first alert and says the file is kept and what to do.
TEST_F(CompanionGui, ADamagedDatabaseIsTheFirstAlertAndSaysWhatToDo) {
  const fs::path png = dir / "db.png", ui = dir / "ui.json", db = dir / "damaged.sqlite";
  {
    std::ofstream out(db, std::ios::binary);
    out << std::string("SQLite format 3") << '\0' << std::string(3000, '\x5a');
  }
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --demo --db " + db.string() + " --frames 3 --screenshot " + png.string() + " --dump-ui " +
                          ui.string() + " 2>" + (dir / "err.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto w = read_dump(ui);
  std::vector<std::string> alerts;
  for (const auto& l : w["Alerts"])
    if (l.rfind("alert: ", 0) == 0 || l.rfind("alert todo: ", 0) == 0) alerts.push_back(l);
  ASSERT_GE(alerts.size(), 4u) << ::testing::PrintToString(w["Alerts"]);
  EXPECT_EQ(alerts[0].rfind("alert: the game database " + db.string() + " cannot be opened: ", 0), 0u) << alerts[0];
  EXPECT_NE(alerts[1].find("left as it is"), std::string::npos) << alerts[1];
  EXPECT_EQ(alerts[1].find("writable disk"), std::string::npos) << alerts[1];
  EXPECT_EQ(alerts[2].rfind("alert: no camera connected", 0), 0u) << alerts[2];
  EXPECT_EQ(fs::file_size(db), 16u + 3000u) << "the damaged file is not overwritten";
  fs::remove_all(dir);
}

// A frame file's decoder warning in the window (robust23): the Event log says it, the live view
// says the shown frame's (before, only `hexdice referee` printed it).
TEST_F(CompanionGui, AFrameFilesDecoderWarningIsInTheEventLog) {
  const fs::path frames = dir / "frames", png = dir / "warn.png", ui = dir / "ui.json";
  fs::create_directories(frames);
  const auto bad = hexdice::testing::png_with_bad_gamma();
  std::ofstream(frames / "f0.png", std::ios::binary).write(reinterpret_cast<const char*>(bad.data()), static_cast<std::streamsize>(bad.size()));
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() + " --source " +
                          frames.string() + " --start " + std::string(HEXDICE_SOURCE_DIR) + "/data/demo/start.json --db " +
                          (dir / "g.sqlite").string() + " --fps 0 --until-frame 0 --frames 3 --screenshot " + png.string() +
                          " --dump-ui " + ui.string() + " 2>" + (dir / "err.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto w = read_dump(ui);
  const std::string said = (frames / "f0.png").string() + ": libpng: gAMA: gamma value out of range (a warning: the picture was read as it is)";
  EXPECT_TRUE(any_starts(w["Event log"], "warning: " + said)) << ::testing::PrintToString(w["Event log"]);
  EXPECT_TRUE(any_starts(w["Live view"], "live warning: " + said)) << ::testing::PrintToString(w["Live view"]);
  fs::remove_all(dir);
}

// A hint on request, and solo play: the Enemy Turn says which die to move and why.
TEST_F(CompanionGui, HintOnRequestAndSoloEnemyTurnExplained) {
  const fs::path db = dir / "games.sqlite";
  const std::string base = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() + " --db " +
                           db.string() + " --frames 3 ";
  // Hint in a game on the board.
  ASSERT_EQ(std::system((base + "--no-live --new-game 3 --hint --screenshot " + (dir / "hint.png").string() + " --dump-ui " +
                         (dir / "hint.json").string()).c_str()), 0);
  auto w = read_dump(dir / "hint.json");
  EXPECT_TRUE(any_starts(w["Board"], "hint: ")) << "the hint was asked for but not shown";
  // Solo: the heroes guard (their first legal guard), then the Enemy Turn with the virtual die.
  const std::string scen = std::string(HEXDICE_SOURCE_DIR) + "/data/scenarios/01-first-steps.json";
  ASSERT_EQ(std::system((base + "--solo " + scen + " --seed 5 --screenshot " + (dir / "solo0.png").string() + " --dump-ui " +
                         (dir / "solo0.json").string()).c_str()), 0);
  w = read_dump(dir / "solo0.json");
  ASSERT_TRUE(w.count("Solo"));
  EXPECT_EQ(w["Board"].front().rfind("Solo: ", 0), 0u) << w["Board"].front();
  EXPECT_FALSE(any_starts(w["Solo"], "enemy: ")) << "the enemy does not act before its turn";
  // The hero Infantry on e9 steps to e8 (two clicks + Enter), then the Enemy Turn (virtual die;
  // seed 2 rolls a 1, the enemy Infantry: some seeds roll a Tanker, which skips the turn).
  ASSERT_EQ(std::system((base + "--solo " + scen + " --seed 2 --click e9 --click e8 --confirm --enemy-turn --screenshot " +
                         (dir / "solo1.png").string() + " --dump-ui " + (dir / "solo1.json").string()).c_str()), 0);
  w = read_dump(dir / "solo1.json");
  EXPECT_TRUE(any_contains(w["Solo"], ", enemy roll: ")) << "the roll is shown";
  EXPECT_TRUE(any_starts(w["Solo"], "why: ")) << "each enemy action is explained";
  EXPECT_TRUE(any_starts(w["Solo"], "enemy: Move the black ")) << "which enemy die to move, and where";
  EXPECT_TRUE(any_contains(w["Event log"], ", enemy roll: ")) << "the roll is logged";
  // The window logged the solo game: the hero's step, the roll annotation, the enemy's actions.
  std::int64_t solo_id = 0;
  {
    auto rdb = hexdice::record::RecordDb::open(db.string(), {true});
    ASSERT_TRUE(rdb.ok()) << rdb.error();
    auto games = (*rdb)->list_games();
    ASSERT_TRUE(games.ok());
    for (const auto& g : *games) solo_id = g.event == "solo: First Steps" ? std::max(solo_id, g.id) : solo_id;
    ASSERT_GT(solo_id, 0) << "no solo game in the database";
    auto logged = hexdice::solo::load_solo(**rdb, solo_id);
    ASSERT_TRUE(logged.ok()) << logged.error();
    int actions = 0, rolls = 0;
    for (const auto& e : logged->entries) {
      actions += e.kind == hexdice::EntryKind::Action;
      rolls += hexdice::solo::parse_roll_annotation(e.text).has_value();
    }
    EXPECT_GE(actions, 2) << "the hero's move and the enemy's";
    EXPECT_EQ(rolls, 1);
  }
  // The same command line again resumes that game (not a new one).
  ASSERT_EQ(std::system((base + "--solo " + scen + " --seed 2 --dump-ui " + (dir / "solo2.json").string()).c_str()), 0);
  w = read_dump(dir / "solo2.json");
  EXPECT_TRUE(any_starts(w["Solo"], "logged as game " + std::to_string(solo_id))) << "the unfinished game is resumed";
  EXPECT_TRUE(any_contains(w["Event log"], "Resumed solo game ")) << "the resume is logged";
  fs::remove_all(dir);
}

// A whole solo game (`hexdice solo --db`: 38 actions that were 23 linked games before
// schema 4) is one row in the History panel, and it replays on the board.
TEST_F(CompanionGui, HistoryShowsAWholeSoloGameAsOneRow) {
  const fs::path db = dir / "games.sqlite";
  const std::string scen = std::string(HEXDICE_SOURCE_DIR) + "/data/scenarios/01-first-steps.json";
  ASSERT_EQ(std::system(((fs::path(HEXDICE_BIN_DIR) / "hexdice").string() + " solo --scenario " + scen +
                         " --seed 2 --auto-player greedy --db " + db.string() + " >/dev/null")
                            .c_str()),
            0);
  int actions = 0;
  {
    auto rdb = hexdice::record::RecordDb::open(db.string(), {true});
    ASSERT_TRUE(rdb.ok()) << rdb.error();
    auto games = (*rdb)->list_games();
    ASSERT_TRUE(games.ok());
    ASSERT_EQ(games->size(), 1u);
    actions = games->front().actions;
    EXPECT_GT(actions, 20);
  }
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --history --no-live --db " + db.string() + " --frames 3 --dump-ui " + (dir / "ui.json").string() +
                          " 2>" + (dir / "err.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto w = read_dump(dir / "ui.json");
  const auto& hist = w["History"];
  EXPECT_NE(std::find(hist.begin(), hist.end(), "1 games"), hist.end()) << "one row for the solo game";
  EXPECT_TRUE(any_starts(hist, "1 hexdice ")) << "the row";
  EXPECT_NE(std::find(hist.begin(), hist.end(), "replay"), hist.end()) << "it opens in the replay";
  EXPECT_TRUE(any_starts(w["Board"], "Replay: ")) << "on the board";
  EXPECT_TRUE(any_starts(w["Event log"], "{Scenario result: ")) << "the log ends with the scenario's result";
  fs::remove_all(dir);
}

// The ordinary window (not a screenshot run) draws only when something changes: left
// alone on the history it draws a handful of frames in 3 s (it drew every frame, as
// fast as Mesa allowed, before RedrawPolicy), and on the bundled demo it draws the new
// pictures as they come (10 a second).
TEST_F(CompanionGui, IdleWindowDrawsOnlyWhenSomethingChanges) {
  auto run = [&](const std::string& args, const std::string& out) {
    const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() + " --db " +
                            (dir / (out + ".sqlite")).string() + " " + args + " >" + (dir / out).string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(dir / out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find(" frames drawn");
    if (at == std::string::npos) return std::pair<int, std::string>{-1, text};
    const auto colon = text.rfind(": ", at);
    return std::pair<int, std::string>{std::stoi(text.substr(colon + 2, at - colon - 2)), text};
  };
  const auto [idle, idle_text] = run("--history --no-live --bench-idle 3", "idle.txt");
  ASSERT_GE(idle, 1) << idle_text;
  EXPECT_LE(idle, 10) << "nothing changes, yet it redraws:\n" << idle_text;
  const auto [demo, demo_text] = run("--bench-idle 4", "demo.txt");
  EXPECT_GE(demo, 10) << "the demo's new pictures are drawn:\n" << demo_text;
  fs::remove_all(dir);
}
