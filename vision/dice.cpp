#include "vision/dice.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace hexdice::vision {

namespace {

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

void fill_holes(cv::Mat& mask) {
  cv::Mat ff = mask.clone();
  cv::Mat pad;
  cv::copyMakeBorder(ff, pad, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
  cv::floodFill(pad, cv::Point(0, 0), cv::Scalar(255));
  cv::Mat holes = ~pad(cv::Rect(1, 1, mask.cols, mask.rows));
  mask |= holes;
}

}  // namespace

std::vector<DieDetection> find_dice(const cv::Mat& image_in, const DiceParams& params) {
  std::vector<DieDetection> out;
  if (image_in.empty() || image_in.cols < 16 || image_in.rows < 16) return out;
  cv::Mat image;
  if (image_in.type() == CV_8UC3) image = image_in;
  else if (image_in.type() == CV_8UC1) cv::cvtColor(image_in, image, cv::COLOR_GRAY2BGR);
  else if (image_in.type() == CV_8UC4) cv::cvtColor(image_in, image, cv::COLOR_BGRA2BGR);
  else return out;
  const double scale = std::min(1.0, static_cast<double>(params.work_side) / std::max(image.cols, image.rows));
  cv::Mat work;
  if (scale < 1.0) cv::resize(image, work, cv::Size(), scale, scale, cv::INTER_AREA);
  else work = image;
  const int side = std::max(work.cols, work.rows);

  // Background: coarse median, blown back up.
  cv::Mat small, bg;
  const int sh = std::max(1, params.bg_shrink);
  cv::resize(work, small, cv::Size(std::max(3, work.cols / sh), std::max(3, work.rows / sh)), 0, 0, cv::INTER_AREA);
  cv::medianBlur(small, small, params.bg_median | 1);
  cv::resize(small, bg, work.size(), 0, 0, cv::INTER_LINEAR);
  const cv::Mat diff = distance_map(work, bg);
  cv::Mat fg = diff > params.fg_distance;
  cv::morphologyEx(fg, fg, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {3, 3}));
  cv::morphologyEx(fg, fg, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  fill_holes(fg);

  const double min_px = params.min_side * side, max_px = params.max_side * side;
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
  // Typical die size: the median box side. Boxes much larger are touching dice: split
  // them on distance-transform peaks.
  std::vector<double> sides;
  for (const auto& r : boxes) sides.push_back(std::sqrt(static_cast<double>(r.area())));
  double typical = 0;
  if (!sides.empty()) {
    std::nth_element(sides.begin(), sides.begin() + static_cast<long>(sides.size() / 2), sides.end());
    typical = sides[sides.size() / 2];
  }
  std::vector<cv::Rect> dice;
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
          dice.push_back(cv::Rect(cvRound(c.x) - h, cvRound(c.y) - h, 2 * h, 2 * h) & cv::Rect(0, 0, work.cols, work.rows));
        }
        continue;
      }
    }
    if (std::max(r.width, r.height) > max_px) continue;
    dice.push_back(r);
  }
  for (const auto& r : dice) {
    if (r.width < 4 || r.height < 4) continue;
    FaceReading fr = read_face(work(r), params.face);
    {
      // The die turned square: its blob's rotated rectangle, slightly shrunk to leave
      // the side faces out, warped to an upright crop. Keep the better-fitting reading.
      std::vector<cv::Point> pts;
      cv::findNonZero(fg(r), pts);
      if (pts.size() >= 10) {
        cv::RotatedRect rr = cv::minAreaRect(pts);
        const float sd = std::sqrt(rr.size.width * rr.size.height) * static_cast<float>(params.face_shrink);
        if (sd >= 6 && std::max(rr.size.width, rr.size.height) < 1.5f * std::min(rr.size.width, rr.size.height)) {
          const int canon = 48;
          const double ang = rr.angle * CV_PI / 180;
          const float sc = sd / canon;
          const float ca = static_cast<float>(std::cos(ang)) * sc, sa = static_cast<float>(std::sin(ang)) * sc;
          const float c0 = (canon - 1) / 2.0f;
          const cv::Point2f fc = rr.center + cv::Point2f(static_cast<float>(r.x), static_cast<float>(r.y));
          const cv::Matx23f a(ca, -sa, fc.x - ca * c0 + sa * c0, sa, ca, fc.y - sa * c0 - ca * c0);
          cv::Mat crop;
          cv::warpAffine(work, crop, a, cv::Size(canon, canon), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
          const FaceReading fr2 = read_face(crop, params.face);
          if (fr2.face > 0 && fr2.confidence > fr.confidence) fr = fr2;
        }
      }
    }
    if (fr.face == 0 || fr.confidence < params.min_confidence) continue;
    const cv::Vec3b b = bg.at<cv::Vec3b>(std::min(work.rows - 1, r.y + r.height / 2), std::min(work.cols - 1, r.x + r.width / 2));
    const cv::Vec3f white(std::max<float>(b[0], 20), std::max<float>(b[1], 20), std::max<float>(b[2], 20));
    DieDetection d;
    d.box = cv::Rect(cvRound(r.x / scale), cvRound(r.y / scale), cvRound(r.width / scale), cvRound(r.height / scale));
    d.face = fr.face;
    d.color = name_color({fr.body_bgr[0] / white[0], fr.body_bgr[1] / white[1], fr.body_bgr[2] / white[2]});
    d.confidence = fr.confidence;
    out.push_back(d);
  }
  return out;
}

nlohmann::json to_json(const std::vector<DieDetection>& dice) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& d : dice)
    j.push_back({{"x0", d.box.x}, {"y0", d.box.y}, {"x1", d.box.x + d.box.width}, {"y1", d.box.y + d.box.height},
                 {"face", d.face}, {"color", d.color}, {"confidence", std::round(d.confidence * 1000) / 1000}});
  return j;
}

}  // namespace hexdice::vision
