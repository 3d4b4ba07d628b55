// hexdice-companion: the window people sit in front of. See docs/companion.md.
#include <CLI/CLI.hpp>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

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
  cli.add_option("--camera", o.camera, "webcam index to show in the live view");
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
  o.source_dir = HEXDICE_SOURCE_DIR;
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
    if (Status st = open_game(game); !st) {
      std::fprintf(stderr, "hexdice: --game: %s\n", st.error().c_str());
      return 2;
    }
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

  std::uintptr_t texture = 0;
  std::uint64_t uploaded = 0;
  bool quit = false;
  std::vector<double> times, ui_times;  // whole frame; building the UI (CPU) only
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
    app.poll_camera();
    if (app.image_version != uploaded && !app.image.empty()) {
      texture = backend.upload_bgr(app.image.data, app.image.cols, app.image.rows, static_cast<int>(app.image.step[0]), texture);
      uploaded = app.image_version;
    }
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
    ui_times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    backend.end_frame();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (bench_frames > 0 && frame >= bench_frames) {
      std::vector<double> warm(times.begin() + std::min<std::ptrdiff_t>(10, static_cast<std::ptrdiff_t>(times.size()) - 1), times.end());
      std::vector<double> warm_ui(ui_times.end() - static_cast<std::ptrdiff_t>(warm.size()), ui_times.end());
      std::printf("frames %zu  median %.2f ms  p99 %.2f ms  (%.0f fps at the median); building the UI: median %.2f ms  p99 %.2f ms\n",
                  warm.size(), percentile(warm, 0.5), percentile(warm, 0.99), 1000.0 / std::max(1e-3, percentile(warm, 0.5)),
                  percentile(warm_ui, 0.5), percentile(warm_ui, 0.99));
      break;
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
