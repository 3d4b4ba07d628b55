// The live referee (issue 4): from what the camera sees to a checked, logged game.
//
//   frames (Observation + time) and typed commands
//        -> one worker thread, in order (nothing the user talks to waits on it)
//        -> stability: a view is acted on only when it has been the same, with no motion
//           over the sheet (hand, sleeve, shadow, lost markers), for `stable_ms`
//        -> sync (core/sync.h explain): one legal action of the player to move, or an alert
//           naming the nearest legal explanations (never a silent guess)
//        -> every accepted action committed to SQLite (record_db.h) before the next frame.
//
// Misreads: a change with no motion seen since the last commit is a misread (the dice
// cannot change by themselves), not a reroll: alerted, never committed.
// Actions that leave no trace (failed attacks) are declared with a typed command
// ("declare f3 f5"); the referee computes the outcome, commits it and says what the
// table must do, then checks that the table matches.
//
// Commands (one line each; the GUI posts the same text):
//   declare FROM TO [move|ranged|special]   an attack from FROM on TO (cell names, e.g. f3 f5)
//   confirm [N]      accept proposal N (default 1) of the last alert as the action
//   reject           drop the proposals of the last alert
//   takeback         undo the last action (logged as a takeback; a reroll cannot be taken back)
//   set CELL COLOR FACE [guard] | set CELL empty   correct the camera's reading of a cell
//   clear CELL       remove that correction (the camera's reading counts again)
//   note TEXT        an annotation in the record
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "companion/record/record_db.h"
#include "companion/referee/setup_camera.h"
#include "core/json_io.h"
#include "core/sync.h"
#include "vision/read.h"

namespace hexdice::referee {

// What the board reader reports (vision/read.h: the observation JSON of interfaces.md),
// plus whether something moved over the sheet in that frame (a frame source that measured
// motion, or a recorded sequence's optional "motion": true). The referee takes the
// reader's type as it is: `Observation{reader_output, motion}`, or the
// process()/post_frame() overloads with a separate motion flag.
using ObservedCell = vision::CellObservation;
struct Observation : vision::Observation {
  bool motion = false;
  // Set by FrameReader when it did not read this frame's board because the referee cannot
  // act on it (motion over the sheet): `cells` is then empty and `pose` the last one.
  bool not_read = false;
  // Set by FrameReader when the frame could not be read at all (a grey or colourless camera
  // frame, an empty one, a change of frame size): why. The referee acts on nothing in it,
  // in the setup or the game, and says why once per run of such frames (robust20).
  std::string unusable;
};
Result<Observation> observation_from_json(const Json& j);
Json to_json(const Observation& o);
// What the camera would see of a position (colour = the owner's id).
Observation observation_of(const Position& pos);
// Colour names -> player indices (a player's id is its colour name; unknown colours -> -1).
SeenBoard to_seen(const vision::Observation& o, const Position& pos);

struct RefereeParams {
  double stable_ms = 150;   // a view must hold, motion-free, this long before it is acted on
  int stable_frames = 2;    // ... and for at least this many frames
  std::size_t max_queue = 64;
  bool drop_when_full = false;  // live camera: drop the oldest frame rather than block
  SyncOptions sync;
};

struct LogLine {
  int frame = -1;
  bool alert = false;
  std::string text;
};

// A read-only snapshot for the UI (copied under the lock).
struct RefereeView {
  std::int64_t game_id = 0;
  Position position;          // the committed position
  int ply = 0;
  bool finished = false;
  std::string result;         // "red won (base_capture)" once finished
  int frame = -1;             // last frame processed
  bool motion = false;        // motion over the sheet in the last frame
  bool stable = false;        // the last frame's view has been stable long enough
  bool board_found = false;
  int hidden_cells = 0;       // cells the last frame could not see (a hand, the map partly out of view)
  std::string frame_problem;  // why the last frame was not used (Observation::unusable), empty when it was
  std::optional<SyncResult> last_sync;  // of the last stable view acted on
  std::vector<Candidate> proposals;     // what `confirm N` would accept
  std::string alert;          // the current alert, empty when the table matches
  std::vector<LogLine> log;   // everything said so far
  std::vector<double> commit_latency_ms;  // hand gone (first still frame) -> commit, per commit
  // The setup phase (rules.md section 3) when the game began with it and it is not done:
  bool in_setup = false;
  std::string setup_prompt;   // what the table must do next ("army roll: red, blue to roll ...")
  int setup_events = 0;       // setup events logged so far
};

class Referee {
 public:
  // Opens the database; resumes its most recent unfinished game (in its setup phase when
  // that was not finished), else starts one from `start`, else one that begins with the
  // setup phase of `setup` (an error when there is none of these).
  static Result<std::unique_ptr<Referee>> open(const std::string& db_path, const std::optional<Position>& start,
                                               RefereeParams params = {},
                                               const std::optional<SetupConfig>& setup = std::nullopt);
  ~Referee();
  Referee(const Referee&) = delete;
  Referee& operator=(const Referee&) = delete;

