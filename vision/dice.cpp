#include "vision/dice.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <optional>

#include <opencv2/imgproc.hpp>

#include "vision/dice_classifier.h"
#include "vision/dice_cnn.h"
#include "vision/mask_ops.h"

namespace hexdice::vision {

namespace {

// The median (the upper one of an even count) of v; 0 when v is empty.
float median_of(std::vector<float> v) {
  if (v.empty()) return 0.0f;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// The sides of the kept dice that read a pip layout: the photo's dice are of about one size.
template <class Kept>
std::vector<float> layout_sides(const std::vector<Kept>& kept) {
  std::vector<float> sides;
  for (const auto& k : kept)
    if (k.pips.face > 0) sides.push_back(k.s.c.side);
  return sides;
}

cv::Mat distance_map(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat d(a.size(), CV_8U);
  for (int y = 0; y < a.rows; ++y) {
    const cv::Vec3b* p = a.ptr<cv::Vec3b>(y);
    const cv::Vec3b* q = b.ptr<cv::Vec3b>(y);
    uchar* o = d.ptr<uchar>(y);
    for (int x = 0; x < a.cols; ++x) {
      const int d0 = p[x][0] - q[x][0], d1 = p[x][1] - q[x][1], d2 = p[x][2] - q[x][2];
      o[x] = cv::saturate_cast<uchar>(std::sqrt(static_cast<float>(d0 * d0 + d1 * d1 + d2 * d2)));
    }
  }
  return d;
}

// The background: the median of the image shrunk by `shrink` over a `median` window,
// scaled back up (a die is much smaller than the window).
cv::Mat median_background(const cv::Mat& work, int shrink, int median) {
  cv::Mat small, bg;
  const int sh = std::max(1, shrink);
  cv::resize(work, small, cv::Size(std::max(3, work.cols / sh), std::max(3, work.rows / sh)), 0, 0, cv::INTER_AREA);
  cv::medianBlur(small, small, median | 1);
  cv::resize(small, bg, work.size(), 0, 0, cv::INTER_LINEAR);
  return bg;
}

}  // namespace

cv::Mat dice_work_image(const cv::Mat& image_in, const DiceParams& params, double& scale) {
  scale = 1.0;
  if (image_in.empty() || image_in.cols < 16 || image_in.rows < 16) return {};
  cv::Mat image;
  if (image_in.type() == CV_8UC3) image = image_in;
  else if (image_in.type() == CV_8UC1) cv::cvtColor(image_in, image, cv::COLOR_GRAY2BGR);
  else if (image_in.type() == CV_8UC4) cv::cvtColor(image_in, image, cv::COLOR_BGRA2BGR);
  else return {};
  scale = std::min(1.0, static_cast<double>(params.work_side) / std::max(image.cols, image.rows));
  cv::Mat work;
  if (scale < 1.0) cv::resize(image, work, cv::Size(), scale, scale, cv::INTER_AREA);
  else work = image;
  return work;
}

namespace {

struct Bodies {
  cv::Mat fg, bg;
  cv::Mat raw_fg;  // fg before the opening, closing and hole filling (the finder's plain foreground test)
  std::vector<cv::Rect> dice;
  std::vector<DieCandidate> peaks;  // distance-transform maxima of the foreground
};

// Die centres inside any foreground, however merged (dice touching each other or the rim
// of a tray): local maxima of the distance to the background, of die size (a square die
// of side s peaks at s/2), strongest first, one per place.
std::vector<DieCandidate> distance_peaks(const cv::Mat& fg, double min_px, double max_px, double suppress) {
  std::vector<DieCandidate> out;
  cv::Mat dt, dil;
  cv::distanceTransform(fg, dt, cv::DIST_L2, 3);
  cv::dilate(dt, dil, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}));
  struct P {
    cv::Point2f c;
    float v;
  };
  std::vector<P> ps;
  const float lo = static_cast<float>(0.35 * min_px), hi = static_cast<float>(0.6 * max_px);
  for (int y = 0; y < dt.rows; ++y) {
    const float* d = dt.ptr<float>(y);
    const float* m = dil.ptr<float>(y);
    for (int x = 0; x < dt.cols; ++x)
      if (d[x] >= lo && d[x] <= hi && d[x] >= m[x]) ps.push_back({cv::Point2f(static_cast<float>(x), static_cast<float>(y)), d[x]});
  }
  std::stable_sort(ps.begin(), ps.end(), [](const P& a, const P& b) { return a.v > b.v; });
  for (const auto& p : ps) {
    // A peak, not a ridge (a tray's rim, a long shadow): 0.7 v away in every direction
    // the distance has fallen well below v.
    bool ridge = false;
    for (int k = 0; k < 8 && !ridge; ++k) {
      const double a = k * CV_PI / 4;
      const int x = cvRound(p.c.x + 0.7 * p.v * std::cos(a)), y = cvRound(p.c.y + 0.7 * p.v * std::sin(a));
      if (x >= 0 && y >= 0 && x < dt.cols && y < dt.rows && dt.at<float>(y, x) > 0.9f * p.v) ridge = true;
    }
    if (ridge) continue;
    bool near = false;
    for (const auto& o : out)
      if (cv::norm(o.centre - p.c) < suppress * std::max(o.side, 2 * p.v)) {
        near = true;
        break;
      }
    if (!near) out.push_back({p.c, 2 * p.v, 2});
  }
  return out;
}

// Die bodies: foreground against a coarse median background, blobs of die size,
// touching dice split on distance-transform peaks.
Bodies body_blobs(const cv::Mat& work, const DiceParams& params, bool refine) {
  Bodies out;
  const int side = std::max(work.cols, work.rows);
  out.bg = median_background(work, params.bg_shrink, params.bg_median);
  cv::Mat fg = distance_map(work, out.bg) > params.fg_distance;
  if (refine && params.bg_refine > 0) {
    // Inside a dense cluster of dice the median is die-coloured, so the floor between the
    // dice differs from it and the cluster becomes one blob. Second pass: the background
    // again, from the pixels the first pass left as background only (a normalised blur,
    // so a cluster takes the floor colour round it), and the foreground against that.
    const int q = 4;
    cv::Mat keep, small, mask;
    cv::dilate(fg, keep, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
    keep = keep == 0;
    const cv::Size ss(std::max(3, work.cols / q), std::max(3, work.rows / q));
    cv::Mat wf, kf;
    work.convertTo(wf, CV_32FC3);
    keep.convertTo(kf, CV_32F, 1.0 / 255);
    wf.setTo(cv::Scalar::all(0), ~keep);
    cv::resize(wf, small, ss, 0, 0, cv::INTER_AREA);
    cv::resize(kf, mask, ss, 0, 0, cv::INTER_AREA);
    const double sigma = params.bg_refine * side / q;
    cv::GaussianBlur(small, small, cv::Size(0, 0), sigma);
    cv::GaussianBlur(mask, mask, cv::Size(0, 0), sigma);
    cv::Mat bg1s;
    cv::resize(out.bg, bg1s, ss, 0, 0, cv::INTER_AREA);
    cv::Mat b2(ss, CV_8UC3);
    for (int y = 0; y < ss.height; ++y)
      for (int x = 0; x < ss.width; ++x) {
        const float m = mask.at<float>(y, x);
        const cv::Vec3f v = small.at<cv::Vec3f>(y, x);
        b2.at<cv::Vec3b>(y, x) = m > 0.02f ? cv::Vec3b(cv::saturate_cast<uchar>(v[0] / m), cv::saturate_cast<uchar>(v[1] / m),
                                                      cv::saturate_cast<uchar>(v[2] / m))
                                           : bg1s.at<cv::Vec3b>(y, x);
      }
    cv::resize(b2, out.bg, work.size(), 0, 0, cv::INTER_LINEAR);
    fg = distance_map(work, out.bg) > params.fg_distance;
  }
  out.raw_fg = fg;
  {
    cv::Mat opened;  // a new mask: raw_fg keeps the plain test
    cv::morphologyEx(fg, opened, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {3, 3}));
    fg = opened;
  }
  cv::morphologyEx(fg, fg, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  const double min_px = params.min_side * side, max_px = params.max_side * side;
  fill_holes_up_to(fg, params.max_hole * max_px * max_px);
  out.fg = fg;
  if (params.distance_peaks > 0) out.peaks = distance_peaks(fg, min_px, max_px, params.distance_peaks);

  cv::Mat labels, stats, cents;
  const int n = cv::connectedComponentsWithStats(fg, labels, stats, cents, 8, CV_32S);
  std::vector<cv::Rect> boxes;
  for (int i = 1; i < n; ++i) {
    const cv::Rect r(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                     stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
    const double area = stats.at<int>(i, cv::CC_STAT_AREA);
    if (std::max(r.width, r.height) < min_px || std::max(r.width, r.height) > 2.5 * max_px) continue;
    if (std::min(r.width, r.height) < 0.4 * std::max(r.width, r.height) && std::max(r.width, r.height) < 1.6 * min_px * 2)
      continue;
    if (area < 0.35 * r.area()) continue;
    boxes.push_back(r);
  }
  std::vector<double> sides;
  for (const auto& r : boxes) sides.push_back(std::sqrt(static_cast<double>(r.area())));
  double typical = 0;
  if (!sides.empty()) {
    std::nth_element(sides.begin(), sides.begin() + static_cast<long>(sides.size() / 2), sides.end());
    typical = sides[sides.size() / 2];
  }
  for (const auto& r : boxes) {
    if (typical > 0 && std::max(r.width, r.height) > 1.6 * typical) {
      cv::Mat m = fg(r).clone();
      cv::Mat dt;
      cv::distanceTransform(m, dt, cv::DIST_L2, 3);
      cv::Mat peaks = dt >= 0.32 * typical;
      cv::Mat pl, ps, pc;
      const int pn = cv::connectedComponentsWithStats(peaks, pl, ps, pc, 8, CV_32S);
      if (pn > 2) {
        for (int i = 1; i < pn; ++i) {
          const cv::Point2d c(pc.at<double>(i, 0) + r.x, pc.at<double>(i, 1) + r.y);
          const int h = cvRound(typical / 2);
          out.dice.push_back(cv::Rect(cvRound(c.x) - h, cvRound(c.y) - h, 2 * h, 2 * h) &
                             cv::Rect(0, 0, work.cols, work.rows));
        }
        continue;
      }
    }
    if (std::max(r.width, r.height) > max_px) continue;
    out.dice.push_back(r);
  }
  return out;
}

struct Pip {
  cv::Point2f c;
  float d;  // diameter
};

std::vector<Pip> pip_blobs(const cv::Mat& hat, const DiceParams& params) {
  std::vector<Pip> pips;
  cv::Mat m = hat > params.pip_contrast;
  cv::Mat labels, stats, cents;
  const int n = cv::connectedComponentsWithStats(m, labels, stats, cents, 8, CV_32S);
  for (int i = 1; i < n; ++i) {
    const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
    const int area = stats.at<int>(i, cv::CC_STAT_AREA);
    if (area < params.pip_min_area || area > params.pip_max_area) continue;
    if (std::max(w, h) > 2 * std::min(w, h) + 1) continue;
    if (area < 0.4 * w * h) continue;
    pips.push_back({cv::Point2f(static_cast<float>(cents.at<double>(i, 0)), static_cast<float>(cents.at<double>(i, 1))),
                    static_cast<float>(1.13 * std::sqrt(static_cast<double>(area)))});
  }
  return pips;
}

int find_root(std::vector<int>& p, int i) {
  while (p[static_cast<std::size_t>(i)] != i) i = p[static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(p[static_cast<std::size_t>(i)])];
  return i;
}

// Pips grouped into faces at each linking distance; every group of 1..6 pips (and
// every single pip) proposes a face centred on the group.
void pip_candidates(const std::vector<Pip>& pips, const DiceParams& params, std::vector<DieCandidate>& out) {
  const int n = static_cast<int>(pips.size());
  for (const auto& p : pips) out.push_back({p.c, 5.5f * p.d, 1});
  for (double k : params.pip_links) {
    std::vector<int> parent(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) parent[static_cast<std::size_t>(i)] = i;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const Pip& a = pips[static_cast<std::size_t>(i)];
        const Pip& b = pips[static_cast<std::size_t>(j)];
        const float dmax = std::max(a.d, b.d), dmin = std::min(a.d, b.d);
        if (dmax > 2.0f * dmin) continue;
        if (cv::norm(a.c - b.c) < k * dmax) parent[static_cast<std::size_t>(find_root(parent, i))] = find_root(parent, j);
      }
    std::map<int, std::vector<int>> groups;
    for (int i = 0; i < n; ++i) groups[find_root(parent, i)].push_back(i);
    for (const auto& [root, g] : groups) {
      if (g.size() < 2 || g.size() > 6) continue;
      std::vector<cv::Point2f> pts;
      float dsum = 0;
      cv::Point2f c(0, 0);
      for (int i : g) {
        pts.push_back(pips[static_cast<std::size_t>(i)].c);
        c += pips[static_cast<std::size_t>(i)].c;
        dsum += pips[static_cast<std::size_t>(i)].d;
      }
      c *= 1.0f / static_cast<float>(g.size());
      const float d = dsum / static_cast<float>(g.size());
      const cv::RotatedRect rr = cv::minAreaRect(pts);
      const float span = std::max(rr.size.width, rr.size.height);
      out.push_back({c, std::max(5.5f * d, span + 2.5f * d), 1});
    }
  }
}

// Face-centred candidates (DiceParams::pip_face_candidates): every candidate place (body
// blob, distance peak, pip group, single pip) is read by the lattice pip reader on a square
// pip_face_window x its side; a layout of at least pip_face_min_face pips, of pips and
// face not too small, proposes a die centred on its face, pip_face_scale x the face's
// size, unless a candidate of the other kinds is already centred there at about that size.
void pip_face_candidates(const cv::Mat& work, const std::vector<DieCandidate>& seeds, const DiceParams& params,
                         std::vector<DieCandidate>& out) {
  std::vector<std::pair<cv::Point2f, float>> windows;
  std::vector<DieCandidate> found;
  for (const auto& c : seeds) {
    const float g = c.side * static_cast<float>(params.pip_face_window);
    bool seen = false;
    for (const auto& [wc, ws] : windows)
      seen = seen || (cv::norm(wc - c.centre) < static_cast<float>(params.pip_face_repeat) * g && std::abs(ws - g) < 0.2f * g);
    if (seen) continue;
    windows.push_back({c.centre, g});
    const PipRead r = read_pips(work, cv::Rect2f(c.centre.x - g / 2, c.centre.y - g / 2, g, g), params.pips);
    if (r.face < params.pip_face_min_face) continue;
    const float fs = static_cast<float>(params.pip_face_scale) * face_size(FaceSpot{r.centre, 0, r.face, r, 0});
    if (fs <= 0) continue;
    const float longside = static_cast<float>(std::max(work.cols, work.rows));
    if (r.pip_diameter < params.pip_face_min_pip * longside || fs < params.pip_face_min_side * longside) continue;
    bool dup = false;
    for (const auto& f : found) dup = dup || (cv::norm(f.centre - r.centre) < 0.1f * fs && std::abs(f.side - fs) < 0.12f * fs);
    // Gap only: a place that already has a candidate centred on the face at about its
    // size (any of the three sizes) gets none.
    if (params.pip_face_gap > 0)
      for (const auto& seed : seeds)
        for (float f : {0.7f, 1.0f, 1.4f})
          dup = dup || (cv::norm(seed.centre - r.centre) < params.pip_face_gap * fs && seed.side * f > 0.75f * fs && seed.side * f < 1.33f * fs);
    if (!dup) found.push_back({r.centre, fs, 3});
  }
  out.insert(out.end(), found.begin(), found.end());
}

}  // namespace

namespace {

// The candidate places (body blobs, distance peaks, pip groups, single pips), each at its
// estimated size, before the three sizes of dice_candidates. `masks`, when given, gets the
// body blobs' foreground (fg), their median background (bg) and the plain foreground test
// against it (raw_fg), which the finder uses again (made once a photo).
std::vector<DieCandidate> candidate_places(const cv::Mat& work, const DiceParams& params, Bodies* masks = nullptr) {
  std::vector<DieCandidate> out;
  if (work.empty()) return out;
  const Bodies b = body_blobs(work, params, false);
  if (masks) {
    masks->fg = b.fg;
    masks->bg = b.bg;
    masks->raw_fg = b.raw_fg;
  }
  for (const auto& r : b.dice)
    out.push_back({cv::Point2f(r.x + r.width / 2.0f, r.y + r.height / 2.0f),
                   std::sqrt(static_cast<float>(r.area())), 0});
  out.insert(out.end(), b.peaks.begin(), b.peaks.end());
  cv::Mat gray;
  cv::cvtColor(work, gray, cv::COLOR_BGR2GRAY);
  const cv::Mat se = cv::getStructuringElement(cv::MORPH_ELLIPSE, {params.pip_hat_size, params.pip_hat_size});
  cv::Mat black, top;
  cv::morphologyEx(gray, black, cv::MORPH_BLACKHAT, se);
  cv::morphologyEx(gray, top, cv::MORPH_TOPHAT, se);
  pip_candidates(pip_blobs(black, params), params, out);
  pip_candidates(pip_blobs(top, params), params, out);
  if (params.pip_face_candidates) {
    const std::vector<DieCandidate> seeds = out;
    pip_face_candidates(work, seeds, params, out);
  }
  return out;
}

// Each place at three sizes (the size estimate is rough; the classifier rejects patches
// of the wrong scale), near-duplicates dropped.
std::vector<DieCandidate> three_sizes(const std::vector<DieCandidate>& out, const cv::Mat& work, const DiceParams& params) {
  const float min_side = static_cast<float>(params.min_side * std::max(work.cols, work.rows)) * 0.5f;
  const float max_side = static_cast<float>(params.max_side * std::max(work.cols, work.rows));
  std::vector<DieCandidate> all;
  for (const auto& c : out)
    for (float f : {0.7f, 1.0f, 1.4f}) {
      DieCandidate d = c;
      d.side *= f;
      if (d.side < min_side || d.side > max_side) continue;
      bool dup = false;
      for (const auto& e : all)
        if (std::abs(e.side - d.side) < 0.12f * d.side && cv::norm(e.centre - d.centre) < 0.1f * d.side) {
          dup = true;
          break;
        }
      if (!dup) all.push_back(d);
    }
  return all;
}

}  // namespace

std::vector<DieCandidate> dice_candidates(const cv::Mat& work, const DiceParams& params) {
  return three_sizes(candidate_places(work, params), work, params);
}

namespace {

DieDetection describe(const cv::Mat& work, const cv::Mat& bg, const cv::Rect& r, double scale, int face,
                      double confidence, const DiceParams& params) {
  const cv::Rect in = r & cv::Rect(0, 0, work.cols, work.rows);
  DieDetection d;
  d.box = cv::Rect(cvRound(r.x / scale), cvRound(r.y / scale), cvRound(r.width / scale), cvRound(r.height / scale));
  d.face = face;
  d.confidence = confidence;
  if (in.width >= 4 && in.height >= 4) {
    cv::Vec3f body;
    if (params.pip_override_confidence <= 1) {
      const FaceReading fr = read_face(work(in), params.face);
      body = fr.body_bgr;
      if (fr.face > 0 && fr.confidence >= params.pip_override_confidence) d.face = fr.face;
    } else {
      // The body colour without reading the face again: the per-channel median of the
      // middle of the box (the pips are a small part of it).
      const cv::Rect mid(in.x + in.width / 5, in.y + in.height / 5, std::max(2, in.width * 3 / 5), std::max(2, in.height * 3 / 5));
      const cv::Mat m = work(mid & cv::Rect(0, 0, work.cols, work.rows)).clone();
      std::vector<cv::Mat> ch;
      cv::split(m.reshape(3, 1), ch);
      for (int k = 0; k < 3; ++k) {
        std::vector<uchar> v(ch[static_cast<std::size_t>(k)].begin<uchar>(), ch[static_cast<std::size_t>(k)].end<uchar>());
        std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
        body[k] = v[v.size() / 2];
      }
    }
    const cv::Vec3b b = bg.at<cv::Vec3b>(std::min(work.rows - 1, in.y + in.height / 2), std::min(work.cols - 1, in.x + in.width / 2));
    const cv::Vec3f white(std::max<float>(b[0], 20), std::max<float>(b[1], 20), std::max<float>(b[2], 20));
    d.color = name_color({body[0] / white[0], body[1] / white[1], body[2] / white[2]});
  }
  return d;
}

}  // namespace

namespace {

// The share of `r` (clipped to the mask) that is foreground in `fg` (0 or 255); 1 for an
// empty box. DiceParams::min_body_share.
double body_share(const cv::Mat& fg, const cv::Rect& r) {
  const cv::Rect in = r & cv::Rect(0, 0, fg.cols, fg.rows);
  if (in.area() <= 0) return 1.0;
  return static_cast<double>(cv::countNonZero(fg(in))) / in.area();
}

// A die cut by the photo's edge: more than max_box_outside of its box's side lies outside
// the working image (its top face is not all in view, so neither is its pip layout; the
// false detections of this kind were keyboard legends and cable ends at the border).
bool cut_by_edge(const cv::Rect& r, const cv::Size& work, const DiceParams& params) {
  if (params.max_box_outside >= 1 || r.width <= 0) return false;
  const int out = std::max({-r.x, -r.y, r.br().x - work.width, r.br().y - work.height});
  return out > params.max_box_outside * std::max(r.width, r.height);
}

}  // namespace

// The face's side from its pips (standard dice: lattice spacing 0.27 and pip diameter
// 0.18 of the side), else the candidate's side.
float face_size(const FaceSpot& f) {
  if (f.pips.face > 1 && f.pips.spacing > 0) return 3.7f * f.pips.spacing;
  if (f.pips.face == 1 && f.pips.pip_diameter > 0) return 5.5f * f.pips.pip_diameter;
  return f.side;
}

float median_face(const std::vector<FaceSpot>& spots) {
  std::vector<float> sizes;
  for (const auto& f : spots) sizes.push_back(face_size(f));
  return median_of(std::move(sizes));
}

// One die is one detection: a die seen at an angle shows its top face and one or two
// side faces, each of which may read as a face. Two faces of one cube lie closer than
// any two dice can (two dice of side s that do not overlap have their face centres at
// least s apart; a side face's centre is (s + its foreshortened height) / 2 from the
// top face's), so detections closer than side_face_radius x the typical face side (the
// median over the image's detections: the dice of one roll are of one size, and one
// misread face with a wide lattice does not swallow its neighbours) are one die, and
// the one kept is the top face (rule below). On the even split, byler (top-down, dice
// touching) has no two detections closer than 1.1 x the median; penlington's oblique
// top/side pairs lie at 0.3..1.5.
std::vector<bool> one_face_per_cube(const std::vector<FaceSpot>& spots, const DiceParams& params) {
  const std::size_t n = spots.size();
  std::vector<bool> keep(n, true);
  if (n == 0 || params.side_face_radius <= 0) return keep;
  const double die = median_face(spots);
  const auto one_cube = [&](std::size_t i, std::size_t j) { return cv::norm(spots[i].centre - spots[j].centre) < params.side_face_radius * die; };
  // A face below another with far smaller pips is its side face, however strong
  // (DiceParams::upper_face_pip; the camera sees the side towards it below the top).
  if (params.upper_face_pip > 0)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n && keep[j]; ++i) {
        if (i == j) continue;
        const cv::Point2f d = spots[j].centre - spots[i].centre;  // from the upper face i to j
        if (spots[i].pips.face >= 1 && spots[j].pips.face >= 1 && d.y > std::abs(d.x) && one_cube(i, j) &&
            spots[j].pips.pip_diameter < params.upper_face_pip * spots[i].pips.pip_diameter)
          keep[j] = false;
      }
  // The top face is seen square on, so its pips are round and of full contrast; a side
  // face's are foreshortened and respond less: the stronger pips win (then the margin).
  auto better = [&](std::size_t a, std::size_t b) {
    if (spots[a].pips.strength != spots[b].pips.strength) return spots[a].pips.strength > spots[b].pips.strength;
    return spots[a].margin > spots[b].margin;
  };
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), better);
  for (std::size_t a = 0; a < n; ++a) {
    const std::size_t i = order[a];
    if (!keep[i]) continue;
    for (std::size_t b = a + 1; b < n; ++b) {
      const std::size_t j = order[b];
      if (keep[j] && one_cube(i, j)) keep[j] = false;
    }
  }
  return keep;
}

