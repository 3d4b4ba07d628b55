// hexdice-companion: the window people sit in front of. See docs/companion.md.
#include <CLI/CLI.hpp>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <time.h>
#include <stdlib.h>

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

double cpu_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// --bench-frames: the times of each frame and what was drawn, printed as medians and p99
// over the frames after the first 10 (shader compilation, first uploads).
struct BenchTimes {
  std::vector<double> frame, ui, model, upload, submit, raster, swap, cpu, thread_cpu;
  std::vector<double> draws, vertices, indices;
  std::uint64_t uploads = 0;
  void count(const ImDrawData* d) {
    if (!d) return;
    int cmds = 0;
    for (int i = 0; i < d->CmdListsCount; ++i) cmds += d->CmdLists[i]->CmdBuffer.Size;
    draws.push_back(cmds);
    vertices.push_back(d->TotalVtxCount);
    indices.push_back(d->TotalIdxCount);
  }
  static std::vector<double> warm(const std::vector<double>& v) {
    const std::size_t skip = v.size() > 20 ? 10 : 0;
    return {v.begin() + static_cast<std::ptrdiff_t>(skip), v.end()};
  }
  static double med(const std::vector<double>& v) { return percentile(warm(v), 0.5); }
  static double p99(const std::vector<double>& v) { return percentile(warm(v), 0.99); }
  void print(const Backend& b, const cv::Mat& image, cv::Size texture) const {
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 1) load[0] = -1;
    std::printf("renderer: %s; framebuffer %dx%d; picture %dx%d, texture %dx%d; load average %.1f\n", b.renderer().c_str(),
                b.width(), b.height(), image.cols, image.rows, texture.width, texture.height, load[0]);
    std::printf("frames %zu  median %.2f ms  p99 %.2f ms  (%.0f fps at the median), swap included\n", warm(frame).size(),
                med(frame), p99(frame), 1000.0 / std::max(1e-3, med(frame)));
    std::printf("our side (CPU): view model median %.3f ms p99 %.3f; texture upload median %.3f ms p99 %.3f (%llu uploads); "
                "UI build incl. model+upload median %.2f ms p99 %.2f\n",
                med(model), p99(model), med(upload), p99(upload), static_cast<unsigned long long>(uploads), med(ui), p99(ui));
    std::printf("GL (Mesa): submit median %.2f ms p99 %.2f; rasterise (glFinish) median %.2f ms p99 %.2f; "
                "swap median %.2f ms p99 %.2f\n",
                med(submit), p99(submit), med(raster), p99(raster), med(swap), p99(swap));
    std::printf("CPU time per frame: process median %.2f ms p99 %.2f (all threads: UI, rasteriser, capture, referee); "
                "UI thread median %.2f ms\n",
                med(cpu), p99(cpu), med(thread_cpu));
    std::printf("drawn per frame: %.0f draw calls, %.0f vertices, %.0f indices (medians)\n", med(draws), med(vertices),
                med(indices));
  }
};

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
  bool history_stats = false;
  cli.add_flag("--history-stats", history_stats, "with --history: show the replayed game's statistics tab (for screenshots)");
  cli.add_option("--camera", o.camera, "webcam index: the referee reads it (give --start for a new game)");
  cli.add_option("--source", o.source, "video file or image directory for the referee (as hexdice referee --source)");
  cli.add_option("--observations", o.observations, "directory of observation JSON files, one per frame");
  cli.add_option("--commands", o.commands, "typed referee commands as lines \"FRAME COMMAND\"");
  cli.add_option("--start", o.start, "start position (POSITION.json) when the database has no unfinished game");
  cli.add_option("--setup", o.setup, "setup config JSON for a new game without --start (the setup phase is refereed)");
  cli.add_option("--calib", o.calib, "calibration file for the reader (as hexdice read --calib); the Camera panel saves there");
  bool want_calibrate = false, want_colors = false, want_save_calib = false;
  cli.add_flag("--calibrate-camera", want_calibrate, "start the camera calibration at once (for screenshots)");
  cli.add_flag("--calibrate-colours", want_colors, "press Calibrate colours once the first picture is in (for screenshots)");
  cli.add_flag("--save-calib", want_save_calib,
               "with --calibrate-camera / --calibrate-colours: save the calibration once computed (for screenshots)");
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
  cli.add_option("--bench-frames", bench_frames, "render N frames without vsync (1280x720 unless --width/--height), print median/p99 frame times");
  std::vector<std::string> variants;
  cli.add_option("--bench-variant", variants,
                 "measure the old way: opaque (every panel draws its background), full-texture (the picture uploaded "
                 "at its own size), floor (an empty window: no panels)")
      ->check(CLI::IsMember({"opaque", "full-texture", "floor"}));
  double bench_idle = 0;
  cli.add_option("--bench-idle", bench_idle,
                 "run the ordinary window (redrawn only on a change) for S seconds, print frames drawn, their time and the CPU used");
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
  if (bench_idle > 0 && (headless_run || bench_frames > 0)) {
    std::fprintf(stderr, "hexdice: --bench-idle runs the ordinary window: not with --screenshot, --dump-ui or --bench-frames\n");
    return 2;
  }
  if (headless_run && frames <= 0) frames = 5;
  if (bench_frames > 0 && !cli.count("--width") && !cli.count("--height")) { width = 1280; height = 720; }  // 720p unless told

  const std::string cfg = config_dir();
  WindowOptions wo;
  wo.width = width;
  wo.height = height;
  const bool measuring = bench_frames > 0 || bench_idle > 0;
  wo.ini_path = headless_run || measuring ? "" : cfg + "/imgui.ini";  // reproducible layout in tests
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

  o.wake = [] { Backend::wake(); };  // a new camera picture ends the window's wait for events
  o.calibrate_camera = want_calibrate;  // views from the first frame on (a file source is read at once)
  App app(o);
  const std::string settings_path = cfg + "/settings.json";
  if (!headless_run && bench_idle == 0) load_settings(app, settings_path);
  if (app.games.empty() && (o.history || headless_run || measuring)) app.add_sample_games(5);
  if (o.history && !app.games.empty() && !app.replay) app.open_replay(app.games.front().id);

  if (history_stats) app.show_stats = 1;
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
  const auto calib_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  bool calib_saved = false;  // --save-calib: saved, else the run ends with the reason and exit 1
  std::string save_error;
  if (want_confirm) app.confirm();
  if (want_enemy) app.enemy_turn(false);
  bool hint_pending = want_hint;
  if (want_hint) app.request_hint();

  auto variant = [&](const char* v) { return std::find(variants.begin(), variants.end(), v) != variants.end(); };
  const bool opaque_panels = variant("opaque"), full_texture = variant("full-texture"), floor_only = variant("floor");
  cv::Mat shown;         // the picture at its on-screen size
  cv::Size texture_size;
  bool colours_pressed = false;
  std::uintptr_t texture = 0;
  std::uint64_t uploaded = 0;
  bool quit = false;
  // Per frame (wall clock): the whole frame, swap included; our CPU side (view model +
  // texture upload + ImGui frame build, Render() included); the GL submission; the
  // rasterisation (glFinish, benchmark only); the swap (the copy to the X server).
  // And the CPU time of the whole process and of this thread over the frame.
  BenchTimes bt;
  auto last_demo = std::chrono::steady_clock::now();
  // The ordinary window draws only when something changed (RedrawPolicy: input, a new
  // picture, the referee's view, a hint...) and otherwise sleeps in wait_events(); the
  // screenshot, dump and benchmark runs draw every frame (deterministic frame counts).
  const bool on_demand = !headless_run && bench_frames == 0;
  RedrawPolicy redraw;
  std::uint64_t seen_events = backend.events();
  ViewStamp drawn;
  const auto start = std::chrono::steady_clock::now();
  auto secs = [&](auto t) { return std::chrono::duration<double>(t - start).count(); };
  std::vector<double> idle_frames;  // --bench-idle: the frames drawn (ms, swap included)
  std::uint64_t idle_loops = 0;
  const double idle_cpu0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID), idle_th0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
  for (int frame = 0; !quit && !backend.should_close();) {
    if (on_demand) {
      const bool blinking = io.WantTextInput;
      backend.wait_events(redraw.wait_s(blinking, app.busy(), secs(std::chrono::steady_clock::now())));
      ++idle_loops;
      if (bench_idle > 0 && secs(std::chrono::steady_clock::now()) >= bench_idle) break;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID), th0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
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
    if (on_demand) {
      if (backend.events() != seen_events) {
        seen_events = backend.events();
        redraw.input();
      }
      if (!redraw.should_draw(app.stamp() != drawn, io.WantTextInput, secs(t0))) continue;
    }
    ++frame;
    backend.begin_frame();
    io.FontGlobalScale = app.settings.font_scale;
    app.ui.windows.clear();
    // The texture: uploaded only when a new picture arrived (or the live view changed
    // size), at the size it is shown when that is smaller than the picture (INTER_AREA:
    // no aliasing of the sheet's thin lines, and fewer texels to upload and sample).
    cv::Size want = app.image.size();
    if (!full_texture && app.shown_w > 0 && app.shown_h > 0 && app.shown_w < app.image.cols && app.shown_h < app.image.rows)
      want = cv::Size(app.shown_w, app.shown_h);
    const bool live_view_open = *app.toggles.open("Live view");  // closed: nothing shows the texture (uploaded when reopened)
    if (live_view_open && (app.image_version != uploaded || want != texture_size) && !app.image.empty()) {
      const cv::Mat* up = &app.image;
      if (want != app.image.size() && app.shown_image.size() == want) {
        up = &app.shown_image;  // resized on the capture thread
      } else if (want != app.image.size()) {  // the view's size just changed, or a picture without the live loop
        cv::resize(app.image, shown, want, 0, 0, cv::INTER_AREA);
        up = &shown;
      }
      texture = backend.upload_bgr(up->data, up->cols, up->rows, static_cast<int>(up->step[0]), texture);
      uploaded = app.image_version;
      texture_size = want;
      ++bt.uploads;
    }
    const auto m2 = std::chrono::steady_clock::now();
    if (!floor_only) {
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
    }
    ImGui::Render();  // the draw lists: still our CPU side
    panel_backgrounds(opaque_panels);  // for the next frame
    const auto u1 = std::chrono::steady_clock::now();
    backend.end_frame();
    const auto g1 = std::chrono::steady_clock::now();
    if (on_demand) {
      drawn = app.stamp();  // what this frame shows (a click handled in it changes the next stamp)
      backend.present();
      if (bench_idle > 0)
        idle_frames.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      continue;
    }
    if (bench_frames > 0) {
      backend.finish();
      const auto f1 = std::chrono::steady_clock::now();
      backend.present();
      const auto p1 = std::chrono::steady_clock::now();
      auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
      bt.frame.push_back(ms(t0, p1));
      bt.ui.push_back(ms(t0, u1));
      bt.model.push_back(ms(m0, m1));
      bt.upload.push_back(ms(m1, m2));
      bt.submit.push_back(ms(u1, g1));
      bt.raster.push_back(ms(g1, f1));
      bt.swap.push_back(ms(f1, p1));
      bt.cpu.push_back(cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0);
      bt.thread_cpu.push_back(cpu_ms(CLOCK_THREAD_CPUTIME_ID) - th0);
      bt.count(ImGui::GetDrawData());
      if (frame >= bench_frames) {
        bt.print(backend, app.image, texture_size);
        break;
      }
      continue;
    }
    if (hint_pending && app.hint.view().thinking && headless_run && frame >= frames) continue;  // wait for the hint
    hint_pending = hint_pending && app.hint.view().thinking;
    if (want_colors && !colours_pressed && app.live && !app.picture.image.empty()) {  // the first picture is in
      app.live->calibrate_colors();
      colours_pressed = true;
    }
    if ((want_calibrate || want_colors) && app.live && headless_run && frame >= frames &&
        std::chrono::steady_clock::now() < calib_deadline) {
      // Wait for the calibrations (camera: views from the whole source, then its worker;
      // colours: the first picture, then its worker), then save once, then one more frame.
      const CalibView& c = app.calib;
      bool waiting = false;
      if (want_calibrate) waiting = waiting || c.camera_running || (!c.camera && c.camera_error.empty());
      if (want_colors) waiting = waiting || !colours_pressed || c.colors_running || (!c.colors && c.colors_error.empty());
      const bool all_in = (!want_calibrate || c.camera) && (!want_colors || c.colors);
      if (!waiting && want_save_calib && all_in && c.saved.empty()) {
        if (Status st = app.live->save_calibration(); !st) save_error = st.error();
        else calib_saved = true;
        continue;  // one more frame to draw the saved state
      }
      if (waiting) {
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
  if (bench_idle > 0) {
    const double wall = secs(std::chrono::steady_clock::now());
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 1) load[0] = -1;
    std::printf("idle run %.1f s: %zu frames drawn (%.1f a second), %llu wake-ups; load average %.1f\n", wall, idle_frames.size(),
                static_cast<double>(idle_frames.size()) / wall, static_cast<unsigned long long>(idle_loops), load[0]);
    std::printf("CPU: process %.1f ms a second (%.1f %% of one core; all threads), UI thread %.1f ms a second\n",
                (cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - idle_cpu0) / wall, (cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - idle_cpu0) / wall / 10.0,
                (cpu_ms(CLOCK_THREAD_CPUTIME_ID) - idle_th0) / wall);
    std::printf("frames drawn: median %.2f ms, p99 %.2f ms (swap included)\n", percentile(idle_frames, 0.5),
                percentile(idle_frames, 0.99));
  }
  backend.free_texture(texture);
  if (!headless_run && bench_frames == 0 && bench_idle == 0) save_settings(app, settings_path);
  if (headless_run && want_save_calib && !calib_saved) {  // asked to calibrate and save: say why not
    const CalibView& c = app.calib;
    std::string why = !save_error.empty()                         ? save_error
                      : !app.live                                 ? "no camera or image source"
                      : want_calibrate && !c.camera_error.empty() ? "camera calibration: " + c.camera_error
                      : want_colors && !c.colors_error.empty()    ? "colour calibration: " + c.colors_error
                                                                  : "the calibration did not finish within 180 s";
    std::fprintf(stderr, "hexdice: nothing saved: %s\n", why.c_str());
    return 1;
  }
  return 0;
}
