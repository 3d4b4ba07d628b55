#include "vision/mask_ops.h"

#include <climits>
#include <cstdint>
#include <limits>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace hexdice::vision {

int components_with_stats(const cv::Mat& mask, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids,
                          int connectivity) {
  const int n = cv::connectedComponents(mask, labels, connectivity, CV_32S);
  // As OpenCV's CCStatsOp: min/max of x and y, the area, and the centroid as the integer
  // sums of x and y over the area, in double.
  stats.create(n, cv::CC_STAT_MAX, CV_32S);
  centroids.create(n, 2, CV_64F);
  std::vector<int> left(static_cast<std::size_t>(n), INT_MAX), top(static_cast<std::size_t>(n), INT_MAX);
  std::vector<int> right(static_cast<std::size_t>(n), INT_MIN), bottom(static_cast<std::size_t>(n), INT_MIN);
  std::vector<unsigned> area(static_cast<std::size_t>(n), 0);
  std::vector<std::uint64_t> sx(static_cast<std::size_t>(n), 0), sy(static_cast<std::size_t>(n), 0);
  // Run by run (a row's pixels of one label): the sums of x over a run in closed form.
  for (int y = 0; y < labels.rows; ++y) {
    const int* l = labels.ptr<int>(y);
    for (int x0 = 0; x0 < labels.cols;) {
      const int lab = l[x0];
      int x1 = x0 + 1;
      while (x1 < labels.cols && l[x1] == lab) ++x1;
      const std::size_t k = static_cast<std::size_t>(lab);
      const unsigned len = static_cast<unsigned>(x1 - x0);
      if (x0 < left[k]) left[k] = x0;
      if (x1 - 1 > right[k]) right[k] = x1 - 1;
      if (y < top[k]) top[k] = y;
      bottom[k] = y;  // rows are visited in order
      area[k] += len;
      sx[k] += static_cast<std::uint64_t>(x0 + x1 - 1) * len / 2;
      sy[k] += static_cast<std::uint64_t>(y) * len;
      x0 = x1;
    }
  }
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    int* row = stats.ptr<int>(i);
    if (area[k] == 0) {
      // An empty label (the background of an all-foreground mask): what OpenCV 4.6 gives.
      row[cv::CC_STAT_LEFT] = -1;
      row[cv::CC_STAT_TOP] = INT_MAX;
      row[cv::CC_STAT_WIDTH] = 0;
      row[cv::CC_STAT_HEIGHT] = 0;
    } else {
      row[cv::CC_STAT_LEFT] = left[k];
      row[cv::CC_STAT_TOP] = top[k];
      row[cv::CC_STAT_WIDTH] = right[k] - left[k] + 1;
      row[cv::CC_STAT_HEIGHT] = bottom[k] - top[k] + 1;
    }
    row[cv::CC_STAT_AREA] = static_cast<int>(area[k]);
    const double a = area[k];
    double* c = centroids.ptr<double>(i);
    c[0] = area[k] ? static_cast<double>(sx[k]) / a : std::numeric_limits<double>::quiet_NaN();
    c[1] = area[k] ? static_cast<double>(sy[k]) / a : std::numeric_limits<double>::quiet_NaN();
  }
  return n;
}

}  // namespace hexdice::vision
