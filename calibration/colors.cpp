// Colour calibration: each player's dice sampled on the registered sheet, relative to
// the paper white (the reference the reader uses, vision/read.cpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/calibration.h"
#include "core/board.h"
#include "vision/die_face.h"
#include "vision/read.h"

namespace hexdice::calibration {

namespace {

using vision::median_bgr;
using vision::sample;

// The frame as the reader sees it: BGR, undistorted when intrinsics with distortion are given.
Result<cv::Mat> prepare(const cv::Mat& in, const vision::CalibrationData* calib) {
  if (in.empty()) return Error{"empty image"};
  cv::Mat image;
  if (in.type() == CV_8UC3) image = in;
  else if (in.type() == CV_8UC1) cv::cvtColor(in, image, cv::COLOR_GRAY2BGR);
  else if (in.type() == CV_8UC4) cv::cvtColor(in, image, cv::COLOR_BGRA2BGR);
  else return Error{"unsupported pixel format"};
  if (calib && calib->camera && calib->camera->dist_coeffs.total() >= 4) {
    cv::Matx33d k = calib->camera->camera_matrix;
    const cv::Size cs = calib->camera->image_size;
    if (cs.width > 0 && cs != image.size()) {
      const double sx = static_cast<double>(image.cols) / cs.width, sy = static_cast<double>(image.rows) / cs.height;
      k(0, 0) *= sx; k(0, 2) *= sx; k(1, 1) *= sy; k(1, 2) *= sy;
    }
    cv::Mat und;
    cv::undistort(image, und, k, calib->camera->dist_coeffs);
    image = und;
  }
  return image;
}

// Paper white: the white patch (paper plane), else / when darker than 0.8 x the median
// paper near the cells, the median paper (brightest quarter of samples per cell).
cv::Vec3f paper_white(const cv::Mat& image, const vision::SheetLayout& layout, const cv::Matx33d& hp, bool& from_patch) {
  from_patch = false;
  cv::Vec3f white(0, 0, 0);
  const auto& wp = layout.white_patch;
  if (wp[1].x > wp[0].x && wp[1].y > wp[0].y) {
    std::vector<cv::Vec3b> s;
    for (int i = 1; i < 6; ++i)
      for (int j = 1; j < 4; ++j) {
        cv::Vec3b v;
        if (sample(image, vision::apply_h(hp, {wp[0].x + (wp[1].x - wp[0].x) * i / 6, wp[0].y + (wp[1].y - wp[0].y) * j / 4}), v))
          s.push_back(v);
      }
    if (s.size() >= 8) {
      white = median_bgr(s);
      from_patch = true;
    }
  }
  std::vector<cv::Vec3b> papers;
  const double inscribed = layout.hex_size_mm * std::sqrt(3.0) / 2;
  for (const auto& c : layout.cells) {
    std::vector<cv::Vec3b> s;
    for (double rad : {0.8 * inscribed, 0.9 * inscribed})
      for (int i = 0; i < 18; ++i) {
        const double a = CV_PI / 9 * i + 0.17;
        cv::Vec3b v;
        if (sample(image, vision::apply_h(hp, {c.centre.x + rad * std::cos(a), c.centre.y + rad * std::sin(a)}), v))
          s.push_back(v);
      }
    if (s.empty()) continue;
    std::sort(s.begin(), s.end(), [](cv::Vec3b a, cv::Vec3b b) { return a[0] + 2 * a[1] + a[2] < b[0] + 2 * b[1] + b[2]; });
    const cv::Vec3f m = median_bgr(std::vector<cv::Vec3b>(s.begin() + static_cast<long>(s.size() * 3 / 4), s.end()));
    papers.emplace_back(cv::saturate_cast<uchar>(m[0]), cv::saturate_cast<uchar>(m[1]), cv::saturate_cast<uchar>(m[2]));
  }
  if (!papers.empty()) {
    const cv::Vec3f pm = median_bgr(papers);
    if (white[0] + white[1] + white[2] < 0.8f * (pm[0] + pm[1] + pm[2])) {
      white = pm;
      from_patch = false;
    }
  }
  for (int k = 0; k < 3; ++k) white[k] = std::max(white[k], 20.0f);
  return white;
}

// The square of `side_mm` centred on a cell, on the top-face plane, rectified.
cv::Mat top_crop(const cv::Mat& image, const cv::Matx33d& ht, Point c, double side_mm, double ppm) {
  const int n = std::max(8, cvRound(side_mm * ppm));
  const double s = side_mm / n;
  const cv::Matx33d a(s, 0, c.x - side_mm / 2 + s / 2, 0, s, c.y - side_mm / 2 + s / 2, 0, 0, 1);
  cv::Mat crop;
  cv::warpPerspective(image, crop, cv::Mat(ht * a), cv::Size(n, n), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                      cv::BORDER_REPLICATE);
  return crop;
}

std::string cell_label(const vision::SheetLayout& layout, Hex h) {
  const int i = layout.cell_index(h);
  std::string s = std::to_string(h.q) + "," + std::to_string(h.r);
  if (i >= 0 && !layout.cells[static_cast<std::size_t>(i)].name.empty()) s = layout.cells[static_cast<std::size_t>(i)].name + " (" + s + ")";
  return s;
}

// name_color's feature (vision/die_face.cpp): lightness and chromaticity.
double color_distance(cv::Vec3f a, cv::Vec3f b) {
  auto feat = [](cv::Vec3f c) {
    const float s = c[0] + c[1] + c[2] + 1e-3f;
    return cv::Vec3f(s / 3.0f, 3.0f * c[1] / s, 3.0f * c[2] / s);
  };
  const cv::Vec3f f = feat(a), g = feat(b);
  return 0.5 * std::abs(f[0] - g[0]) + std::abs(f[1] - g[1]) + std::abs(f[2] - g[2]);
}

}  // namespace

std::vector<ColorCell> default_color_cells(const vision::SheetLayout& layout) {
  const int r = layout.radius;
  return {{"red", Hex{0, -(r - 1)}}, {"blue", Hex{0, r - 1}}};
}

Result<std::vector<ColorCell>> parse_color_cells(const std::string& text, const vision::SheetLayout& layout) {
  std::vector<ColorCell> out;
  std::stringstream ss(text);
  std::string item;
  std::optional<Board> board;
  if (layout.radius >= kMinRadius && layout.radius <= kMaxRadius) board.emplace(layout.radius);
  while (std::getline(ss, item, ';')) {
    if (item.find_first_not_of(" \t") == std::string::npos) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return Error{"--cells: expected NAME=CELL, got '" + item + "'"};
    std::string name = item.substr(0, eq), cell = item.substr(eq + 1);
    auto trim = [](std::string& s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t") + 1);
    };
    trim(name);
    trim(cell);
    if (name.empty()) return Error{"--cells: empty colour name in '" + item + "'"};
    Hex h{};
    bool ok = false;
    if (const auto comma = cell.find(','); comma != std::string::npos) {
      try {
        std::size_t p1 = 0, p2 = 0;
        h.q = std::stoi(cell.substr(0, comma), &p1);
        h.r = std::stoi(cell.substr(comma + 1), &p2);
        ok = p1 == comma && p2 == cell.size() - comma - 1;
      } catch (const std::exception&) {
        ok = false;
      }
    } else if (board) {
      if (auto p = board->parse_name(cell)) {
        h = *p;
        ok = true;
      }
    }
    if (!ok) return Error{"--cells: '" + cell + "' is not a cell (a name like f2 or q,r like 0,-4)"};
    if (layout.cell_index(h) < 0) return Error{"--cells: " + cell + " is not on the map"};
    out.push_back({name, h});
  }
  if (out.empty()) return Error{"--cells: no cells given"};
  return out;
}

Result<ColorCalibration> calibrate_colors(const cv::Mat& frame, const vision::SheetLayout& layout,
                                          const std::vector<ColorCell>& cells, const vision::CalibrationData* calib,
                                          const ColorCalibParams& params) {
  if (cells.empty()) return Error{"no cells to sample"};
  auto img = prepare(frame, calib);
  if (!img) return Error{img.error()};
  const cv::Mat& image = *img;
  const vision::SheetPose pose = vision::register_sheet(image, layout, calib, params.reg);
  if (!pose.found) return Error{"sheet markers not found (need at least " + std::to_string(params.reg.min_markers) + ")"};
  ColorCalibration out;
  out.image_size = image.size();
  out.white_bgr = paper_white(image, layout, pose.paper_to_image, out.white_from_patch);
  const cv::Vec3f& w = out.white_bgr;
  std::map<std::string, std::pair<cv::Vec3f, int>> sums;
  std::vector<std::string> order;
  std::optional<vision::Observation> board;  // read once, only when a cell is in doubt
  for (const auto& c : cells) {
    const int idx = layout.cell_index(c.hex);
    if (idx < 0) return Error{"cell " + std::to_string(c.hex.q) + "," + std::to_string(c.hex.r) + " is not on the map"};
    const Point centre = layout.cells[static_cast<std::size_t>(idx)].centre;
    const cv::Point2d at = vision::apply_h(pose.top_to_image, {centre.x, centre.y});
    if (at.x < 0 || at.y < 0 || at.x >= image.cols || at.y >= image.rows)
      return Error{"cell " + cell_label(layout, c.hex) + " is out of view"};
    const cv::Mat crop = top_crop(image, pose.top_to_image, centre, params.sample_side_mm, params.px_per_mm);
    const vision::FaceReading fr = vision::read_face(crop);
    const cv::Vec3f body = fr.body_bgr;
    const cv::Vec3f rel(body[0] / w[0], body[1] / w[1], body[2] / w[2]);
    if (params.require_die) {
      // Bare paper looks like the cell's own paper colour (tints included), within tolerance.
      std::vector<cv::Vec3b> ring;
      const double inscribed = layout.hex_size_mm * std::sqrt(3.0) / 2;
      for (int i = 0; i < 18; ++i) {
        const double a = CV_PI / 9 * i + 0.17;
        cv::Vec3b v;
        if (sample(image, vision::apply_h(pose.paper_to_image, {centre.x + 0.85 * inscribed * std::cos(a), centre.y + 0.85 * inscribed * std::sin(a)}), v))
          ring.push_back(v);
      }
      const cv::Vec3f paper = median_bgr(ring);
      bool same = !ring.empty();
      for (int k = 0; k < 3; ++k) same = same && std::abs(body[k] - paper[k]) / w[k] < params.paper_tolerance;
      // Is there a die after all? Pips read confidently on the whole face (the colour
      // sample above is smaller than the face and cuts corner pips off) say yes. A weak
      // reading is no proof: the grain of a bare tinted base can give one, so then the
      // board reader, which the referee trusts for occupancy, decides.
      const auto has_die = [&] {
        const vision::FaceReading whole =
            vision::read_face(top_crop(image, pose.top_to_image, centre, params.face_side_mm, params.px_per_mm));
        if (whole.face != 0 && whole.confidence >= params.die_min_confidence) return true;
        if (!board) {
          // `image` is already undistorted: the reader gets the colours, not the lens.
          vision::CalibrationData colours_only;
          if (calib) colours_only.colors = calib->colors;
          board = vision::read_board(image, layout, &colours_only);
        }
        return std::any_of(board->cells.begin(), board->cells.end(), [&](const auto& o) { return o.hex == c.hex; });
      };
      // Only a paper-coloured sample needs the (costlier) die test.
      if (same && !has_die()) return Error{"no die on cell " + cell_label(layout, c.hex) + " (it looks like bare paper)"};
    }
    out.cells.push_back({c.name, c.hex, body, rel});
    if (!sums.count(c.name)) order.push_back(c.name);
    auto& s = sums[c.name];
    s.first += rel;
    s.second += 1;
  }
  for (const auto& name : order) {
    const auto& s = sums[name];
    out.colors.push_back({name, s.first * (1.0f / static_cast<float>(s.second))});
  }
  return out;
}

CheckReport check_calibration_on_frame(const vision::CalibrationData& calib, const cv::Mat& frame,
                                       const vision::SheetLayout& layout, const CheckParams& params) {
  CheckReport rep = check_calibration(calib, frame.size(), &layout, params);
  if (calib.colors.empty() || frame.empty()) return rep;
  const vision::Observation obs = vision::read_board(frame, layout, &calib);
  if (!obs.board_found || obs.cells.empty()) return rep;
  std::vector<ColorCell> cells;
  for (const auto& c : obs.cells) cells.push_back({c.color, c.hex});
  ColorCalibParams cp;
  cp.require_die = false;
  const auto col = calibrate_colors(frame, layout, cells, &calib, cp);
  if (!col) return rep;
  std::vector<double> d;
  for (const auto& s : col->cells) {
    double best = 1e9;
    for (const auto& c : calib.colors) best = std::min(best, color_distance(s.bgr_rel, c.bgr_rel));
    d.push_back(best);
  }
  std::nth_element(d.begin(), d.begin() + static_cast<long>(d.size() / 2), d.end());
  const double med = d[d.size() / 2];
  if (med > params.color_tolerance) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "dice colours differ from the calibrated ones (median distance %.2f > %.2f over %zu dice): "
                  "lighting or dice changed, recalibrate colours",
                  med, params.color_tolerance, d.size());
    rep.issues.push_back({CheckIssue::ColorsDrift, buf});
  }
  return rep;
}

}  // namespace hexdice::calibration
