#include "vision/register.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/mask_ops.h"

namespace hexdice::vision {

namespace {

const cv::Ptr<cv::aruco::Dictionary>& dictionary() {
  static const cv::Ptr<cv::aruco::Dictionary> d =
      cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  return d;
}

cv::Ptr<cv::aruco::DetectorParameters> detector_params() {
  auto p = cv::aruco::DetectorParameters::create();
  // One threshold window (13 px) is enough for 40 mm markers on the downscaled copy and
  // halves the detection time of the two windows (9, 23) used before (fixtures: the same
  // 146 markers found at 720 px, 145 of 146 at 640 px; the full-size pass finds the rest).
  p->adaptiveThreshWinSizeMin = 13;
  p->adaptiveThreshWinSizeMax = 13;
  p->adaptiveThreshWinSizeStep = 10;
  p->minMarkerPerimeterRate = 0.02;
  p->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;  // refined below at full size
  return p;
}

using Found = std::map<int, std::array<cv::Point2f, 4>>;

// Detects markers in `gray` (optionally downscaled), corners in `gray` pixels + offset.
// `scale` < 1: downscale by that factor instead (the tracker's windows, at the scale the
// whole frame would be searched at). `frame_side` > 0 (a window of a frame of that long
// side, searched at full size): the marker perimeter limits are the whole frame's in
// pixels, so the window finds what the whole frame's search finds there.
void detect_in(const cv::Mat& gray, int max_side, cv::Point2f offset, Found& out, double force_scale = 0,
               int frame_side = 0) {
  if (gray.empty() || gray.cols < 8 || gray.rows < 8) return;
  double scale = 1.0;
  cv::Mat work = gray;
  const int side = std::max(gray.cols, gray.rows);
  if (force_scale > 0 && force_scale < 1) {
    scale = force_scale;
    resize_area(gray, work, scale);
  } else if (max_side > 0 && side > max_side) {
    scale = static_cast<double>(max_side) / side;
    resize_area(gray, work, scale);  // = cv::resize INTER_AREA, 3:1 faster (mask_ops.h)
  }
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  static const cv::Ptr<cv::aruco::DetectorParameters> params = detector_params();
  cv::Ptr<cv::aruco::DetectorParameters> use = params;
  if (frame_side > 0 && scale == 1.0) {
    // The rates are of the searched image's long side (aruco's minPerimeterPixels).
    use = detector_params();
    const double k = static_cast<double>(frame_side) / std::max(work.cols, work.rows);
    use->minMarkerPerimeterRate = params->minMarkerPerimeterRate * k;
    use->maxMarkerPerimeterRate = params->maxMarkerPerimeterRate * k;
  }
  cv::aruco::detectMarkers(work, dictionary(), corners, ids, use);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (out.count(ids[i])) continue;
    std::array<cv::Point2f, 4> c;
    for (int k = 0; k < 4; ++k)
      c[static_cast<std::size_t>(k)] = corners[i][static_cast<std::size_t>(k)] * static_cast<float>(1.0 / scale) + offset;
    out[ids[i]] = c;
  }
}

void refine(const cv::Mat& gray, Found& found, int win) {
  if (win <= 0) return;
  for (auto& [id, c] : found) {
    std::vector<cv::Point2f> pts(c.begin(), c.end());
    const double side = cv::norm(pts[0] - pts[1]);
    const int w = std::max(2, std::min(win, static_cast<int>(side / 6)));
    bool inside = true;
    for (const auto& p : pts)
      if (p.x < w + 1 || p.y < w + 1 || p.x > gray.cols - w - 2 || p.y > gray.rows - w - 2) inside = false;
    if (!inside) continue;
    cv::cornerSubPix(gray, pts, cv::Size(w, w), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.01));
    for (int k = 0; k < 4; ++k) c[static_cast<std::size_t>(k)] = pts[static_cast<std::size_t>(k)];
  }
}

cv::Matx33d intrinsics_for(const CalibrationData* calib, cv::Size size, bool& have) {
  have = false;
  if (!calib || !calib->camera) return cv::Matx33d::eye();
  cv::Matx33d k = calib->camera->camera_matrix;
  const cv::Size cs = calib->camera->image_size;
  if (cs.width > 0 && cs.height > 0 && cs != size) {
    const double sx = static_cast<double>(size.width) / cs.width, sy = static_cast<double>(size.height) / cs.height;
    k(0, 0) *= sx; k(0, 2) *= sx; k(1, 1) *= sy; k(1, 2) *= sy;
  }
  have = k(0, 0) > 0 && k(1, 1) > 0;
  return k;
}