std::vector<bool> small_specks_kept(const std::vector<float>& sides, const std::vector<double>& shares, const DiceParams& params) {
  std::vector<bool> keep(sides.size(), true);
  if (params.min_body_die_share <= 0 || sides.empty() || shares.size() != sides.size()) return keep;
  // The photo's die: the median side of the dice (the speck itself among them; with one or
  // two dice and a speck, the upper median is a die's).
  const float m = median_of(sides);
  if (!(m > 0)) return keep;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    const double r = sides[i] / m;
    keep[i] = !(sides[i] < m && shares[i] * r * r < params.min_body_die_share);
  }
  return keep;
}

// How far below face `f` a face is its side face: below_side_face_radius x the photo's median
// face, or below_side_face_own x f's own when that is more; 0 when the pass is off.
static double below_reach(const FaceSpot& f, double median, const DiceParams& params) {
  if (params.below_side_face_radius <= 0) return 0;
  return std::max(params.below_side_face_radius * median, params.below_side_face_own * face_size(f));
}

std::vector<bool> below_side_faces(const std::vector<FaceSpot>& spots, std::vector<bool> keep, const DiceParams& params) {
  const std::size_t n = spots.size();
  if (n < 2 || params.below_side_face_radius <= 0) return keep;
  const double median = median_face(spots);
  std::vector<bool> out = keep;
  for (std::size_t j = 0; j < n; ++j) {
    if (!keep[j] || spots[j].pips.face < 1) continue;
    for (std::size_t i = 0; i < n && out[j]; ++i) {
      if (i == j || !keep[i] || !out[i] || spots[i].pips.face < 1) continue;
      // A die's side face never shows its top's number nor the opposite one (they sum to 7),
      // so two such faces are two dice (a 6's small pips below a 1's large pip, say).
      // ... unless neither reads a 1 and j's pips are far smaller than i's
      // (below_side_face_pair_pip): then j is a misread side face.
      if (spots[j].pips.face == spots[i].pips.face || spots[j].pips.face + spots[i].pips.face == 7) {
        const bool misread_side = params.below_side_face_pair_pip > 0 && spots[j].pips.face != 1 && spots[i].pips.face != 1 &&
                                  spots[j].pips.pip_diameter < params.below_side_face_pair_pip * spots[i].pips.pip_diameter;
        if (!misread_side) continue;
      }
      const cv::Point2f d = spots[j].centre - spots[i].centre;  // from the top face i to j
      const bool below = d.y > std::abs(d.x);
      // ... and, as one_face_per_cube asks, the side face's pips respond less
      if (below && cv::norm(d) < below_reach(spots[i], median, params) && spots[j].pips.strength < spots[i].pips.strength &&
          spots[j].pips.pip_diameter < params.below_side_face_pip * spots[i].pips.pip_diameter)
        out[j] = false;
    }
  }
  return out;
}

