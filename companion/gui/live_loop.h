// The live loop behind the window: the same loop as `hexdice referee` (referee.h), with
// a capture/read thread in front of the referee's worker so the UI thread never waits on
// recognition:
//
//   capture thread: FrameSource::next -> board reader (images; its pose per frame) or the
//                   recorded observation -> motion -> Referee::post_frame; the latest
//                   picture + registration kept for the live view (copied under a lock
//                   only when the UI asks for a newer one)
//   referee worker: stability, sync, alerts, SQLite commits (companion/referee)
//   UI thread:      Referee::view(), LiveLoop::latest(), commands via post_command()
//
// Observation sources (the bundled demo, data/demo/observations) have no picture: the
// loop draws the table as the camera would see it (the sheet under a slowly drifting
// pose, the dice seen, a hand while something moves), so the live view is exercised the
// same way as with a camera.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration.h"
#include "companion/gui/live_model.h"
#include "companion/gui/view_model.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"

namespace hexdice::gui {

struct LiveOptions {
  std::string source;        // camera index, video file or image directory (the board reader reads it)
  std::string observations;  // or: observation JSON files, one per frame
  std::string commands;      // optional "FRAME COMMAND" lines posted before that frame
  std::string db_path;       // the referee's SQLite record
  std::optional<Position> start;
  std::optional<SetupConfig> setup;  // without start: a new game begins with the setup phase
  // The reader's calibration (`--calib FILE`, as `hexdice read --calib`): loaded by the
  // caller; `calib_path` is also where the Camera panel saves a new one.
  std::optional<vision::CalibrationData> calib;
  std::string calib_path;
  double fps = 10;           // pacing of files (live cameras run at their own rate)
  int last_frame = -1;       // stop reading after this frame (scripted screenshots); -1: to the end
  // Start the camera calibration before the capture thread reads its first frame, so a
  // file source offers every one of its views (--calibrate-camera); the Camera panel's
  // button starts it later, on whatever the camera shows from then on.
  bool calibrate_camera = false;
  // Called on the capture thread after each new picture (the window wakes up to draw it
  // instead of polling for it); empty: nothing.
  std::function<void()> on_picture;
  // A live camera that stops giving frames mid-game (unplugged, taken by another program) is
  // reopened every `reopen_every_s` seconds until it is back; the referee (the game and its
  // record) runs on meanwhile (robust22). `open_source`: how the source is opened, at start
  // and for each retry; empty: referee::open_source (tests give a fake camera).
  double reopen_every_s = 2.0;
  std::function<Result<std::unique_ptr<referee::FrameSource>>(const std::string&)> open_source;
};

// Calibration from the window (Camera panel): what the UI shows, copied under a lock.
//   camera:  start_camera_calibration() -> the capture thread feeds every picture to a
//            calibration::CameraCalibrationSession (ChArUco views kept when distinct);
//            calibrate_camera() (or automatically once the target is reached or the source
//            ends with enough views) runs calibrate() on a worker: never on the UI thread.
//   colours: calibrate_colors() samples the dice on the latest picture (red on the N base,
//            blue on the S base; calibration::default_color_cells) on a worker.
//   save:    save_calibration() merges both into the loaded calibration, writes calib_path
//            atomically and switches the board reader to it from the next frame.
struct CalibView {
  std::string path;            // where Save writes (the --calib file, else the config dir)
  bool loaded = false;         // the reader runs with a calibration
  std::string loaded_summary;  // "fx 1047 fy 1047, 2 colours" of the reader's calibration
  std::string warning;         // stale / size / layout mismatch of the reader's calibration
  bool session = false;        // camera calibration collecting views
  calibration::CameraCalibrationSession::Progress progress;
  int last_corners = 0;        // ChArUco corners in the last picture
  bool camera_running = false;
  std::optional<calibration::CameraCalibration> camera;  // the result, not yet saved
  std::string camera_error;
  bool colors_running = false;
  std::optional<calibration::ColorCalibration> colors;   // the result, not yet saved
  std::string colors_error;
  std::string saved;           // "saved to FILE" after a save, or the save error
};

// The latest picture and what was read from it.
struct LivePicture {
  std::uint64_t version = 0;   // bumped per frame
  int index = -1;
  cv::Mat image;               // BGR
  cv::Mat shown;               // the same at the live view's on-screen size (set_shown_size), when smaller; else empty
  Frame frame;                 // registration (paper mm -> px), markers, error, dice seen
  referee::Observation obs;
  double read_ms = 0;          // reader time for this frame (0 for recorded observations)
  // The frame file's decoder warning (Frame::warning: "PATH: libpng: ... (a warning: the
  // picture was read as it is)"), "" when none: the live view says it under its frame line.
  std::string warning;
};

class LiveLoop {
 public:
  static Result<std::unique_ptr<LiveLoop>> open(const LiveOptions& o);
  ~LiveLoop();
  LiveLoop(const LiveLoop&) = delete;
  LiveLoop& operator=(const LiveLoop&) = delete;