// Where the homography `paper_to_image` puts marker `m`'s corners in the image.
std::array<cv::Point2f, 4> project_marker(const cv::Matx33d& paper_to_image, const MarkerMm& m) {
  std::array<cv::Point2f, 4> c;
  for (std::size_t k = 0; k < 4; ++k) {
    const cv::Point2d p = apply_h(paper_to_image, {m.corners[k].x, m.corners[k].y});
    c[k] = cv::Point2f(static_cast<float>(p.x), static_cast<float>(p.y));
  }
  return c;
}

// The window a marker with image corners `c` is looked for in: their bounding box grown by
// `margin` x its longer side + 4 px on each side, cut at `frame` (empty when outside it).
cv::Rect marker_window(const std::array<cv::Point2f, 4>& c, double margin, const cv::Rect& frame) {
  cv::Rect r = cv::boundingRect(std::vector<cv::Point2f>(c.begin(), c.end()));
  const int grow = static_cast<int>(std::max(r.width, r.height) * margin) + 4;
  return cv::Rect(r.x - grow, r.y - grow, r.width + 2 * grow, r.height + 2 * grow) & frame;
}

// The full-size search for the markers of `wanted` missing from `found` (the downscaled
// copy's). With at least `need` found and margin > 0: windows round where the found
// markers' homography puts each missing one, grown by `margin` marker sides on each side
// (a marker partly out of the frame is searched in the part in it); else the whole frame.
// `searched_px` counts the pixels searched.
void full_size_search(const cv::Mat& gray, const std::map<int, const MarkerMm*>& wanted, int need, double margin,
                      Found& found, long& searched_px) {
  const cv::Rect frame(0, 0, gray.cols, gray.rows);
  std::vector<cv::Point2f> src, dst;
  for (const auto& [id, c] : found) {
    auto it = wanted.find(id);
    if (it == wanted.end()) continue;
    for (std::size_t k = 0; k < 4; ++k) {
      src.emplace_back(static_cast<float>(it->second->corners[k].x), static_cast<float>(it->second->corners[k].y));
      dst.push_back(c[k]);
    }
  }
  cv::Mat h;
  if (margin > 0 && static_cast<int>(src.size()) >= 4 * need) h = cv::findHomography(src, dst, 0);
  if (h.empty()) {
    searched_px += frame.area();
    detect_in(gray, 0, {0, 0}, found);
    return;
  }
  const cv::Matx33d hm(h);
  std::vector<cv::Rect> windows;
  for (const auto& [id, m] : wanted) {
    if (found.count(id)) continue;
    const cv::Rect r = marker_window(project_marker(hm, *m), margin, frame);
    if (r.area() > 0) windows.push_back(r);
  }
  const int frame_side = std::max(gray.cols, gray.rows);
  for (const cv::Rect& r : windows) {
    searched_px += r.area();
    detect_in(gray(r), 0, cv::Point2f(static_cast<float>(r.x), static_cast<float>(r.y)), found, 0, frame_side);
  }
}

}  // namespace

double estimate_focal(const cv::Matx33d& paper_to_image, cv::Point2d pp) {
  const cv::Matx33d t(1, 0, -pp.x, 0, 1, -pp.y, 0, 0, 1);
  cv::Matx33d h = t * paper_to_image;
  // Zhang's constraints with K = diag(f, f, 1): h1.w.h2 = 0, h1.w.h1 = h2.w.h2 with
  // w = diag(1/f^2, 1/f^2, 1). Both are linear in u = 1/f^2: a*u + b = 0.
  const double n = cv::norm(h);
  h *= 1.0 / n;
  const double a1 = h(0, 0) * h(0, 1) + h(1, 0) * h(1, 1), b1 = h(2, 0) * h(2, 1);
  const double a2 = h(0, 0) * h(0, 0) + h(1, 0) * h(1, 0) - h(0, 1) * h(0, 1) - h(1, 1) * h(1, 1);
  const double b2 = h(2, 0) * h(2, 0) - h(2, 1) * h(2, 1);
  const double den = a1 * a1 + a2 * a2;
  if (den < 1e-18) return -1;
  const double u = -(a1 * b1 + a2 * b2) / den;
  if (!(u > 0)) return -1;
  // Too little perspective to tell: the constraints are then dominated by noise.
  const double persp = std::sqrt(b1 * b1 + b2 * b2) / std::sqrt(den);
  if (persp < 1e-9) return -1;
  return 1.0 / std::sqrt(u);
}