// A pip at candidate `c`'s centre (within lone_pip_centred x its side), `c` not a pip cluster:
// only a 1, 3 or 5 has a pip there. The lone-pip re-read's skip and centred_pip_read.
static bool pip_centred_on_body(cv::Point2f p, const DieCandidate& c, const DiceParams& params) {
  return params.lone_pip_centred > 0 && c.source != 1 && cv::norm(p - c.centre) < params.lone_pip_centred * c.side;
}

PipRead centred_pip_read(const PipRead& read, const DieCandidate& c, const DiceParams& params) {
  if (params.centred_pip_is_one <= 0 || read.face < 2) return read;
  if (cv::norm(read.centre - c.centre) <= params.centred_pip_is_one * c.side) return read;
  for (const auto& q : read.pips)
    if (pip_centred_on_body(q, c, params)) {
      PipRead one = read;
      one.face = 1;
      one.centre = q;
      one.pips = {q};
      one.spacing = 0;  // a 1 has no lattice; the 2's spacing spanned two dice
      one.face_score = {};
      one.face_score[1] = read.face_score[static_cast<std::size_t>(read.face)];
      return one;
    }
  return read;
}

namespace {

// Without a model: every body blob and distance peak is read by the lattice pip reader
// on the full-resolution image (rendered and clean dice: the pips of a die 45 px wide at
// the working size are only ~4 px there); a candidate is a die when a layout fits.
// Candidates that read one face are merged, the best-fitting read first.
std::vector<DieDetection> find_dice_pips(const cv::Mat& full, const cv::Mat& work, double scale, const DiceParams& params) {
  const Bodies bodies = body_blobs(work, params, true);
  std::vector<DieCandidate> cands;
  for (const auto& r : bodies.dice)
    cands.push_back({cv::Point2f(r.x + r.width / 2.0f, r.y + r.height / 2.0f), static_cast<float>(std::max(r.width, r.height)), 0});
  cands.insert(cands.end(), bodies.peaks.begin(), bodies.peaks.end());
  struct Found {
    PipRead read;
    float side;  // working pixels
    double score;
  };
  std::vector<Found> found;
  const float inv = static_cast<float>(1.0 / scale);
  for (const auto& c : cands) {
    if (c.side < 4) continue;
    const float ps = c.side * static_cast<float>(params.pip_region_pad) * inv;
    const cv::Point2f fc = c.centre * inv;
    const PipRead r = read_pips(full, cv::Rect2f(fc.x - ps / 2, fc.y - ps / 2, ps, ps), params.pips);
    if (r.face == 0) continue;
    // The face must be this die's: about centred on the candidate and of its size (a
    // lone dark speck on wood or a side face's pips near a body are no die).
    const float side_full = c.side * inv;
    if (cv::norm(r.centre - fc) > params.lattice_centre * side_full) continue;
    // The face's size from its lattice (3.7 x spacing), or from its pips (a die's pips
    // are about 0.18 of its face) where that is larger: big pips set close together
    // (many byler dice) give a lattice of less than half the face.
    const float face_size = std::max(3.7f * r.spacing, static_cast<float>(params.lattice_pip_size) * r.pip_diameter);
    if (face_size < params.lattice_size_min * side_full || face_size > params.lattice_size_max * side_full) continue;
    const double conf = std::clamp(1.0 - r.fit / std::max(1e-6, params.pips.max_fit), 0.0, 1.0);
    if (conf < params.min_confidence) continue;
    found.push_back({r, c.side, conf});
  }
  // More pips first (a face beats one of its pips read alone), then the better fit.
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return a.read.face != b.read.face ? a.read.face > b.read.face : a.score > b.score;
  });
  std::vector<DieDetection> out;
  std::vector<cv::Point2f> kept_c;
  std::vector<float> kept_s;
  std::vector<const Found*> kept;
  for (const auto& f : found) {
    const cv::Point2f c = f.read.centre * static_cast<float>(scale);
    bool near = false;
    for (std::size_t i = 0; i < kept_c.size() && !near; ++i)
      near = cv::norm(c - kept_c[i]) < params.nms_radius * std::max(f.side, kept_s[i]);
    if (near) continue;
    kept_c.push_back(c);
    kept_s.push_back(f.side);
    kept.push_back(&f);
  }
  // One die, one detection (full-resolution pixels, as the reads).
  std::vector<FaceSpot> spots;
  for (const Found* f : kept) spots.push_back({f->read.centre, f->side * inv, f->read.face, f->read, static_cast<float>(f->score)});
  const std::vector<bool> keep = one_face_per_cube(spots, params);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!keep[i]) continue;
    const cv::Point2f c = kept_c[i];
    const int h = std::max(2, cvRound(kept_s[i] / 2));
    const cv::Rect r(cvRound(c.x) - h, cvRound(c.y) - h, 2 * h, 2 * h);
    if (cut_by_edge(r, work.size(), params)) continue;
    out.push_back(describe(work, bodies.bg, r, scale, kept[i]->read.face, kept[i]->score, params));
  }
  return out;
}

}  // namespace

