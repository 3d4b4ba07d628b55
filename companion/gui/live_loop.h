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
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <opencv2/core.hpp>

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
  double fps = 10;           // pacing of files (live cameras run at their own rate)
  int last_frame = -1;       // stop reading after this frame (scripted screenshots); -1: to the end
};

// The latest picture and what was read from it.
struct LivePicture {
  std::uint64_t version = 0;   // bumped per frame
  int index = -1;
  cv::Mat image;               // BGR
  Frame frame;                 // registration (paper mm -> px), markers, error, dice seen
  referee::Observation obs;
  double read_ms = 0;          // reader time for this frame (0 for recorded observations)
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
  bool live() const { return live_; }
  const std::string& description() const { return description_; }
  std::string source_error() const;

 private:
  LiveLoop() = default;
  void run();

  LiveOptions opt_;
  std::unique_ptr<referee::Referee> ref_;
  std::unique_ptr<referee::FrameSource> src_;
  std::multimap<int, std::string> scripted_;
  bool live_ = false;
  std::string description_;
  std::thread capture_;
  std::atomic<bool> stop_{false}, done_{false};
  mutable std::mutex mu_;
  LivePicture pic_;
  std::string error_;
};

// The demo table: a picture of the standard sheet under `paper_to_image` with the dice of
// `obs` on it (coloured squares with pips on their top faces) and a hand when obs.motion.
cv::Mat draw_table(const referee::Observation& obs, const cv::Matx33d& paper_to_image, cv::Size size);
// The pose of the demo sheet at a frame: the sheet nudged a little over time.
cv::Matx33d demo_pose(int frame, cv::Size size);

// The activation die read from the picture: the one die found outside the sheet.
PhysicalRoll read_physical_roll(const LivePicture& pic);

}  // namespace hexdice::gui