double plane_tilt_deg(const cv::Matx33d& paper_to_image, cv::Point2d pp, double f) {
  const cv::Matx33d m = cv::Matx33d(f, 0, pp.x, 0, f, pp.y, 0, 0, 1).inv() * paper_to_image;
  cv::Vec3d r1(m(0, 0), m(1, 0), m(2, 0)), r2(m(0, 1), m(1, 1), m(2, 1));
  r1 *= 1.0 / std::max(1e-12, cv::norm(r1));
  r2 *= 1.0 / std::max(1e-12, cv::norm(r2));
  cv::Vec3d r3 = r1.cross(r2);
  r3 *= 1.0 / std::max(1e-12, cv::norm(r3));
  return std::acos(std::min(1.0, std::abs(r3[2]))) * 180.0 / CV_PI;
}

double choose_focal(const cv::Matx33d& paper_to_image, cv::Size image_size, const RegisterParams& params, bool* estimated) {
  const cv::Point2d pp((image_size.width - 1) / 2.0, (image_size.height - 1) / 2.0);
  const double side = std::max(image_size.width, image_size.height);
  const double fallback = params.fallback_focal_factor * side;
  const double f = estimate_focal(paper_to_image, pp);
  // Estimates far outside any real lens (about 20..170 deg field) are noise; so is any
  // estimate from a view almost straight down (too little perspective to tell).
  const bool ok = f > 0.25 * side && f < 6.0 * side &&
                  !(params.focal_min_tilt_deg > 0 && plane_tilt_deg(paper_to_image, pp, fallback) < params.focal_min_tilt_deg);
  if (estimated) *estimated = ok;
  return ok ? f : fallback;
}

cv::Matx33d lift_homography(const cv::Matx33d& paper_to_image, double height_mm,
                            const cv::Matx33d& k) {
  const cv::Matx33d m = k.inv() * paper_to_image;
  const cv::Vec3d m1(m(0, 0), m(1, 0), m(2, 0)), m2(m(0, 1), m(1, 1), m(2, 1)), m3(m(0, 2), m(1, 2), m(2, 2));
  double lambda = 2.0 / (cv::norm(m1) + cv::norm(m2));
  if (m3[2] * lambda < 0) lambda = -lambda;  // the paper is in front of the camera
  const cv::Vec3d r1 = m1 * lambda, r2 = m2 * lambda, t = m3 * lambda;
  cv::Vec3d r3 = r1.cross(r2);
  r3 *= 1.0 / std::max(1e-12, cv::norm(r3));
  // x right, y down the page: r3 points into the paper, so the top faces are at -h.
  const cv::Vec3d t_top = t - height_mm * r3;
  const cv::Matx33d rt(r1[0], r2[0], t_top[0], r1[1], r2[1], t_top[1], r1[2], r2[2], t_top[2]);
  return k * rt;
}

