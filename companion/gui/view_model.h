// The companion window's read-only view model: everything a panel draws, computed from
// the core Position, the game record, the referee's alerts and the camera frame's
// registration. No ImGui, no GLFW here (unit-tested without a window:
// tests/companion/test_view_model.cpp). Panels read these structs; they never change
// the game themselves, they return what the user asked for (see BoardInteraction).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "companion/record/record_db.h"
#include "core/game_record.h"
#include "core/rules.h"

namespace hexdice::gui {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

enum class Palette { Dice, ColourBlindSafe };
// The colour a player's units are drawn in: the dice colour by its id ("red", "blue", ...),
// or the Okabe-Ito colour-blind-safe set by player index.
Rgb player_colour(const std::string& id, int index, Palette palette);

// ---- The digital board ----------------------------------------------------------------
struct CellView {
  Hex hex;
  std::string name;      // "f6"
  double x = 0, y = 0;   // centre, in hex-size units (flat-top, y down; centre cell at 0,0)
  int zone = -1;         // player whose deployment zone holds it, -1 none
  int base = -1;         // player whose base it is, -1 none
};
struct UnitView {
  int cell = -1;
  int owner = -1;
  int face = 0;
  std::string unit;      // "Knight"
  int armor = 0;         // effective armor
  int tokens = 0;
  bool guard = false;
  std::string label;     // "Knight A1 -1 G": name, effective armor, reduction tokens, guard
  std::string abbrev;    // the board tile's top line: "Inf", "Arch", "Kngt", "Aslt", "Tank", "Bal"
};
// The board tile's name of a unit (the first four letters read "Assa", "Infa", "Bala").
std::string unit_abbrev(int face);
// What the board tiles and the live view's labels say, in one line (shown under the board).
inline constexpr const char* kTileLegend = "A = effective armor, -N = reduction tokens, G = guarding";
struct PlayerView {
  std::string id, name;
  Rgb colour;
  int units = 0;
  int corner = 0;
  bool to_move = false, eliminated = false, winner = false;
  std::map<std::string, int> army;  // unit name -> count on the board
};
struct BoardView {
  int radius = 0;
  std::vector<CellView> cells;   // by board index
  std::vector<UnitView> units;
  std::vector<PlayerView> players;
  int to_move = -1, winner = -1;
  std::string turn_text;         // "red to move" / "blue wins"
};
BoardView build_board_view(const Position& pos, const std::vector<std::string>& names, Palette palette);

// One legal action of the selected unit as the board shows it.
struct TargetView {
  Action action;
  int cell = -1;                  // the highlighted cell (kNoCell for reroll/guard)
  bool attack = false;
  std::optional<Combat> combat;   // attack vs effective armor, before anything is committed
  std::string text;               // describe(): "Knight f2-g4 x Archer (2 vs 0: defeated)"
};
std::vector<TargetView> targets_of(const Position& pos, int cell);

// The click logic of the board: click a unit (select), click a highlighted cell (propose
// the action, with its combat preview), confirm (commit) or reject. Two clicks declare an
// invisible action (ranged / special: attacker, then target).
class BoardInteraction {
 public:
  void click(const Position& pos, int cell);
  // A reroll or guard of the selected unit (no target cell); face = the rolled face.
  void propose(const Position& pos, Action a);
  // The action to commit (then cleared), or nullopt when nothing is proposed.
  std::optional<Action> confirm();
  void reject();
  void clear() { *this = BoardInteraction{}; }
  int selected() const { return selected_; }
  const std::vector<TargetView>& targets() const { return targets_; }
  // Proposed actions at the clicked cell (more than one when e.g. a melee move and a
  // special attack reach the same enemy); choose(i) picks which one confirm() commits.
  const std::vector<TargetView>& proposed() const { return proposed_; }
  int choice() const { return choice_; }
  void choose(int i) { if (i >= 0 && i < static_cast<int>(proposed_.size())) choice_ = i; }
  // Why the last click did nothing, in the rules' words ("illegal move: Tanker f4 cannot
  // reach e7 (...)", "f8: blue's unit; it is red's turn ..."); empty when it did something.
  const std::string& why_not() const { return why_not_; }

