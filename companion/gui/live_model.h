// The view model of the live table (issues 5 and 6): what the window shows of the referee
// (alerts in three parts, its proposed actions with a combat preview, the commands a click
// or key sends), the hint engine run off the UI thread and shown only when asked for, and
// the solo game in which the companion runs the enemy army (rolls, which die to move,
// why, and whether the table matches). No ImGui: tested in tests/companion/test_view_model.cpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "companion/gui/view_model.h"
#include "companion/referee/referee.h"
#include "core/ai/hint.h"
#include "core/playout.h"
#include "companion/record/record_db.h"
#include "companion/solo/solo_record.h"
#include "core/solo/scenario.h"

namespace hexdice::gui {

// ---- The referee ---------------------------------------------------------------------
// The referee's current alert split into what was seen, what the rules allow and what to
// do (nullopt when the table matches the game).
std::optional<Alert> referee_alert(const referee::RefereeView& v);
// The frame source's own error (LiveLoop::source_error: a camera that stopped giving frames)
// as an alert (nullopt when there is none): the live picture otherwise just stops.
// `reopening` (LiveLoop::reopening): the camera is being opened again and the game goes on
// from its last action once it is back, without a restart (robust22).
// `live` (LiveLoop::live): a camera; else a video or a folder of frames whose file could not be
// read (robust23: that was told to check the camera's cable): the alert names the file's fix.
std::optional<Alert> source_alert(const std::string& source_error, bool reopening = false, bool live = true);
// The game database that cannot be opened (RecordDb::open's error for `path`) as an alert whose
// "do" fits the cause (robust23: every cause was told "start with --db FILE on a writable disk"):
// locked by another program (a second window or `hexdice referee` on the same file), not a game
// database or damaged (the file is left as it is), read-only, or a disk that is full.
Alert database_alert(const std::string& path, const std::string& error);
// The order the Alerts panel lists `alerts` in (indices): errors first, then warnings, then
// notes, the newest first within each (robust23: a database error came below the demo's note).
std::vector<int> alert_order(const std::vector<Alert>& alerts);
// The referee's log with the frame files' decoder warnings (LiveLoop::frame_warnings) put in
// by frame: a frame's warning before the referee's lines of that frame (it was said when the
// file was read, before the frame was acted on); `more` warnings beyond those kept are said
// in one last line. The Event log panel shows this (robust23).
std::vector<referee::LogLine> log_with_frame_warnings(const std::vector<referee::LogLine>& log,
                                                      const std::vector<referee::LogLine>& warnings, int more = 0);

// One proposal of the referee ("confirm N" accepts it), as the board shows it.
struct ProposalView {
  int number = 0;          // N of "confirm N"
  Action action;
  std::string text;        // the referee's description
  std::string combat;      // "attack 2 vs armor 0: SUCCESS" when it is an attack
  int from = -1, to = -1;  // cells to highlight
};
std::vector<ProposalView> referee_proposals(const referee::RefereeView& v);

// The typed commands of referee.h that the window sends (the SQLite record stays the
// referee's): two clicks declare an attack, one click/key confirms, rejects, takes back,
// or corrects a cell.
std::string declare_command(const Position& pos, const Action& a);  // "declare f5 f4 move"
std::string confirm_command(int number);                            // "confirm 2"
std::string correct_command(const Position& pos, int cell, const std::string& colour, int face, bool guard);
std::string empty_command(const Position& pos, int cell);           // "set f4 empty"

// ---- The hint (issue 6) ----------------------------------------------------------------
// Never shown unless asked for: request() starts the hint engine on its own thread with a
// copy of the position; poll() picks up the result; a different position drops it.
struct HintView {
  bool shown = false;       // a hint for the current position is on the board
  bool thinking = false;
  Action action;
  int from = -1, to = -1;   // cells to highlight (to = -1 for reroll/guard)
  std::string text;         // "Infantry f3xf5 Archer (...)"
  std::string reason;       // "takes the Archer on f5 (attack 2 vs armor 0)"
};
class HintRunner {
 public:
  explicit HintRunner(ai::SearchLimits limits = {250, 64, 0}) : limits_(limits) {}
  ~HintRunner();
  void request(const Position& pos);
  // Call once per frame with the position on the board: collects a finished search and
  // forgets a hint of another position.
  void poll(const Position& pos);
  void clear();
  const HintView& view() const { return view_; }

 private:
  ai::SearchLimits limits_;
  std::string key_;   // the position the hint is for
  std::future<ai::Hint> pending_;
  std::optional<Position> pending_pos_;
  HintView view_;
};
std::string position_key(const Position& pos);

// ---- Solo play (issue 6) ---------------------------------------------------------------
struct SoloStepView {
  std::string roll_line;    // "Round 2, enemy roll: 4 (virtual die)"
  std::string instruction;  // "Move the black Knight from c3 to d4"
  std::string why;          // the enemy's explanation ("Prey: the Archer at d4 has ...")
  int from = -1, to = -1;
};
class SoloSession {
 public:
  // A new game. With a database every step is logged as it is accepted (a new game in
  // the record, companion/solo/solo_record.h); without one nothing is logged.
  static Result<SoloSession> start(const solo::Scenario& sc, std::uint64_t seed, record::RecordDb* db = nullptr);
  // The most recent unfinished solo game of this scenario in `db` (logged by the window;
  // with `seed`: only one started with that seed),
  // rebuilt by replaying its record: the same hero setup (its seed), the logged hero
  // actions, the logged activation rolls (virtual roll #K is checked against the seeded
  // die, so the next roll continues the same sequence), each enemy action checked against
  // the enemy's decision. nullopt when there is none; an error when the record does not
  // replay (e.g. the scenario file changed).
  static Result<std::optional<SoloSession>> resume(const solo::Scenario& sc, record::RecordDb& db,
                                                   std::optional<std::uint64_t> seed = std::nullopt);
  const solo::SoloGame& game() const { return *game_; }
  const Position& position() const { return game_->position(); }
  // The heroes' action (from the board); the error names the broken rule.
  Result<Outcome> hero(const Action& a);
  // The Enemy Turn: `physical` is a die read from the camera (1..6), else the seeded
  // virtual die rolls. Returns the steps to carry out on the table.
  std::vector<SoloStepView> enemy_turn(std::optional<int> physical = std::nullopt);
  const std::vector<std::string>& log() const { return log_; }
  const std::vector<SoloStepView>& last_steps() const { return last_; }
  // The record: the game id of the current part (nullopt: not logged) and the last error
  // writing it (the step that failed was undone; empty: all logged).
  std::optional<std::int64_t> record_id() const;
  const std::string& record_error() const { return record_error_; }
  std::uint64_t seed() const { return seed_; }
  int virtual_rolls() const { return virtual_rolls_; }
  // What differs between the solo game and what the camera sees (empty: the table matches).
  std::vector<std::string> check_table(const referee::Observation& seen) const;

 private:
  std::shared_ptr<solo::SoloGame> game_;
  std::shared_ptr<solo::SoloRecorder> rec_;
  std::uint64_t seed_ = 0;
  int virtual_rolls_ = 0;
  std::string record_error_;
  bool broken_ = false;  // a step was half-logged: nothing more until the window restarts (and resumes)
  Rng rng_{0};
  std::vector<std::string> log_;
  std::vector<SoloStepView> last_;
};
// The die to roll for the activation, read from the picture: the one die found outside
// the sheet (vision::find_dice); nullopt with the reason when there is none or several.
struct PhysicalRoll {
  std::optional<int> face;
  std::string why;
};

}  // namespace hexdice::gui