namespace {

// The network's best face 1..6 and its probability (the not-a-die class aside).
std::pair<int, float> cnn_best(const std::array<float, 7>& s) {
  int best = 1;
  for (int k = 2; k <= 6; ++k)
    if (s[static_cast<std::size_t>(k)] > s[static_cast<std::size_t>(best)]) best = k;
  return {best, s[static_cast<std::size_t>(best)]};
}

}  // namespace

int fuse_face(const std::array<float, 7>& pip_scores, const std::array<float, 7>& cnn, int base_face, double weight,
              double floor) {
  if (weight <= 0) return base_face;
  const float smax = *std::max_element(pip_scores.begin() + 1, pip_scores.end());
  int best = base_face;
  double best_v = -std::numeric_limits<double>::infinity();
  for (int f = 1; f <= 6; ++f) {
    const std::size_t i = static_cast<std::size_t>(f);
    const double s = smax > 0 ? std::max(static_cast<double>(pip_scores[i]) / smax, floor) : 1.0;
    const double v = std::log(std::max(s, 1e-12)) + weight * std::log(std::max(static_cast<double>(cnn[i]), 1e-12));
    if (v > best_v) best_v = v, best = f;
  }
  return best;
}

DieRead read_die(const cv::Mat& bgr, const cv::Mat& gray, const cv::Rect2f& region, const DiceClassifier* model,
                 const DiceParams& params, const DiceCnn* cnn, float cnn_side_scale) {
  DieRead out;
  if (gray.empty() || region.width <= 0 || region.height <= 0) return out;
  const cv::Point2f c(region.x + region.width / 2, region.y + region.height / 2);
  const float side = std::max(region.width, region.height);
  if (model) {
    const auto s = model->scores(gray, c, side, params.model_turns);
    int best = 1;
    for (int k = 2; k <= 6; ++k)
      if (s[static_cast<std::size_t>(k)] > s[static_cast<std::size_t>(best)]) best = k;
    out.model_face = best;
    out.model_margin = s[static_cast<std::size_t>(best)] - s[0];
  }
  if (params.use_pips) {
    const float ps = side * static_cast<float>(params.pip_region_pad);
    out.pips = read_pips(bgr.empty() ? gray : bgr, cv::Rect2f(c.x - ps / 2, c.y - ps / 2, ps, ps), params.pips);
    out.pip_face = out.pips.face;
  }
  out.face = out.pip_face > 0 ? out.pip_face : out.model_face;
  out.base_face = out.face;
  if (cnn && !bgr.empty()) {
    out.cnn_scores = cnn->scores(bgr, c, side * cnn_side_scale, params.cnn_views);
    const auto [f, p] = cnn_best(out.cnn_scores);
    out.cnn_face = f;
    out.cnn_prob = p;
    if (p >= params.cnn_min_prob) out.face = f;
    else out.face = fuse_face(out.pips.face_score, out.cnn_scores, out.face, params.cnn_fuse_weight, params.cnn_fuse_floor);
  }
  return out;
}