  bool resumed() const { return resumed_; }

  // Synchronous use (tests, the benchmark): process one frame / one command now.
  // `image` (optional) is the camera picture of the frame: the setup phase reads the dice
  // off the sheet from it (army roll, reroll, first-player roll); the game ignores it.
  void process(const Observation& obs, double t_ms, int frame, const cv::Mat& image = {});
  void process(const vision::Observation& obs, bool motion, double t_ms, int frame);
  Result<std::string> command(const std::string& line);

  // Threaded use: start() the worker, post frames and commands (in order), stop() drains.
  void start();
  void post_frame(Observation obs, double t_ms, int frame, cv::Mat image = {});
  void post_frame(vision::Observation obs, bool motion, double t_ms, int frame);
  void post_command(std::string line);
  void stop();  // processes everything posted, then joins the worker

  RefereeView view() const;
  // True while the game is in its setup phase (any thread, cheap: no view copy). The frame
  // reader of `hexdice referee` reads in full then (the dice phases use the map's cells
  // even with a hand over part of it).
  bool in_setup() const { return in_setup_.load(); }
  // Called (on the worker thread) for every log line, in order.
  void on_log(std::function<void(const LogLine&)> f) { on_log_ = std::move(f); }

 private:
  Referee() = default;
  void say(int frame, bool alert, std::string text);
  void evaluate(const SeenBoard& seen, int frame, double t_ms);
  void process_setup(const Observation& obs, const cv::Mat& image, double t_ms, int frame);
  // A frame FrameReader could not read (Observation::unusable): true when it was one (said
  // once per run of such frames, nothing acted on); the first usable frame after says so.
  bool skip_unusable(const Observation& obs, int frame);
  // Logs the events the setup accepted, one transaction each; the game starts when it is done.
  void log_setup(const std::vector<SetupEvent>& events, int frame, const std::string& how);
  Status restore_setup();
  Status commit(const Action& a, int frame, double t_ms, const std::string& how);
  Observation corrected(const Observation& obs) const;
  Result<std::string> run_command(const std::string& line);
  void refresh_locked();

  struct FrameItem {
    Observation obs;
    double t_ms;
    int frame;
    cv::Mat image;
  };
  using Item = std::variant<FrameItem, std::string>;

  RefereeParams params_;
  std::unique_ptr<record::RecordDb> db_;
  std::optional<record::RecordedGame> game_;
  bool resumed_ = false;
  // The setup phase (while the record is not in play): the camera/typed steps, and the
  // still-view state (act once per still period after motion).
  std::optional<CameraSetup> setup_;
  std::atomic<bool> in_setup_{false};  // setup_.has_value(), for other threads
  int setup_still_frames_ = 0;
  double setup_still_since_ms_ = 0;
  bool setup_acted_ = false;
  std::string unusable_;  // why the frames of the current unusable run were not used
  std::string unusable_alert_;  // the alert that said so (cleared with it)

  // Stability state (worker only).
  std::string cand_key_;
  double cand_since_ms_ = 0;
  int cand_frames_ = 0;
  std::string acted_key_;          // the last stable view acted on
  bool motion_since_commit_ = false;
  bool awaiting_table_ = false;    // a command changed the game; the table must follow
  std::optional<double> still_since_ms_;  // first motion-free frame after motion
  int frame_ = -1;
  SeenBoard last_seen_;
  std::map<int, std::optional<ObservedCell>> overrides_;  // board cell -> corrected reading

  mutable std::mutex mu_;
  RefereeView view_;
  std::function<void(const LogLine&)> on_log_;

  std::mutex qmu_;
  std::condition_variable qcv_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  std::thread worker_;
};

// "f6" <-> Hex on the position's board (interfaces.md human cell names).
std::optional<Hex> cell_from_name(const Board& board, const std::string& name);

}  // namespace hexdice::referee
