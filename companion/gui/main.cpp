// hexdice-companion: the window people sit in front of. See docs/companion.md.
#include <CLI/CLI.hpp>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/calibration.h"
#include "companion/gui/app.h"
#include "companion/gui/backend.h"
#include "companion/gui/game_view.h"
#include "core/json_io.h"

using namespace hexdice;
using namespace hexdice::gui;

namespace {

void load_settings(App& app, const std::string& path) {
  std::ifstream in(path);
  if (!in) return;
  try {
    const Json j = Json::parse(in);
    app.settings.palette = j.value("palette", "dice") == "colour-blind-safe" ? Palette::ColourBlindSafe : Palette::Dice;
    app.settings.font_scale = std::clamp(j.value("font_scale", 1.0f), 0.75f, 2.5f);
    if (j.contains("panels"))
      for (auto& p : app.toggles.all) p.open = j["panels"].value(p.title, p.open);
  } catch (const std::exception&) {
    std::fprintf(stderr, "hexdice: %s: unreadable settings, using defaults\n", path.c_str());
  }
}

void save_settings(const App& app, const std::string& path) {
  Json j;
  j["palette"] = app.settings.palette == Palette::ColourBlindSafe ? "colour-blind-safe" : "dice";
  j["font_scale"] = app.settings.font_scale;
  for (const auto& p : app.toggles.all) j["panels"][p.title] = p.open;
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << j.dump(1) << "\n";
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"hexdice-companion: the Hex Dice referee's window"};
  App::Options o;
  std::string screenshot, dump_ui;
  std::vector<std::string> clicks;
  long long new_game = -1;
  int frames = 0, bench_frames = 0, width = 1600, height = 900;
  cli.add_option("--db", o.db_path, "SQLite game database (default: <config dir>/games.sqlite)");
  cli.add_flag("--demo", o.demo, "open on the bundled demo frames (the default without a camera)");
  cli.add_flag("--history", o.history, "open on the history, replaying the latest game");
  cli.add_option("--camera", o.camera, "webcam index: the referee reads it (give --start for a new game)");
  cli.add_option("--source", o.source, "video file or image directory for the referee (as hexdice referee --source)");
  cli.add_option("--observations", o.observations, "directory of observation JSON files, one per frame");
  cli.add_option("--commands", o.commands, "typed referee commands as lines \"FRAME COMMAND\"");
  cli.add_option("--start", o.start, "start position (POSITION.json) when the database has no unfinished game");
  cli.add_option("--setup", o.setup, "setup config JSON for a new game without --start (the setup phase is refereed)");
  cli.add_option("--calib", o.calib, "calibration file for the reader (as hexdice read --calib); the Camera panel saves there");
  bool want_calibrate = false, want_save_calib = false;
  cli.add_flag("--calibrate-camera", want_calibrate, "start the camera calibration at once (for screenshots)");
  cli.add_flag("--save-calib", want_save_calib, "with --calibrate-camera: save the calibration once computed (for screenshots)");
  cli.add_option("--fps", o.fps, "pace of a video / directory / observations (default 10)");
  cli.add_flag("--no-live", o.no_live, "do not start the referee (history and digital board only)");
  cli.add_option("--solo", o.solo, "play a solo scenario (data/scenarios/*.json): the companion runs the enemy");
  cli.add_option("--seed", o.seed, "seed of the solo game's virtual dice and hero setup");
  bool want_hint = false, want_confirm = false, want_enemy = false;
  int until_frame = -1;
  cli.add_flag("--hint", want_hint, "ask for a hint once the window is up (for screenshots)");
  cli.add_flag("--confirm", want_confirm, "confirm the proposal made by --click (for screenshots)");
  cli.add_flag("--enemy-turn", want_enemy, "solo: play the Enemy Turn with the virtual die after --click/--confirm");
  cli.add_option("--until-frame", until_frame, "the referee's source stops after this frame; the window waits until the referee has processed it");
  cli.add_option("--screenshot", screenshot, "render --frames frames, save the window as PNG and exit");
  cli.add_option("--frames", frames, "number of frames to render before --screenshot / --dump-ui (default 5)");
  cli.add_option("--dump-ui", dump_ui, "write a JSON list of the windows drawn (titles and labels) and exit");
  cli.add_option("--bench-frames", bench_frames, "render N frames at 1280x720 without vsync, print median/p99 frame time");
  cli.add_option("--new-game", new_game, "start a new logged game from this seed's random legal start");
  std::string game;
  cli.add_option("--game", game, "open a wizardhex[:start] or hexadecimal[:variant] game, or a saved game record (*.json)");
  cli.add_option("--click", clicks, "click these board cells in order (e.g. --click f2 --click g3), for screenshots");
  cli.add_option("--width", width, "window width")->check(CLI::Range(320, 8192));
  cli.add_option("--height", height, "window height")->check(CLI::Range(240, 8192));
  CLI11_PARSE(cli, argc, argv);
  if (!o.calib.empty() && std::filesystem::exists(o.calib)) {  // a corrupt file is an error, a missing one is written by Save
    auto c = calibration::load_calibration(o.calib);
    if (!c) {
      std::fprintf(stderr, "hexdice: --calib: %s\n", c.error().c_str());
      return 2;
    }
  }
  o.source_dir = HEXDICE_SOURCE_DIR;
  o.last_frame = until_frame;
  const bool headless_run = !screenshot.empty() || !dump_ui.empty();
  if (headless_run && frames <= 0) frames = 5;
  if (bench_frames > 0) { width = 1280; height = 720; }

