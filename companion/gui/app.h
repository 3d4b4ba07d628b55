// The companion's application state and the actions the panels may ask for. Panels
// (panel_*.cpp) draw from the view model built here each frame and call these methods;
// the game only changes through the core (RecordedGame: rules checked, logged to SQLite).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include "companion/gui/live_loop.h"
#include "companion/gui/live_model.h"
#include "companion/gui/view_model.h"
#include "companion/record/record_db.h"

namespace hexdice::gui {

// Every panel toggle in one place: the View menu, the Ctrl+digit shortcuts, the saved
// settings and --dump-ui all read this table.
struct PanelToggle {
  const char* title;     // the window title
  const char* shortcut;  // shown in the menu
  int key;               // GLFW key code (ASCII for digits) pressed with Ctrl
  bool open;
};
struct PanelToggles {
  std::vector<PanelToggle> all = {
      {"Board", "Ctrl+1", '1', true},   {"Live view", "Ctrl+2", '2', true}, {"History", "Ctrl+3", '3', true},
      {"Turn", "Ctrl+4", '4', true},    {"Event log", "Ctrl+5", '5', true}, {"Alerts", "Ctrl+6", '6', true},
      {"Players", "Ctrl+7", '7', true}, {"House rules", "Ctrl+8", '8', true},
      {"Camera", "Ctrl+9", '9', true}, {"Solo", "Ctrl+0", '0', true}};
  bool* open(const std::string& title) {
    for (auto& p : all)
      if (title == p.title) return &p.open;
    return nullptr;
  }
};

// A panel's place on first use (no imgui.ini entry yet): given in the 1600x900 design
// layout and scaled to the window's size, so that at 1280x720 (or on a laptop) the panels
// tile the window instead of running off its right and bottom edges. Called before the
// panel's Begin(title): it also sets the panel's background (see panel_backgrounds).
void first_use_layout(const char* title, float x, float y, float w, float h);

// Window backgrounds: a panel that overlapped no other window in the last frame draws no
// background of its own: the frame is cleared to the same colour (Backend::end_frame), so
// it looks the same and Mesa's software rasteriser blends one layer less over most of the
// window (docs/companion.md "Where the frame time goes"). A panel that overlaps another
// (moved by the user) keeps its background. Call once per frame after the panels.
// opaque = true: every panel draws its background (the measurement's "before").
void panel_backgrounds(bool opaque);

// A coloured line that wraps at the panel's edge (ImGui::TextColored does not wrap: long
// alerts were cut off at the right edge of the Event log and Alerts panels).
void text_wrapped_coloured(float r, float g, float b, const std::string& text);

// What the screenshot test checks: every window drawn in the last frame and its labels.
struct UiDump {
  struct Window {
    std::string title;
    std::vector<std::string> labels;
  };
  std::vector<Window> windows;
  void window(const std::string& t) { windows.push_back({t, {}}); }
  void label(const std::string& l) { if (!windows.empty()) windows.back().labels.push_back(l); }
  std::string to_json() const;
};

// What the panels show, in a few values: when it has not changed and there was no input,
// the window does not redraw (RedrawPolicy). Everything that changes without input is in
// it: the picture, the referee's view, the hint, the calibration, the status line,
// alerts, the history list, the solo game.
struct ViewStamp {
  std::uint64_t image = 0;
  int frame = -1, ply = 0, setup_events = 0, hidden = 0;
  std::size_t log = 0, proposals = 0, alerts = 0, games = 0, solo_steps = 0;
  bool motion = false, stable = false, finished = false, board_found = false, in_setup = false;
  std::string alert, prompt, status, hint;
  bool hint_thinking = false, hint_shown = false;
  std::string calib;  // the calibration's state in one line
  bool operator==(const ViewStamp&) const = default;
};

struct Settings {
  Palette palette = Palette::Dice;
  float font_scale = 1.0f;
  std::string db_path;
};
// $XDG_CONFIG_HOME/hexdice, else ~/.config/hexdice (created on demand).
std::string config_dir();

class App {
 public:
  struct Options {
    std::string db_path;      // empty: settings / config dir default
    bool demo = false;        // start on the demo frames
    bool history = false;     // start on the history
    int camera = -1;          // a webcam index, -1 none
    std::string source_dir;   // where data/fixtures/scenes lives
    // The live referee (the loop of `hexdice referee`): a camera index / video / image dir,
    // or recorded observations; none of them and no camera: the bundled demo (data/demo).
    std::string source, observations, commands, start;
    std::string setup;        // setup config JSON for a new game without --start (default: red N vs blue S, 6 dice)
    std::string calib;        // calibration file for the reader (as hexdice read --calib); the Camera
                              // panel saves there; default <config dir>/calibration.json, loaded when present
    double fps = 10;
    int last_frame = -1;      // the referee's source stops after this frame (scripted screenshots)
    bool calibrate_camera = false;  // collect ChArUco views from the first frame (--calibrate-camera)
    bool no_live = false;     // do not start the referee (history and digital board only)
    std::string solo;         // a scenario file: solo play against the companion
    std::uint64_t seed = 1;   // the solo game's virtual dice
    std::function<void()> wake;  // called from the capture thread when a new picture is in (wakes the window)
  };
  explicit App(const Options& o);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // ---- State the panels read -----------------------------------------------------
  PanelToggles toggles;
  Settings settings;
  UiDump ui;
  std::string status;                   // one line of feedback ("takeback of ply 12", errors)
  std::vector<Alert> alerts;
  BoardInteraction interaction;