  void post_command(const std::string& line) { ref_->post_command(line); }
  referee::RefereeView view() const { return ref_->view(); }
  // Copies the latest picture into `out` when it is newer than out.version.
  bool latest(LivePicture& out) const;
  bool source_done() const { return done_; }
  // The live view's size on screen: the capture thread also gives each picture at that
  // size (LivePicture::shown), so the UI thread neither resizes nor uploads a full frame.
  void set_shown_size(int w, int h) { shown_w_ = w; shown_h_ = h; }
  bool live() const { return live_; }
  const std::string& description() const { return description_; }
  std::string source_error() const;
  // The camera went away and is being reopened (source_error() says so and what the last
  // try gave); reconnects(): how often it came back.
  bool reopening() const { return reopening_; }
  int reconnects() const { return reconnects_; }
  // Every frame file's decoder warning so far, one log line each (frame, alert, "warning:
  // PATH: libpng: ..."), the first kMaxFrameWarnings kept; frame_warning_count(): all of them.
  // `hexdice referee` prints the same as `hexdice: warning:` lines (robust22); the window
  // shows them in its event log (robust23).
  static constexpr std::size_t kMaxFrameWarnings = 100;
  std::vector<referee::LogLine> frame_warnings() const;
  int frame_warning_count() const { return frame_warning_count_; }

  // Calibration from the window (see CalibView). All return at once.
  void start_camera_calibration(int target_views = 15);
  void calibrate_camera();          // from the views kept so far (needs >= 5)
  void calibrate_colors();          // from the latest picture
  Status save_calibration();
  void poll_calibration();          // UI thread, once per frame: collects finished work
  CalibView calib_view() const;

 private:
  LiveLoop() = default;
  void run();
  // After the camera stopped giving frames: waits reopen_every_s, tries to open it again, and
  // so on, until it opens (true: src_ is the new camera) or the loop is stopped (false).
  bool reopen_camera();

  LiveOptions opt_;
  std::unique_ptr<referee::Referee> ref_;
  std::unique_ptr<referee::FrameSource> src_;
  std::multimap<int, std::string> scripted_;
  bool live_ = false;
  std::string description_;
  std::thread capture_;
  std::atomic<bool> stop_{false}, done_{false}, reopening_{false};
  std::atomic<int> reconnects_{0};
  std::atomic<int> shown_w_{0}, shown_h_{0};
  mutable std::mutex mu_;
  LivePicture pic_;
  std::string error_;
  std::vector<referee::LogLine> frame_warnings_;  // under mu_
  std::atomic<int> frame_warning_count_{0};

  // Calibration. The reader's calibration is swapped whole (the capture thread takes a
  // reference per frame); the session is used by the capture thread and the calibrating
  // worker under sess_mu_; futures belong to the UI thread.
  std::shared_ptr<const vision::CalibrationData> calib_;   // under mu_
  bool calib_checked_ = false;                             // capture thread
  std::mutex sess_mu_;
  std::unique_ptr<calibration::CameraCalibrationSession> session_;
  std::atomic<bool> session_on_{false};
  CalibView cview_;                                        // under mu_
  std::future<Result<calibration::CameraCalibration>> cam_future_;
  std::future<Result<calibration::ColorCalibration>> col_future_;
};

// The demo table: a picture of the standard sheet under `paper_to_image` with the dice of
// `obs` on it (coloured squares with pips on their top faces) and a hand when obs.motion.
cv::Mat draw_table(const referee::Observation& obs, const cv::Matx33d& paper_to_image, cv::Size size);
// The pose of the demo sheet at a frame: the sheet nudged a little over time.
cv::Matx33d demo_pose(int frame, cv::Size size);

// One line about a calibration: "fx 1047 fy 1047 cx 640 cy 360 at 1280x720, 2 calibrated colours".
std::string calib_summary(const vision::CalibrationData& c);

// The activation die read from the picture: the one die found outside the sheet.
PhysicalRoll read_physical_roll(const LivePicture& pic);

}  // namespace hexdice::gui
