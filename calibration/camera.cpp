// Camera intrinsics from ChArUco views (cv::aruco, OpenCV 4.6 contrib API).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/calibration.h"

namespace hexdice::calibration {

namespace {

cv::Ptr<cv::aruco::Dictionary> dictionary_of(const std::string& name) {
  static const std::map<std::string, int> k{
      {"DICT_4X4_50", cv::aruco::DICT_4X4_50},     {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
      {"DICT_4X4_250", cv::aruco::DICT_4X4_250},   {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
      {"DICT_5X5_100", cv::aruco::DICT_5X5_100},   {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
      {"DICT_6X6_50", cv::aruco::DICT_6X6_50},     {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
      {"DICT_6X6_250", cv::aruco::DICT_6X6_250},   {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL}};
  const auto it = k.find(name);
  return cv::aruco::getPredefinedDictionary(it == k.end() ? cv::aruco::DICT_5X5_100 : it->second);
}

bool known_dictionary(const std::string& name) {
  return name.rfind("DICT_", 0) == 0 &&
         (name == "DICT_4X4_50" || name == "DICT_4X4_100" || name == "DICT_4X4_250" || name == "DICT_5X5_50" ||
          name == "DICT_5X5_100" || name == "DICT_5X5_250" || name == "DICT_6X6_50" || name == "DICT_6X6_100" ||
          name == "DICT_6X6_250" || name == "DICT_ARUCO_ORIGINAL");
}

cv::Ptr<cv::aruco::CharucoBoard> board_of(const vision::CharucoSpec& spec) {
  return cv::aruco::CharucoBoard::create(spec.squares_x, spec.squares_y, static_cast<float>(spec.square_mm),
                                         static_cast<float>(spec.marker_mm), dictionary_of(spec.dictionary));
}

double coverage_of(const std::vector<CharucoDetection>& dets, cv::Size size, int grid) {
  if (grid <= 0 || size.area() <= 0) return 0;
  std::set<int> cells;
  for (const auto& d : dets)
    for (const auto& p : d.corners) {
      const int gx = std::clamp(static_cast<int>(p.x * grid / size.width), 0, grid - 1);
      const int gy = std::clamp(static_cast<int>(p.y * grid / size.height), 0, grid - 1);
      cells.insert(gy * grid + gx);
    }
  return static_cast<double>(cells.size()) / (grid * grid);
}

}  // namespace

Result<vision::CharucoSpec> charuco_spec_from_json_text(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{"ChArUco board file is not a JSON object"};
  vision::CharucoSpec s;
  try {
    if (j.contains("format") && j["format"] != "hexdice-charuco") return Error{"not a hexdice ChArUco board file (format)"};
    if (j.contains("paper")) s.paper = j["paper"].get<std::string>();
    if (j.contains("squares_x")) s.squares_x = j["squares_x"].get<int>();
    if (j.contains("squares_y")) s.squares_y = j["squares_y"].get<int>();
    if (j.contains("square_mm")) s.square_mm = j["square_mm"].get<double>();
    if (j.contains("marker_mm")) s.marker_mm = j["marker_mm"].get<double>();
    if (j.contains("dictionary")) s.dictionary = j["dictionary"].get<std::string>();
  } catch (const std::exception& e) {
    return Error{std::string("ChArUco board file: ") + e.what()};
  }
  if (s.squares_x < 3 || s.squares_y < 3 || s.squares_x > 100 || s.squares_y > 100)
    return Error{"ChArUco board: squares_x and squares_y must be 3..100"};
  if (!(s.square_mm > 0) || !(s.marker_mm > 0) || s.marker_mm >= s.square_mm)
    return Error{"ChArUco board: need 0 < marker_mm < square_mm"};
  if (!known_dictionary(s.dictionary)) return Error{"ChArUco board: unknown dictionary " + s.dictionary};
  return s;
}

CharucoDetection detect_charuco(const cv::Mat& image, const vision::CharucoSpec& spec) {
  CharucoDetection out;
  if (image.empty()) return out;
  cv::Mat grey;
  if (image.channels() == 3) cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  else if (image.channels() == 4) cv::cvtColor(image, grey, cv::COLOR_BGRA2GRAY);
  else grey = image;
  if (grey.depth() != CV_8U) return out;
  const auto board = board_of(spec);
  std::vector<std::vector<cv::Point2f>> mcorners, rejected;
  std::vector<int> mids;
  auto dp = cv::aruco::DetectorParameters::create();
  dp->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;  // ChArUco corners are refined instead
  cv::aruco::detectMarkers(grey, board->dictionary, mcorners, mids, dp, rejected);
  if (mids.empty()) return out;
  cv::aruco::refineDetectedMarkers(grey, board, mcorners, mids, rejected);
  out.markers = static_cast<int>(mids.size());
  cv::aruco::interpolateCornersCharuco(mcorners, mids, grey, board, out.corners, out.ids);
  return out;
}

Result<CameraCalibration> calibrate_camera_from_detections(const std::vector<CharucoDetection>& detections,
                                                           const std::vector<std::string>& names, cv::Size image_size,
                                                           const vision::CharucoSpec& spec,
                                                           const CameraCalibParams& params) {
  if (detections.empty()) return Error{"no calibration frames"};
  if (image_size.area() <= 0) return Error{"calibration frames have no size"};
  CameraCalibration out;
  std::vector<int> good;
  for (std::size_t i = 0; i < detections.size(); ++i) {
    FrameReport fr;
    fr.name = i < names.size() ? names[i] : "frame " + std::to_string(i);
    fr.corners = static_cast<int>(detections[i].corners.size());
    if (fr.corners < std::max(params.min_corners, 6))
      fr.rejected = std::to_string(fr.corners) + " corners < " + std::to_string(std::max(params.min_corners, 6));
    else
      good.push_back(static_cast<int>(i));
    out.frames.push_back(fr);
  }
  const int need = std::max(params.min_frames, 3);
  const auto board = board_of(spec);
  int flags = 0;
  if (!params.use_k3) flags |= cv::CALIB_FIX_K3;
  cv::Mat k, dist;
  std::vector<double> per_view;
  double rms = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (static_cast<int>(good.size()) < need)
      return Error{"too few usable calibration frames: " + std::to_string(good.size()) + " with >= " +
                   std::to_string(std::max(params.min_corners, 6)) + " ChArUco corners, need " + std::to_string(need) +
                   " (show the whole board, sharp, from several angles)"};
    std::vector<std::vector<cv::Point2f>> corners;
    std::vector<std::vector<int>> ids;
    for (int i : good) {
      corners.push_back(detections[static_cast<std::size_t>(i)].corners);
      ids.push_back(detections[static_cast<std::size_t>(i)].ids);
    }
    std::vector<cv::Mat> rv, tv;
    cv::Mat sd_in, sd_ex, pv;
    k = cv::Mat();
    dist = cv::Mat();
    try {
      rms = cv::aruco::calibrateCameraCharuco(corners, ids, board, image_size, k, dist, rv, tv, sd_in, sd_ex, pv, flags);
    } catch (const cv::Exception& e) {
      return Error{std::string("camera calibration failed: ") + e.err};
    }
    if (!std::isfinite(rms) || k.empty()) return Error{"camera calibration failed (no solution)"};
    per_view.assign(pv.begin<double>(), pv.end<double>());
    for (std::size_t g = 0; g < good.size(); ++g) out.frames[static_cast<std::size_t>(good[g])].rms_px = per_view[g];
    if (pass == 1) break;
    std::vector<double> sorted = per_view;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
    const double limit = std::max(params.outlier_factor * sorted[sorted.size() / 2], params.outlier_min_px);
    std::vector<int> kept;
    for (std::size_t g = 0; g < good.size(); ++g) {
      if (per_view[g] > limit) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "outlier: %.2f px > %.2f px", per_view[g], limit);
        out.frames[static_cast<std::size_t>(good[g])].rejected = buf;
      } else {
        kept.push_back(good[g]);
      }
    }
    if (kept.size() == good.size()) break;
    good = kept;
  }
  std::vector<CharucoDetection> used;
  for (int i : good) {
    out.frames[static_cast<std::size_t>(i)].used = true;
    used.push_back(detections[static_cast<std::size_t>(i)]);
  }
  out.intrinsics.camera_matrix = cv::Matx33d(k);
  out.intrinsics.dist_coeffs = dist.reshape(1, 1).clone();
  out.intrinsics.image_size = image_size;
  out.rms_px = rms;
  out.frames_used = static_cast<int>(good.size());
  out.coverage = coverage_of(used, image_size, params.coverage_grid);
  const auto& km = out.intrinsics.camera_matrix;
  if (!(km(0, 0) > 0 && km(1, 1) > 0)) return Error{"camera calibration failed (focal length not positive)"};
  if (params.max_rms_px > 0 && rms > params.max_rms_px) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "camera calibration RMS %.1f px > %.1f px: the frames do not match the %dx%d board of %.0f mm squares "
                  "(wrong --board?) or are blurred",
                  rms, params.max_rms_px, spec.squares_x, spec.squares_y, spec.square_mm);
    return Error{buf};
  }
  return out;
}