  const std::string cfg = config_dir();
  WindowOptions wo;
  wo.width = width;
  wo.height = height;
  wo.ini_path = headless_run || bench_frames > 0 ? "" : cfg + "/imgui.ini";  // reproducible layout in tests
  wo.vsync = bench_frames == 0;
  Backend backend;
  std::string error;
  if (!Backend::create(wo, backend, error)) {
    std::fprintf(stderr, "hexdice: %s\n", error.c_str());
    return 1;
  }
  // A readable font at any scale: DejaVu Sans rasterised at the monitor's scale.
  ImGuiIO& io = ImGui::GetIO();
  const char* ttf = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(ttf)) io.Fonts->AddFontFromFileTTF(ttf, 15.0f * backend.content_scale());
  else io.FontGlobalScale = backend.content_scale();

  App app(o);
  const std::string settings_path = cfg + "/settings.json";
  if (!headless_run) load_settings(app, settings_path);
  if (app.games.empty() && (o.history || headless_run || bench_frames > 0)) app.add_sample_games(5);
  if (o.history && !app.games.empty() && !app.replay) app.open_replay(app.games.front().id);

  if (new_game >= 0) app.new_game(static_cast<std::uint64_t>(new_game));
  if (!game.empty()) {
    if (Status st = open_game(game, app.db.get()); !st) {  // logged to (and resumed from) the database
      std::fprintf(stderr, "hexdice: --game: %s\n", st.error().c_str());
      return 2;
    }
  }
  if (until_frame >= 0 && app.live) {  // let the referee reach that frame before the scripted clicks
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (app.live->view().frame < until_frame && !app.live->source_done() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    app.poll_live();
  } else {
    app.poll_live();
  }
  for (const std::string& c : clicks) {
    if (click_game_cell(c)) continue;  // a Wizard Hex / Hexa Decimal game is open
    const Position* p = app.board_position();
    auto h = p ? p->board().parse_name(c) : std::nullopt;
    if (!h) {
      std::fprintf(stderr, "hexdice: --click %s: not a cell of the board\n", c.c_str());
      return 2;
    }
    app.interaction.click(*p, p->board().index(*h));
  }
  if (want_calibrate && app.live) app.live->start_camera_calibration();
  const auto calib_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  if (want_confirm) app.confirm();
  if (want_enemy) app.enemy_turn(false);
  bool hint_pending = want_hint;
  if (want_hint) app.request_hint();

  std::uintptr_t texture = 0;
  std::uint64_t uploaded = 0;
  bool quit = false;
  // Per frame: the whole frame; our CPU side (view model + texture upload + ImGui frame
  // build, Render() included); the GL draw + finish (Mesa's rasteriser under Xvfb).
  std::vector<double> times, ui_times, model_times, upload_times, gl_times;
  auto last_demo = std::chrono::steady_clock::now();
  for (int frame = 1; !quit && !backend.should_close(); ++frame) {
    const auto t0 = std::chrono::steady_clock::now();
    backend.begin_frame();
    io.FontGlobalScale = app.settings.font_scale;
    app.ui.windows.clear();
    if (app.demo_autoplay && t0 - last_demo > std::chrono::seconds(3)) {
      app.load_demo(app.demo_index + 1);
      last_demo = t0;
    }
    const auto m0 = std::chrono::steady_clock::now();
    app.poll_camera();
    app.poll_live();
    if (const Position* hp = app.board_position()) app.hint.poll(*hp);
    if (!app.hint.view().thinking && app.status.rfind("thinking about a hint", 0) == 0) app.status.clear();
    const auto m1 = std::chrono::steady_clock::now();
    if (app.image_version != uploaded && !app.image.empty()) {  // only when a new picture arrived
      texture = backend.upload_bgr(app.image.data, app.image.cols, app.image.rows, static_cast<int>(app.image.step[0]), texture);
      uploaded = app.image_version;
    }
    const auto m2 = std::chrono::steady_clock::now();
    model_times.push_back(std::chrono::duration<double, std::milli>(m1 - m0).count());
    upload_times.push_back(std::chrono::duration<double, std::milli>(m2 - m1).count());
    handle_shortcuts(app, quit);
    draw_main_menu(app, quit);
    panel_board(app);
    panel_live(app, texture);
    panel_history(app);
    panel_turn(app);
    panel_log(app);
    panel_alerts(app);
    panel_players(app);
    panel_rules(app);
    panel_camera(app);
    panel_solo(app);
    ImGui::Render();  // the draw lists: still our CPU side
    const auto u1 = std::chrono::steady_clock::now();
    ui_times.push_back(std::chrono::duration<double, std::milli>(u1 - t0).count());
    backend.end_frame();
    const auto g1 = std::chrono::steady_clock::now();
    gl_times.push_back(std::chrono::duration<double, std::milli>(g1 - u1).count());
    times.push_back(std::chrono::duration<double, std::milli>(g1 - t0).count());
    if (bench_frames > 0 && frame >= bench_frames) {
      std::vector<double> warm(times.begin() + std::min<std::ptrdiff_t>(10, static_cast<std::ptrdiff_t>(times.size()) - 1), times.end());
      auto tail = [&](const std::vector<double>& v) { return std::vector<double>(v.end() - static_cast<std::ptrdiff_t>(warm.size()), v.end()); };
      const auto warm_ui = tail(ui_times), warm_model = tail(model_times), warm_up = tail(upload_times), warm_gl = tail(gl_times);
      std::printf("frames %zu  median %.2f ms  p99 %.2f ms  (%.0f fps at the median); building the UI: median %.2f ms  p99 %.2f ms\n",
                  warm.size(), percentile(warm, 0.5), percentile(warm, 0.99), 1000.0 / std::max(1e-3, percentile(warm, 0.5)),
                  percentile(warm_ui, 0.5), percentile(warm_ui, 0.99));
      std::printf("our side (CPU): view model median %.3f ms p99 %.3f; texture upload median %.3f ms p99 %.3f (%llu uploads); "
                  "UI build incl. model+upload median %.2f ms p99 %.2f\n",
                  percentile(warm_model, 0.5), percentile(warm_model, 0.99), percentile(warm_up, 0.5), percentile(warm_up, 0.99),
                  static_cast<unsigned long long>(uploaded), percentile(warm_ui, 0.5), percentile(warm_ui, 0.99));
      std::printf("GL draw + glFinish (Mesa): median %.2f ms  p99 %.2f ms\n", percentile(warm_gl, 0.5), percentile(warm_gl, 0.99));
      break;
    }
    if (hint_pending && app.hint.view().thinking && headless_run && frame >= frames) continue;  // wait for the hint
    hint_pending = hint_pending && app.hint.view().thinking;
    if (want_calibrate && app.live && headless_run && frame >= frames && std::chrono::steady_clock::now() < calib_deadline) {
      // Wait for the calibration (views from the whole source, then calibrate on its worker).
      const CalibView& c = app.calib;
      if (c.camera && want_save_calib && c.saved.empty()) {
        if (Status st = app.live->save_calibration(); !st) std::fprintf(stderr, "hexdice: %s\n", st.error().c_str());
        continue;  // one more frame to draw the saved state
      }
      const bool waiting = c.camera_running || (!c.camera && c.camera_error.empty());
      if (waiting || (want_save_calib && c.camera && c.saved.empty())) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
    }
    if (headless_run && frame >= frames) {
      if (!screenshot.empty()) {
        int w = 0, h = 0;
        auto px = backend.read_pixels(w, h);
        cv::Mat rgb(h, w, CV_8UC3, px.data()), bgr;
        cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
        if (!cv::imwrite(screenshot, bgr)) {
          std::fprintf(stderr, "hexdice: cannot write %s\n", screenshot.c_str());
          return 1;
        }
      }
      if (!dump_ui.empty()) {
        std::ofstream out(dump_ui);
        out << app.ui.to_json() << "\n";
        if (!out) {
          std::fprintf(stderr, "hexdice: cannot write %s\n", dump_ui.c_str());
          return 1;
        }
      }
      break;
    }
    backend.present();
  }
  backend.free_texture(texture);
  if (!headless_run && bench_frames == 0) save_settings(app, settings_path);
  return 0;
}
