// Frame sources for the referee and the motion measure that tells it a hand is over the sheet.
//
//   open_source("0")          camera by index (1280x720 requested at 30 fps)
//   open_source("game.mp4")   a video file, frame by frame, ends at its end
//   open_source("frames/")    an image directory (png/jpg) in file-name order
//   open_observations("obs/") observation JSON files (*.json) in file-name order: the
//                             recognition-free source that makes the loop testable
//
// A bad source gives one clear message (no camera at that index, unreadable video,
// empty directory, a malformed observation file names the file).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace cv {
class VideoCapture;
}

#include "companion/referee/referee.h"
#include "vision/calibration_data.h"
#include "vision/read.h"
#include "vision/register.h"
#include "vision/sheet.h"

namespace hexdice::referee {

struct Frame {
  int index = 0;
  cv::Mat image;                       // empty for observation sources
  std::optional<Observation> obs;      // set by observation sources
  std::string name;                    // file name, when from a directory
  // A picture file's decoder warning (load_image's "PATH: ...": a libpng warning on a PNG read
  // whole), "" when none: the referee prints it as one `hexdice: warning:` line (robust22).
  std::string warning;
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // False at the end of the source (or when a live camera stops delivering).
  virtual bool next(Frame& f) = 0;
  virtual bool live() const { return false; }
  // Set when next() stopped because of an error (e.g. a malformed observation file).
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

Result<std::unique_ptr<FrameSource>> open_source(const std::string& spec);
// The frames of an opened capture (open_source's camera and video path; tests give it one of
// their own). `live`: a camera, for which a read that fails is an error() ("camera NAME
// stopped giving frames ..."), where a video just ends.
std::unique_ptr<FrameSource> capture_source(std::unique_ptr<cv::VideoCapture> cap, bool live, std::string name);

// Typed commands scripted against frames (`--commands FILE`): lines "FRAME COMMAND", '#'
// comments and blank lines skipped; the command is posted just before that frame. Errors
// name the line ("FILE:3: expected ...").
using FrameCommands = std::multimap<int, std::string>;
Result<FrameCommands> parse_frame_commands(const std::string& text, const std::string& name);
Result<std::unique_ptr<FrameSource>> open_observations(const std::string& dir);

// ---- Motion over the sheet: frame differencing -------------------------------------------
// Defaults: frames shrunk to 160 px wide and blurred (5x5), a pixel "moved" when its grey
// level changed by more than 18 of 255, and the frame "moves" when more than 0.4% of the
// pixels did (a hand or sleeve covers far more; sensor noise and compression far less).
struct MotionParams {
  int work_width = 160;
  int pixel_threshold = 18;
  double min_fraction = 0.004;
};

// Small grey version of a frame, the input of motion_fraction.
cv::Mat motion_thumb(const cv::Mat& bgr, const MotionParams& p = {});
// Fraction of pixels that changed between two thumbs (0 when either is empty).
double motion_fraction(const cv::Mat& prev_thumb, const cv::Mat& thumb, const MotionParams& p = {});

// ---- The per-frame path: camera image -> what the referee takes -------------------------
// Motion over the sheet (this frame against the previous one, motion_fraction above) and
// the board reader (vision::read_board, with a tracker so covered markers keep the last
// pose). `hexdice referee --source`, the rendered-demo test and bench_referee all go
// through this one class. Not thread-safe: one per frame stream.
class FrameReader {
 public:
  explicit FrameReader(vision::SheetLayout layout, std::optional<vision::CalibrationData> calib = std::nullopt,
                       vision::ReadParams params = {}, MotionParams motion = {});
  // The observation of this frame, `motion` set when it differs from the previous frame
  // by more than motion.min_fraction (never for the first frame).
  // A frame the reader must not read (vision::frame_unusable: empty, grey, colourless, not
  // 8-bit) is not read: `unusable` says why, `board_found` is false (robust20). A frame
  // whose size is not the previous frame's (the camera was reset, or another took its place)
  // is unusable too, and the tracker's pose and the motion measure start again from it: the
  // last pose was of the old picture.
  Observation see(const cv::Mat& bgr);
  // The last frame's motion fraction (diagnostics).
  double last_motion_fraction() const { return last_fraction_; }
  // Skip the work the referee can never use (default on; docs/referee.md "Frame budget"):
  // - a frame with motion is not read at all (Referee::process takes any motion frame as a
  //   hand in view and looks no further): `not_read` is set, `cells` empty, `pose` and
  //   `board_found` the tracker's last;
  // - a read stops as soon as a cell in view is covered (ReadParams::stop_when_covered:
  //   a view with hidden cells is never synced or committed either).
  // The first still frame after motion is read in full, so the latency hand gone -> commit
  // is unchanged. Off: every frame is read in full.
  void set_skip_unusable(bool on) { skip_motion_ = on; }
  // Only the motion skip, not the covered stop (the setup's dice phases read the map's
  // cells with a hand over part of it): `hexdice referee` sets this while in its setup.
  void set_full_read_when_covered(bool on) { full_when_covered_ = on; }
  int frames_not_read() const { return not_read_; }

 private:
  vision::SheetLayout layout_;
  std::optional<vision::CalibrationData> calib_;
  vision::ReadParams params_;
  MotionParams motion_;
  vision::TrackerState tracker_;
  cv::Mat prev_thumb_;
  cv::Size last_size_;  // of the last frame seen (empty before the first)
  double last_fraction_ = 0;
  bool user_stop_when_covered_ = false;  // params.stop_when_covered as given
  bool skip_motion_ = true;
  bool full_when_covered_ = false;
  int not_read_ = 0;
};

}  // namespace hexdice::referee