Result<CameraCalibration> calibrate_camera(const std::vector<CalibFrame>& frames, const vision::CharucoSpec& spec,
                                           const CameraCalibParams& params) {
  if (frames.empty()) return Error{"no calibration frames"};
  cv::Size size;
  std::vector<CharucoDetection> dets;
  std::vector<std::string> names;
  for (const auto& f : frames) {
    if (f.image.empty()) return Error{f.name + ": empty image"};
    if (size.area() == 0) size = f.image.size();
    if (f.image.size() != size)
      return Error{f.name + ": " + std::to_string(f.image.cols) + "x" + std::to_string(f.image.rows) +
                   " differs from the first frame's " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                   " (all frames must come from one camera mode)"};
    dets.push_back(detect_charuco(f.image, spec));
    names.push_back(f.name);
  }
  return calibrate_camera_from_detections(dets, names, size, spec, params);
}

std::vector<vision::CharucoSpec> known_charuco_specs() {
  return {vision::charuco_spec_for("a3"), vision::charuco_spec_for("a4")};
}

Result<CameraCalibration> calibrate_camera_any(const std::vector<CalibFrame>& frames,
                                               const std::vector<vision::CharucoSpec>& specs,
                                               const CameraCalibParams& params, vision::CharucoSpec* used) {
  if (specs.empty()) return Error{"no board spec"};
  std::optional<Result<CameraCalibration>> best;
  std::optional<std::string> first_error;
  for (const auto& spec : specs) {
    auto r = calibrate_camera(frames, spec, params);
    if (!r) {
      if (!first_error) first_error = r.error();
      continue;
    }
    if (!best || r->rms_px < (*best)->rms_px) {
      best = std::move(r);
      if (used) *used = spec;
    }
  }
  if (best) return std::move(*best);
  return Error{*first_error};
}

