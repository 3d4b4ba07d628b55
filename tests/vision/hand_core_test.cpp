// chamfer_core_possible (vision/read.h, branch speed8): the hand and occluder masks' early
// "no core" exit must never say "no core" where cv::distanceTransform (DIST_L2,
// DIST_MASK_5) finds a pixel further than r from the mask's zeros; and it must say so on
// most masks without one, or it saves nothing.
#include <random>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "vision/read.h"

namespace {

using hexdice::vision::chamfer_core_possible;

bool has_core(const cv::Mat& mask, double r) {
  cv::Mat dist;
  cv::distanceTransform(mask, dist, cv::DIST_L2, cv::DIST_MASK_5);
  return cv::countNonZero(dist > r) > 0;
}

TEST(HandMask, CoreTestNeverMissesACore) {
  std::mt19937 rng(88);
  std::uniform_int_distribution<int> ui(0, 1 << 30);
  int cores = 0, no_core = 0, said_no = 0;
  for (int i = 0; i < 400; ++i) {
    // 420 x 297 (A3 at 1 px/mm) or small; discs, rectangles (arms), salt noise, strips,
    // shapes cut by the image border.
    const cv::Size size = i % 3 ? cv::Size(420, 297) : cv::Size(40 + ui(rng) % 80, 30 + ui(rng) % 80);
    cv::Mat m(size, CV_8U, cv::Scalar(0));
    const int n = 1 + ui(rng) % 6;
    for (int k = 0; k < n; ++k) {
      const cv::Point c(ui(rng) % size.width, ui(rng) % size.height);
      switch (ui(rng) % 4) {
        case 0: cv::circle(m, c, 5 + ui(rng) % 30, cv::Scalar(255), cv::FILLED); break;
        case 1: cv::rectangle(m, c, c + cv::Point(10 + ui(rng) % 60, 10 + ui(rng) % 60), cv::Scalar(255), cv::FILLED); break;
        case 2: cv::line(m, c, cv::Point(ui(rng) % size.width, ui(rng) % size.height), cv::Scalar(255), 10 + ui(rng) % 40); break;
        default: {
          cv::Mat noise(size, CV_8U);
          cv::randu(noise, 0, 256);
          m |= noise > 200 + ui(rng) % 50;
        }
      }
    }
    if (i % 17 == 0) m.setTo(255);  // all covered: no zero at all
    if (i % 19 == 0) m.setTo(0);
    for (double r : {4.0, 13.0, 20.0, 20.5, 27.0}) {
      const bool core = has_core(m, r), possible = chamfer_core_possible(m, r);
      if (core) {
        ++cores;
        EXPECT_TRUE(possible) << "mask " << i << " r " << r;
      } else {
        ++no_core;
        said_no += !possible;
      }
    }
  }
  EXPECT_GT(cores, 100);        // the comparison covers masks with a core ...
  EXPECT_GT(no_core, 300);      // ... and without one,
  EXPECT_GT(said_no, no_core / 2);  // and on most of those the test says so
}

}  // namespace