bool pre_nms_suppresses(const DieCandidate& taken, const DieCandidate& c, const DiceParams& params) {
  if (params.pre_nms_radius <= 0) return false;
  if (params.pre_nms_wide > 0 && taken.side > params.pre_nms_wide * c.side) return false;
  const float side = params.pre_nms_smaller ? std::min(taken.side, c.side) : std::max(taken.side, c.side);
  return cv::norm(taken.centre - c.centre) < params.pre_nms_radius * side;
}

Result<DiceModels> load_dice_models(const DiceParams& params) {
  DiceModels out;
  if (params.use_model) {
    auto m = DiceClassifier::load(params.model_path.empty() ? default_dice_model_path() : params.model_path);
    if (m) out.model = *m;
    else if (!params.model_path.empty()) return Error{m.error()};
  }
  if (out.model && params.use_cnn) {
    auto n = DiceCnn::load(params.cnn_path.empty() ? default_dice_cnn_path() : params.cnn_path);
    if (n) out.cnn = *n;
    else if (!params.cnn_path.empty()) return Error{n.error()};
  }
  return out;
}

Result<std::vector<DieDetection>> find_dice_checked(const cv::Mat& image, const DiceParams& params) {
  double scale = 1;
  const cv::Mat work = dice_work_image(image, params, scale);
  if (work.empty()) return std::vector<DieDetection>{};
  auto models = load_dice_models(params);
  if (!models) return Error{models.error()};
  const std::shared_ptr<const DiceClassifier> model = models->model;
  const std::shared_ptr<const DiceCnn> cnn = models->cnn;
  if (!model) {
    cv::Mat full = image;
    if (image.type() == CV_8UC1) cv::cvtColor(image, full, cv::COLOR_GRAY2BGR);
    else if (image.type() == CV_8UC4) cv::cvtColor(image, full, cv::COLOR_BGRA2BGR);
    return find_dice_pips(full, work, scale, params);
  }

  struct Scored {
    DieCandidate c;
    int face;
    float margin;
  };
  // HEXDICE_DICE_DEBUG=1: every stage's survivors and drops on stderr (working pixels).
  static const bool debug = std::getenv("HEXDICE_DICE_DEBUG") != nullptr;
  std::vector<Scored> dice;
  cv::Mat gray;
  cv::cvtColor(work, gray, cv::COLOR_BGR2GRAY);
  // The candidate places and the foreground they came from: the gap stage below seeds from
  // them too (found once a photo).
  Bodies masks;
  const std::vector<DieCandidate> places = candidate_places(work, params, &masks);
  const cv::Mat& places_fg = masks.fg;
  for (const auto& c : three_sizes(places, work, params)) {
    const auto s = model->scores(gray, c.centre, c.side, params.model_turns);
    int best = 1;
    for (int k = 2; k <= 6; ++k)
      if (s[static_cast<std::size_t>(k)] > s[static_cast<std::size_t>(best)]) best = k;
    const float margin = s[static_cast<std::size_t>(best)] - s[0];
    if (margin > params.min_margin) dice.push_back({c, best, margin});
    else if (debug)
      std::cerr << "dice: forest rejects " << c.centre << " side " << c.side << " src " << c.source << " margin " << margin << '\n';
  }
  if (debug) std::cerr << "dice: " << dice.size() << " candidates accepted by the forest\n";
  std::stable_sort(dice.begin(), dice.end(), [](const Scored& a, const Scored& b) { return a.margin > b.margin; });
  // A die is one face: each accepted candidate is re-read by the lattice pip reader on
  // its own square and on a wider one (pip_grow); the wider read wins when it finds more
  // pips whose face centre stays near the candidate (one pip of a six is not a "1"). The
  // candidate then sits on the face centre and covers the face, so non-maximum
  // suppression below merges candidates that read the same face.
  struct Read {
    Scored s;
    int face;
    PipRead pips;
    bool own_too_big = false;  // its own square's read has pips wider than max_pip (below)
  };
  // A kept read as one_face_per_cube and median_face see it.
  const auto spot_of = [](const Read& k) { return FaceSpot{k.s.c.centre, k.s.c.side, k.face, k.pips, k.s.margin}; };
  // Reads with pips wider than max_pip (working pixels) are not taken from the wider
  // squares, and flag the candidate when its own square reads one.
  auto read_one = [&](const Scored& d, float max_pip) {
    Read r{d, d.face, {}};
    if (!params.use_pips) return r;
    // A square `grow` x the candidate's side takes no face narrower than min_read_face x that side.
    const auto square_params = [&](double grow) {
      PipParams q = params.pips;
      if (params.min_read_face > 0 && grow > 0) q.min_face = params.min_read_face / grow;
      return q;
    };
    PipRead best = read_pips(work, cv::Rect2f(d.c.centre.x - d.c.side * 0.5f * static_cast<float>(params.pip_region_pad),
                                              d.c.centre.y - d.c.side * 0.5f * static_cast<float>(params.pip_region_pad),
                                              d.c.side * static_cast<float>(params.pip_region_pad),
                                              d.c.side * static_cast<float>(params.pip_region_pad)),
                             square_params(params.pip_region_pad));
    auto dice_as_pips = [&](const PipRead& q) { return q.face > 0 && q.pip_diameter > max_pip; };
    r.own_too_big = dice_as_pips(best);
    if (params.pip_grow > 1 && best.face < 6) {  // a wider read wins only with more pips
      const float g = d.c.side * static_cast<float>(params.pip_grow);
      const PipRead wide = read_pips(work, cv::Rect2f(d.c.centre.x - g / 2, d.c.centre.y - g / 2, g, g), square_params(params.pip_grow),
                                     best.face == 1 ? best.body : std::nullopt, params.wide_read_body_shift);
      if (wide.face > best.face && cv::norm(wide.centre - d.c.centre) < 0.5f * std::max(d.c.side, 3.7f * wide.spacing) &&
          !dice_as_pips(wide))
        best = wide;
    }
    // A lone pip may be one pip of a face larger than both squares (a candidate round
    // one pip of a five): read a square round it about a face wide; when a face of more
    // pips is found there and this pip is one of its pips, the candidate is that face.
    // ... but a candidate other than a pip group (a blob, a distance peak or a pip face) whose one pip lies
    // at its centre is a "1": a pip of a 2, 4 or 5 lies off its die's centre, and the
    // wider square would pair the pip with a side face's pips.
    const bool centred_body = pip_centred_on_body(best.centre, d.c, params);
    if (params.lone_pip_grow > 0 && best.face == 1 && best.pip_diameter > 0 && !centred_body) {
      const float g = best.pip_diameter * static_cast<float>(params.lone_pip_grow);
      const PipRead big = read_pips(work, cv::Rect2f(best.centre.x - g / 2, best.centre.y - g / 2, g, g), params.pips);
      bool mine = false;
      for (const auto& q : big.pips) mine = mine || cv::norm(q - best.centre) < 0.6f * std::max(best.pip_diameter, big.pip_diameter);
      if (big.face > 1 && mine && !dice_as_pips(big)) best = big;
    }
    // A body's centred pip is a "1" (DiceParams::centred_pip_is_one).
    const PipRead one = centred_pip_read(best, d.c, params);
    if (debug && one.face != best.face)
      std::cerr << "dice: centred pip " << one.centre << " of " << d.c.centre << " is a 1 (read " << best.face << " at " << best.centre << ")\n";
    best = one;
    r.pips = best;
    if (best.face > 0) {
      r.face = best.face;
      if (best.face > 1) {
        r.s.c.centre = best.centre;
        r.s.c.side = std::max(d.c.side, 3.7f * best.spacing);
      }
      // A candidate much wider than the face it reads (a blob of several dice touching,
      // the largest of a place's three sizes) is that face: on the face centre, of the
      // face's size, so it neither suppresses nor covers the dice beside it.
      const float fs = face_size(FaceSpot{best.centre, d.c.side, best.face, best, 0});
      if (params.max_side_over_face > 0 && fs > 0 && d.c.side > params.max_side_over_face * fs) {
        r.s.c.centre = best.centre;
        r.s.c.side = static_cast<float>(params.max_side_over_face) * fs;
      }
    }
    if (debug)
      std::cerr << "dice: pips " << d.c.centre << " side " << d.c.side << " -> " << r.s.c.centre << " side " << r.s.c.side
                << " face " << r.face << " (pips " << r.pips.face << ", pip d " << r.pips.pip_diameter << ", spacing "
                << r.pips.spacing << (r.own_too_big ? ", own pips too big" : "") << ")\n";
    return r;
  };
  // First suppression (speed): reading costs ~1.5 ms a square, scoring ~0.05 ms, and
  // most accepted candidates are the same place at another size or another pip group of
  // the same face. Highest margin first, a candidate near one already taken is not read.
  // With `max_pip` finite, a candidate whose own read has pips wider than that is not
  // taken either (so the next candidate of its place is read instead).
  auto read_all = [&](float max_pip) {
    std::vector<Read> out;
    std::vector<const Scored*> taken;
    for (const auto& d : dice) {
      bool near = false;
      for (const Scored* f : taken)
        if (pre_nms_suppresses(f->c, d.c, params)) {
          if (debug)
            std::cerr << "dice: pre-nms drops " << d.c.centre << " side " << d.c.side << " margin " << d.margin << " under "
                      << f->c.centre << " side " << f->c.side << '\n';
          near = true;
          break;
        }
      if (near) continue;
      if (debug)
        std::cerr << "dice: read " << d.c.centre << " side " << d.c.side << " src " << d.c.source << " forest " << d.face
                  << " margin " << d.margin << '\n';
      Read r = read_one(d, max_pip);
      if (r.own_too_big) continue;
      taken.push_back(&d);
      out.push_back(r);
    }
    return out;
  };
  // Non-maximum suppression by centre, highest margin first (larger faces first at equal
  // margins: a face beats its own pips).
  auto suppress = [&](std::vector<Read> rs, bool log) {
    std::stable_sort(rs.begin(), rs.end(), [](const Read& a, const Read& b) { return a.s.margin > b.s.margin; });
    std::vector<Read> out;
    for (const auto& d : rs) {
      bool near = false;
      for (const auto& k : out)
        if (cv::norm(d.s.c.centre - k.s.c.centre) < params.nms_radius * std::max(d.s.c.side, k.s.c.side)) {
          if (log && !near)
            std::cerr << "dice: nms drops " << d.s.c.centre << " side " << d.s.c.side << " face " << d.face << " under "
                      << k.s.c.centre << " side " << k.s.c.side << '\n';
          near = true;
        }
      if (!near) out.push_back(d);
    }
    return out;
  };
  float max_pip_used = std::numeric_limits<float>::infinity();
  std::vector<Read> reads = read_all(max_pip_used);
  // The pips of one photo's dice are of about one size: a read whose pips are more than
  // max_pip_over_median x the median pip of the image's dice (the reads that survive the
  // suppression below, and of those only pips of at least pip_reference_min of the image:
  // the many small reads of glints, pip fragments and keyboard keys would pull the median
  // down) is not of one die
  // (a dark die on a pale floor is a pip-like blob: a wide square round it reads it as a
  // "1", two or three dice in a row as a "2" or "3", and that box, several dice wide,
  // reads the wrong face and suppresses the dice under it). Such reads are taken from no
  // square, and a candidate whose own square reads one is no die: the reading is done
  // again without them.
  if (params.max_pip_over_median > 0 && params.use_pips) {
    std::vector<float> pd;
    const float floor = static_cast<float>(params.pip_reference_min * std::max(work.cols, work.rows));
    for (const auto& r : suppress(reads, false))
      if (r.pips.face > 0 && r.pips.pip_diameter >= floor) pd.push_back(r.pips.pip_diameter);
    if (debug) {
      std::cerr << "dice: pip diameters of the suppressed reads:";
      for (const auto& r : suppress(reads, false))
        if (r.pips.face > 0) std::cerr << ' ' << r.pips.pip_diameter << "/" << r.pips.face << "/" << r.s.margin;
      std::cerr << '\n';
    }
    if (pd.size() >= 3) {
      std::nth_element(pd.begin(), pd.begin() + static_cast<long>(pd.size() / 2), pd.end());
      const float max_pip = static_cast<float>(params.max_pip_over_median) * pd[pd.size() / 2];
      bool any = false;
      for (const auto& r : reads) any = any || (r.pips.face > 0 && r.pips.pip_diameter > max_pip);
      if (any) {
        if (debug) std::cerr << "dice: pips wider than " << max_pip << " px are dice, not pips; reading again\n";
        reads = read_all(max_pip);
        max_pip_used = max_pip;
      }
    }
  }
  // The dice of one photo are of one size: a candidate wider than max_side_over_median x
  // the median face of those that read a layout (a blob of several touching dice, a patch
  // of keyboard, a "2" of two pips of two dice) is no die.
  if (params.max_side_over_median > 0) {
    std::vector<float> faces;
    for (const auto& r : reads)
      if (r.pips.face > 0) faces.push_back(std::max(face_size(FaceSpot{r.s.c.centre, r.s.c.side, r.pips.face, r.pips, 0}), 5.5f * r.pips.pip_diameter));
    if (!faces.empty()) {
      std::nth_element(faces.begin(), faces.begin() + static_cast<long>(faces.size() / 2), faces.end());
      const float typical = faces[faces.size() / 2];
      std::vector<Read> sized;
      for (const auto& r : reads)
        if (r.s.c.side <= params.max_side_over_median * typical) sized.push_back(r);
      reads.swap(sized);
    }
  }
  std::vector<Read> kept = suppress(reads, debug);
  {
    // One die, one detection (one_face_per_cube keeps all when side_face_radius is 0).
    std::vector<FaceSpot> spots;
    for (const auto& k : kept) spots.push_back(spot_of(k));
    if (debug)
      std::cerr << "dice: one face per cube: " << spots.size() << " spots, median face " << median_face(spots) << ", upper face pip "
                << params.upper_face_pip << '\n';
    const std::vector<bool> keep = one_face_per_cube(spots, params);
    std::vector<Read> k2;
    for (std::size_t i = 0; i < kept.size(); ++i)
      if (keep[i]) k2.push_back(kept[i]);
      else if (debug)
        std::cerr << "dice: one face per cube drops " << kept[i].s.c.centre << " side " << kept[i].s.c.side << " face "
                  << kept[i].face << '\n';
    kept.swap(k2);
  }
  // The sides the re-reads below take their median of (DiceParams::reread_sides_before_gap):
  // the dice kept so far, before the gap stage adds its own.
  const std::vector<float> main_sides = layout_sides(kept);
  // Gap candidates (DiceParams::gap_candidates): the places left without a die are read
  // for a pip layout, and a layout's face-centred square is a die when the forest accepts
  // it, nothing kept lies on it or beside it, it is of the photo's die and pip size, and
  // the network calls it a die. The dice kept above are not touched.
  std::vector<bool> from_gap(kept.size(), false);
  // The network's scores of each kept die (read once: the gap stage's residual seeds ask
  // which kept dice the network is sure of, the output below reports them).
  std::vector<std::array<float, 7>> kept_cnn;
  auto cnn_of = [&](std::size_t i) {
    while (kept_cnn.size() <= i) {
      const Read& k = kept[kept_cnn.size()];
      kept_cnn.push_back(cnn->scores(work, k.s.c.centre, k.s.c.side * static_cast<float>(params.cnn_finder_scale), params.cnn_views));
    }
    return kept_cnn[i];
  };
  if (params.gap_candidates && params.use_pips && cnn) {  // the network is their not-a-die gate
    auto free_of_kept = [&](cv::Point2f c, float side) {
      for (const auto& k : kept)
        if (cv::norm(c - k.s.c.centre) < params.nms_radius * std::max(side, k.s.c.side)) return false;
      return true;
    };
    // The dice of one photo are of about one size and one pip size (the medians of the
    // kept dice that read a layout): a gap die is of that size and pip size.
    std::vector<float> kept_pip;
    for (const auto& k : kept)
      if (k.pips.face > 0) kept_pip.push_back(k.pips.pip_diameter);
    const float mks = median_of(layout_sides(kept)), mkp = median_of(kept_pip);
    std::vector<DieCandidate> seeds;
    const cv::Mat& fg = places_fg;
    for (const auto& c : (mks > 0 ? places : std::vector<DieCandidate>{})) {
      // a window that cannot hold a die of the photo's size, or one several dice wide, is not read
      const float win = c.side * static_cast<float>(params.pip_face_window);
      if (win < params.gap_min_side * mks || c.side > params.gap_max_side * mks) continue;
      bool on_die = false;
      for (const auto& k : kept) on_die = on_die || cv::norm(c.centre - k.s.c.centre) < params.nms_radius * k.s.c.side;
      if (on_die) continue;
      if (params.gap_seed_on_fg && !fg.empty()) {
        // a seed on the floor (a pip-like mark, a group of them) is not read: a die is foreground
        const cv::Point p(std::clamp(cvRound(c.centre.x), 0, fg.cols - 1), std::clamp(cvRound(c.centre.y), 0, fg.rows - 1));
        const int h = std::max(1, cvRound(0.15f * mks));
        const cv::Rect r = cv::Rect(p.x - h, p.y - h, 2 * h + 1, 2 * h + 1) & cv::Rect(0, 0, fg.cols, fg.rows);
        if (cv::countNonZero(fg(r)) == 0) continue;
      }
      seeds.push_back(c);
    }
    // The foreground the kept dice leave (gap_residual_seeds): a die beside kept dice in a
    // cluster is often no place of its own (the cluster is one blob, its pips are not found
    // by the top-hat), but its body is foreground outside every kept die's square. Seeds at
    // the points of that residue deepest inside it (at least gap_residual_depth x the
    // photo's die side from its edge), one per gap_residual_spacing x that side.
    if (params.gap_residual_seeds && mks > 0 && !fg.empty()) {
      cv::Mat res = fg.clone();
      if (params.gap_residual_connected) {
        // only the foreground of the blobs a kept die lies in (a cluster of dice; not a
        // sticker or a keyboard key on its own)
        cv::Mat labels;
        const int n = cv::connectedComponents(fg, labels, 8, CV_32S);
        std::vector<uchar> with_die(static_cast<std::size_t>(n), 0);
        for (std::size_t ki = 0; ki < kept.size(); ++ki) {
          const Read& k = kept[ki];
          if (params.gap_residual_sure_die < 1 && cnn_of(ki)[0] >= params.gap_residual_sure_die) continue;
          const float h = 0.25f * k.s.c.side;
          const cv::Rect r = cv::Rect(cvRound(k.s.c.centre.x - h), cvRound(k.s.c.centre.y - h), std::max(1, cvRound(2 * h)),
                                      std::max(1, cvRound(2 * h))) & cv::Rect(0, 0, fg.cols, fg.rows);
          for (int y = r.y; y < r.y + r.height; ++y)
            for (int x = r.x; x < r.x + r.width; ++x) with_die[static_cast<std::size_t>(labels.at<int>(y, x))] = 1;
        }
        with_die[0] = 0;
        for (int y = 0; y < res.rows; ++y)
          for (int x = 0; x < res.cols; ++x)
            if (!with_die[static_cast<std::size_t>(labels.at<int>(y, x))]) res.at<uchar>(y, x) = 0;
      }
      for (const auto& k : kept) {
        const float h = 0.5f * k.s.c.side * static_cast<float>(params.gap_residual_clear);
        const cv::Rect r(cvRound(k.s.c.centre.x - h), cvRound(k.s.c.centre.y - h), cvRound(2 * h), cvRound(2 * h));
        res(r & cv::Rect(0, 0, res.cols, res.rows)).setTo(0);
      }
      cv::Mat dt;
      cv::distanceTransform(res, dt, cv::DIST_L2, 3);
      struct P {
        cv::Point2f c;
        float v;
      };
      std::vector<P> ps;
      const float lo = static_cast<float>(params.gap_residual_depth) * mks;
      for (int y = 0; y < dt.rows; ++y) {
        const float* d = dt.ptr<float>(y);
        for (int x = 0; x < dt.cols; ++x)
          if (d[x] >= lo) ps.push_back({cv::Point2f(static_cast<float>(x), static_cast<float>(y)), d[x]});
      }
      std::stable_sort(ps.begin(), ps.end(), [](const P& a, const P& b) { return a.v > b.v; });
      std::vector<cv::Point2f> taken;
      const float sp = static_cast<float>(params.gap_residual_spacing) * mks;
      for (const auto& p : ps) {
        bool near = false;
        for (const auto& t : taken) near = near || cv::norm(t - p.c) < sp;
        if (near) continue;
        taken.push_back(p.c);
        seeds.push_back({p.c, static_cast<float>(params.gap_residual_side) * mks, 4});
      }
      if (debug) std::cerr << "dice: gap residual seeds " << taken.size() << '\n';
    }
    DiceParams gp = params;
    gp.pip_face_gap = 0;
    gp.pip_face_repeat = params.gap_seed_repeat;
    std::vector<DieCandidate> faces;
    pip_face_candidates(work, seeds, gp, faces);
    std::vector<Read> gap_reads;
    if (debug) std::cerr << "dice: gap seeds " << seeds.size() << ", face-centred " << faces.size() << '\n';
    for (const auto& f : faces) {
      if (f.side < params.gap_min_side * mks || f.side > params.gap_max_side * mks) continue;
      if (!free_of_kept(f.centre, f.side)) {
        if (debug) std::cerr << "dice: gap face on a kept die " << f.centre << " side " << f.side << '\n';
        continue;
      }
      Scored best{f, 0, -2.0f};
      for (const auto& c : three_sizes({f}, work, params)) {
        const auto s = model->scores(gray, c.centre, c.side, params.model_turns);
        int bf = 1;
        for (int k = 2; k <= 6; ++k)
          if (s[static_cast<std::size_t>(k)] > s[static_cast<std::size_t>(bf)]) bf = k;
        const float margin = s[static_cast<std::size_t>(bf)] - s[0];
        if (margin > best.margin) best = {c, bf, margin};
      }
      if (debug)
        std::cerr << "dice: gap candidate " << f.centre << " side " << f.side << " forest " << best.face << " margin " << best.margin << '\n';
      if (best.margin <= params.gap_min_margin) continue;
      Read r = read_one(best, max_pip_used);
      if (r.own_too_big || !free_of_kept(r.s.c.centre, r.s.c.side)) continue;
      if (r.s.c.side < params.gap_min_side * mks || r.s.c.side > params.gap_max_side * mks ||
          r.pips.face < 1 || r.pips.pip_diameter < params.gap_min_pip * mkp || r.pips.pip_diameter > params.gap_max_pip * mkp) {
        if (debug) std::cerr << "dice: gap read off the photo's die size " << r.s.c.centre << " side " << r.s.c.side << " pip d " << r.pips.pip_diameter << '\n';
        continue;
      }
      gap_reads.push_back(r);
    }
    // One die, one detection: a gap die where a kept die's side face would be (within
    // side_face_radius x the photo's median face of a kept die) is that side face.
    std::vector<FaceSpot> kept_spots;
    for (const auto& k : kept) kept_spots.push_back(spot_of(k));
    const float die_face = median_face(kept_spots);
    std::vector<Read> gap_kept;
    for (auto& r : suppress(gap_reads, debug)) {
      bool side_face = false;
      for (const auto& k : kept)
        side_face = side_face || cv::norm(r.s.c.centre - k.s.c.centre) < params.gap_side_face_radius * die_face;
      if (side_face) {
        if (debug) std::cerr << "dice: gap die beside a kept die (side face) " << r.s.c.centre << " side " << r.s.c.side << '\n';
        continue;
      }
      gap_kept.push_back(r);
    }
    for (auto& r : gap_kept) {
      kept.push_back(r);
      from_gap.push_back(true);
    }
  }
  // A kept die's box in working pixels (the output's, before scaling).
  auto box_of = [](const Read& k) {
    const int h = std::max(2, cvRound(k.s.c.side / 2));
    return cv::Rect(cvRound(k.s.c.centre.x) - h, cvRound(k.s.c.centre.y) - h, 2 * h, 2 * h);
  };
  // Kept die i read again by read_one on square `s`: the read, when it reads a layout and
  // its face centre is on no other kept die (the re-reads below).
  auto read_again = [&](std::size_t i, const Scored& s, const char* why) -> std::optional<Read> {
    Read r = read_one(s, max_pip_used);
    if (r.own_too_big || r.pips.face < 1) return std::nullopt;
    bool on_other = false;
    for (std::size_t j = 0; j < kept.size(); ++j)
      on_other = on_other || (j != i && cv::norm(r.s.c.centre - kept[j].s.c.centre) <
                                            params.nms_radius * std::max(r.s.c.side, kept[j].s.c.side));
    if (debug)
      std::cerr << "dice: " << why << ' ' << kept[i].s.c.centre << " side " << kept[i].s.c.side << " face " << kept[i].face
                << " read again at " << s.c.centre << " side " << s.c.side << ": face " << r.face << " at " << r.s.c.centre
                << " side " << r.s.c.side << (on_other ? " (on another die: not taken)" : "") << '\n';
    if (on_other) return std::nullopt;
    return r;
  };
  // A kept die much narrower than the photo's dice (DiceParams::small_die_reread) is read
  // again on a square of their median side about its centre.
  if (params.small_die_reread > 0 && params.use_pips) {
    const std::vector<float> sides = params.reread_sides_before_gap ? main_sides : layout_sides(kept);
    if (sides.size() >= 3) {
      const float mks = median_of(sides);
      for (std::size_t i = 0; i < kept.size(); ++i) {
        if (kept[i].s.c.side >= params.small_die_reread * mks) continue;
        Scored s = kept[i].s;
        s.c.side = mks;
        const auto r = read_again(i, s, "small die");
        if (!r) continue;
        kept[i] = *r;
        if (i < kept_cnn.size())
          kept_cnn[i] = cnn->scores(work, r->s.c.centre, r->s.c.side * static_cast<float>(params.cnn_finder_scale), params.cnn_views);
      }
    }
  }
  // Each kept die read again on its body (DiceParams::body_reread): a square of the photo's
  // median die side on the deepest point of the foreground near the die, taken when the
  // network is surer of the fused face there than on the die's own square.
  if (params.body_reread > 0 && params.use_pips && cnn && !places_fg.empty()) {
    const std::vector<float> sides = params.reread_sides_before_gap ? main_sides : layout_sides(kept);
    if (sides.size() >= 3) {
      const float mks = median_of(sides);
      cv::Mat dt;
      cv::distanceTransform(places_fg, dt, cv::DIST_L2, 3);
      const int h = std::max(1, cvRound(params.body_reread_window * mks));
      for (std::size_t i = 0; i < kept.size(); ++i) {
        const std::array<float, 7> own = cnn_of(i);
        // a die the network doubts too much (DiceParams::body_reread_max_not_die), or cut by the photo's edge, is not re-read
        if (own[0] >= (from_gap[i] ? params.gap_max_not_die : params.body_reread_max_not_die)) {
          if (debug && !from_gap[i])
            std::cerr << "dice: body re-read skips " << kept[i].s.c.centre << " side " << kept[i].s.c.side << " (not a die " << own[0]
                      << " >= body_reread_max_not_die " << params.body_reread_max_not_die << ")\n";
          continue;
        }
        if (cut_by_edge(box_of(kept[i]), work.size(), params)) continue;
        const cv::Point2f c = kept[i].s.c.centre;
        const cv::Rect win = cv::Rect(cvRound(c.x) - h, cvRound(c.y) - h, 2 * h + 1, 2 * h + 1) & cv::Rect(0, 0, dt.cols, dt.rows);
        if (win.area() <= 0) continue;
        double depth = 0;
        cv::Point at;
        cv::minMaxLoc(dt(win), nullptr, &depth, nullptr, &at);
        if (depth < params.body_reread * mks) continue;  // no die-sized body here
        // ... and a deepest point on the window's edge (inside the image) is the slope of
        // another body: a neighbour's, or a blob of touching dice whose peak lies beyond
        const bool edge = (at.x == 0 && win.x > 0) || (at.y == 0 && win.y > 0) ||
                          (at.x == win.width - 1 && win.x + win.width < dt.cols) ||
                          (at.y == win.height - 1 && win.y + win.height < dt.rows);
        if (edge) continue;
        Scored s = kept[i].s;
        s.c.centre = cv::Point2f(static_cast<float>(win.x + at.x), static_cast<float>(win.y + at.y));
        s.c.side = mks;
        const auto r = read_again(i, s, "body");
        if (!r) continue;
        const std::array<float, 7> there =
            cnn->scores(work, r->s.c.centre, r->s.c.side * static_cast<float>(params.cnn_finder_scale), params.cnn_views);
        auto sure = [&](const Read& k, const std::array<float, 7>& cs) {
          return cs[static_cast<std::size_t>(fuse_face(k.pips.face_score, cs, k.face, params.cnn_fuse_weight, params.cnn_fuse_floor))];
        };
        if (debug) std::cerr << "dice: body read's network " << sure(*r, there) << " against " << sure(kept[i], own) << '\n';
        if (sure(*r, there) <= sure(kept[i], own)) continue;
        kept[i] = *r;
        kept_cnn[i] = there;
      }
    }
  }
  // The median background and the finder's plain foreground test against it, as the body
  // blobs made them (candidate_places; the same params, so the same masks).
  const cv::Mat& bg = masks.bg;
  const cv::Mat& fg_mask = masks.raw_fg;
  // The kept dice the output reports: not cut by the photo's edge, not called not a die by
  // the network, not a speck (DiceParams::min_body_share).
  const bool shares_needed = params.min_body_share > 0 || params.min_body_die_share > 0;
  std::vector<std::size_t> shown;
  std::vector<double> shown_share;  // with shares_needed: each shown die's body share
  for (std::size_t ki = 0; ki < kept.size(); ++ki) {
    const Read& k = kept[ki];
    if (cut_by_edge(box_of(k), work.size(), params)) continue;
    if (cnn && cnn_of(ki)[0] >= (from_gap[ki] ? params.gap_max_not_die : params.cnn_max_not_die)) {
      if (debug) std::cerr << "dice: network drops " << k.s.c.centre << " side " << k.s.c.side << " (not a die " << cnn_of(ki)[0] << ")\n";
      continue;
    }
    if (shares_needed) {
      const double share = body_share(fg_mask, box_of(k));
      if (debug) std::cerr << "dice: body share " << k.s.c.centre << " side " << k.s.c.side << " face " << k.face << ": " << share << '\n';
      if (share < params.min_body_share) {
        if (debug) std::cerr << "dice: speck drops " << k.s.c.centre << " side " << k.s.c.side << " (body share " << share << ")\n";
        continue;
      }
      shown_share.push_back(share);
    }
    shown.push_back(ki);
  }
  // A speck in a box smaller than the photo's dice (DiceParams::min_body_die_share).
  if (params.min_body_die_share > 0 && !shown.empty()) {
    std::vector<float> sides;
    for (const std::size_t ki : shown) sides.push_back(kept[ki].s.c.side);
    const std::vector<bool> keep = small_specks_kept(sides, shown_share, params);
    std::vector<std::size_t> s2;
    for (std::size_t i = 0; i < shown.size(); ++i)
      if (keep[i]) s2.push_back(shown[i]);
      else if (debug)
        std::cerr << "dice: small speck drops " << kept[shown[i]].s.c.centre << " side " << sides[i] << " (body share "
                  << shown_share[i] << ", the photo's median side " << median_of(sides) << ")\n";
    shown.swap(s2);
  }
  // One die, one detection, again among them (DiceParams::final_side_face_radius): the
  // photo's median face is now that of the dice, not of the clutter the network dropped.
  if (cnn && params.final_side_face_radius > 0 && shown.size() > 1) {
    std::vector<FaceSpot> spots;
    for (const std::size_t ki : shown) spots.push_back(spot_of(kept[ki]));
    if (debug) {
      const float mf = median_face(spots);
      std::cerr << "dice: one face per cube (final): " << spots.size() << " dice, median face " << mf << ", upper face pip "
                << params.upper_face_pip << '\n';
      // below reach: how far below it a face is this one's side face (below_reach)
      for (const auto& f : spots)
        std::cerr << "dice: final face " << f.centre << " face " << f.pips.face << " pip d " << f.pips.pip_diameter << " strength "
                  << f.pips.strength << " below reach " << below_reach(f, mf, params) << '\n';
    }
    DiceParams fp = params;
    fp.side_face_radius = params.final_side_face_radius;
    const std::vector<bool> keep = below_side_faces(spots, one_face_per_cube(spots, fp), params);
    std::vector<std::size_t> s2;
    for (std::size_t i = 0; i < shown.size(); ++i)
      if (keep[i]) s2.push_back(shown[i]);
      else if (debug)
        std::cerr << "dice: one face per cube (final) drops " << kept[shown[i]].s.c.centre << " side " << kept[shown[i]].s.c.side
                  << " face " << kept[shown[i]].face << " (pips " << spots[i].pips.face << ", pip d " << spots[i].pips.pip_diameter
                  << ", strength " << spots[i].pips.strength << ")\n";
    shown.swap(s2);
  }
  std::vector<DieDetection> out;
  for (const std::size_t ki : shown) {
    const Read& k = kept[ki];
    const cv::Rect r = box_of(k);
    const double conf = std::clamp(static_cast<double>(k.s.margin), 0.0, 1.0);
    int face = k.face;
    std::array<float, 7> cs{};
    std::pair<int, float> cb{0, 0.0f};
    if (cnn) {
      cs = cnn_of(ki);
      cb = cnn_best(cs);
      if (cb.second >= params.cnn_min_prob) face = cb.first;
      else face = fuse_face(k.pips.face_score, cs, face, params.cnn_fuse_weight, params.cnn_fuse_floor);
    }
    out.push_back(describe(work, bg, r, scale, face, conf, params));
    out.back().base_face = k.face;
    out.back().pip_scores = k.pips.face_score;
    out.back().cnn_scores = cs;
    out.back().cnn_face = cb.first;
    out.back().cnn_prob = cb.second;
    out.back().cnn_not_die = cs[0];
    out.back().from_gap = from_gap[ki];
  }
  return out;
}

std::vector<DieDetection> find_dice(const cv::Mat& image, const DiceParams& params) {
  auto r = find_dice_checked(image, params);
  return r ? *r : std::vector<DieDetection>{};
}

nlohmann::json to_json(const std::vector<DieDetection>& dice) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& d : dice)
    j.push_back({{"x0", d.box.x}, {"y0", d.box.y}, {"x1", d.box.x + d.box.width}, {"y1", d.box.y + d.box.height},
                 {"face", d.face}, {"color", d.color}, {"confidence", std::round(d.confidence * 1000) / 1000}});
  return j;
}

}  // namespace hexdice::vision
