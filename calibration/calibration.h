// Calibration library (issue 3): camera intrinsics from views of the printed ChArUco
// board (`hexdice board --charuco`), colour samples of each player's dice from one
// frame of the map, one JSON file holding both with metadata, and a check that tells
// when a calibration is stale or does not fit the camera/sheet in use. No UI here; the
// companion's camera panel drives CameraCalibrationSession (below). docs/calibration.md.
#pragma once

#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "core/hex.h"
#include "core/result.h"
#include "vision/calibration_data.h"
#include "vision/register.h"
#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace hexdice::calibration {

// ---------------------------------------------------------------- the ChArUco board
// The board is vision::CharucoSpec (what `hexdice board --charuco` prints). charuco.json
// round trip; missing keys keep the A4 defaults (7 x 10 squares of 25 mm, 18 mm markers).
Result<vision::CharucoSpec> charuco_spec_from_json_text(const std::string& text);

// ---------------------------------------------------------------- camera intrinsics
struct CameraCalibParams {
  // A frame is used only with at least this many interpolated ChArUco corners.
  int min_corners = 12;
  // Fewer good frames than this -> an error (calibration would be underdetermined/unstable).
  int min_frames = 5;
  // Distortion model: k1 k2 p1 p2 (k3 fixed at 0) unless true.
  bool use_k3 = false;
  // Frames whose own reprojection RMS exceeds max(outlier_factor x the median frame
  // RMS, outlier_min_px) are dropped and the calibration is run again once.
  double outlier_factor = 3.0;
  double outlier_min_px = 1.0;
  // Image coverage is measured on a grid of this many cells per side.
  int coverage_grid = 8;
  // An overall RMS above this is an error: the frames do not match the board spec (wrong
  // charuco.json) or are blurred/rolling-shutter smeared.
  double max_rms_px = 3.0;
  // Session only: a new view is kept when its corners moved by at least this fraction
  // of the image diagonal (mean) from every kept view, or it shows other corner ids.
  double min_view_change = 0.05;
};

struct CalibFrame {
  cv::Mat image;     // BGR or grey
  std::string name;  // for the report (file name, "frame 12")
};

// ChArUco corners found in one frame.
struct CharucoDetection {
  std::vector<cv::Point2f> corners;  // image pixels
  std::vector<int> ids;              // chessboard corner ids, same order
  int markers = 0;                   // ArUco markers of the board seen
};
// Detects the board in one frame (const, no side effects).
CharucoDetection detect_charuco(const cv::Mat& image, const vision::CharucoSpec& spec);

struct FrameReport {
  std::string name;
  int corners = 0;
  bool used = false;
  double rms_px = 0;        // this frame's reprojection RMS (used frames)
  std::string rejected;     // why not used ("12 corners < 12", "outlier: 4.1 px", "size differs")
};

struct CameraCalibration {
  vision::CameraIntrinsics intrinsics;
  double rms_px = 0;       // overall reprojection RMS of the used frames
  int frames_used = 0;
  double coverage = 0;     // fraction of the coverage grid's cells holding a used corner
  std::vector<FrameReport> frames;
};

// Calibrates from frames of one camera (all of one size). Errors: no frames, frames of
// different sizes, fewer than params.min_frames frames with enough corners, OpenCV failure.
Result<CameraCalibration> calibrate_camera(const std::vector<CalibFrame>& frames, const vision::CharucoSpec& spec,
                                           const CameraCalibParams& params = {});
// The boards `hexdice board --charuco` prints: A3 (the default paper) and A4.
std::vector<vision::CharucoSpec> known_charuco_specs();
// Tries each spec (both boards share DICT_5X5_100, so ids alone cannot tell them apart)
// and keeps the calibration with the lowest RMS; `used` receives its spec.
Result<CameraCalibration> calibrate_camera_any(const std::vector<CalibFrame>& frames,
                                               const std::vector<vision::CharucoSpec>& specs,
                                               const CameraCalibParams& params = {}, vision::CharucoSpec* used = nullptr);
// The same from detections made earlier (the session's path).
Result<CameraCalibration> calibrate_camera_from_detections(const std::vector<CharucoDetection>& detections,
                                                           const std::vector<std::string>& names, cv::Size image_size,
                                                           const vision::CharucoSpec& spec,
                                                           const CameraCalibParams& params = {});

// Live/streamed calibration for the companion's camera panel: feed frames as they come
// (any rate), show progress, calibrate when ready. Not thread-safe: call from one thread;
// calibrate_async() copies what it needs and may run while frames keep coming.
class CameraCalibrationSession {
 public:
  struct Progress {
    int frames_seen = 0;
    int frames_kept = 0;     // distinct views with enough corners
    int target = 0;          // views wanted
    double coverage = 0;     // of the kept views' corners, 0..1
    bool ready = false;      // frames_kept >= target
  };
  explicit CameraCalibrationSession(vision::CharucoSpec spec, CameraCalibParams params = {}, int target_views = 15);
  // Detects the board; keeps the view when it has enough corners and differs enough
  // from the kept ones. Returns the detection (for an overlay) and whether it was kept.
  CharucoDetection add_frame(const cv::Mat& frame, bool* kept = nullptr);
  Progress progress() const;
  Result<CameraCalibration> calibrate() const;
  std::future<Result<CameraCalibration>> calibrate_async() const;
  void reset();

 private:
  vision::CharucoSpec spec_;
  CameraCalibParams params_;
  int target_;
  int seen_ = 0;
  cv::Size size_;
  std::vector<CharucoDetection> kept_;
};