SheetPose register_sheet(const cv::Mat& image, const SheetLayout& layout, const CalibrationData* calib,
                         const RegisterParams& params, TrackerState* tracker) {
  SheetPose pose;
  if (image.empty() || image.cols < 16 || image.rows < 16) return pose;
  cv::Mat gray;
  if (image.channels() == 3) bgr_to_gray(image, gray);  // = cv::cvtColor(.., cv::COLOR_BGR2GRAY) (mask_ops.h)
  else if (image.channels() == 4) cv::cvtColor(image, gray, cv::COLOR_BGRA2GRAY);
  else if (image.channels() == 1) gray = image;
  else return pose;
  if (gray.depth() != CV_8U) gray.convertTo(gray, CV_8U);

  std::map<int, const MarkerMm*> wanted;
  for (const auto& m : layout.markers) wanted[m.id] = &m;
  const int need = std::max(1, std::min<int>(params.min_markers, static_cast<int>(wanted.size())));

  auto usable = [&](const Found& f) {
    int n = 0;
    for (const auto& kv : f) n += wanted.count(kv.first) ? 1 : 0;
    return n;
  };

  // The scale the whole frame is searched at (detect_max_side), and the smallest marker
  // side (pixels, at that scale) the tracker last saw.
  const int long_side = std::max(gray.cols, gray.rows);
  const double frame_scale =
      params.detect_max_side > 0 && long_side > params.detect_max_side ? static_cast<double>(params.detect_max_side) / long_side : 1.0;
  double last_min_side = 0;
  if (tracker && tracker->has_pose)
    for (const auto& c : tracker->last.marker_corners) {
      const double sd = std::min(cv::norm(c[0] - c[1]), cv::norm(c[1] - c[2])) * frame_scale;
      last_min_side = last_min_side > 0 ? std::min(last_min_side, sd) : sd;
    }
  Found found;
  bool tracked = false;
  if (tracker && tracker->has_pose && !tracker->last.marker_corners.empty()) {
    const cv::Rect frame(0, 0, gray.cols, gray.rows);
    // Windows at the whole frame's detection scale when the markers were big enough there
    // (found on the downscaled frame before): a quarter of the pixels at 720p.
    // Never below half size: a marker near the frame's edge, in a window cut there, was
    // missed at a third (1080p) depending on where the window began.
    const double win_scale = last_min_side >= params.track_min_side_px ? std::max(frame_scale, 0.5) : 1.0;
    // Every marker of the layout where the last pose puts it (the ones last seen, and the
    // ones covered then: uncovered, they are tracked again).
    std::vector<std::array<cv::Point2f, 4>> expected = tracker->last.marker_corners;
    for (const auto& [id, m] : wanted) {
      if (std::find(tracker->last.marker_ids.begin(), tracker->last.marker_ids.end(), id) != tracker->last.marker_ids.end())
        continue;
      expected.push_back(project_marker(tracker->last.paper_to_image, *m));
    }
    for (const auto& c : expected) {
      const cv::Rect r = marker_window(c, params.track_margin, frame);
      if (r.area() <= 0) continue;
      detect_in(gray(r), params.detect_max_side, cv::Point2f(static_cast<float>(r.x), static_cast<float>(r.y)), found,
                win_scale);
    }
    tracked = usable(found) >= need;
  }
  if (!tracked) {
    found.clear();
    detect_in(gray, params.detect_max_side, {0, 0}, found);
    // Small (far) markers may vanish in the downscaled copy: look again at full size. Not
    // when the tracker last saw every marker big enough for the downscaled copy: then a
    // marker missing there is covered (a hand), not small, and the full-size search (about
    // 4x the time) would run on every frame while it stays covered.
    const bool downscaled = frame_scale < 1.0;
    // Every 8th frame in a row without the markers it is done anyway (the camera may have
    // moved away: markers too small for the copy are then found again).
    const bool small_markers = !(tracker && tracker->has_pose && last_min_side >= params.track_min_side_px) ||
                               tracker->frames_since_seen % 8 == 7;
    if (downscaled && small_markers && usable(found) < static_cast<int>(wanted.size()))
      full_size_search(gray, wanted, need, params.full_search_margin, found, pose.full_size_searched_px);
  }
  if (tracker) tracker->last_used_tracking = tracked;

  if (usable(found) < need) {
    if (tracker && tracker->has_pose) {
      ++tracker->frames_since_seen;
      SheetPose kept = tracker->last;
      kept.marker_ids.clear();
      return kept;
    }
    return pose;
  }
  refine(gray, found, params.subpixel_window);

  bool have_k = false;
  cv::Matx33d k = intrinsics_for(calib, gray.size(), have_k);
  std::vector<cv::Point2f> src, dst;
  for (const auto& [id, c] : found) {
    auto it = wanted.find(id);
    if (it == wanted.end()) continue;
    pose.marker_ids.push_back(id);
    pose.marker_corners.push_back(c);
    for (int i = 0; i < 4; ++i) {
      const Point p = it->second->corners[static_cast<std::size_t>(i)];
      src.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
      dst.push_back(c[static_cast<std::size_t>(i)]);
    }
  }
  if (have_k && calib->camera->dist_coeffs.total() >= 4) {
    // Work in undistorted pixel coordinates (read() undistorts the image to match).
    std::vector<cv::Point2f> und;
    cv::undistortPoints(dst, und, k, calib->camera->dist_coeffs, cv::noArray(), k);
    dst = und;
  }
  cv::Mat h = cv::findHomography(src, dst, 0);
  if (h.empty()) return pose;
  cv::Matx33d hm(h);
  double err = 0;
  for (std::size_t i = 0; i < src.size(); ++i)
    err += cv::norm(apply_h(hm, cv::Point2d(src[i])) - cv::Point2d(dst[i]));
  err /= static_cast<double>(src.size());
  if (!(err <= params.max_reprojection_px)) return pose;

  pose.paper_to_image = hm;
  pose.reprojection_px = err;
  if (!have_k) {
    const cv::Point2d pp((gray.cols - 1) / 2.0, (gray.rows - 1) / 2.0);
    const double f = choose_focal(hm, gray.size(), params, &pose.focal_estimated);
    k = cv::Matx33d(f, 0, pp.x, 0, f, pp.y, 0, 0, 1);
  }
  pose.focal_px = k(0, 0);
  pose.top_to_image = lift_homography(hm, layout.die_height_mm, k);
  pose.found = true;
  if (tracker) {
    tracker->has_pose = true;
    tracker->last = pose;
    tracker->frames_since_seen = 0;
  }
  return pose;
}

}  // namespace hexdice::vision
