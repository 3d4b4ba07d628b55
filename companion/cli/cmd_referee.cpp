// hexdice referee: the live referee without a window (interfaces.md "Command line").
//   hexdice referee --source CAMERA_INDEX|VIDEO|IMAGE_DIR [--db FILE] [--fps N] [--start POSITION.json | --setup CONFIG.json]
//     without --start (and no unfinished game in the db) the game begins with the setup phase:
//     read from the frames (setup_camera.h), typed lines (roll, reroll, place, first) as the fallback
//   hexdice referee --observations DIR ...   observation JSON per frame instead of images
//   hexdice setup CONFIG.json [--script FILE] [--out START.json]   the setup phase by camera/typed
// Typed commands (companion/referee/referee.h) come from stdin, or from --commands FILE
// whose lines are "FRAME COMMAND" (the command is posted just before that frame).
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/latest_frame.h"
#include "companion/referee/referee.h"
#include "companion/referee/setup_camera.h"
#include "companion/cli/reader_options.h"

namespace hexdice::cli {

namespace {

struct RefereeArgs {
  std::string source;
  std::string observations;
  std::string db = "hexdice.db";
  double fps = 10;
  std::string start;
  std::string setup;  // setup config JSON (core/setup.h); default: red (N) vs blue (S), 6 dice
  std::string commands;
  double stable_ms = 150;
  bool no_stdin = false;
  ReaderOptions reader;  // --calib, --layout, --params (image sources)
};

int run_referee(const RefereeArgs& a) {
  using namespace hexdice::referee;
  if (a.source.empty() == a.observations.empty()) return fail("referee: give exactly one of --source or --observations");
  if (a.fps < 0) return fail("referee: --fps must be >= 0");

  // The source first: a missing camera or unreadable file is the commonest mistake.
  auto src = a.observations.empty() ? open_source(a.source) : open_observations(a.observations);
  if (!src) return fail(src.error());
  const bool images = a.observations.empty();
  auto reader = load_reader_inputs(a.reader);
  if (!reader) return fail(reader.error());

  FrameCommands scripted;
  if (!a.commands.empty()) {
    std::string err;
    auto text = read_file(a.commands, err);
    if (!text) return fail(err);
    auto parsed = parse_frame_commands(*text, a.commands);
    if (!parsed) return fail(parsed.error());
    scripted = std::move(*parsed);
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

  // Without --start (and no unfinished game in the db) the game begins with the setup
  // phase, read from the frames or typed (setup_camera.h).
  SetupConfig setup_config;
  if (!a.setup.empty()) {
    std::string err;
    auto text = read_file(a.setup, err);
    if (!text) return fail(err);
    const Json j = Json::parse(*text, nullptr, false);
    if (j.is_discarded()) return fail(a.setup + ": not valid JSON");
    auto c = setup_config_from_json(j);
    if (!c) return fail(a.setup + ": " + c.error());
    setup_config = std::move(*c);
  } else {
    setup_config.radius = reader->layout.radius;
    setup_config.players = {Player{"red", 0}, Player{"blue", 3}};
    setup_config.dice_per_player = 6;
  }
  if (Status st = validate_config(setup_config); !st) return fail("setup: " + st.error());

  RefereeParams params;
  params.stable_ms = a.stable_ms;
  params.drop_when_full = (*src)->live();
  auto ref = Referee::open(a.db, start, params, setup_config);
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
  FrameReader reader_path(reader->layout, reader->has_calib ? std::optional(reader->calib) : std::nullopt,
                          reader->params);
  // A live camera: a grabber thread keeps only the newest frame, so the reader never works
  // on a stale one and frames that come while it reads are dropped (latest_frame.h).
  std::optional<LatestFrameGrabber> grabber;
  if ((*src)->live()) grabber.emplace(**src);
  Frame f;
  while (grabber ? grabber->next(f) : (*src)->next(f)) {
    if (!f.warning.empty()) {  // a frame file's decoder warning: one line of ours, the run goes on
      std::lock_guard lk(out_mu);
      std::cout.flush();
      print_warning(f.warning);
    }
    if (images) {
      if (f.image.empty()) continue;
      // Frames with motion are not read and a read stops at a covered cell: the referee
      // cannot act on either (frame_source.h); the setup reads in full when covered.
      reader_path.set_full_read_when_covered(r.in_setup());
      f.obs = reader_path.see(f.image);
    }
    auto [lo, hi] = scripted.equal_range(f.index);
    for (auto it = lo; it != hi; ++it) r.post_command(it->second);
    const double t_ms = (*src)->live()
                            ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()
                            : f.index * 1000.0 / nominal_fps;
    r.post_frame(std::move(*f.obs), t_ms, f.index, images ? f.image : cv::Mat());
    if (a.fps > 0 && !(*src)->live())
      std::this_thread::sleep_until(t0 + std::chrono::microseconds(static_cast<long long>((f.index + 1) * 1e6 / a.fps)));
  }
  if (grabber) {
    grabber->stop();
    std::lock_guard lk(out_mu);
    std::cout << "camera: " << grabber->dropped() << " of " << grabber->grabbed()
              << " frames dropped while the reader was busy (it always takes the newest)" << std::endl;
  }
  r.stop();
  if (!(*src)->error().empty()) return fail((*src)->error());
  const RefereeView v = r.view();
  std::lock_guard lk(out_mu);
  if (v.in_setup)
    std::cout << "game " << v.game_id << ": in its setup (" << v.setup_events << " setup events logged); " << v.setup_prompt
              << std::endl;
  else
    std::cout << "game " << v.game_id << ": ply " << v.ply << ", "
              << (v.finished ? v.result : v.position.player(v.position.to_move()).id + " to move") << std::endl;
  return kExitOk;
}

struct SetupArgs {
  std::string config;
  std::string script;
  std::string out;
};

// `hexdice setup CONFIG.json [--script FILE] [--out START.json]`: the setup phase by camera
// (images named with @) or typed, one command per line (companion/referee/setup_camera.h).
// A refused step changes nothing and is reported; the next line may type it instead.
int run_setup(const SetupArgs& a) {
  using namespace hexdice::referee;
  std::string err;
  auto text = read_file(a.config, err);
  if (!text) return fail(err);
  const Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded()) return fail(a.config + ": not valid JSON");
  auto config = setup_config_from_json(j);
  if (!config) return fail(a.config + ": " + config.error());
  auto cs = CameraSetup::create(*config);
  if (!cs) return fail(a.config + ": " + cs.error());
  std::unique_ptr<std::istream> file;
  if (!a.script.empty()) {
    auto script = read_file(a.script, err);
    if (!script) return fail(err);
    file = std::make_unique<std::istringstream>(*script);
  }
  std::istream& in = file ? *file : std::cin;
  std::cout << cs->prompt() << std::endl;
  std::string line;
  while (!cs->setup().done() && std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto r = cs->command(line);
    if (!r) {
      std::cout << "refused: " << r.error() << std::endl;
      continue;
    }
    for (const SetupEvent& e : *r) std::cout << "ok: " << to_json(e).dump() << std::endl;
    std::cout << cs->prompt() << std::endl;
  }
  auto start = cs->setup().start_position();
  if (!start) return fail(start.error());
  const std::string pos = to_json(*start).dump();
  if (a.out.empty()) {
    std::cout << pos << std::endl;
  } else {
    std::ofstream o(a.out);
    o << pos << '\n';
    if (!o) return fail("cannot write " + a.out);
  }
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
  sub->add_option("--setup", args->setup,
                  "setup config JSON (radius, players, dice_per_player) for a game that begins with the setup phase "
                  "(default: red N vs blue S, 6 dice each)");
  sub->add_option("--commands", args->commands, "typed commands as lines \"FRAME COMMAND\"");
  sub->add_option("--stable-ms", args->stable_ms, "a view must hold still this long before it counts");
  sub->add_flag("--no-stdin", args->no_stdin, "do not read typed commands from stdin");
  add_reader_options(sub, args->reader);
  reg.add(sub, [args] { return run_referee(*args); });

  auto sa = std::make_shared<SetupArgs>();
  CLI::App* setup = app.add_subcommand("setup", "the setup phase (army roll, reroll, deployment, first player) by camera or typed");
  setup->add_option("CONFIG", sa->config, "setup config JSON (core/setup.h: radius, players, dice_per_player)")->required();
  setup->add_option("--script", sa->script, "commands, one per line (default: stdin); @IMAGE reads an image");
  setup->add_option("--out", sa->out, "write the starting position here (for hexdice referee --start)");
  reg.add(setup, [sa] { return run_setup(*sa); });
}

}  // namespace hexdice::cli
