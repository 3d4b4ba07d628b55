// Setup by camera inside the live referee (issue 4): `hexdice referee --source DIR --db FILE`
// with no --start walks through the setup from the frames (army roll and reroll read with
// the dice finder off the sheet, deployment read from the sheet and checked against the
// zones, first-player roll), typed lines as the fallback, each setup event logged as it is
// accepted, then the game refereed in the same run; killed in the middle of the setup, a
// restart on the same database resumes the setup where it stopped.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/imgcodecs.hpp>

#include "cli_runner.h"
#include "companion/record/record_db.h"
#include "companion/referee/referee.h"
#include "loose_dice.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace hexdice::referee {
namespace {

namespace fs = std::filesystem;
using hexdice::testing::run_hexdice;
using hexdice::testing::run_hexdice_killed_when;
using hexdice::testing::count_of;
using hexdice::testing::slurp;

fs::path temp_dir(const std::string& name) { return hexdice::testing::temp_dir("hexdice_rsetup", name); }

SetupConfig two_players() {
  SetupConfig c;
  c.radius = 5;
  c.players = {Player{"red", 0}, Player{"blue", 3}};
  c.dice_per_player = 6;
  return c;
}

// The sheet seen from above with these dice on it (the reader's synthetic renderer).
cv::Mat sheet_with(const Position& pos) {
  std::vector<vision::SynthDie> dice;
  for (int i = 0; i < pos.board().size(); ++i) {
    const Piece& p = pos.at(i);
    if (!p.empty()) dice.push_back({pos.board().hex(i), pos.player(p.owner).id, p.face, false});
  }
  vision::SynthOptions o;
  o.noise_sigma = 1.5;
  return vision::render_synth_scene(vision::standard_sheet(), dice, o).image;
}

// A frame directory: a hand over the table (2 frames: what the hand does is what changes
// the table), then the picture held `n` frames (still frames, enough for the 150 ms
// stability window).
struct FrameDir {
  fs::path dir;
  int count = 0;
  int picture = 0;
  void add(const cv::Mat& img, int n) {
    const fs::path file = dir / ("pic" + std::to_string(picture++) + ".jpg");
    ASSERT_TRUE(cv::imwrite(file.string(), img, {cv::IMWRITE_JPEG_QUALITY, 95}));
    for (int i = 0; i < n; ++i, ++count) {
      char name[32];
      std::snprintf(name, sizeof name, "%05d.jpg", count);
      fs::create_symlink(file, dir / name);
    }
  }
  void hold(const cv::Mat& img, int n) {
    if (count > 0) {
      cv::Mat hand = img.clone();
      cv::ellipse(hand, cv::Point(img.cols * 3 / 4, img.rows / 2), cv::Size(img.rows / 8, img.rows / 5), 25, 0, 360,
                  cv::Scalar(120, 160, 215), -1, cv::LINE_AA);
      cv::rectangle(hand, cv::Point(img.cols * 3 / 4, img.rows / 2), cv::Point(img.cols, img.rows / 2 + img.rows / 6),
                    cv::Scalar(110, 150, 205), -1, cv::LINE_AA);
      add(hand, 2);
    }
    add(img, n);
  }
};

TEST(RefereeSetup, LiveFramesKilledMidSetupResumeAndTheGameIsRefereed) {
  const auto dir = temp_dir("live");
  const SetupConfig config = two_players();
  // What the table does. Army roll: both armies loose on the table, the rendered roll of
  // the demo (data/demo/setup_roll.jpg, POV-Ray: red 1 2 3 3 5 6, blue 6 6 5 4 2 1).
  const cv::Mat roll = cv::imread(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/setup_roll.jpg");
  ASSERT_FALSE(roll.empty());
  // Red rerolls its 1 and 2 (allowance 2) into 4 4; blue keeps its army (typed: "reroll blue none").
  const std::vector<LooseDie> reroll = {{"red", 4}, {"red", 4}, {"red", 3}, {"red", 3}, {"red", 5}, {"red", 6}};
  const std::vector<int> red_army = {4, 4, 3, 3, 5, 6}, blue_army = {6, 6, 5, 4, 2, 1};
  auto setup_board = Position::create(5, config.players);
  ASSERT_TRUE(setup_board.ok());
  Position red_deployed = *setup_board;
  const auto red_zone = red_deployed.deployment_zone(0), blue_zone = red_deployed.deployment_zone(1);
  for (std::size_t i = 0; i < 6; ++i) ASSERT_TRUE(red_deployed.place(red_zone[i], 0, red_army[i]).ok());
  Position all_deployed = red_deployed;
  // Blue's faces on its zone in an order the reader's synthetic scenes are known to read.
  const std::vector<int> blue_on_zone = {6, 5, 4, 6, 2, 1};
  for (std::size_t i = 0; i < 6; ++i) ASSERT_TRUE(all_deployed.place(blue_zone[i], 1, blue_on_zone[i]).ok());
  // First-player roll: red 6, blue 3: red starts. Then red's first move, seen on the sheet.
  Position start = all_deployed;
  start.set_to_move(0);
  std::optional<Action> move;
  for (const Action& a : legal_actions(start))
    if (a.type == ActionType::Move && start.at(a.target).empty()) { move = a; break; }
  ASSERT_TRUE(move.has_value());
  auto moved = apply(start, *move);
  ASSERT_TRUE(moved.ok());

  // Part 1 (killed): roll, reroll, blue's typed decline, red's deployment held long.
  FrameDir a{dir / "a"};
  fs::create_directories(a.dir);
  a.hold(roll, 6);
  a.hold(dice_on_table(reroll, 4), 6);
  a.hold(sheet_with(red_deployed), 80);
  std::ofstream(dir / "commands_a.txt") << "# blue keeps its army\n13 reroll blue none\n";
  std::ofstream(dir / "config.json") << to_json(config).dump();
  const std::string db = (dir / "g.db").string();
  const std::string out = (dir / "out_a.txt").string();
  // Killed once red's deployment has been logged (or after 60 s on a slow machine).
  const bool killed = run_hexdice_killed_when(
      {"referee", "--source", a.dir.string(), "--db", db, "--setup", (dir / "config.json").string(), "--commands",
       (dir / "commands_a.txt").string(), "--fps", "20", "--no-stdin"},
      out, "\"type\":\"place\"", 1, std::chrono::seconds(60));
  const std::string printed = slurp(out);
  ASSERT_TRUE(killed) << "finished before the kill: " << printed;
  EXPECT_NE(printed.find("in its setup (0 setup events logged); army roll: red, blue"), std::string::npos) << printed;
  // Every setup event it printed is in the database, and the game is still in its setup.
  const int printed_events = count_of(printed, "(seen, logged)") + count_of(printed, "(typed, logged)");
  {
    auto dbh = record::RecordDb::open(db, {true});
    ASSERT_TRUE(dbh.ok()) << dbh.error();
    auto g = (*dbh)->unfinished_game();
    ASSERT_TRUE(g.ok() && g->has_value());
    auto rec = (*dbh)->load_game(**g);
    ASSERT_TRUE(rec.ok()) << rec.error();
    ASSERT_TRUE(rec->has_setup());
    EXPECT_FALSE(rec->in_play());
    ASSERT_GE(static_cast<int>(rec->setup().events().size()), printed_events);
    ASSERT_GE(printed_events, 5) << printed;  // 2 rolls, red's reroll, blue's decline, >= 1 place
    const auto& ev = rec->setup().events();
    auto sorted = [](std::vector<int> v) {
      std::sort(v.begin(), v.end());
      return v;
    };
    // The first four in any order of the table: both rolls, red's reroll (1 2 -> 4 4), blue's decline.
    std::vector<SetupEvent> first4(ev.begin(), ev.begin() + 4);
    auto find = [&](SetupEventType t, const std::string& p) {
      for (const SetupEvent& e : first4)
        if (e.type == t && e.player == p) return e;
      ADD_FAILURE() << "no " << setup_event_name(t) << " of " << p;
      return SetupEvent{};
    };
    EXPECT_EQ(sorted(find(SetupEventType::Roll, "red").faces), (std::vector<int>{1, 2, 3, 3, 5, 6}));
    EXPECT_EQ(sorted(find(SetupEventType::Roll, "blue").faces), sorted(blue_army));
    const SetupEvent rr = find(SetupEventType::Reroll, "red");
    EXPECT_EQ(sorted(rr.faces), (std::vector<int>{1, 2}));
    EXPECT_EQ(rr.to, (std::vector<int>{4, 4}));
    EXPECT_EQ(find(SetupEventType::Reroll, "blue"), SetupEvent::decline("blue"));
    for (std::size_t i = 4; i < ev.size(); ++i) EXPECT_EQ(ev[i].type, SetupEventType::Place);
  }

  // Part 2, the same database: red's deployment again (nothing placed twice), blue's, a die
  // of blue in red's zone refused (then taken away), the first-player roll, the first move.
  Position intruder = red_deployed;
  ASSERT_TRUE(intruder.place(red_deployed.deployment_zone(0)[7], 1, 6).ok());
  FrameDir b{dir / "b"};
  fs::create_directories(b.dir);
  b.hold(sheet_with(red_deployed), 6);
  b.hold(sheet_with(intruder), 6);
  b.hold(sheet_with(all_deployed), 6);
  // The first-player dice rolled beside the deployed map (the dice on the map are not theirs).
  cv::Mat first = sheet_with(all_deployed);
  draw_loose_die(first, {170, 360}, 0.3, {"red", 6});
  draw_loose_die(first, {1110, 330}, 0.1, {"blue", 3});
  b.hold(first, 6);
  b.hold(sheet_with(start), 6);
  b.hold(sheet_with(moved->position), 6);
  const auto r = run_hexdice("referee --source " + b.dir.string() + " --db " + db + " --setup " +
                             (dir / "config.json").string() + " --fps 0 --no-stdin");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("resumed game 1 in its setup"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("deployment zone"), std::string::npos) << r.out;  // the intruder, alerted
  EXPECT_NE(r.out.find("setup done: red moves first; the game begins"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(seen, committed)"), std::string::npos) << r.out;
  auto dbh = record::RecordDb::open(db, {true});
  ASSERT_TRUE(dbh.ok());
  auto games = (*dbh)->list_games();
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 1u);
  auto rec = (*dbh)->load_game(games->front().id);
  ASSERT_TRUE(rec.ok()) << rec.error();
  const auto& ev = rec->setup().events();
  ASSERT_EQ(ev.size(), 4u + 12u + 2u);  // 2 rolls, reroll + decline, 12 places, 2 first rolls
  EXPECT_EQ(ev[16], SetupEvent::first_roll("red", 6));
  EXPECT_EQ(ev[17], SetupEvent::first_roll("blue", 3));
  auto logged_start = rec->start_position();
  ASSERT_TRUE(logged_start.ok()) << logged_start.error();
  EXPECT_EQ(*logged_start, start);
  ASSERT_EQ(rec->ply(), 1) << r.out;
  EXPECT_EQ(rec->entries()[static_cast<std::size_t>(rec->line_entries()[0])].action, *move);
  fs::remove_all(dir);
}

// Typed fallback for every step, synchronously: the record has the setup events, a command
// outside the setup is refused with the prompt, and the game is refereed after it.
TEST(RefereeSetup, TypedSetupEndsInARefereedGame) {
  const auto dir = temp_dir("typed");
  auto ref = Referee::open((dir / "g.db").string(), std::nullopt, {}, two_players());
  ASSERT_TRUE(ref.ok()) << ref.error();
  Referee& r = **ref;
  EXPECT_TRUE(r.view().in_setup);
  EXPECT_FALSE(r.command("declare f2 f3").ok());
  EXPECT_NE(r.view().alert.find("army roll"), std::string::npos) << r.view().alert;
  for (const char* line : {"roll red 1 2 3 4 5 6", "roll blue 1 2 3 4 5 6", "reroll red 1 to 6", "reroll blue none"})
    ASSERT_TRUE(r.command(line).ok()) << line;
  // Over the allowance: refused, nothing logged.
  const Position board = r.view().position;
  const auto red_zone = board.deployment_zone(0), blue_zone = board.deployment_zone(1);
  EXPECT_FALSE(r.command("place red 1 " + board.board().name(red_zone[0])).ok());  // red's 1 was rerolled
  const std::vector<int> red = {6, 2, 3, 4, 5, 6}, blue = {1, 2, 3, 4, 5, 6};
  for (std::size_t i = 0; i < 6; ++i) {
    ASSERT_TRUE(r.command("place red " + std::to_string(red[i]) + " " + board.board().name(red_zone[i])).ok());
    ASSERT_TRUE(r.command("place blue " + std::to_string(blue[i]) + " " + board.board().name(blue_zone[i])).ok());
  }
  ASSERT_TRUE(r.command("first red 2").ok());
  ASSERT_TRUE(r.command("first blue 5").ok());
  const RefereeView v = r.view();
  EXPECT_FALSE(v.in_setup);
  EXPECT_EQ(v.setup_events, 4 + 12 + 2);
  EXPECT_EQ(v.position.player(v.position.to_move()).id, "blue");
  // The game: blue's move seen on the (recorded) table.
  Position now = v.position;
  std::optional<Action> move;
  for (const Action& a : legal_actions(now))
    if (a.type == ActionType::Move && now.at(a.target).empty()) { move = a; break; }
  ASSERT_TRUE(move.has_value());
  auto after = apply(now, *move);
  ASSERT_TRUE(after.ok());
  int frame = 0;
  for (int i = 0; i < 3; ++i, ++frame) r.process(observation_of(now), frame * 100.0, frame);
  Observation hand = observation_of(after->position);
  hand.motion = true;
  r.process(hand, frame * 100.0, frame), ++frame;
  for (int i = 0; i < 4; ++i, ++frame) r.process(observation_of(after->position), frame * 100.0, frame);
  EXPECT_EQ(r.view().ply, 1);
  auto dbh = record::RecordDb::open((dir / "g.db").string(), {true});
  ASSERT_TRUE(dbh.ok());
  auto rec = (*dbh)->load_game(r.view().game_id);
  ASSERT_TRUE(rec.ok()) << rec.error();
  EXPECT_EQ(rec->setup().events().size(), 18u);
  EXPECT_EQ(rec->setup().events()[2], SetupEvent::reroll("red", {1}, {6}));
  EXPECT_EQ(rec->ply(), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice::referee

namespace hexdice::referee {
namespace {

// A bad --setup config is one clear line and exit 1, before anything is logged.
TEST(RefereeSetup, BadSetupConfigIsOneClearLine) {
  const auto dir = temp_dir("badcfg");
  fs::create_directories(dir / "obs");
  std::ofstream(dir / "obs" / "0000.json") << "{\"board_found\": true, \"cells\": []}";
  std::ofstream(dir / "notjson.json") << "{radius";
  std::ofstream(dir / "dice7.json") << R"({"radius":5,"players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"dice_per_player":7})";
  for (const auto& [file, expect] : std::vector<std::pair<std::string, std::string>>{
           {"notjson.json", "not valid JSON"}, {"dice7.json", "7"}, {"missing.json", "missing.json"}}) {
    const std::string db = (dir / "g.db").string();
    const auto r = run_hexdice("referee --observations " + (dir / "obs").string() + " --db " + db + " --setup " +
                               (dir / file).string() + " --no-stdin --fps 0");
    EXPECT_EQ(r.exit_code, 1) << file;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(expect), std::string::npos) << file << " -> " << r.err;
    EXPECT_FALSE(fs::exists(db)) << "nothing is written for a bad config";
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice::referee