 private:
  std::string why_not_;
  int selected_ = -1;
  std::vector<TargetView> targets_;
  std::vector<TargetView> proposed_;
  int choice_ = 0;
};

// ---- Event log and alerts ------------------------------------------------------------
struct LogLine {
  int ply = 0;
  int player = -1;
  std::string text;   // "12. red: Knight f2-g4 x Archer (2 vs 0: defeated)"
  bool takeback = false, annotation = false;
};
std::vector<LogLine> event_log(const GameRecord& rec);

enum class Severity { Info, Warning, Error };
struct Alert {
  Severity severity = Severity::Info;
  std::string seen;     // what was seen
  std::string allowed;  // what the rules allow
  std::string todo;     // what to do
};

// ---- History ------------------------------------------------------------------------
struct HistoryRow {
  std::int64_t id = 0;
  std::string players, date, result, ruleset = "hexdice", event;
  int length = 0;
};
enum class HistorySort { DateDesc, DateAsc, Length, Players };
std::vector<HistoryRow> history_rows(const std::vector<record::GameSummary>& games, const std::string& filter,
                                     HistorySort sort);

struct GameStats {
  struct PerPlayer {
    std::string id;
    std::array<int, 6> by_type{};    // indexed by ActionType
    int combats_won = 0, combats_lost = 0;
    std::array<int, 7> rolls{};      // faces 1..6 rolled (setup rolls, rerolls, first rolls)
  };
  std::vector<PerPlayer> players;
  int actions = 0, takebacks = 0, annotations = 0;
};
GameStats game_stats(const GameRecord& rec);

// The statistics as the History panel shows them: a column per player and five rows
// (moves, rerolls, guards / ranged, special, merges / combats won, lost / faces 1-3
// rolled / faces 4-6 rolled), so that they fit the panel at the default window size
// whatever the number of players; each cell also in words (its tooltip).
struct StatsTable {
  std::string summary;                           // "162 actions, 0 takebacks, 2 annotations"
  std::vector<std::string> players;              // column headers
  std::vector<std::string> rows;                 // row labels
  std::vector<std::vector<std::string>> cells;   // [row][player]: "40  3  5"
  std::vector<std::vector<std::string>> words;   // [row][player]: "red: 40 moves, 3 rerolls, 5 guards"
};
StatsTable stats_table(const GameStats& s);

// The replay scrubber: a game and a ply of its current line, and its statistics.
struct Replay {
  std::int64_t game = 0;
  GameRecord record;
  int ply = 0;
  StatsTable stats;  // of the whole game, computed when it is opened
  int plies() const { return record.ply(); }
};

// ---- Camera ---------------------------------------------------------------------------
// A camera picture with the sheet's registration: the homography page-mm -> pixels.
struct Detection {
  std::string cell, colour;
  int face = 0;
  bool guard = false;
  double x = 0, y = 0;  // pixel of the die's top face
};
struct Frame {
  std::string source;                 // file or device
  int width = 0, height = 0;
  bool registered = false;
  std::array<double, 9> homography{}; // row-major, page mm -> image px
  double registration_error_px = -1;  // when the referee provides it
  int markers = 0;
  std::vector<Detection> dice;
};
// A demo frame from a labelled fixture (data/fixtures/scenes/scene_NNN.json): the
// registration from its sheet corners, the dice from its labels. Error on bad JSON.
Result<Frame> frame_from_scene_label(const std::string& json_path);
struct Polygon {
  std::vector<std::array<double, 2>> pts;
  std::string name;
  double cx = 0, cy = 0;
};
// Each cell of a radius-`radius` map, hex size `hex_mm`, centred on the page at
// (cx_mm, cy_mm), projected into the frame.
std::vector<Polygon> project_grid(const Frame& f, int radius, double hex_mm, double cx_mm, double cy_mm);
std::array<double, 2> apply_homography(const std::array<double, 9>& h, double x, double y);

// The position the demo frame shows, for the board panel (players by dice colour).
Result<Position> position_from_frame(const Frame& f, int radius);

// ---- When the window draws (docs/companion.md "Idle") ------------------------------------
// The window draws a frame only when something changed: input (the frame it arrives in
// and `settle` more, so that ImGui's hover state and a click's result show) or a new
// model (a new picture, the referee's view, a hint, a calibration step: App::stamp()),
// and while a text field blinks (`blink_hz`). Otherwise it waits for events: a new
// picture wakes it at once, and the model is looked at every `idle_poll_s`, or every
// `busy_poll_s` while a background job may finish (a hint search, a calibration).
// No ImGui here.
class RedrawPolicy {
 public:
  struct Params {
    int settle = 3;              // frames drawn after the last input
    double blink_hz = 4;         // a text field's cursor
    double idle_poll_s = 0.1;    // the longest wait for events when nothing happens
    double busy_poll_s = 0.03;   // while a background job runs
  };
  RedrawPolicy() = default;
  explicit RedrawPolicy(Params p) : p_(p) {}
  void input() { settle_ = p_.settle; }
  // Whether to draw now (then the frame is counted): input within the last `settle`
  // frames, a changed model, or a blinking text field due.
  bool should_draw(bool model_changed, bool blinking, double now_s);
  // How long to wait for events before looking again (seconds; 0: do not wait).
  double wait_s(bool blinking, bool background, double now_s) const;
  const Params& params() const { return p_; }

 private:
  Params p_;
  int settle_ = 1;               // the first frame is drawn
  double last_blink_ = -1e9;
};

}  // namespace hexdice::gui
