// hexdice referee: the live referee without a window (interfaces.md "Command line").
//   hexdice referee --source CAMERA_INDEX|VIDEO|IMAGE_DIR [--db FILE] [--fps N] [--start POSITION.json]
//   hexdice referee --observations DIR ...   observation JSON per frame instead of images
// Typed commands (companion/referee/referee.h) come from stdin, or from --commands FILE
// whose lines are "FRAME COMMAND" (the command is posted just before that frame).
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"
#include "vision/read.h"
#include "vision/register.h"
#include "vision/sheet.h"

namespace hexdice::cli {

namespace {

struct RefereeArgs {
  std::string source;
  std::string observations;
  std::string db = "hexdice.db";
  double fps = 10;
  std::string start;
  std::string commands;
  double stable_ms = 150;
  bool no_stdin = false;
};

int run_referee(const RefereeArgs& a) {
  using namespace hexdice::referee;
  if (a.source.empty() == a.observations.empty()) return fail("referee: give exactly one of --source or --observations");
  if (a.fps < 0) return fail("referee: --fps must be >= 0");

  // The source first: a missing camera or unreadable file is the commonest mistake.
  auto src = a.observations.empty() ? open_source(a.source) : open_observations(a.observations);
  if (!src) return fail(src.error());
  const bool images = a.observations.empty();

  std::multimap<int, std::string> scripted;
  if (!a.commands.empty()) {
    std::string err;
    auto text = read_file(a.commands, err);
    if (!text) return fail(err);
    std::istringstream in(*text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      int frame = -1;
      std::string rest;
      if (!(ls >> frame) || frame < 0) return fail(a.commands + ":" + std::to_string(n) + ": expected \"FRAME COMMAND\"");
      std::getline(ls, rest);
      scripted.emplace(frame, rest);
    }
  }

  std::optional<Position> start;
  if (!a.start.empty()) {
    std::string err;
    auto text = read_file(a.start, err);
    if (!text) return fail(err);
    auto pos = parse_position(*text);
    if (!pos) return fail(a.start + ": " + pos.error());
    start = std::move(*pos);
  }

  RefereeParams params;
  params.stable_ms = a.stable_ms;
  params.drop_when_full = (*src)->live();
  auto ref = Referee::open(a.db, start, params);
  if (!ref) return fail(ref.error());
  Referee& r = **ref;
  std::mutex out_mu;
  auto print = [&](const LogLine& l) {
    std::lock_guard lk(out_mu);
    std::cout << (l.frame >= 0 ? "[frame " + std::to_string(l.frame) + "] " : std::string()) << (l.alert ? "ALERT: " : "")
              << l.text << std::endl;
  };
  for (const LogLine& l : r.view().log) print(l);
  r.on_log(print);
  r.start();

  if (!a.no_stdin && a.commands.empty()) {
    std::thread([&r] {
      std::string line;
      while (std::getline(std::cin, line)) r.post_command(line);
    }).detach();
  }

  const double nominal_fps = a.fps > 0 ? a.fps : 10;
  const auto t0 = std::chrono::steady_clock::now();
  // Images: the board reader turns each frame into an observation; frame differencing
  // (motion over the picture) tells the referee when a hand is in view.
  const vision::SheetLayout layout = vision::standard_sheet();
  vision::TrackerState tracker;
  cv::Mat prev_thumb;
  Frame f;
  while ((*src)->next(f)) {
    if (images) {
      if (f.image.empty()) continue;
      const vision::Observation seen = vision::read_board(f.image, layout, nullptr, {}, &tracker);
      Observation obs;
      obs.board_found = seen.board_found;
      for (const auto& c : seen.cells) obs.cells.push_back(ObservedCell{c.hex, c.color, c.face, c.guard, c.confidence});
      cv::Mat thumb = motion_thumb(f.image);
      obs.motion = !prev_thumb.empty() && motion_fraction(prev_thumb, thumb) > MotionParams{}.min_fraction;
      prev_thumb = std::move(thumb);
      f.obs = std::move(obs);
    }
    auto [lo, hi] = scripted.equal_range(f.index);
    for (auto it = lo; it != hi; ++it) r.post_command(it->second);
    const double t_ms = (*src)->live()
                            ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()
                            : f.index * 1000.0 / nominal_fps;
    r.post_frame(std::move(*f.obs), t_ms, f.index);
    if (a.fps > 0 && !(*src)->live())
      std::this_thread::sleep_until(t0 + std::chrono::microseconds(static_cast<long long>((f.index + 1) * 1e6 / a.fps)));
  }
  r.stop();
  if (!(*src)->error().empty()) return fail((*src)->error());
  const RefereeView v = r.view();
  std::lock_guard lk(out_mu);
  std::cout << "game " << v.game_id << ": ply " << v.ply << ", "
            << (v.finished ? v.result : v.position.player(v.position.to_move()).id + " to move") << std::endl;
  return kExitOk;
}

}  // namespace

void register_referee_commands(CLI::App& app, Registry& reg) {
  auto args = std::make_shared<RefereeArgs>();
  CLI::App* sub = app.add_subcommand("referee", "the live referee without a window");
  sub->add_option("--source", args->source, "camera index, video file or image directory");
  sub->add_option("--observations", args->observations, "directory of observation JSON files, one per frame");
  sub->add_option("--db", args->db, "SQLite game record (an unfinished game in it is resumed)");
  sub->add_option("--fps", args->fps, "frames per second for a directory or video (0 = as fast as possible)");
  sub->add_option("--start", args->start, "start from this position (skips the setup phase)");
  sub->add_option("--commands", args->commands, "typed commands as lines \"FRAME COMMAND\"");
  sub->add_option("--stable-ms", args->stable_ms, "a view must hold still this long before it counts");
  sub->add_flag("--no-stdin", args->no_stdin, "do not read typed commands from stdin");
  reg.add(sub, [args] { return run_referee(*args); });
}

}  // namespace hexdice::cli
