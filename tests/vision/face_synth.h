// Synthetic top-face crops for the face reader's tests and benchmark: a die of the six
// colours with its standard pip layout, turned, seen at a given size in image pixels
// (small dice: ~16-25 px), optionally off-centre, blurred, glared, noisy, on paper, then
// resampled to the reader's 48 px canonical crop as read_board does.
#pragma once

#include <cmath>
#include <random>
#include <string>

#include <opencv2/imgproc.hpp>

#include "vision/die_face.h"

namespace hexdice::vision::testing {

struct SynthFace {
  int face = 1;
  std::string colour = "red";
  double face_px = 20;     // top face side in image pixels
  double angle_deg = 0;    // die turn
  double off_x = 0, off_y = 0;  // die centre offset from the crop centre, fraction of the side
  double blur_px = 0;      // Gaussian blur sigma in image pixels
  double noise = 0;        // Gaussian noise sigma (grey levels)
  double glare = 0;        // strength 0..1 of a white specular patch on the face
  double glare_x = 0.2, glare_y = -0.1;  // its centre, fraction of the side
  double shade = 1.0;      // light level (1 = full)
  cv::Vec3f light{1, 1, 1};  // light colour (BGR gains)
};

inline cv::Vec3f synth_body(const std::string& c) {
  // BGR 0..255, as the renderer's pigments (tests/render/scene_gen.py COLOURS) look lit.
  if (c == "red") return {20, 20, 185};
  if (c == "blue") return {160, 40, 15};
  if (c == "green") return {35, 110, 12};
  if (c == "yellow") return {20, 200, 240};
  if (c == "white") return {222, 230, 230};
  return {12, 12, 12};  // black
}
inline cv::Vec3f synth_pip(const std::string& c) {
  return (c == "yellow" || c == "white") ? cv::Vec3f(15, 15, 15) : cv::Vec3f(235, 240, 240);
}

// The 48 px crop (BGR) of a 1-face-side square centred on the crop centre.
inline cv::Mat synth_face_crop(const SynthFace& s, std::mt19937* rng = nullptr) {
  const int k = 6;  // supersampling
  const double side_hi = s.face_px * k;
  const int canvas = static_cast<int>(std::ceil(side_hi * 2));
  const cv::Point2d c(canvas / 2.0 + s.off_x * side_hi, canvas / 2.0 + s.off_y * side_hi);
  const cv::Vec3f paper(215, 222, 225);
  cv::Mat img(canvas, canvas, CV_32FC3, cv::Scalar(paper[0], paper[1], paper[2]));
  const double a = s.angle_deg * CV_PI / 180, ca = std::cos(a), sa = std::sin(a);
  auto to_img = [&](double u, double v) { return cv::Point2d(c.x + side_hi * (ca * u - sa * v), c.y + side_hi * (sa * u + ca * v)); };
  const cv::Vec3f body = synth_body(s.colour), pip = synth_pip(s.colour);
  {
    std::vector<cv::Point> sq;
    for (auto [u, v] : {std::pair{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}}) {
      const cv::Point2d p = to_img(u, v);
      sq.emplace_back(cvRound(p.x), cvRound(p.y));
    }
    cv::fillConvexPoly(img, sq, cv::Scalar(body[0], body[1], body[2]), cv::LINE_AA);
  }
  for (const auto& p : pip_layout(s.face)) {
    const cv::Point2d q = to_img(p.x, p.y);
    cv::circle(img, cv::Point(cvRound(q.x), cvRound(q.y)), cvRound(0.075 * side_hi), cv::Scalar(pip[0], pip[1], pip[2]),
               cv::FILLED, cv::LINE_AA);
  }
  for (int y = 0; y < canvas; ++y)
    for (int x = 0; x < canvas; ++x) {
      cv::Vec3f& v = img.at<cv::Vec3f>(y, x);
      for (int ch = 0; ch < 3; ++ch) v[ch] *= static_cast<float>(s.shade * s.light[ch]);
    }
  if (s.glare > 0) {
    const cv::Point2d g = to_img(s.glare_x, s.glare_y);
    const double sg = 0.22 * side_hi;
    for (int y = 0; y < canvas; ++y)
      for (int x = 0; x < canvas; ++x) {
        const double d2 = ((x - g.x) * (x - g.x) + (y - g.y) * (y - g.y)) / (2 * sg * sg);
        const float w = static_cast<float>(s.glare * std::exp(-d2));
        cv::Vec3f& v = img.at<cv::Vec3f>(y, x);
        for (int ch = 0; ch < 3; ++ch) v[ch] = v[ch] * (1 - w) + 255.0f * w;
      }
  }
  if (s.blur_px > 0) cv::GaussianBlur(img, img, cv::Size(0, 0), s.blur_px * k);
  cv::Mat small;
  cv::resize(img, small, cv::Size(canvas / k, canvas / k), 0, 0, cv::INTER_AREA);
  if (s.noise > 0 && rng) {
    std::normal_distribution<float> n(0.0f, static_cast<float>(s.noise));
    for (int y = 0; y < small.rows; ++y)
      for (int x = 0; x < small.cols; ++x) {
        cv::Vec3f& v = small.at<cv::Vec3f>(y, x);
        for (int ch = 0; ch < 3; ++ch) v[ch] += n(*rng);
      }
  }
  cv::Mat small8;
  small.convertTo(small8, CV_8UC3);
  // The crop: the face-side square round the image centre, resampled to 48 px.
  const double half = s.face_px / 2, cc = small8.cols / 2.0;
  const float sc = static_cast<float>(s.face_px / 48.0);
  const cv::Matx23f m(sc, 0, static_cast<float>(cc - half + 0.5 * sc - 0.5), 0, sc, static_cast<float>(cc - half + 0.5 * sc - 0.5));
  cv::Mat crop;
  cv::warpAffine(small8, crop, m, cv::Size(48, 48), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
  return crop;
}

}  // namespace hexdice::vision::testing
