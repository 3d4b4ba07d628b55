// Dice seen from above, loose on a table (the army roll in a tray, the first-player roll):
// synthetic pictures for the setup-by-camera tests (referee_test.cpp, referee_setup_test.cpp).
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/die_face.h"

namespace hexdice::referee {

// Dice seen from above, loose on a table: rounded squares of the body colour with pips.
struct LooseDie {
  std::string color;
  int face;
};
// One die of side `side` px centred at c, turned by `ang` radians.
inline void draw_loose_die(cv::Mat& img, cv::Point2d c, double ang, const LooseDie& die, double side = 70) {
  const cv::Scalar body = die.color == "red" ? cv::Scalar(35, 30, 185) : cv::Scalar(160, 60, 20);
  std::vector<cv::Point> quad;
  for (int k = 0; k < 4; ++k) {
    const double a = ang + CV_PI / 4 + k * CV_PI / 2;
    quad.emplace_back(cv::Point(static_cast<int>(c.x + side / std::sqrt(2.0) * std::cos(a)),
                                static_cast<int>(c.y + side / std::sqrt(2.0) * std::sin(a))));
  }
  cv::fillConvexPoly(img, quad, body, cv::LINE_AA);
  for (const cv::Point2f& p : vision::pip_layout(die.face)) {
    const double x = p.x * side, y = p.y * side;
    const cv::Point q(static_cast<int>(c.x + x * std::cos(ang) - y * std::sin(ang)),
                      static_cast<int>(c.y + x * std::sin(ang) + y * std::cos(ang)));
    cv::circle(img, q, static_cast<int>(side * 0.09), cv::Scalar(235, 235, 235), cv::FILLED, cv::LINE_AA);
  }
}

inline cv::Mat dice_on_table(const std::vector<LooseDie>& dice, unsigned seed) {
  cv::Mat img(720, 1280, CV_8UC3, cv::Scalar(120, 135, 150));
  cv::Mat noise(img.size(), CV_8UC3);
  cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(3));
  img += noise;
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < dice.size(); ++i) {
    const cv::Point2d c(170 + 190.0 * static_cast<double>(i % 6) + rng() % 30, 200 + 260.0 * static_cast<double>(i / 6) + rng() % 30);
    const double ang = (rng() % 40) * CV_PI / 180.0;
    draw_loose_die(img, c, ang, dice[i]);
  }
  return img;
}

}  // namespace hexdice::referee