// ---------------------------------------------------------------- session
CameraCalibrationSession::CameraCalibrationSession(vision::CharucoSpec spec, CameraCalibParams params, int target_views)
    : spec_(std::move(spec)), params_(params), target_(std::max(target_views, params.min_frames)) {}

CharucoDetection CameraCalibrationSession::add_frame(const cv::Mat& frame, bool* kept) {
  if (kept) *kept = false;
  if (frame.empty()) return {};
  ++seen_;
  auto det = detect_charuco(frame, spec_);
  if (static_cast<int>(det.corners.size()) < params_.min_corners) return det;
  if (size_.area() > 0 && frame.size() != size_) return det;  // a mode change: ignore (reset() to switch)
  const double diag = std::hypot(frame.cols, frame.rows);
  for (const auto& k : kept_) {
    // Mean displacement of the shared corners; few shared corners = a different view.
    std::map<int, cv::Point2f> at;
    for (std::size_t i = 0; i < k.ids.size(); ++i) at[k.ids[i]] = k.corners[i];
    double sum = 0;
    int n = 0;
    for (std::size_t i = 0; i < det.ids.size(); ++i)
      if (auto it = at.find(det.ids[i]); it != at.end()) {
        sum += cv::norm(det.corners[i] - it->second);
        ++n;
      }
    const bool same_ids = n >= 0.8 * static_cast<double>(det.ids.size());
    if (same_ids && n > 0 && sum / n < params_.min_view_change * diag) return det;
  }
  size_ = frame.size();
  kept_.push_back(det);
  if (kept) *kept = true;
  return det;
}

CameraCalibrationSession::Progress CameraCalibrationSession::progress() const {
  Progress p;
  p.frames_seen = seen_;
  p.frames_kept = static_cast<int>(kept_.size());
  p.target = target_;
  p.coverage = coverage_of(kept_, size_, params_.coverage_grid);
  p.ready = p.frames_kept >= target_;
  return p;
}

Result<CameraCalibration> CameraCalibrationSession::calibrate() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kept_.size(); ++i) names.push_back("view " + std::to_string(i));
  return calibrate_camera_from_detections(kept_, names, size_, spec_, params_);
}

std::future<Result<CameraCalibration>> CameraCalibrationSession::calibrate_async() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kept_.size(); ++i) names.push_back("view " + std::to_string(i));
  return std::async(std::launch::async, [kept = kept_, names, size = size_, spec = spec_, params = params_] {
    return calibrate_camera_from_detections(kept, names, size, spec, params);
  });
}

void CameraCalibrationSession::reset() {
  seen_ = 0;
  size_ = {};
  kept_.clear();
}

}  // namespace hexdice::calibration