// ---------------------------------------------------------------- colours
struct ColorCalibParams {
  vision::RegisterParams reg;
  // Side (mm) of the square sampled at each cell's centre on the dice's top-face plane;
  // smaller than the 16 mm face so a die a little off centre or turned is still covered.
  double sample_side_mm = 11.0;
  // Rectified sampling resolution (pixels per mm).
  double px_per_mm = 4.0;
  // Error when a cell looks like bare paper (no pips read and within paper_tolerance of
  // the paper's colour, per channel of bgr_rel): the die is missing or the cell wrong.
  // "No pips read" means no face, or a face read with less than die_min_confidence on
  // the face_side_mm square, and the board reader not seeing a die there either. 0.31 is
  // just above the 0.3 of the face reader's weakest (fallback) readings, which the grain of
  // a bare tinted base reaches (tests/calibration: BareTintedBaseIsNotADie).
  bool require_die = true;
  double paper_tolerance = 0.08;
  double die_min_confidence = 0.31;
  // Side (mm) of the square the pips are read on for that test: the 16 mm face and a margin.
  double face_side_mm = 18.0;
};

struct ColorCell {
  std::string name;  // colour name the referee will report, e.g. "red" or "alice"
  Hex hex;
};

struct ColorCellSample {
  std::string name;
  Hex hex;
  cv::Vec3f body_bgr;  // raw (0..255)
  cv::Vec3f bgr_rel;   // divided by the paper white
};

struct ColorCalibration {
  std::vector<vision::ColorSample> colors;  // one per name (mean of its cells)
  std::vector<ColorCellSample> cells;       // every sampled cell
  cv::Vec3f white_bgr{0, 0, 0};             // paper white used
  bool white_from_patch = false;            // false: median paper
  cv::Size image_size;
};

// Default cells: red on the N base, blue on the S base (interfaces.md players).
std::vector<ColorCell> default_color_cells(const vision::SheetLayout& layout);
// "red=f2;blue=f10" or "red=0,-4;blue=0,4" (names may repeat: the samples are averaged).
Result<std::vector<ColorCell>> parse_color_cells(const std::string& text, const vision::SheetLayout& layout);

// Registers the sheet (vision/register.h), white-balances on its white patch (else the
// median paper) and samples each cell's die top face. `calib` may give intrinsics
// (the frame is undistorted first, as the reader does). Errors: empty frame, sheet not
// found, a cell off the map or out of view.
Result<ColorCalibration> calibrate_colors(const cv::Mat& frame, const vision::SheetLayout& layout,
                                          const std::vector<ColorCell>& cells,
                                          const vision::CalibrationData* calib = nullptr,
                                          const ColorCalibParams& params = {});

// ---------------------------------------------------------------- the file
inline constexpr int kCalibrationVersion = 1;
inline constexpr const char* kCalibrationFormat = "hexdice-calibration";

// Stable 16-hex-digit hash of what makes a sheet (paper, size, radius, hex size, centre,
// marker ids and corners), so colours sampled on one sheet are known to fit another.
std::string layout_hash(const vision::SheetLayout& layout);
std::string utc_now_iso();

// Merges a camera calibration into a file's data (metadata included).
void set_camera(vision::CalibrationData& data, const CameraCalibration& cam, const std::string& source,
                const vision::CharucoSpec& spec);
// Merges colour samples: replaces samples of the same names, keeps the others.
void set_colors(vision::CalibrationData& data, const ColorCalibration& col, const vision::SheetLayout& layout,
                const std::string& source);

// JSON text: the keys vision/reader_io.h reads (camera_matrix, dist_coeffs, image_size,
// colors) at the top level plus "format", "version", "created" and "camera"/"colors_meta"
// metadata objects. Human-readable (indented).
std::string calibration_to_json_text(const vision::CalibrationData& data);
// Strict loader: one clear error for anything malformed (wrong format/version, bad
// matrix, non-finite numbers, bad colours).
Result<vision::CalibrationData> calibration_from_json_text(const std::string& text);
Result<vision::CalibrationData> load_calibration(const std::string& path);
// Writes atomically (temporary file then rename): never a partial file.
Status save_calibration(const vision::CalibrationData& data, const std::string& path);

// ---------------------------------------------------------------- checking
struct CheckParams {
  int stale_days = 90;  // older than this -> stale
  std::optional<std::chrono::system_clock::time_point> now;  // default: the clock
  // Colour check (when a frame is given): median feature distance of the dice seen from
  // their nearest calibrated colour above this -> warning.
  double color_tolerance = 0.25;
};

struct CheckIssue {
  enum Kind { SizeMismatch, AspectMismatch, LayoutMismatch, Stale, NoMetadata, ColorsDrift };
  Kind kind;
  std::string message;  // one line
};

struct CheckReport {
  std::vector<CheckIssue> issues;
  bool ok() const { return issues.empty(); }
  bool has(CheckIssue::Kind k) const;
  std::string summary() const;  // "; "-joined messages
};

// frame_size {0,0} / layout nullptr skip those checks.
CheckReport check_calibration(const vision::CalibrationData& calib, cv::Size frame_size,
                              const vision::SheetLayout* layout, const CheckParams& params = {});
// Also samples the dice the reader finds in `frame` and compares them with the
// calibrated colours (ColorsDrift).
CheckReport check_calibration_on_frame(const vision::CalibrationData& calib, const cv::Mat& frame,
                                       const vision::SheetLayout& layout, const CheckParams& params = {});

}  // namespace hexdice::calibration