  // What the board shows and where a click goes, in this order of precedence.
  enum class Mode { Replay, Solo, Game, Referee, DemoFrame, None };
  Mode mode() const;
  // The position the board shows: the replay, the solo game, the game being played on the
  // board, the referee's game, else the demo frame.
  const Position* board_position() const;
  std::vector<std::string> board_names() const;
  bool replaying() const { return replay.has_value(); }
  bool playing() const { return game.has_value() && !replay; }
  BoardView board_view() const;

  // ---- The game being played (logged to the database) --------------------------------
  std::unique_ptr<record::RecordDb> db;
  std::string db_error;
  std::optional<record::RecordedGame> game;
  void new_game(std::uint64_t seed);   // a random legal start (sample setup), logged
  void commit(const Action& a);        // through the rules and into SQLite
  void takeback();
  void resign();
  // One click or key each, whatever the mode (referee: its commands; solo: the hero's action).
  void confirm();   // the board's proposal, else the referee's first proposal
  void confirm_referee(int number);
  void reject();
  void send(const std::string& command);  // to the referee, echoed in the status line

  // ---- The live referee -------------------------------------------------------------
  std::unique_ptr<LiveLoop> live;
  std::string live_error;
  referee::RefereeView rview;            // copied from the referee each frame
  // The Event log's lines: the referee's log with the frame files' decoder warnings put in
  // (log_with_frame_warnings), made in poll_live.
  std::vector<referee::LogLine> rlog;
  std::vector<ProposalView> rproposals;
  LivePicture picture;                   // the latest camera picture and its reading
  CalibView calib;                       // calibration from the window (copied each frame)
  std::vector<Polygon> grid;             // the grid projected through picture's pose (cached per frame)
  std::uint64_t grid_version = 0;
  int correcting = -1;                   // the cell whose reading is being corrected
  void poll_live();
  void restart_demo();
  ViewStamp stamp() const;
  // Something in the background may change the view without input (a hint search, a
  // calibration): the window keeps drawing at a low rate.
  bool busy() const;

  // ---- Hint and solo (issue 6) ---------------------------------------------------------
  HintRunner hint;
  void request_hint();
  std::optional<SoloSession> solo;
  std::string solo_path;
  std::uint64_t solo_seed = 1;
  PhysicalRoll last_physical;
  void start_solo(const std::string& path, std::uint64_t seed);
  void enemy_turn(bool from_camera);

  // ---- History --------------------------------------------------------------------
  std::vector<record::GameSummary> games;
  std::string filter;
  HistorySort sort = HistorySort::DateDesc;
  std::optional<Replay> replay;
  int show_stats = -1;                 // select the History panel's tab once: 0 Games, 1 Statistics (--history-stats)
  void refresh_history();
  void open_replay(std::int64_t id);
  void close_replay() { replay.reset(); interaction.clear(); }
  std::string export_text(std::int64_t id, const std::string& path);  // "" on success, else the error
  void add_sample_games(int n);

  // ---- Camera / demo ----------------------------------------------------------------
  std::vector<std::string> demo_labels;  // scene_NNN.json
  int demo_index = 0;
  bool demo_autoplay = false;
  Frame frame;
  std::optional<Position> frame_position;
  cv::Mat image;                       // BGR, the picture the live view shows
  std::uint64_t image_version = 0;     // bumped when image changes (texture upload)
  int shown_w = 0, shown_h = 0;        // the picture's size on screen (set by the live view; the texture is uploaded at it)
  cv::Mat shown_image;                 // image at that size when the capture thread made it (else empty)
  cv::VideoCapture camera;
  bool camera_open = false;
  void load_demo(int index);
  void poll_camera();

 private:
  // The replayed position, read from the stored positions (no replay from the start).
  mutable std::int64_t cached_game_ = -1;
  mutable int cached_ply_ = -1;
  mutable std::optional<Position> cached_;
  void alert(Severity s, std::string seen, std::string allowed, std::string todo);
  Options opt_;
  std::string demo_db_;  // the demo referee's throw-away record
};

// The panels, one file each (panel_*.cpp). Each draws only when its toggle is open.
void draw_main_menu(App& app, bool& quit);
void panel_board(App& app);
void panel_live(App& app, std::uintptr_t texture);
void panel_history(App& app);
void panel_turn(App& app);
void panel_log(App& app);
void panel_alerts(App& app);
void panel_players(App& app);
void panel_rules(App& app);
void panel_camera(App& app);
void panel_solo(App& app);
void handle_shortcuts(App& app, bool& quit);

}  // namespace hexdice::gui
