// The region a square die patch is cut from (die_patch's grey forest patch and the face
// network's colour patch, dice_cnn.cpp): large enough for any turn about `centre`, the
// image's edge replicated (mid grey where the region misses the image), and shrunk
// (INTER_AREA) when `span` is more than 1.5x the patch side, so the patch is at most
// ~1.5x oversampled. Returns the region, `centre` in its pixels and the shrink factor.
#pragma once

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace hexdice::vision {

struct PatchRegion {
  cv::Mat region;
  cv::Point2f centre;
  float factor = 1.0f;
};

inline PatchRegion cut_patch_region(const cv::Mat& src, cv::Point2f centre, float span, int patch_side) {
  PatchRegion out;
  const int half = static_cast<int>(std::ceil(span * 0.75f)) + 2;
  const cv::Rect want(cvRound(centre.x) - half, cvRound(centre.y) - half, 2 * half, 2 * half);
  const cv::Rect inside = want & cv::Rect(0, 0, src.cols, src.rows);
  if (inside.area() <= 0) {
    out.region = cv::Mat(want.size(), src.type(), cv::Scalar::all(128));
  } else {
    cv::copyMakeBorder(src(inside), out.region, inside.y - want.y, want.br().y - inside.br().y, inside.x - want.x,
                       want.br().x - inside.br().x, cv::BORDER_REPLICATE);
  }
  const float target = static_cast<float>(patch_side) * 1.5f;
  if (span > target) {
    out.factor = target / span;
    cv::resize(out.region, out.region, cv::Size(), out.factor, out.factor, cv::INTER_AREA);
  }
  out.centre = cv::Point2f(static_cast<float>(centre.x - want.x) * out.factor,
                           static_cast<float>(centre.y - want.y) * out.factor);
  return out;
}

// The square patch of `patch_side` px cut from a region: `span` (source pixels) scaled to the
// patch, turned by `angle_deg` about the region's centre `r.centre`, border replicated.
inline cv::Mat warp_patch_region(const PatchRegion& r, float span, int patch_side, float angle_deg) {
  const double s = patch_side / (span * r.factor);
  cv::Mat m = cv::getRotationMatrix2D(r.centre, angle_deg, s);
  m.at<double>(0, 2) += patch_side / 2.0 - r.centre.x;
  m.at<double>(1, 2) += patch_side / 2.0 - r.centre.y;
  cv::Mat patch;
  cv::warpAffine(r.region, patch, m, cv::Size(patch_side, patch_side), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return patch;
}

}  // namespace hexdice::vision
