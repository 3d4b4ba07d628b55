// vision/mask_ops.h: each replacement gives exactly what the OpenCV call it replaces gives.
#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/core/hal/intrin.hpp>  // CV_SIMD128: whether occluder_diff_row has vector steps
#include <opencv2/imgproc.hpp>

#include "vision/mask_ops.h"
#include "vision/mask_ops_ref.h"
#include "vision/read.h"

namespace {

using namespace hexdice::vision;

// Masks like the reader's: blobs of every size, thin lines, speckle, touching borders.
cv::Mat random_mask(std::mt19937& rng, cv::Size size) {
  cv::Mat m(size, CV_8U, cv::Scalar(0));
  std::uniform_int_distribution<int> ux(-5, size.width + 5), uy(-5, size.height + 5), ur(0, 12), kind(0, 3);
  const int shapes = std::uniform_int_distribution<int>(0, 12)(rng);
  for (int i = 0; i < shapes; ++i) {
    switch (kind(rng)) {
      case 0: cv::circle(m, {ux(rng), uy(rng)}, ur(rng), cv::Scalar(255), cv::FILLED); break;
      case 1: cv::line(m, {ux(rng), uy(rng)}, {ux(rng), uy(rng)}, cv::Scalar(255), 1 + ur(rng) / 4); break;
      case 2: cv::rectangle(m, cv::Rect(ux(rng), uy(rng), ur(rng) + 1, ur(rng) + 1), cv::Scalar(255), cv::FILLED); break;
      default: cv::circle(m, {ux(rng), uy(rng)}, ur(rng) + 2, cv::Scalar(0), cv::FILLED); break;
    }
  }
  std::uniform_int_distribution<int> noise(0, 99);
  for (int y = 0; y < m.rows; ++y)
    for (int x = 0; x < m.cols; ++x)
      if (noise(rng) < 3) m.at<uchar>(y, x) ^= 255;
  return m;
}

// Each of the 2^24 BGR colours once: pixel (x, y) of a 4096 x 4096 image is v = 4096 y + x as
// (v & 255, (v >> 8) & 255, v >> 16).
cv::Mat every_colour() {
  cv::Mat all(4096, 4096, CV_8UC3);
  for (int y = 0; y < all.rows; ++y)
    for (int x = 0; x < all.cols; ++x) {
      const int v = y * all.cols + x;
      all.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(v & 255), static_cast<uchar>((v >> 8) & 255), static_cast<uchar>(v >> 16));
    }
  return all;
}

bool same(const cv::Mat& a, const cv::Mat& b) {
  if (a.size() != b.size() || a.type() != b.type()) return false;
  if (a.empty()) return true;  // a 0-wide window has rows but no data: memcmp may not take its null pointer
  for (int y = 0; y < a.rows; ++y)
    if (std::memcmp(a.ptr(y), b.ptr(y), a.cols * a.elemSize()) != 0) return false;
  return true;
}

// (Speed round 40) And components_stats (no labels image): the same count, stats and
// centroids, bit for bit; some masks are views into larger ones.
TEST(MaskOps, ComponentsWithStatsMatchOpenCV) {
  std::mt19937 rng(5);
  const cv::Size sizes[] = {{84, 90}, {71, 71}, {48, 48}, {1, 1}, {1, 17}, {33, 1}, {97, 64}, {2, 3}, {181, 181}, {420, 297}};
  int with_components = 0;
  for (int rep = 0; rep < 60; ++rep)
    for (const cv::Size s : sizes)
      for (int conn : {8, 4}) {
        cv::Mat m = random_mask(rng, s);
        if (rep == 0) m.setTo(255);  // no background at all
        if (rep == 1) m.setTo(0);    // nothing but background
        if (rep % 5 == 2 && s.width > 4 && s.height > 4) m = m(cv::Rect(1, 2, s.width - 3, s.height - 4));
        cv::Mat l0, s0, c0, l1(m.size(), CV_32S, cv::Scalar(7)), s1, c1, s2, c2;  // (round 40: l1 a reused buffer)
        const int n0 = cv::connectedComponentsWithStats(m, l0, s0, c0, conn, CV_32S);
        const int n1 = components_with_stats(m, l1, s1, c1, conn);
        const int n2 = components_stats(m, s2, c2, conn);
        ASSERT_EQ(n0, n1) << s << " rep " << rep;
        ASSERT_EQ(n0, n2) << s << " rep " << rep << " conn " << conn;
        EXPECT_TRUE(same(l0, l1)) << s << " rep " << rep;
        EXPECT_TRUE(same(s0, s1)) << s << " rep " << rep;
        EXPECT_TRUE(same(c0, c1)) << s << " rep " << rep;  // bitwise: NaN of an empty label too
        EXPECT_TRUE(same(s0, s2) && same(c0, c2)) << s << " rep " << rep << " conn " << conn;
        // (speed42) The same with the runs kept, and from them each label's mask as the labels
        // image compared with it (the background, every component, one past the last, -1).
        RunLabels runs;
        cv::Mat s3, c3;
        const int n3 = components_stats_runs(m, s3, c3, runs, conn);
        ASSERT_EQ(n0, n3) << s << " rep " << rep << " conn " << conn;
        EXPECT_TRUE(same(s0, s3) && same(c0, c3)) << s << " rep " << rep << " conn " << conn;
        for (int label = -1; label <= n0; ++label) {
          const cv::Mat want = l0 == label, got = component_mask(runs, label, m.size());
          ASSERT_TRUE(same(want, got)) << s << " rep " << rep << " conn " << conn << " label " << label;
        }
        // Windows of it (some past the image's edges, some empty) by a test of the label:
        // runs_mask against the loop over the window's labels.
        for (int wi = 0; wi < 4; ++wi) {
          const int wx = static_cast<int>(rng() % static_cast<unsigned>(m.cols + 6)) - 3;
          const int wy = static_cast<int>(rng() % static_cast<unsigned>(m.rows + 6)) - 3;
          const cv::Rect win(wx, wy, static_cast<int>(rng() % static_cast<unsigned>(m.cols + 3)),
                             static_cast<int>(rng() % static_cast<unsigned>(m.rows + 3)));
          const int pick = static_cast<int>(rng() % 3);
          auto keep = [&](int l) { return l % 3 == pick || s0.at<int>(l, cv::CC_STAT_AREA) > 6; };
          cv::Mat want(win.size(), CV_8U, cv::Scalar(0));
          for (int y = 0; y < win.height; ++y)
            for (int x = 0; x < win.width; ++x) {
              const int iy = win.y + y, ix = win.x + x;
              if (iy < 0 || ix < 0 || iy >= m.rows || ix >= m.cols) continue;
              const int l = l0.at<int>(iy, ix);
              if (l > 0 && keep(l)) want.at<uchar>(y, x) = 255;
            }
          ASSERT_TRUE(same(want, runs_mask(runs, win, keep))) << s << " rep " << rep << " conn " << conn << " window " << win;
        }
        with_components += n0 > 2;
      }
  EXPECT_GT(with_components, 300);  // the masks did have several components
}

// label_components against cv::connectedComponents: the same labels (numbering included)
// on the reader's masks and on the hard cases of a run-based labelling: wide masks (the
// 180 px pip squares, the 420 x 297 paper plane), odd sizes, values other than 255,
// checkerboards and diagonal steps (8- vs 4-connectivity), dense noise (many runs and
// merges), U shapes merging late, ROI views; OpenCV on one thread and on several (its
// parallel form numbers the same way).
TEST(MaskOps, LabelComponentsMatchesOpenCV) {
  std::mt19937 rng(23);
  const cv::Size sizes[] = {{84, 90}, {181, 181}, {420, 297}, {129, 7}, {1, 1}, {1, 40}, {40, 1}, {2, 2}, {3, 5}, {16, 16}, {17, 33}};
  const int threads = cv::getNumThreads();
  int many = 0;
  for (int rep = 0; rep < 40; ++rep)
    for (const cv::Size s : sizes) {
      cv::Mat m = random_mask(rng, s);
      switch (rep % 8) {
        case 0: break;
        case 1: {  // dense noise of any value
          cv::Mat n(s, CV_8U);
          cv::randu(n, 0, 256);
          m = n > static_cast<int>(rng() % 200 + 28);
          if (rep % 16 == 1) m.setTo(7, m);  // nonzero but not 255
          break;
        }
        case 2:  // checkerboard: 8-connected one component, 4-connected every pixel its own
          for (int y = 0; y < s.height; ++y)
            for (int x = 0; x < s.width; ++x) m.at<uchar>(y, x) = ((x + y) % 2) ? 255 : 0;
          break;
        case 3:  // U shapes: arms that meet only at the bottom, and diagonal staircases
          m.setTo(0);
          for (int i = 0; i < 6; ++i) {
            const int x0 = static_cast<int>(rng() % (s.width + 1)), y0 = static_cast<int>(rng() % (s.height + 1));
            const int ww = 2 + static_cast<int>(rng() % 30), hh = 2 + static_cast<int>(rng() % 30);
            cv::line(m, {x0, y0}, {x0, y0 + hh}, cv::Scalar(255));
            cv::line(m, {x0 + ww, y0}, {x0 + ww, y0 + hh}, cv::Scalar(255));
            cv::line(m, {x0, y0 + hh}, {x0 + ww, y0 + hh}, cv::Scalar(255));
            for (int k = 0; k < 20; ++k)
              if (x0 + k < s.width && y0 + k < s.height) m.at<uchar>(y0 + k, x0 + k) = 200;
          }
          break;
        case 4: m.setTo(255); break;
        case 5: m.setTo(0); break;
        default: break;
      }
      for (int conn : {8, 4})
        for (int th : {1, std::max(2, threads)}) {
          cv::setNumThreads(th);
          cv::Mat l0, l1(s, CV_32S, cv::Scalar(7));  // (round 40: a reused buffer, not zeros)
          const int n0 = cv::connectedComponents(m, l0, conn, CV_32S);
          const int n1 = label_components(m, l1, conn);
          ASSERT_EQ(n0, n1) << s << " rep " << rep << " conn " << conn << " threads " << th;
          EXPECT_TRUE(same(l0, l1)) << s << " rep " << rep << " conn " << conn << " threads " << th;
          many += n0 > 10;
        }
      // A view into a larger mask (rows not contiguous).
      if (s.width > 4 && s.height > 4) {
        const cv::Mat v = m(cv::Rect(1, 2, s.width - 3, s.height - 4));
        cv::Mat l0, l1(v.size(), CV_32S, cv::Scalar(-1));
        ASSERT_EQ(cv::connectedComponents(v, l0, 8, CV_32S), label_components(v, l1, 8)) << s << " rep " << rep;
        EXPECT_TRUE(same(l0, l1)) << s << " rep " << rep;
      }
    }
  cv::setNumThreads(threads);
  EXPECT_GT(many, 200);  // the masks did have many components
}

// component_at against read.cpp's flood fill of a copy (8-connected, zero tolerance, 128)
// on random masks, seeds on blobs, on background and outside.
TEST(MaskOps, ComponentAtMatchesTheFloodFill) {
  std::mt19937 rng(29);
  const cv::Size sizes[] = {{84, 90}, {71, 71}, {1, 1}, {1, 17}, {33, 1}, {181, 181}, {2, 3}};
  int nonempty = 0, partial = 0;
  for (int rep = 0; rep < 60; ++rep)
    for (const cv::Size s : sizes) {
      cv::Mat m = random_mask(rng, s);
      if (rep == 0) m.setTo(255);
      if (rep == 1) m.setTo(0);
      for (int t = 0; t < 4; ++t) {
        cv::Point seed(static_cast<int>(rng() % (s.width + 2)) - 1, static_cast<int>(rng() % (s.height + 2)) - 1);
        if (t < 2) {  // on a blob pixel when there is one
          std::vector<cv::Point> nz;
          cv::findNonZero(m, nz);
          if (!nz.empty()) seed = nz[rng() % nz.size()];
        }
        cv::Mat want(s, CV_8U, cv::Scalar(0));
        if (seed.x >= 0 && seed.y >= 0 && seed.x < s.width && seed.y < s.height && m.at<uchar>(seed) != 0) {
          cv::Mat f = m.clone();
          cv::floodFill(f, seed, cv::Scalar(128), nullptr, cv::Scalar(0), cv::Scalar(0), 8);
          want = f == 128;
        }
        cv::Mat got;
        component_at(m, seed, got);
        EXPECT_TRUE(same(want, got)) << s << " rep " << rep << " seed " << seed;
        const int n = cv::countNonZero(want);
        nonempty += n > 0;
        partial += n > 0 && n < cv::countNonZero(m);
      }
    }
  EXPECT_GT(nonempty, 300);
  EXPECT_GT(partial, 200);  // seeds on one of several blobs
}

TEST(MaskOps, MedianBlur5MatchesOpenCV) {
  std::mt19937 rng(11);
  const cv::Size sizes[] = {{16, 16}, {1, 1}, {3, 2}, {7, 9}, {48, 48}, {21, 5}};
  int changed = 0;
  for (int rep = 0; rep < 20; ++rep)
    for (const cv::Size s : sizes)
      for (int type : {CV_8UC3, CV_8UC1, CV_8UC4}) {
        cv::Mat src(s, type);
        if (rep % 2) {
          cv::randu(src, 0, 256);
        } else {  // smooth with a few outliers: many ties, as on a die's face
          cv::randu(src, 100, 104);
          for (int k = 0; k < 5; ++k)
            src.at<uchar>(std::uniform_int_distribution<int>(0, s.height - 1)(rng),
                          std::uniform_int_distribution<int>(0, s.width * src.channels() - 1)(rng)) = 250;
        }
        cv::Mat ref, got;
        cv::medianBlur(src, ref, 5);
        median_blur5(src, got);
        EXPECT_TRUE(same(ref, got)) << s << " type " << type << " rep " << rep;
        changed += cv::countNonZero(ref.reshape(1) != src.reshape(1)) > 0;
      }
  EXPECT_GT(changed, 200);
}

TEST(MaskOps, Dilate3x3F32MatchesOpenCV) {
  // Float maps like the lattice's responses (zeros with positive blobs) and signed noise,
  // sizes below, at and above 4 floats a row, single rows and columns.
  std::mt19937 rng(14);
  // (speed34: widths round the AVX2 steps of 8 too: 9, 10, 16, 17, 25, 33.)
  const cv::Size sizes[] = {{48, 48}, {2, 1}, {1, 1}, {1, 7}, {2, 2}, {3, 5}, {5, 3}, {8, 8}, {9, 4}, {24, 24}, {47, 13}, {100, 3},
                            {10, 3}, {16, 2}, {17, 5}, {25, 6}, {33, 9}};
  int changed = 0;
  for (int rep = 0; rep < 30; ++rep)
    for (const cv::Size s : sizes) {
      cv::Mat src(s, CV_32F);
      if (rep % 3 == 0) {
        cv::randu(src, -100.0, 100.0);
      } else {
        src.setTo(0);
        for (int k = 0; k < 6; ++k)
          src.at<float>(std::uniform_int_distribution<int>(0, s.height - 1)(rng), std::uniform_int_distribution<int>(0, s.width - 1)(rng)) =
              std::uniform_real_distribution<float>(0.f, 50.f)(rng);
      }
      cv::Mat roi_src = src;
      if (rep % 5 == 4 && s.width > 2) roi_src = src(cv::Rect(1, 0, s.width - 1, s.height));  // a view with a row stride
      cv::Mat ref, got;
      cv::dilate(roi_src, ref, cv::Mat());
      dilate3x3_f32(roi_src, got);
      ASSERT_EQ(ref.size(), got.size());
      ASSERT_EQ(got.type(), CV_32F);
      EXPECT_EQ(std::memcmp(ref.data, got.data, ref.total() * sizeof(float)) == 0 && ref.isContinuous() && got.isContinuous(), true)
          << s << " rep " << rep;
      changed += cv::countNonZero(ref != roi_src) > 0;
      // Twice in a row (its buffers reused), and in place.
      dilate3x3_f32(got, got);
      cv::dilate(ref, ref, cv::Mat());
      EXPECT_EQ(cv::countNonZero(ref != got), 0) << s << " rep " << rep;
    }
  EXPECT_GT(changed, 200);
}

TEST(MaskOps, ResizeAreaMatchesOpenCV) {
  // 3:1 (done here) and other factors (passed to OpenCV), sizes that divide and do not.
  const cv::Size sizes[] = {{1920, 1080}, {48, 33}, {3, 3}, {96, 6}, {100, 50}, {1280, 720}, {7, 301}};
  int reduced = 0;
  for (int rep = 0; rep < 2; ++rep)
    for (const cv::Size s : sizes)
      for (double scale : {1.0 / 3, 640.0 / std::max(s.width, s.height), 0.5, 0.4}) {
        cv::Mat src(s, CV_8UC1);
        cv::randu(src, 0, 256);
        if (rep == 1) src.setTo(255);  // saturation at the top
        cv::Mat ref, got;
        cv::resize(src, ref, cv::Size(), scale, scale, cv::INTER_AREA);
        resize_area(src, got, scale);
        EXPECT_TRUE(same(ref, got)) << s << " scale " << scale << " rep " << rep;
        reduced += ref.cols * 3 == src.cols && ref.rows * 3 == src.rows;
      }
  EXPECT_GT(reduced, 6);  // the 3:1 path was taken
}

// (speed43) brightest_quarter (the samples sorted with their luminance beside them, buffers on
// the stack) against brightest_quarter_ref (the code it replaced) bit for bit, on 20000 random
// sample sets of 0 to 100 samples: random colours, and colours of few luminances (many ties of
// different colours, where the order std::sort leaves them in decides the quarter); and
// median_bgr against each channel's fully sorted middle value.
TEST(MaskOps, BrightestQuarterIsTheCodeItReplaced) {
  std::mt19937 rng(430);
  auto bits = [](const cv::Vec3f& v) {
    std::array<std::uint32_t, 3> b{};
    for (int k = 0; k < 3; ++k) b[static_cast<std::size_t>(k)] = std::bit_cast<std::uint32_t>(v[k]);
    return b;
  };
  for (int rep = 0; rep < 20000; ++rep) {
    const int n = std::uniform_int_distribution<int>(0, 100)(rng);
    const int kind = rep % 3;
    std::vector<cv::Vec3b> s;
    for (int i = 0; i < n; ++i) {
      if (kind == 0) {
        std::uniform_int_distribution<int> u(0, 255);
        s.emplace_back(static_cast<uchar>(u(rng)), static_cast<uchar>(u(rng)), static_cast<uchar>(u(rng)));
      } else {
        // Luminance 4 l + 200 from (50 + l + 2 t, 50 + l - t, 50 + l): t shifts colour, not luminance.
        const int l = std::uniform_int_distribution<int>(0, kind == 1 ? 3 : 40)(rng), t = std::uniform_int_distribution<int>(-20, 20)(rng);
        s.emplace_back(static_cast<uchar>(50 + l + 2 * t + 40), static_cast<uchar>(50 + l - t + 20), static_cast<uchar>(50 + l));
      }
    }
    EXPECT_EQ(bits(brightest_quarter(s)), bits(brightest_quarter_ref(s))) << "rep " << rep << " n " << n;
    cv::Vec3f want(0, 0, 0);
    for (int k = 0; k < 3 && n > 0; ++k) {
      std::vector<uchar> c;
      for (const auto& v : s) c.push_back(v[k]);
      std::sort(c.begin(), c.end());
      want[k] = c[c.size() / 2];
    }
    EXPECT_EQ(bits(median_bgr(s)), bits(want)) << "rep " << rep << " n " << n;
  }
}

// (speed43) filled_circle_box against cv::boundingRect of the circle cv::circle draws: every
// radius 0 .. 150 at random centres (inside, so the box is given; and reaching past each edge
// by a pixel or more, so it is empty), in images of random sizes.
TEST(MaskOps, FilledCircleBoxIsTheDrawnCirclesBoundingRect) {
  std::mt19937 rng(4343);
  int given = 0;
  for (int r = 0; r <= 150; ++r)
    for (int rep = 0; rep < 12; ++rep) {
      const cv::Size size(std::uniform_int_distribution<int>(2 * r + 1, 2 * r + 40)(rng),
                          std::uniform_int_distribution<int>(2 * r + 1, 2 * r + 40)(rng));
      cv::Point c(std::uniform_int_distribution<int>(r, size.width - 1 - r)(rng),
                  std::uniform_int_distribution<int>(r, size.height - 1 - r)(rng));
      if (rep >= 8) {  // one pixel (or more) past an edge
        const int k = std::uniform_int_distribution<int>(1, 3)(rng);
        if (rep == 8) c.x = r - k;
        if (rep == 9) c.y = r - k;
        if (rep == 10) c.x = size.width - r - 1 + k;
        if (rep == 11) c.y = size.height - r - 1 + k;
      }
      cv::Mat m(size, CV_8U, cv::Scalar(0));
      cv::circle(m, c, r, cv::Scalar(255), cv::FILLED);
      const cv::Rect box = filled_circle_box(c, r, size);
      if (rep < 8) {
        EXPECT_EQ(box, cv::boundingRect(m)) << "r " << r << " at " << c << " in " << size;
        given += !box.empty();
      } else {
        EXPECT_TRUE(box.empty()) << "r " << r << " at " << c << " in " << size;
      }
    }
  EXPECT_EQ(given, 151 * 8);
  EXPECT_TRUE(filled_circle_box({5, 5}, -1, {20, 20}).empty());
}

// (speed43) bgr_to_gray against cv::cvtColor(COLOR_BGR2GRAY) bit for bit: every one of the
// 2^24 colours (one continuous 4096 x 4096 image, a single run), then random images of every
// width from 1 to 80 (the vector step's end: 3 x + 100 bytes), views into larger images (row by
// row), a 1280 x 720 frame, a destination that is the source's buffer, and other types (to
// OpenCV). With HEXDICE_NO_AVX2=1 every call is OpenCV's.
TEST(MaskOps, BgrToGrayIsOpenCVs) {
  const cv::Mat all = every_colour();
  cv::Mat ref, got;
  cv::cvtColor(all, ref, cv::COLOR_BGR2GRAY);
  bgr_to_gray(all, got);
  EXPECT_TRUE(same(ref, got)) << "every colour";
  std::mt19937 rng(43);
  for (int w = 1; w <= 80; ++w)
    for (int h : {1, 2, 5}) {
      cv::Mat src(h, w, CV_8UC3);
      cv::randu(src, 0, 256);
      cv::cvtColor(src, ref, cv::COLOR_BGR2GRAY);
      got = cv::Mat(h, w, CV_8UC1, cv::Scalar(7));
      bgr_to_gray(src, got);
      EXPECT_TRUE(same(ref, got)) << w << " x " << h;
      cv::Mat big(h + 4, w + 9, CV_8UC3);
      cv::randu(big, 0, 256);
      const cv::Mat view = big(cv::Rect(std::uniform_int_distribution<int>(0, 9)(rng), 2, w, h));
      cv::cvtColor(view, ref, cv::COLOR_BGR2GRAY);
      cv::Mat out_big(h + 2, w + 5, CV_8UC1, cv::Scalar(9));
      cv::Mat out_view = out_big(cv::Rect(3, 1, w, h));
      bgr_to_gray(view, out_view);
      EXPECT_TRUE(same(ref, out_view)) << "view " << w << " x " << h;
    }
  cv::Mat frame(720, 1280, CV_8UC3);
  cv::randu(frame, 0, 256);
  cv::cvtColor(frame, ref, cv::COLOR_BGR2GRAY);
  bgr_to_gray(frame, got);
  EXPECT_TRUE(same(ref, got)) << "1280 x 720";
  cv::Mat self = frame.clone();
  bgr_to_gray(self, self);
  EXPECT_TRUE(same(ref, self)) << "into its own buffer";
  cv::Mat bgra(30, 70, CV_8UC4), f32(30, 70, CV_32FC3);
  cv::randu(bgra, 0, 256);
  cv::randu(f32, 0, 1);
  cv::cvtColor(bgra, ref, cv::COLOR_BGR2GRAY);
  bgr_to_gray(bgra, got);
  EXPECT_TRUE(same(ref, got)) << "BGRA";
  cv::cvtColor(f32, ref, cv::COLOR_BGR2GRAY);
  bgr_to_gray(f32, got);
  EXPECT_TRUE(same(ref, got)) << "float";
}

// resize_area_to (read_face's 48 -> 16 local body colour) against cv::resize with the
// size given, grey and colour, 3:1 (done by mask_ops) and other sizes (OpenCV's).
TEST(MaskOps, ResizeAreaToMatchesOpenCV) {
  cv::RNG rng(31);
  const std::pair<cv::Size, cv::Size> cases[] = {{{48, 48}, {16, 16}}, {{3, 3}, {1, 1}}, {{96, 30}, {32, 10}}, {{49, 48}, {16, 16}},
                                                 {{48, 48}, {24, 24}}, {{47, 45}, {15, 15}}, {{48, 48}, {12, 12}},
                                                 {{45, 6}, {15, 2}}, {{60, 9}, {20, 3}}};
  int exact = 0;
  for (int rep = 0; rep < 3; ++rep)
    for (const auto& [s, d] : cases)
      for (int type : {CV_8UC3, CV_8UC1}) {
        cv::Mat src(s, type);
        rng.fill(src, cv::RNG::UNIFORM, 0, 256);
        if (rep == 1) src.setTo(cv::Scalar::all(255));
        if (rep == 2) src.setTo(cv::Scalar(4, 5, 13));  // flat
        cv::Mat ref, got;
        cv::resize(src, ref, d, 0, 0, cv::INTER_AREA);
        resize_area_to(src, got, d);
        EXPECT_TRUE(same(ref, got)) << s << " -> " << d << " type " << type << " rep " << rep;
        exact += s.width == 3 * d.width && s.height == 3 * d.height;
        // ... and a view into a wider image (rows not continuous), vector steps plus a tail
        cv::Mat wide(s.height + 2, s.width + 7, type);
        rng.fill(wide, cv::RNG::UNIFORM, 0, 256);
        src.copyTo(wide(cv::Rect(5, 1, s.width, s.height)));
        const cv::Mat view = wide(cv::Rect(5, 1, s.width, s.height));
        cv::Mat got_view;
        resize_area_to(view, got_view, d);
        EXPECT_TRUE(same(ref, got_view)) << "view " << s << " -> " << d << " type " << type << " rep " << rep;
      }
  EXPECT_GE(exact, 18);
}

TEST(MaskOps, ColorDistanceMaskMatchesTheFloatTest) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> byte(0, 255);
  int above = 0, below = 0;
  for (int rep = 0; rep < 40; ++rep) {
    cv::Mat img(std::uniform_int_distribution<int>(1, 90)(rng), std::uniform_int_distribution<int>(1, 90)(rng), CV_8UC3);
    cv::randu(img, 0, 256);
    const cv::Mat roi = img(cv::Rect(0, 0, std::max(1, img.cols - 3), img.rows));  // rows not continuous
    // Integer-valued references (the exact path) and fractional ones (the float path).
    cv::Vec3f ref(static_cast<float>(byte(rng)), static_cast<float>(byte(rng)), static_cast<float>(byte(rng)));
    if (rep % 4 == 3) ref += cv::Vec3f(0.5f, 0.25f, 0.0f);
    for (double thr : {26.0, 55.0, 26.5, 0.0, 300.0, 120.3})
      for (bool greater : {true, false}) {
        const cv::Mat got = color_distance_mask(roi, ref, thr, greater);
        cv::Mat want(roi.size(), CV_8U);
        const float t2 = static_cast<float>(thr * thr);
        for (int y = 0; y < roi.rows; ++y)
          for (int x = 0; x < roi.cols; ++x) {
            const cv::Vec3b p = roi.at<cv::Vec3b>(y, x);
            const float d0 = p[0] - ref[0], d1 = p[1] - ref[1], d2 = p[2] - ref[2];
            want.at<uchar>(y, x) = ((d0 * d0 + d1 * d1 + d2 * d2 > t2) == greater) ? 255 : 0;
          }
        EXPECT_TRUE(same(want, got)) << roi.size() << " thr " << thr << " ref " << ref << " rep " << rep;
        const int n = cv::countNonZero(want);
        above += n > 0;
        below += n < want.rows * want.cols;
      }
  }
  EXPECT_GT(above, 100);
  EXPECT_GT(below, 100);
}

TEST(MaskOps, ColorDistanceMaskTiesAtTheThreshold) {
  // (3, 4, 0) from the reference is at distance exactly 5: not above 5, above 4.99.
  cv::Mat img(1, 40, CV_8UC3, cv::Scalar(13, 24, 50));
  const cv::Vec3f ref(10, 20, 50);
  EXPECT_EQ(cv::countNonZero(color_distance_mask(img, ref, 5.0, true)), 0);
  EXPECT_EQ(cv::countNonZero(color_distance_mask(img, ref, 5.0, false)), 40);
  EXPECT_EQ(cv::countNonZero(color_distance_mask(img, ref, 4.99, true)), 40);
}

// (Round 20) disc_row_span against the test it stands for, pixel by pixel: random centres
// inside and outside the row, on and off half pixels (ties), radii from none to past the row.
TEST(MaskOps, DiscRowSpanIsThePixelTest) {
  std::mt19937 rng(20);
  std::uniform_real_distribution<double> u(0, 1);
  int nonempty = 0, partial = 0;
  for (int rep = 0; rep < 4000; ++rep) {
    const int cols = 1 + static_cast<int>(u(rng) * 140);
    double cx = -20 + u(rng) * (cols + 40), cy = -20 + u(rng) * 160;
    if (rep % 4 == 1) cx = std::round(cx * 2) / 2, cy = std::round(cy * 2) / 2;  // half pixels
    const double r = rep % 7 == 0 ? 0.0 : u(rng) * 90;
    const double r2 = rep % 11 == 3 ? -1.0 : rep % 5 == 2 ? std::pow(r, 2) : r * r;
    for (int y = -3; y < 140; y += 1 + rep % 9) {
      int x0 = 0, x1 = -1;
      disc_row_span(cx, cy, r2, y, cols, x0, x1);
      int want0 = cols, want1 = -1;
      for (int x = 0; x < cols; ++x) {
        const double dx = x - cx, dy = y - cy;
        if (dx * dx + dy * dy > r2) continue;
        want0 = std::min(want0, x), want1 = std::max(want1, x);
      }
      if (want1 < 0) {
        ASSERT_GT(x0, x1) << "cx " << cx << " cy " << cy << " r2 " << r2 << " y " << y << " cols " << cols;
        continue;
      }
      ASSERT_EQ(x0, want0) << "cx " << cx << " cy " << cy << " r2 " << r2 << " y " << y << " cols " << cols;
      ASSERT_EQ(x1, want1) << "cx " << cx << " cy " << cy << " r2 " << r2 << " y " << y << " cols " << cols;
      for (int x = want0; x <= want1; ++x) {  // an interval: every pixel between is within
        const double dx = x - cx, dy = y - cy;
        ASSERT_FALSE(dx * dx + dy * dy > r2);
      }
      ++nonempty;
      partial += want0 > 0 || want1 < cols - 1;
    }
  }
  EXPECT_GT(nonempty, 10000);
  EXPECT_GT(partial, 5000);
}

// (speed42) contrast_sums_disc against the pixel-by-pixel loop it stands for
// (contrast_sums_disc_ref, pips_where_seen's old step), bit for bit: random images (a smooth
// one, a noisy one), centres inside, on the border, off the image, on half pixels, radii from
// none to past the image, bodies whole (the integer sums) and not (the float sums), at the
// extremes 0 and 1020, both polarities. No AVX2 step: the same with HEXDICE_NO_AVX2=1.
TEST(MaskOps, ContrastSumsDiscIsTheLoop) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  int whole_nonzero = 0, frac_nonzero = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    const int cols = 1 + static_cast<int>(u(rng) * 90), rows = 1 + static_cast<int>(u(rng) * 90);
    cv::Mat img(rows, cols, CV_8UC3);
    if (rep % 2) cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
    else
      for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x)
          img.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(3 * x + y), static_cast<uchar>(x * y), static_cast<uchar>(200 - x - 2 * y));
    cv::Point2d c(-10 + u(rng) * (cols + 20), -10 + u(rng) * (rows + 20));
    if (rep % 5 == 1) c = {std::round(c.x * 2) / 2, std::round(c.y * 2) / 2};
    const double rad = rep % 13 == 0 ? 0.0 : u(rng) * 0.7 * std::max(cols, rows);
    float body = static_cast<float>(std::round(u(rng) * 1020));
    if (rep % 3 == 1) body += static_cast<float>(u(rng));  // not a whole number
    if (rep % 17 == 5) body = 0;
    if (rep % 17 == 6) body = 1020;
    if (rep % 19 == 7) body = -3;  // (outside [0, 1020]: the float sums)
    const int polarity = rep % 2 ? 1 : -1;
    const ContrastSums a = contrast_sums_disc(img, c, rad, body, polarity);
    const ContrastSums b = contrast_sums_disc_ref(img, c, rad, body, polarity);
    const auto bits = [](double v) { return std::bit_cast<std::uint64_t>(v); };
    ASSERT_EQ(bits(a.sw), bits(b.sw)) << rep << " c " << c << " rad " << rad << " body " << body;
    ASSERT_EQ(bits(a.sx), bits(b.sx)) << rep << " c " << c << " rad " << rad << " body " << body;
    ASSERT_EQ(bits(a.sy), bits(b.sy)) << rep << " c " << c << " rad " << rad << " body " << body;
    if (b.sw > 0) (body == std::floor(body) && body >= 0 ? whole_nonzero : frac_nonzero)++;
  }
  EXPECT_GT(whole_nonzero, 1000);
  EXPECT_GT(frac_nonzero, 500);
}

TEST(MaskOps, MorphMatchesOpenCV) {
  std::mt19937 rng(7);
  std::vector<std::pair<cv::Mat, cv::Point>> kernels;
  for (int k : {3, 5, 7, 9}) kernels.emplace_back(cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k, k)), cv::Point(-1, -1));
  kernels.emplace_back(cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 5)), cv::Point(-1, -1));
  kernels.emplace_back(cv::getStructuringElement(cv::MORPH_CROSS, cv::Size(5, 3)), cv::Point(1, 2));
  // The reader's parallax kernels: a line from one corner to the other, anchored at an end.
  for (const auto& [kx, ky] : {std::pair{6, 2}, {0, 9}, {11, 0}, {3, 7}, {25, 4}, {70, 3}}) {
    cv::Mat kern(ky + 1, kx + 1, CV_8U, cv::Scalar(0));
    cv::line(kern, {0, ky}, {kx, 0}, cv::Scalar(1), 1, cv::LINE_8);
    kernels.emplace_back(kern, cv::Point(0, ky));
    kernels.emplace_back(kern, cv::Point(kx, 0));
  }
  {
    cv::Mat odd(4, 6, CV_8U);  // gaps in its rows: several runs in one row
    cv::randu(odd, 0, 2);
    odd.at<uchar>(0, 0) = 1;
    kernels.emplace_back(odd, cv::Point(-1, -1));
  }
  const cv::Size sizes[] = {{84, 90}, {48, 48}, {64, 10}, {65, 12}, {130, 7}, {17, 33}, {5, 4}, {1, 1}, {37, 1}};
  int changed = 0;
  for (int rep = 0; rep < 6; ++rep)
    for (const cv::Size s : sizes)
      for (const auto& [kern, anchor] : kernels)
        for (int op : {cv::MORPH_ERODE, cv::MORPH_DILATE, cv::MORPH_OPEN, cv::MORPH_CLOSE})
          for (int border : {-1, 0, 255}) {
            cv::Mat src = random_mask(rng, s);
            if (rep == 5) cv::randu(src, 0, 256);  // grey levels: passed to OpenCV
            cv::Mat ref, got = src.clone();
            if (border >= 0)
              cv::morphologyEx(src, ref, op, kern, anchor, 1, cv::BORDER_CONSTANT, cv::Scalar(border));
            else
              cv::morphologyEx(src, ref, op, kern, anchor);
            morph(got, got, op, kern, anchor, border);  // in place, as the reader calls it
            EXPECT_TRUE(same(ref, got)) << s << " op " << op << " border " << border << " kernel " << kern.size()
                                        << " anchor " << anchor << " rep " << rep;
            changed += cv::countNonZero(ref != src) > 0;
          }
  EXPECT_GT(changed, 1000);  // the operations did change the masks
}

}  // namespace

namespace {

// read.cpp's occluder comparison, 16 pixels at a time, against its one-pixel-at-a-time
// loop: the same mask bytes and the same ratio bits on frames that match the print, are
// shadowed, tinted, or random, at widths that leave a tail of every length.
TEST(MaskOps, OccluderDiffRowMatchesThePerPixelLoop) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> byte(0, 255), kind(0, 4), noise(-6, 6);
  std::uniform_real_distribution<float> lightd(0.6f, 1.4f), shade(0.1f, 0.9f);
  const float ip[3] = {1.0f / 231.0f, 1.0f / 236.0f, 1.0f / 229.0f};
  int dark_hits = 0, chroma_hits = 0, matched = 0, dim = 0;
  for (int n : {1, 7, 15, 16, 17, 18, 23, 31, 33, 47, 64, 421}) {
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<uchar> frame(3 * n), print(3 * n), pmin(3 * n), pmax(3 * n), out0(n), out1(n);
      std::vector<float> light(3 * n), r0(n);
      for (int x = 0; x < n; ++x) {
        const int k = kind(rng);
        float l[3] = {lightd(rng), lightd(rng), lightd(rng)};
        const float sum = l[0] + l[1] + l[2];
        const float sh = k == 1 ? shade(rng) : 1.0f;
        for (int c = 0; c < 3; ++c) {
          // 0-2: paper or tints; 3: anything; 4: a printed line (dark, seen as such)
          const int p = k == 3 ? byte(rng) : k == 4 ? byte(rng) % 30 : 150 + byte(rng) % 106;
          print[3 * x + c] = static_cast<uchar>(p);
          pmin[3 * x + c] = static_cast<uchar>(std::max(0, p - byte(rng) % (k == 4 ? 4 : 40)));
          pmax[3 * x + c] = static_cast<uchar>(std::min(255, p + byte(rng) % 40));
          light[3 * x + c] = l[c] * 3.0f / sum;
          int v = k == 2 ? byte(rng) : static_cast<int>(p * sh * 0.9f) + noise(rng);  // 2: tinted / random
          if (k == 3) v = byte(rng);
          frame[3 * x + c] = cv::saturate_cast<uchar>(v);
        }
      }
      if (rep == 0) std::fill(light.begin(), light.end(), 0.0f);  // no light: inf and NaN, same either way
      const float dark = 0.72f, c2 = 0.035f * 0.035f;
      occluder_diff_row_ref(frame.data(), print.data(), pmin.data(), pmax.data(), light.data(), n, ip, dark, c2, out0.data(), r0.data());
      long scalar = 0;
      occluder_diff_row(frame.data(), print.data(), pmin.data(), pmax.data(), light.data(), n, ip, dark, c2, out1.data(), &scalar);
      // (speed34) A row of 16 or more has no per-pixel tail: its last 16 are done again.
#if CV_SIMD128
      EXPECT_EQ(scalar, n < 16 ? n : 0) << "n " << n;
#else
      EXPECT_EQ(scalar, n) << "n " << n;  // no vector steps: every pixel through the per-pixel loop
#endif
      ASSERT_EQ(0, std::memcmp(out0.data(), out1.data(), out0.size())) << "n " << n << " rep " << rep;
      std::vector<uchar> out2(n, 7);  // the reference loop without the ratio: the same mask
      occluder_diff_row_ref(frame.data(), print.data(), pmin.data(), pmax.data(), light.data(), n, ip, dark, c2, out2.data(), nullptr);
      ASSERT_EQ(0, std::memcmp(out0.data(), out2.data(), out0.size())) << "n " << n << " rep " << rep;
      // (speed35) The ratio alone (the arm's penumbra): the same bits, nothing written past the row.
      std::vector<float> r2(n + 1, -7.0f);
      occluder_ratio_row(frame.data(), pmin.data(), n, ip, r2.data());
      ASSERT_EQ(0, std::memcmp(r0.data(), r2.data(), r0.size() * sizeof(float))) << "n " << n << " rep " << rep;
      ASSERT_EQ(r2[static_cast<std::size_t>(n)], -7.0f);
      for (int x = 0; x < n; ++x) {
        const uchar* f = &frame[3 * x];
        const uchar* lo = &pmin[3 * x];
        const float lum = f[0] * ip[0] + 2 * f[1] * ip[1] + f[2] * ip[2];
        const float lum_lo = (lo[0] + 2 * lo[1] + lo[2]) / 255.0f;
        if (lum < dark * lum_lo) ++dark_hits;
        else if (lum <= 0.4f) ++dim;
        else if (out0[x]) ++chroma_hits;
        else ++matched;
      }
    }
  }
  // Every outcome of the comparison was exercised.
  EXPECT_GT(dark_hits, 100);
  EXPECT_GT(chroma_hits, 100);
  EXPECT_GT(matched, 100);
  EXPECT_GT(dim, 20);
}

}  // namespace

namespace {

// A frame like `print` for occluder_diff_row's tests: each pixel another colour (a quarter),
// half the print's (a quarter) or the print's +-4, under a local light of channel factors
// 0.7-1.3 summing to 3 (CV_32FC3).
void frame_like(std::mt19937& rng, const cv::Mat& print, cv::Mat& frame, cv::Mat& light) {
  std::uniform_int_distribution<int> byte(0, 255), coin(0, 3);
  std::uniform_real_distribution<float> lightd(0.7f, 1.3f);
  frame.create(print.size(), CV_8UC3);
  light.create(print.size(), CV_32FC3);
  for (int y = 0; y < print.rows; ++y)
    for (int x = 0; x < print.cols; ++x) {
      const int k = coin(rng);
      float l[3] = {lightd(rng), lightd(rng), lightd(rng)};
      const float sum = l[0] + l[1] + l[2];
      for (int ch = 0; ch < 3; ++ch) {
        const int v = print.at<cv::Vec3b>(y, x)[ch];
        frame.at<cv::Vec3b>(y, x)[ch] = cv::saturate_cast<uchar>(k == 0 ? byte(rng) : k == 1 ? v / 2 : v + byte(rng) % 9 - 4);
        light.at<cv::Vec3f>(y, x)[ch] = l[ch] * 3.0f / sum;
      }
    }
}

// occluder_diff_row on every whole row of the print (its 3x3 minimum and maximum given), with
// the reader's thresholds.
constexpr float kDiffDark = 0.72f, kDiffC2 = 0.035f * 0.035f;
cv::Mat diff_by_rows(const cv::Mat& frame, const cv::Mat& print, const cv::Mat& pmin, const cv::Mat& pmax, const cv::Mat& light,
                     const float ip[3]) {
  cv::Mat want(frame.size(), CV_8U, cv::Scalar(7));
  for (int y = 0; y < frame.rows; ++y)
    occluder_diff_row(frame.ptr<uchar>(y), print.ptr<uchar>(y), pmin.ptr<uchar>(y), pmax.ptr<uchar>(y), light.ptr<float>(y), frame.cols,
                      ip, kDiffDark, kDiffC2, want.ptr<uchar>(y));
  return want;
}

// (speed38) occluder_mask's tinted print: its 3x3 minimum and maximum from the drawing's and
// patches round what was redrawn, against cv::erode / cv::dilate of the whole redrawn print,
// and the comparison in runs against occluder_diff_row on whole rows of those. Prints of
// paper, tints and dark lines; redrawn parts anywhere (across the edges, overlapping, one pixel
// wide, filled hexagons as read.cpp draws them and random pixels inside a rect), every width
// from 1 up; the runs of a row from 1 px (the per-pixel loop) to whole rows (the vector steps;
// with HEXDICE_NO_AVX2=1 the SSE2 ones).
TEST(MaskOps, PrintPatchesAreTheWholePrintsMinimumAndMaximum) {
  std::mt19937 rng(38);
  std::uniform_int_distribution<int> byte(0, 255), coin(0, 3);
  const float ip[3] = {1.0f / 231.0f, 1.0f / 236.0f, 1.0f / 229.0f};
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  long patched_px = 0, moved_min = 0, diff_set = 0, total_px = 0, whole = 0;
  for (int rep = 0; rep < 160; ++rep) {
    const int w = rep < 8 ? 1 + rep : 1 + byte(rng) % 160 + (rep % 5 == 0 ? 200 : 0), h = 1 + byte(rng) % 90;
    cv::Mat base(h, w, CV_8UC3, cv::Scalar(250, 252, 249));
    for (int k = 0; k < 6; ++k)  // tints and printed lines
      cv::rectangle(base, cv::Point(byte(rng) % (w + 10) - 5, byte(rng) % (h + 10) - 5),
                    cv::Point(byte(rng) % (w + 10) - 5, byte(rng) % (h + 10) - 5),
                    cv::Scalar(byte(rng), byte(rng), byte(rng)), coin(rng) ? 1 : cv::FILLED);
    cv::Mat base_min, base_max;
    cv::erode(base, base_min, k3);
    cv::dilate(base, base_max, k3);
    cv::Mat print = base.clone();
    std::vector<cv::Rect> changed;
    const int parts = byte(rng) % 6;
    for (int k = 0; k < parts; ++k) {
      const cv::Point c(byte(rng) % (w + 20) - 10, byte(rng) % (h + 20) - 10);
      const int r = 1 + byte(rng) % 25;
      if (coin(rng)) {  // a hexagon, as occluder_mask fills a tinted cell
        std::vector<cv::Point> poly;
        for (int e = 0; e < 6; ++e)
          poly.emplace_back(c.x + cvRound(r * std::cos(CV_PI / 3 * e)), c.y + cvRound(r * std::sin(CV_PI / 3 * e)));
        cv::fillConvexPoly(print, poly, cv::Scalar(byte(rng), byte(rng), byte(rng)));
        const cv::Rect b = cv::boundingRect(poly);
        changed.emplace_back(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
      } else {  // random pixels inside a rect (a one-pixel-wide one at times)
        const cv::Rect b(c.x, c.y, coin(rng) ? 1 : r, 1 + byte(rng) % 20);
        const cv::Rect in = b & cv::Rect(0, 0, w, h);
        for (int y = in.y; y < in.y + in.height; ++y)
          for (int x = in.x; x < in.x + in.width; ++x)
            if (coin(rng)) print.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(byte(rng)), static_cast<uchar>(byte(rng)), static_cast<uchar>(byte(rng)));
        changed.push_back(b);
      }
    }
    cv::Mat want_min, want_max;
    cv::erode(print, want_min, k3);
    cv::dilate(print, want_max, k3);
    const PrintPatches p = print_minmax_patches(print, changed, 200);
    ASSERT_EQ(p.box.size(), p.pmin.size());
    ASSERT_EQ(p.box.size(), p.pmax.size());
    ASSERT_EQ(p.box.size(), p.dark.size());
    const cv::Mat got_min = with_patches(base_min, p.box, p.pmin), got_max = with_patches(base_max, p.box, p.pmax);
    ASSERT_EQ(0, cv::norm(got_min, want_min, cv::NORM_INF)) << "rep " << rep << " " << w << " x " << h;
    ASSERT_EQ(0, cv::norm(got_max, want_max, cv::NORM_INF)) << "rep " << rep << " " << w << " x " << h;
    cv::Mat grey, base_dark;
    cv::cvtColor(base_min, grey, cv::COLOR_BGR2GRAY);
    base_dark = grey < 200;
    cv::cvtColor(want_min, grey, cv::COLOR_BGR2GRAY);
    const cv::Mat want_dark = grey < 200;
    ASSERT_EQ(0, cv::norm(with_patches(base_dark, p.box, p.dark), want_dark, cv::NORM_INF)) << "rep " << rep << " " << w << " x " << h;
    for (const cv::Rect& b : p.box) patched_px += b.area();
    whole += p.box.size() == 1 && p.box[0] == cv::Rect(0, 0, w, h);
    moved_min += cv::countNonZero(cv::Mat(base_min != want_min).reshape(1));
    // The comparison: a frame like the print, shaded, tinted or anything.
    cv::Mat frame, light;
    frame_like(rng, print, frame, light);
    const cv::Mat want = diff_by_rows(frame, print, want_min, want_max, light, ip);
    cv::Mat got(h, w, CV_8U, cv::Scalar(9));
    occluder_diff_patched(frame, print, base_min, base_max, p, light, ip, kDiffDark, kDiffC2, got);
    ASSERT_EQ(0, cv::norm(got, want, cv::NORM_INF)) << "rep " << rep << " " << w << " x " << h;
    diff_set += cv::countNonZero(want);
    total_px += static_cast<long>(w) * h;
  }
  EXPECT_GT(moved_min, 20000);   // the redrawn parts did move the minimum
  EXPECT_GT(diff_set, 100000);   // and the comparison said both
  EXPECT_GT(total_px - diff_set, 30000);
  EXPECT_LT(patched_px, total_px);  // patches, not the whole prints
  EXPECT_GT(whole, 5);              // and the whole print where they would cover most of it
  EXPECT_LT(whole, 100);
}

// (speed39) occluder_mask's tinted cells without a copy of the whole print: print_fill's masks,
// print_fill_at and print_fill_patches against cv::fillConvexPoly on a copy of the whole print
// and print_minmax_patches of that copy, every byte; occluder_diff_patched reading the print's
// patches against occluder_diff_row on the whole filled print's rows. Hexagons as occluder_mask
// draws them (any centre, overlapping, one pixel to 60 across, some across the print's sides,
// where print_fill must refuse), colours past 255 and below 0, prints of 1 px and up.
TEST(MaskOps, PrintFillPatchesAreTheWholeFilledPrints) {
  std::mt19937 rng(39);
  std::uniform_int_distribution<int> byte(0, 255), coin(0, 3);
  std::uniform_real_distribution<double> real(0.0, 1.0);
  const float ip[3] = {1.0f / 231.0f, 1.0f / 236.0f, 1.0f / 229.0f};
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  long compared = 0, refused = 0, fills_drawn = 0, overlaps = 0, whole_box = 0, patched_px = 0, total_px = 0;
  for (int rep = 0; rep < 240; ++rep) {
    const int w = rep < 6 ? 1 + rep : 1 + byte(rng) % 160 + (rep % 4 == 0 ? 260 : 0), h = rep < 6 ? 1 + rep : 1 + byte(rng) % 120;
    cv::Mat base(h, w, CV_8UC3, cv::Scalar(250, 252, 249));
    for (int k = 0; k < 6; ++k)  // tints and printed lines
      cv::rectangle(base, cv::Point(byte(rng) % (w + 10) - 5, byte(rng) % (h + 10) - 5),
                    cv::Point(byte(rng) % (w + 10) - 5, byte(rng) % (h + 10) - 5),
                    cv::Scalar(byte(rng), byte(rng), byte(rng)), coin(rng) ? 1 : cv::FILLED);
    cv::Mat whole = base.clone();
    std::vector<PrintFill> fills;
    std::vector<cv::Rect> rects;
    const int parts = 1 + byte(rng) % 8 + (rep % 6 == 0 ? 30 : 0);
    bool all = true;
    for (int k = 0; k < parts; ++k) {
      // One in eight anywhere (across the sides: refused); the others inside when they fit.
      double r = 0.3 + real(rng) * 30, cx = real(rng) * (w + 8) - 4, cy = real(rng) * (h + 8) - 4;
      const double a = real(rng) * CV_PI;
      if (coin(rng) + coin(rng) != 0 || k > 0) {
        r = std::min(r, 0.5 * std::min(w, h) - 2.6);
        cx = r + 2.6 + real(rng) * (w - 2 * r - 5.2), cy = r + 2.6 + real(rng) * (h - 2 * r - 5.2);
      }
      std::vector<cv::Point> poly;
      for (int e = 0; e < 6; ++e)
        poly.emplace_back(cvRound(cx + r * std::cos(a + CV_PI / 3 * e)), cvRound(cy + r * std::sin(a + CV_PI / 3 * e)));
      const cv::Scalar tint(byte(rng) * 1.2 - 20.3, byte(rng) + 0.5, byte(rng) * 0.9 + 0.49);
      cv::fillConvexPoly(whole, poly, tint);
      PrintFill f;
      if (!print_fill(cv::Size(w, h), poly, tint, f)) {
        all = false;
        const cv::Rect b = cv::boundingRect(poly);
        // Refused only when the mask's rect leaves the print (a hexagon within it is drawn
        // inside its bounding box).
        EXPECT_NE(cv::Rect(b.x - 1, b.y - 1, b.width + 2, b.height + 2) & cv::Rect(0, 0, w, h), cv::Rect(b.x - 1, b.y - 1, b.width + 2, b.height + 2));
        continue;
      }
      for (const PrintFill& g : fills) overlaps += (g.rect & f.rect).area() > 0;
      rects.push_back(f.rect);
      fills.push_back(std::move(f));
    }
    if (!all) {
      ++refused;
      continue;
    }
    fills_drawn += static_cast<long>(fills.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        ASSERT_EQ(print_fill_at(base, fills, x, y), whole.at<cv::Vec3b>(y, x)) << "rep " << rep << " at " << x << "," << y;
    const PrintPatches want = print_minmax_patches(whole, rects, 200), got = print_fill_patches(base, fills, 200);
    ASSERT_EQ(want.box, got.box) << "rep " << rep;
    ASSERT_EQ(got.box.size(), got.print.size());
    for (std::size_t i = 0; i < got.box.size(); ++i) {
      ASSERT_EQ(0, cv::norm(want.pmin[i], got.pmin[i], cv::NORM_INF)) << "rep " << rep << " box " << i;
      ASSERT_EQ(0, cv::norm(want.pmax[i], got.pmax[i], cv::NORM_INF)) << "rep " << rep << " box " << i;
      ASSERT_EQ(0, cv::norm(want.dark[i], got.dark[i], cv::NORM_INF)) << "rep " << rep << " box " << i;
      patched_px += got.box[i].area();
    }
    ASSERT_EQ(0, cv::norm(with_patches(base, got.box, got.print), whole, cv::NORM_INF)) << "rep " << rep;
    whole_box += got.box.size() == 1 && got.box[0] == cv::Rect(0, 0, w, h);
    // The comparison, reading the print's patches where the whole filled print was read.
    cv::Mat base_min, base_max, want_min, want_max;
    cv::erode(base, base_min, k3);
    cv::dilate(base, base_max, k3);
    cv::erode(whole, want_min, k3);
    cv::dilate(whole, want_max, k3);
    cv::Mat frame, light;
    frame_like(rng, whole, frame, light);
    const cv::Mat want_diff = diff_by_rows(frame, whole, want_min, want_max, light, ip);
    cv::Mat got_diff(h, w, CV_8U, cv::Scalar(9));
    occluder_diff_patched(frame, base, base_min, base_max, got, light, ip, kDiffDark, kDiffC2, got_diff);
    ASSERT_EQ(0, cv::norm(got_diff, want_diff, cv::NORM_INF)) << "rep " << rep << " " << w << " x " << h;
    ++compared;
    total_px += static_cast<long>(w) * h;
  }
  EXPECT_GT(compared, 100);
  EXPECT_GT(refused, 20);      // fills across the print's side were met, and refused
  EXPECT_GT(fills_drawn, 300);
  EXPECT_GT(overlaps, 50);     // fills whose rects overlap: drawn in their order
  EXPECT_GT(whole_box, 5);
  EXPECT_LT(patched_px, total_px);
}

// print_minmax_patches' dark test is cv::cvtColor's grey level below the bound, on a sixteenth
// of every colour (each of 4096 x 4096 pixels a BGR of its own; every 16th row of them) and
// bounds round the reader's 200. (OpenCV 4.6's 8-bit grey has 15-bit coefficients: the 14-bit
// formula (1868 b + 9617 g + 4899 r + 8192) >> 14 differs on 43 864 of the 2^24 colours, 27 of
// this sixteenth below 100.)
TEST(MaskOps, PrintPatchesDarkIsOpenCVsGreyLevelForEveryColour) {
  const cv::Mat all = every_colour();
  cv::Mat grey;
  cv::cvtColor(all, grey, cv::COLOR_BGR2GRAY);
  // A 1 x 1 patch's minimum is its pixel's when its neighbours are all white: each colour as
  // the one dark pixel of a 3 x 3 white print, computed on rows of such (every third column).
  for (int below : {1, 100, 199, 200, 201, 255}) {
    long mismatched = 0;
    for (int y0 = 0; y0 < all.rows; y0 += 16) {
      cv::Mat print(3, 3 * all.cols, CV_8UC3, cv::Scalar(255, 255, 255));
      std::vector<cv::Rect> at;
      for (int x = 0; x < all.cols; ++x) print.at<cv::Vec3b>(1, 3 * x + 1) = all.at<cv::Vec3b>(y0, x);
      at.emplace_back(1, 1, 3 * all.cols - 2, 1);  // grown by 1: every row and column but the last
      const PrintPatches p = print_minmax_patches(print, at, below);
      ASSERT_EQ(p.box.size(), 1u);
      const cv::Mat d = with_patches(cv::Mat(print.size(), CV_8U, cv::Scalar(0)), p.box, p.dark);
      for (int x = 0; x < all.cols; ++x)
        mismatched += (d.at<uchar>(1, 3 * x + 1) != 0) != (grey.at<uchar>(y0, x) < below);
    }
    EXPECT_EQ(mismatched, 0) << "below " << below;
  }
}

}  // namespace

namespace {

// read.cpp's skin test, 16 pixels at a time, against its one-pixel loop: the same bytes
// on random colours and on skin-like ones (r > g > b at every shade), every tail length.
TEST(MaskOps, SkinRowMatchesThePerPixelLoop) {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> byte(0, 255), kind(0, 1);
  std::uniform_real_distribution<float> shade(0.05f, 1.0f), gr(0.4f, 0.95f), br(0.2f, 1.0f);
  const float iw[3] = {1.0f / 228.0f, 1.0f / 235.0f, 1.0f / 240.0f};
  int skin = 0, other = 0;
  for (int n : {1, 9, 16, 17, 40, 47, 420}) {
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<uchar> bgr(3 * n), out0(n), out1(n, 7);
      for (int x = 0; x < n; ++x) {
        if (kind(rng)) {
          const float r = 255 * shade(rng), g = r * gr(rng), b = g * br(rng);
          bgr[3 * x] = cv::saturate_cast<uchar>(b);
          bgr[3 * x + 1] = cv::saturate_cast<uchar>(g);
          bgr[3 * x + 2] = cv::saturate_cast<uchar>(r);
        } else {
          for (int c = 0; c < 3; ++c) bgr[3 * x + c] = static_cast<uchar>(byte(rng));
        }
      }
      skin_row_ref(bgr.data(), n, iw, 0.10f, 12.0f, 40.0f, out0.data());
      skin_row(bgr.data(), n, iw, 0.10f, 12.0f, 40.0f, out1.data());
      ASSERT_EQ(0, std::memcmp(out0.data(), out1.data(), out0.size())) << "n " << n << " rep " << rep;
      for (uchar v : out0) (v ? skin : other)++;
    }
  }
  EXPECT_GT(skin, 200);
  EXPECT_GT(other, 200);
}

// (speed25) blob_response_row against the loop it replaced (blob_response_row_ref), bit for bit:
// DoG-like rows (smooth bumps of both signs, the lattice reader's maps), random signed values,
// zeros and -0, a few NaN and infinities; every width from 4 to 21 and 47, 48, 100; the
// pixels outside [2, n - 2) left as they were.
TEST(MaskOps, BlobResponseRowIsThePerPixelLoop) {
  std::mt19937 rng(25);
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f), pos(0.0f, 40.0f), ctr(0.0f, 100.0f), wid(1.0f, 6.0f);
  std::uniform_int_distribution<int> kind(0, 3), pick(0, 99);
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), 1e-30f, -1e-30f, 3e38f};
  std::vector<int> widths;
  for (int n = 4; n <= 21; ++n) widths.push_back(n);
  for (int n : {47, 48, 100}) widths.push_back(n);
  int positive = 0, capped = 0, zero = 0;
  for (int n : widths)
    for (int rep = 0; rep < 200; ++rep) {
      std::vector<float> rows[3];
      const int k = kind(rng);
      for (int j = 0; j < 3; ++j) {
        rows[j].resize(static_cast<std::size_t>(n));
        for (int x = 0; x < n; ++x) {
          float v;
          if (k <= 1) {  // a sum of Gaussian bumps of both signs, as a DoG
            v = 0;
            for (int b = 0; b < 3; ++b) {
              const float c = ctr(rng) * n / 100.0f, w = wid(rng), a = (b == 2 ? -0.5f : 1.0f) * pos(rng);
              v += a * std::exp(-(x - c) * (x - c) / (2 * w * w)) * (1.0f + 0.1f * j);
            }
          } else {
            v = 20.0f * uni(rng);
          }
          if (k == 3 && pick(rng) < 8) v = specials[static_cast<std::size_t>(pick(rng)) % std::size(specials)];
          rows[j][static_cast<std::size_t>(x)] = v;
        }
      }
      const float gain = rep % 5 == 0 ? 1.0f : 0.25f + 4.0f * std::abs(uni(rng));
      std::vector<float> want(static_cast<std::size_t>(n), 7.0f), got(static_cast<std::size_t>(n), 7.0f);
      blob_response_row_ref(rows[0].data(), rows[1].data(), rows[2].data(), n, gain, want.data());
      blob_response_row(rows[0].data(), rows[1].data(), rows[2].data(), n, gain, got.data());
      ASSERT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(float))) << "n " << n << " rep " << rep;
      for (int x = 2; x < n - 2; ++x) {
        const float o = want[static_cast<std::size_t>(x)], r = rows[1][static_cast<std::size_t>(x)];
        if (o > 0) ++positive, capped += o < r;
        else ++zero;
      }
    }
  EXPECT_GT(positive, 2000);
  EXPECT_GT(capped, 1000);  // the curvature's cap below the DoG
  EXPECT_GT(zero, 2000);
}

// read.cpp's fill_holes as it was: a padded copy flood-filled from its corner.
void fill_holes_padded(cv::Mat& mask) {
  cv::Mat pad;
  cv::copyMakeBorder(mask, pad, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
  cv::floodFill(pad, cv::Point(0, 0), cv::Scalar(255));
  mask |= ~pad(cv::Rect(1, 1, mask.cols, mask.rows));
}

TEST(MaskOps, FillHolesFastMatchesThePaddedFloodFill) {
  std::mt19937 rng(17);
  const cv::Size sizes[] = {{84, 90}, {71, 71}, {48, 48}, {1, 1}, {1, 17}, {33, 1}, {97, 64}, {2, 3}, {181, 181}, {300, 40}};
  int filled = 0;
  for (int rep = 0; rep < 80; ++rep)
    for (const cv::Size sz : sizes) {
      cv::Mat m = random_mask(rng, sz);
      if (rep == 0) m.setTo(255);
      if (rep == 1) m.setTo(0);
      if (rep % 5 == 2)  // rings: holes for sure
        for (int i = 0; i < 4; ++i)
          cv::circle(m, {static_cast<int>(rng() % (sz.width + 1)), static_cast<int>(rng() % (sz.height + 1))}, 3 + static_cast<int>(rng() % 12),
                     cv::Scalar(255), 1 + static_cast<int>(rng() % 3));
      cv::Mat a = m.clone(), b = m.clone();
      fill_holes_padded(a);
      fill_holes_fast(b);
      EXPECT_TRUE(same(a, b)) << sz << " rep " << rep;
      cv::Mat c = m.clone();  // the labelling form it replaced
      fill_holes_labels(c);
      EXPECT_TRUE(same(a, c)) << sz << " rep " << rep;
      filled += cv::countNonZero(a) > cv::countNonZero(m);
    }
  EXPECT_GT(filled, 100);  // many masks had holes to fill
}

TEST(MaskOps, BoxSumMatchesBoxFilterOnTheFaceScores) {
  // As read.cpp's face-square slide makes them: a mask as +-1 (convertTo), turned by
  // warpAffine (nearest, outside -1).
  std::mt19937 rng(29);
  const cv::Size sizes[] = {{84, 90}, {71, 71}, {48, 48}, {1, 1}, {1, 17}, {33, 1}, {97, 64}, {120, 110}};
  for (int rep = 0; rep < 30; ++rep)
    for (const cv::Size sz : sizes)
      for (int k : {3, 4, 31, 32, 33, 40}) {
        const cv::Mat m = random_mask(rng, sz);
        cv::Mat score, srot;
        m.convertTo(score, CV_32F, 2.0 / 255.0, -1.0);
        const cv::Mat rot = cv::getRotationMatrix2D(cv::Point2f(sz.width / 2.0f, sz.height / 2.0f), static_cast<double>(rng() % 3600) / 10.0, 1.0);
        cv::warpAffine(score, srot, rot, sz, cv::INTER_NEAREST, cv::BORDER_CONSTANT, cv::Scalar(-1));
        cv::Mat a, b;
        cv::boxFilter(srot, a, CV_32F, cv::Size(k, k), cv::Point(-1, -1), false, cv::BORDER_CONSTANT);
        box_sum(srot, k, b);
        EXPECT_TRUE(same(a, b)) << sz << " k " << k << " rep " << rep;
        // box_sum_roi: the same values inside any roi (cut by the border, empty, outside),
        // 0 outside it (speed39: into a reused buffer of other values, which it zeroes only
        // outside the roi).
        const cv::Rect roi(static_cast<int>(rng() % (sz.width + 10)) - 5, static_cast<int>(rng() % (sz.height + 10)) - 5,
                           static_cast<int>(rng() % (sz.width + 3)), static_cast<int>(rng() % (sz.height + 3)));
        cv::Mat c(sz, CV_32F, cv::Scalar(7.0f));
        box_sum_roi(srot, k, roi, c);
        cv::Mat want(sz, CV_32F, cv::Scalar(0));
        const cv::Rect in = roi & cv::Rect(0, 0, sz.width, sz.height);
        if (!in.empty()) a(in).copyTo(want(in));
        EXPECT_TRUE(same(want, c)) << sz << " k " << k << " rep " << rep << " roi " << roi;
      }
}

// (speed45) find_runs (every row's runs first, then the unions row by row) against the loop it
// replaced (find_runs_ref: the unions as each row was found): the same runs, row starts and
// flattened roots, for masks like the reader's and random noise of every density, nonzero and
// zero runs, 8- and 4-connected, with and without spans (some empty, some past the edges),
// into a RunLabels reused from a larger mask.
TEST(MaskOps, FindRunsIsTheRefOnEveryMask) {
  std::mt19937 rng(4545);
  RunLabels a, b;
  int merged = 0;  // masks where a union joined two roots (not only chains)
  for (int rep = 0; rep < 4000; ++rep) {
    const cv::Size sz(1 + static_cast<int>(rng() % 140), 1 + static_cast<int>(rng() % 140));
    cv::Mat m;
    if (rep % 2) {
      m = random_mask(rng, sz);
    } else {
      m.create(sz, CV_8U);
      const unsigned density = rng() % 101;
      for (int y = 0; y < sz.height; ++y)
        for (int x = 0; x < sz.width; ++x) m.at<uchar>(y, x) = rng() % 100 < density ? static_cast<uchar>(1 + rng() % 255) : 0;
    }
    std::vector<int> s0(static_cast<std::size_t>(sz.height)), s1(static_cast<std::size_t>(sz.height));
    for (int y = 0; y < sz.height; ++y) {
      s0[static_cast<std::size_t>(y)] = static_cast<int>(rng() % (sz.width + 6)) - 3;
      s1[static_cast<std::size_t>(y)] = s0[static_cast<std::size_t>(y)] + static_cast<int>(rng() % (sz.width + 6)) - 2;
    }
    const bool zeros = rng() % 3 == 0, spans = rng() % 3 == 0;
    const int conn = rng() % 2 ? 8 : 4;
    find_runs_checked(m, zeros, conn, a, spans ? s0.data() : nullptr, spans ? s1.data() : nullptr);
    find_runs_ref(m, zeros, conn, b, spans ? s0.data() : nullptr, spans ? s1.data() : nullptr);
    ASSERT_EQ(a.runs.size(), b.runs.size()) << sz << " rep " << rep;
    for (std::size_t k = 0; k < a.runs.size(); ++k)
      ASSERT_TRUE(a.runs[k].y == b.runs[k].y && a.runs[k].x0 == b.runs[k].x0 && a.runs[k].x1 == b.runs[k].x1) << "rep " << rep << " run " << k;
    ASSERT_EQ(a.row_start, b.row_start) << "rep " << rep;
    ASSERT_EQ(a.root, b.root) << "rep " << rep;
    std::size_t roots = 0;
    for (std::size_t k = 0; k < a.root.size(); ++k) roots += a.root[k] == static_cast<int>(k);
    merged += roots < a.root.size();
  }
  EXPECT_GT(merged, 2000);
}

// (speed45) morph's kernel test: any_nonzero_8u is cv::countNonZero's != 0 on kernels of every
// shape (OpenCV's ellipses, rectangles and crosses, the reader's line kernels), all-zero ones,
// a single set byte anywhere, and windows of a larger matrix (not continuous).
TEST(MaskOps, AnyNonzeroIsCountNonZero) {
  std::mt19937 rng(4500);
  int zero = 0, set = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    const cv::Size sz(1 + static_cast<int>(rng() % 30), 1 + static_cast<int>(rng() % 30));
    cv::Mat k;
    switch (rep % 4) {
      case 0: k = cv::getStructuringElement(static_cast<int>(rng() % 3), sz); break;
      case 1: k = cv::Mat(sz, CV_8U, cv::Scalar(0)); break;
      case 2:
        k = cv::Mat(sz, CV_8U, cv::Scalar(0));
        if (rng() % 4) k.at<uchar>(static_cast<int>(rng() % sz.height), static_cast<int>(rng() % sz.width)) = static_cast<uchar>(1 + rng() % 255);
        break;
      default: {
        cv::Mat big(sz.height + 4, sz.width + 4, CV_8U, cv::Scalar(1));
        k = big(cv::Rect(2, 2, sz.width, sz.height));
        k.setTo(0);
        if (rng() % 2) cv::line(k, {0, static_cast<int>(rng() % sz.height)}, {sz.width - 1, static_cast<int>(rng() % sz.height)}, cv::Scalar(1));
      }
    }
    const bool want = cv::countNonZero(k) != 0;
    ASSERT_EQ(any_nonzero_8u(k), want) << sz << " rep " << rep;
    (want ? set : zero)++;
  }
  EXPECT_GT(zero, 500);
  EXPECT_GT(set, 1500);
}

// (speed45) morph's unpacking of its bit rows (32 pixels a step in AVX2) against the loop it
// replaced (unpack_mask_rows_ref, 8 a step): the same bytes for every width 1-128 and random
// bits, into a new image, a reused continuous one of noise, and a window of a larger image of
// noise (not continuous: nothing outside the window written, the larger image compared whole),
// and (session 44's review) a full-width window of 1-128 px with rows below it (continuous:
// neither version may write past its last row).
TEST(MaskOps, UnpackRowsIsTheRef) {
  std::mt19937_64 rng(4545);
  for (int rep = 0; rep < 3000; ++rep) {
    const int kind = rep % 4;
    // (session 44's review) kind 3, a full-width window with rows below it, often 1-3 px wide:
    // a row's 8-byte step must not run past the window's last row into its parent.
    const int w = kind == 3 && rep % 8 == 3 ? 1 + static_cast<int>(rng() % 3) : 1 + static_cast<int>(rng() % 128);
    const int h = 1 + static_cast<int>(rng() % 40);
    std::vector<std::uint64_t> words(2 * static_cast<std::size_t>(h));
    for (int y = 0; y < h; ++y) {
      std::uint64_t lo = rng(), hi = rng();
      if (rep % 7 == 0) lo = hi = ~std::uint64_t{0};
      if (w < 64) lo &= (std::uint64_t{1} << w) - 1;
      if (w <= 64) hi = 0;
      else if (w < 128) hi &= (std::uint64_t{1} << (w - 64)) - 1;
      words[2 * static_cast<std::size_t>(y)] = lo;
      words[2 * static_cast<std::size_t>(y) + 1] = hi;
    }
    cv::Mat big_a(h + 3, w + 40, CV_8U), big_b;
    cv::randu(big_a, 0, 256);
    big_b = big_a.clone();
    cv::Mat a, b, full_a, full_b;
    cv::Rect r;
    if (kind == 1) {
      a = big_a(cv::Rect(0, 0, w, h)).clone();
      b = a.clone();
    } else if (kind == 2) {
      r = cv::Rect(static_cast<int>(rng() % 40), static_cast<int>(rng() % 3), w, h);
      a = big_a(r);
      b = big_b(r);
    } else if (kind == 3) {
      full_a.create(h + 3, w, CV_8U);
      cv::randu(full_a, 0, 256);
      full_b = full_a.clone();
      r = cv::Rect(0, 1, w, h);
      a = full_a(r);
      b = full_b(r);
    }
    const cv::Mat before = kind == 3 ? full_a.clone() : big_a.clone();
    unpack_mask_rows(words.data(), h, w, a);
    unpack_mask_rows_ref(words.data(), h, w, b);
    ASSERT_TRUE(same(a, b)) << "w " << w << " h " << h << " kind " << kind << " rep " << rep;
    ASSERT_TRUE(same(big_a, big_b)) << "w " << w << " h " << h << " kind " << kind << " rep " << rep;
    if (kind >= 2) {  // nothing outside the window written, by either
      cv::Mat expect = before.clone();
      a.copyTo(expect(r));
      ASSERT_TRUE(same(kind == 3 ? full_a : big_a, expect)) << "w " << w << " h " << h << " kind " << kind << " rep " << rep;
      ASSERT_TRUE(same(kind == 3 ? full_b : big_b, expect)) << "ref: w " << w << " h " << h << " kind " << kind << " rep " << rep;
    }
    if (kind == 2) ASSERT_FALSE(a.isContinuous() && h > 1);
    if (kind == 3) ASSERT_TRUE(a.isContinuous());
  }
}

// (speed45) box_sum_roi (its row sums with the edge tests hoisted, its column sums 4 columns
// a step in AVX2) against the loops it replaced (box_sum_roi_ref), bit for bit: on floats of
// mixed magnitudes (sums that round, so any change of order shows) and on the face scores,
// images from 1 to 150 px a side, windows 1 to 41, rois anywhere (cut, empty, outside), into
// a reused output of other values. Run with HEXDICE_NO_AVX2=1 too (its scalar step).
TEST(MaskOps, BoxSumRoiIsTheRefOnAnyFloats) {
  std::mt19937 rng(45);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  int rounded = 0;  // cases where the sums round (the order of the additions matters)
  for (int rep = 0; rep < 3000; ++rep) {
    const cv::Size sz(1 + static_cast<int>(rng() % 150), 1 + static_cast<int>(rng() % 150));
    const int k = 1 + static_cast<int>(rng() % 41);
    cv::Mat src(sz, CV_32F);
    const int kind = rep % 3;
    for (int y = 0; y < sz.height; ++y)
      for (int x = 0; x < sz.width; ++x) {
        const float u = unit(rng);
        src.at<float>(y, x) = kind == 0   ? u * std::ldexp(1.0f, rng() % 10 ? static_cast<int>(rng() % 20) - 10 : 40)  // a few huge
                              : kind == 1 ? (u < 0 ? -1.0f : 1.0f)                                // the face scores
                                          : u * 1e3f;
      }
    const cv::Rect roi(static_cast<int>(rng() % (sz.width + 10)) - 5, static_cast<int>(rng() % (sz.height + 10)) - 5,
                       static_cast<int>(rng() % (sz.width + 3)), static_cast<int>(rng() % (sz.height + 3)));
    cv::Mat a(sz, CV_32F, cv::Scalar(7.0f)), b(sz, CV_32F, cv::Scalar(-3.0f));
    box_sum_roi(src, k, roi, a);
    box_sum_roi_ref(src, k, roi, b);
    ASSERT_TRUE(same(a, b)) << sz << " k " << k << " roi " << roi << " rep " << rep;
    if (kind == 0) {
      cv::Mat exact;
      box_sum(src, k, exact);
      const cv::Rect in = roi & cv::Rect(0, 0, sz.width, sz.height);
      if (!in.empty() && !same(exact(in), b(in))) ++rounded;
    }
  }
  EXPECT_GT(rounded, 50);  // the mixed floats did round (else any order would pass)
}

TEST(MaskOps, WarpAffineNearestWindowIsWarpAffineThere) {
  // read.cpp's face-square slide: +-1 scores turned round the patch centre (any angle,
  // also exact multiples of 90 and half-pixel centres), outside -1; and random affine maps
  // (scaled, sheared, shifted, some far outside), on float images of random values.
  std::mt19937 rng(37);
  const cv::Size sizes[] = {{84, 90}, {71, 71}, {48, 48}, {1, 1}, {1, 17}, {33, 1}, {97, 64}, {130, 110}};
  int inside = 0, outside = 0;
  for (int rep = 0; rep < 40; ++rep)
    for (const cv::Size sz : sizes) {
      cv::Mat src(sz, CV_32F);
      if (rep % 2) {
        cv::randu(src, cv::Scalar(-10), cv::Scalar(10));
      } else {
        random_mask(rng, sz).convertTo(src, CV_32F, 2.0 / 255.0, -1.0);
      }
      cv::Matx23d m;
      if (rep % 4 < 2) {
        const double ang = rep % 8 == 0 ? 90.0 * static_cast<double>(rng() % 4) : static_cast<double>(rng() % 36000) / 100.0;
        const cv::Point2f c = rep % 8 == 2 ? cv::Point2f(sz.width / 2.0f + 0.5f, sz.height / 2.0f) : cv::Point2f(sz.width / 2.0f, sz.height / 2.0f);
        m = cv::Matx23d(cv::getRotationMatrix2D(c, ang, 1.0));
      } else {
        std::uniform_real_distribution<double> u(-1.5, 1.5), t(-60, 60);
        m = cv::Matx23d(u(rng), u(rng), t(rng), u(rng), u(rng), t(rng));
      }
      const cv::Size dsz = rep % 3 ? sz : cv::Size(sz.width + 7, sz.height + 3);
      cv::Mat want;
      cv::warpAffine(src, want, cv::Mat(m), dsz, cv::INTER_NEAREST, cv::BORDER_CONSTANT, cv::Scalar(-1));
      const cv::Rect window(static_cast<int>(rng() % (dsz.width + 10)) - 5, static_cast<int>(rng() % (dsz.height + 10)) - 5,
                            static_cast<int>(rng() % (dsz.width + 12)), static_cast<int>(rng() % (dsz.height + 12)));
      cv::Mat got;
      warp_affine_nearest_window(src, m, dsz, window, -1.0f, got);
      ASSERT_EQ(got.size(), dsz);
      cv::Mat expect(dsz, CV_32F, cv::Scalar(-1));
      const cv::Rect in = window & cv::Rect(0, 0, dsz.width, dsz.height);
      if (!in.empty()) want(in).copyTo(expect(in));
      EXPECT_TRUE(same(expect, got)) << sz << " rep " << rep << " window " << window;
      if (!in.empty()) {
        const cv::Mat w = want(in);
        for (int y = 0; y < w.rows; ++y)
          for (int x = 0; x < w.cols; ++x) (w.at<float>(y, x) == -1.0f ? outside : inside) += 1;
      }
    }
  EXPECT_GT(inside, 10000);  // pixels from the source and from the border both compared
  EXPECT_GT(outside, 10000);
}

namespace {

// The BGR source of the warp and remap tests, size ss: random bytes on every third rep, else
// a smooth pattern (one channel flat at 255 on odd reps); on reps 1 mod 4 a view into a larger
// image (so the last row's bytes past the view are there to be misread), else a copy.
cv::Mat warp_test_source(cv::Size ss, int rep) {
  cv::Mat big(ss.height + 4, ss.width + 6, CV_8UC3);
  if (rep % 3 == 0) {
    cv::randu(big, cv::Scalar::all(0), cv::Scalar::all(256));
  } else {
    for (int y = 0; y < big.rows; ++y)
      for (int x = 0; x < big.cols; ++x)
        big.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>((x * 7 + y) % 256), static_cast<uchar>((x * y) % 256),
                                            static_cast<uchar>(rep % 2 ? 255 : (y * 3) % 256));
  }
  return rep % 4 == 1 ? big(cv::Rect(3, 2, ss.width, ss.height)) : big(cv::Rect(6, 4, ss.width, ss.height)).clone();
}

// The largest byte difference between cv::warpPerspective (bilinear, inverse map) and
// warp_perspective_linear of src by m into ds with that border (0: the same bytes; -1: the
// two outputs differ in size or type).
double warp_max_diff(const cv::Mat& src, const cv::Matx33d& m, cv::Size ds, int border, const cv::Scalar& fill) {
  cv::Mat want, got;
  cv::warpPerspective(src, want, cv::Mat(m), ds, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, border, fill);
  warp_perspective_linear(src, got, m, ds, border, fill);
  if (got.size() != want.size() || got.type() != want.type()) return -1;
  return cv::norm(want, got, cv::NORM_INF);
}

// dst (x, y) -> src: dst's centre to (cx, cy), turned by ang, scaled by sc, a perspective of
// up to p (two more draws of u).
cv::Matx33d warp_test_matrix(cv::Size ds, double sc, double ang, double cx, double cy, double p, std::mt19937& rng,
                             std::uniform_real_distribution<double>& u) {
  const cv::Matx33d a(sc * std::cos(ang), -sc * std::sin(ang), cx, sc * std::sin(ang), sc * std::cos(ang), cy, p * u(rng), p * u(rng), 1);
  return a * cv::Matx33d(1, 0, -ds.width / 2.0, 0, 1, -ds.height / 2.0, 0, 0, 1);
}

}  // namespace

TEST(MaskOps, WarpPerspectiveLinearIsOpenCVsWarp) {
  // The reader's warps (cell patches, the plane look's disc, face crops, the paper plane):
  // random homographies onto random and smooth BGR images, the dst partly or wholly outside
  // the source, both borders, sizes below and above OpenCV's 64 px block and odd widths,
  // sources of 1 px and ROI views (the last row of a source is read too: 6 bytes, not 8).
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> u(-1, 1);
  const cv::Size srcs[] = {{320, 240}, {97, 61}, {1, 1}, {2, 3}, {640, 360}};
  const cv::Size dsts[] = {{84, 90}, {183, 183}, {48, 48}, {1, 1}, {65, 17}, {420, 297}, {7, 200}, {130, 15}};
  long inside = 0, border = 0;
  for (int rep = 0; rep < 240; ++rep) {
    const cv::Size ss = srcs[rep % 5], ds = dsts[(rep / 5) % 8];
    const cv::Mat src = warp_test_source(ss, rep);
    // dst (x, y) -> src: a scaled turn with a little perspective, centred on the source.
    const double sc = (0.2 + 1.5 * (u(rng) + 1)) * (rep % 7 == 0 ? 10 : 1), ang = 3.2 * u(rng);
    const double p = rep % 5 == 0 ? 0 : 0.002 * u(rng);
    const cv::Matx33d a(sc * std::cos(ang), -sc * std::sin(ang), ss.width * (0.5 + 0.8 * u(rng)),
                        sc * std::sin(ang), sc * std::cos(ang), ss.height * (0.5 + 0.8 * u(rng)), p * u(rng), p * u(rng), 1);
    const cv::Matx33d m = a * cv::Matx33d(1, 0, -ds.width / 2.0, 0, 1, -ds.height / 2.0, 0, 0, 1);
    const int bt = rep % 2 ? cv::BORDER_REPLICATE : cv::BORDER_CONSTANT;
    const cv::Scalar val(201.4, 17.5, 255.6);
    EXPECT_EQ(warp_max_diff(src, m, ds, bt, val), 0.0) << "rep " << rep << " src " << ss << " dst " << ds;
    // How many dst pixels came from inside the source (not the border's value or clamping).
    for (int y = 0; y < ds.height; ++y)
      for (int x = 0; x < ds.width; ++x) {
        const cv::Vec3d q = m * cv::Vec3d(x, y, 1);
        const double sx = q[0] / q[2], sy = q[1] / q[2];
        (sx > 1 && sy > 1 && sx < ss.width - 2 && sy < ss.height - 2 ? inside : border) += 1;
      }
  }
  EXPECT_GT(inside, 200000);
  EXPECT_GT(border, 200000);
}

TEST(MaskOps, WarpPerspectiveLinearEveryRunLength) {
  // (Speed round 17) bilinear3_run takes inside pixels 4 at a time (AVX2, where the CPU has
  // it; HEXDICE_NO_AVX2=1 runs the SSE2 steps alone), then 2, then 1, and a row's last pixel
  // may not spill its 4th byte: every run length 1..70 (OpenCV's blocks are at most 64 wide),
  // runs that start and stop next to the image's last bytes (a source's last rows), random
  // and smooth sources, both borders, against cv::warpPerspective byte for byte.
  std::mt19937 rng(1717);
  std::uniform_real_distribution<double> u(-1, 1);
  long compared = 0;
  for (int w = 1; w <= 70; ++w)
    for (int rep = 0; rep < 4; ++rep) {
      const cv::Size ss(40 + rep * 23, 30 + rep * 7), ds(w, 1 + (w * 7 + rep) % 9);
      cv::Mat src(ss, CV_8UC3);
      if (rep % 2) cv::randu(src, cv::Scalar::all(0), cv::Scalar::all(256));
      else
        for (int y = 0; y < ss.height; ++y)
          for (int x = 0; x < ss.width; ++x)
            src.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(x * 5 + y), static_cast<uchar>(x * y), static_cast<uchar>(255 - y * 3));
      // Mostly inside, near the source's bottom rows every other time.
      const double sc = 0.3 + 0.6 * (u(rng) + 1), ang = 3.2 * u(rng);
      const double cy = rep % 2 ? ss.height - 2.5 : ss.height * 0.5;
      const cv::Matx33d a(sc * std::cos(ang), -sc * std::sin(ang), ss.width * 0.5 + 3 * u(rng), sc * std::sin(ang), sc * std::cos(ang),
                          cy, 0.001 * u(rng), 0.001 * u(rng), 1);
      const cv::Matx33d m = a * cv::Matx33d(1, 0, -ds.width / 2.0, 0, 1, -ds.height / 2.0, 0, 0, 1);
      for (int bt : {cv::BORDER_REPLICATE, cv::BORDER_CONSTANT}) {
        EXPECT_EQ(warp_max_diff(src, m, ds, bt, cv::Scalar(9, 99, 199)), 0.0) << "width " << w << " rep " << rep << " border " << bt;
        compared += ds.area();
      }
    }
  EXPECT_GT(compared, 10000);
}

TEST(MaskOps, RemapLinear8UC3IsOpenCVsRemap) {
  // (Speed round 24) The reader's two remaps of the cells' squares (float maps, BORDER_REPLICATE
  // and BORDER_CONSTANT): random maps in and around the source, positions on the 1/64 px ties
  // (rounded to even as OpenCV does), far outside, NaN and infinities, rows of 1 .. 70 pixels
  // and wider than a block (1024), ROI views of the source and of the maps, random and smooth
  // sources of 1 px and more; against cv::remap byte for byte (on both paths with
  // HEXDICE_NO_AVX2=1).
  std::mt19937 rng(2424);
  std::uniform_real_distribution<float> u(0, 1);
  const cv::Size srcs[] = {{320, 240}, {97, 61}, {1, 1}, {2, 3}, {40, 30}};
  long compared = 0, inside = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const cv::Size ss = srcs[rep % 5];
    const cv::Size ds = rep % 50 == 7 ? cv::Size(1100 + rep % 13, 3) : cv::Size(1 + (rep * 7) % 70, 1 + (rep * 3) % 23);
    const cv::Mat src = warp_test_source(ss, rep);
    cv::Mat bx(ds.height + 2, ds.width + 3, CV_32F), by(bx.size(), CV_32F);
    for (int y = 0; y < bx.rows; ++y)
      for (int x = 0; x < bx.cols; ++x) {
        const int kind = static_cast<int>(u(rng) * 100);
        float fx = -2 + u(rng) * (ss.width + 4), fy = -2 + u(rng) * (ss.height + 4);
        if (kind < 10) fx = std::round(fx * 64) / 64, fy = std::round(fy * 64) / 64;  // ties of the 1/32 rounding
        else if (kind < 13) fx = -1e4f;
        else if (kind < 15) fy = 1e9f * (u(rng) - 0.5f);
        else if (kind < 16) fx = std::numeric_limits<float>::quiet_NaN();
        else if (kind < 17) fy = std::numeric_limits<float>::infinity() * (u(rng) < 0.5f ? 1 : -1);
        bx.at<float>(y, x) = fx, by.at<float>(y, x) = fy;
      }
    const cv::Mat mx = rep % 2 ? bx(cv::Rect(1, 1, ds.width, ds.height)) : bx(cv::Rect(0, 0, ds.width, ds.height)).clone();
    const cv::Mat my = rep % 2 ? by(cv::Rect(1, 1, ds.width, ds.height)) : by(cv::Rect(0, 0, ds.width, ds.height)).clone();
    for (int bt : {cv::BORDER_REPLICATE, cv::BORDER_CONSTANT}) {
      const cv::Scalar val(201.4, 17.5, 255.6);
      cv::Mat want, got;
      cv::remap(src, want, mx, my, cv::INTER_LINEAR, bt, val);
      remap_linear_8uc3(src, got, mx, my, bt, val);
      ASSERT_EQ(got.size(), want.size());
      ASSERT_EQ(got.type(), want.type());
      EXPECT_TRUE(same(want, got)) << "rep " << rep << " src " << ss << " dst " << ds << " border " << bt;
      compared += ds.area();
    }
    for (int y = 0; y < ds.height; ++y)
      for (int x = 0; x < ds.width; ++x)
        inside += mx.at<float>(y, x) >= 0 && my.at<float>(y, x) >= 0 && mx.at<float>(y, x) < ss.width - 1 && my.at<float>(y, x) < ss.height - 1;
  }
  EXPECT_GT(compared, 200000);
  EXPECT_GT(inside, 50000);
  // Other types go to cv::remap.
  cv::Mat g(20, 20, CV_8U), want, got;
  cv::randu(g, cv::Scalar::all(0), cv::Scalar::all(256));
  cv::Mat mx(5, 9, CV_32F, cv::Scalar(3.3f)), my(5, 9, CV_32F, cv::Scalar(7.7f));
  cv::remap(g, want, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  remap_linear_8uc3(g, got, mx, my, cv::BORDER_CONSTANT);
  EXPECT_TRUE(same(want, got));
}

TEST(MaskOps, HomographyRowIsTheScalarLoop) {
  // (Speed round 24) The reader's remap maps: homography_row against the loop it replaced, bit
  // for bit: random homographies (the reader's plane -> image ones and wilder: strong
  // perspective, w through zero, huge and tiny scales), rows of 0 .. 70 and 1000 pixels, steps
  // 1 .. 5, negative starts; on both paths with HEXDICE_NO_AVX2=1.
  std::mt19937 rng(2425);
  std::uniform_real_distribution<double> u(-1, 1);
  long compared = 0;
  for (int rep = 0; rep < 2000; ++rep) {
    const double sc = std::pow(10.0, 3 * u(rng));
    const double p = rep % 3 == 0 ? 0.0 : (rep % 3 == 1 ? 1e-4 : 0.05) * u(rng);
    const cv::Matx33d h(sc * u(rng), sc * u(rng), 500 * u(rng), sc * u(rng), sc * u(rng), 500 * u(rng), p * u(rng), p * u(rng),
                        rep % 17 == 0 ? 0.0 : 1 + 0.5 * u(rng));
    const int n = rep % 40 == 0 ? 1000 : static_cast<int>((u(rng) + 1) * 35.5);
    const int u0 = static_cast<int>(300 * u(rng)), step = 1 + rep % 5;
    const double v = std::round(300 * u(rng));
    std::vector<float> gx(static_cast<std::size_t>(n) + 1, -7.f), gy(gx), wx(gx), wy(gx);
    homography_row(h, u0, step, v, n, gx.data(), gy.data());
    for (int i = 0; i < n; ++i) {
      const double uu = u0 + i * step;
      const double w = 1.0 / (h(2, 0) * uu + h(2, 1) * v + h(2, 2));
      wx[static_cast<std::size_t>(i)] = static_cast<float>((h(0, 0) * uu + h(0, 1) * v + h(0, 2)) * w);
      wy[static_cast<std::size_t>(i)] = static_cast<float>((h(1, 0) * uu + h(1, 1) * v + h(1, 2)) * w);
    }
    ASSERT_EQ(std::memcmp(gx.data(), wx.data(), gx.size() * sizeof(float)), 0) << "rep " << rep << " n " << n;
    ASSERT_EQ(std::memcmp(gy.data(), wy.data(), gy.size() * sizeof(float)), 0) << "rep " << rep << " n " << n;
    compared += n;
  }
  EXPECT_GT(compared, 60000);
}

TEST(MaskOps, GaussianBlurF32IsOpenCVsGaussianBlur) {
  // The lattice reader's maps (48 x 48 at sigma 1.9, 24 x 24 at 2.6) and others: random and
  // sparse float maps, several sigmas in turn (the kernels kept per sigma), both borders the
  // reader could use, views into a larger map, in place.
  std::mt19937 rng(47);
  std::uniform_real_distribution<float> u(-50, 200);
  const cv::Size sizes[] = {{48, 48}, {24, 24}, {2, 2}, {97, 5}, {3, 64}, {48, 47}};
  const double sigmas[] = {0.22 * 0.18 * 48, 0.3 * 0.18 * 48, 0.8, 1.0, 2.5926, 5.0, 0.3};
  int n = 0;
  for (int rep = 0; rep < 126; ++rep) {
    const cv::Size sz = sizes[rep % 6];
    const double sigma = sigmas[(rep / 6) % 7];
    cv::Mat big(sz.height + 6, sz.width + 4, CV_32F);
    for (int y = 0; y < big.rows; ++y)
      for (int x = 0; x < big.cols; ++x) big.at<float>(y, x) = rep % 3 == 0 && (x * y + rep) % 7 ? 0.0f : u(rng);
    const cv::Mat src = rep % 4 == 1 ? big(cv::Rect(2, 3, sz.width, sz.height)) : big(cv::Rect(2, 3, sz.width, sz.height)).clone();
    const int bt = rep % 5 == 0 ? cv::BORDER_REFLECT_101 : cv::BORDER_REPLICATE;
    cv::Mat want, got;
    cv::GaussianBlur(src, want, cv::Size(0, 0), sigma, 0, bt);
    gaussian_blur_f32(src, got, sigma, bt);
    ASSERT_EQ(got.size(), want.size());
    ASSERT_EQ(got.type(), want.type());
    EXPECT_EQ(std::memcmp(want.data, got.data, want.total() * want.elemSize()), 0) << "rep " << rep << " size " << sz << " sigma " << sigma;
    // In place (on a copy: a view's border reads its parent's pixels beyond it, as OpenCV's).
    cv::Mat inplace = src.clone(), want_copy;
    cv::GaussianBlur(inplace, want_copy, cv::Size(0, 0), sigma, 0, bt);
    gaussian_blur_f32(inplace, inplace, sigma, bt);
    EXPECT_EQ(cv::norm(inplace, want_copy, cv::NORM_INF), 0.0) << "rep " << rep << " in place";
    ++n;
  }
  EXPECT_EQ(n, 126);
}

// (speed21) The component reader's two blurs through gaussian_blur_f32: its 48 x 48 distance
// maps (bytes 0..255 as floats) at 0.3 and 1.0 pip diameters (2.592 and 8.64: a 71-tap kernel
// wider than the map) with OpenCV's default border (reflect 101), as cv::GaussianBlur.
TEST(MaskOps, GaussianBlurF32AtTheComponentReadersSigmas) {
  std::mt19937 rng(2101);
  std::uniform_int_distribution<int> byte(0, 255);
  const double pip_d = 0.18 * 48;
  int n = 0;
  for (int rep = 0; rep < 40; ++rep) {
    cv::Mat f(48, 48, CV_32F, cv::Scalar(0));
    for (int y = 0; y < 48; ++y)
      for (int x = 0; x < 48; ++x)
        if (rep % 2 == 0 || (x - 24) * (x - 24) + (y - 24) * (y - 24) < 22 * 22) f.at<float>(y, x) = static_cast<float>(byte(rng));
    for (const double sigma : {pip_d * 0.3, pip_d * 1.0}) {
      cv::Mat want, got;
      cv::GaussianBlur(f, want, cv::Size(0, 0), sigma);
      gaussian_blur_f32(f, got, sigma, cv::BORDER_DEFAULT);
      ASSERT_EQ(got.size(), want.size());
      ASSERT_EQ(got.type(), want.type());
      EXPECT_EQ(std::memcmp(want.data, got.data, want.total() * want.elemSize()), 0) << "rep " << rep << " sigma " << sigma;
      ++n;
    }
  }
  EXPECT_EQ(n, 80);
}

// (speed23) sep_filter_f32_fast against cv::sepFilter2D bit for bit: Gaussian kernels of 7 to
// 71 taps (the lattice reader's and the component reader's among them) and random symmetric
// kernels, maps of widths 8 .. 48 (and odd widths, views and non-symmetric kernels, which it
// hands to OpenCV), tall, short and one-row maps, REPLICATE and REFLECT_101 (kernels wider
// than the map: the border index folds more than once), random, sparse and smooth maps,
// with signs and zeros; in place.
TEST(MaskOps, SepFilterF32FastIsOpenCVsSepFilter2D) {
  std::mt19937 rng(2323);
  std::uniform_real_distribution<float> u(-50, 300);
  std::uniform_real_distribution<double> usig(0.8, 9.0);
  const cv::Size sizes[] = {{48, 48}, {24, 24}, {8, 8}, {16, 5}, {40, 47}, {8, 100}, {32, 1}, {48, 3}, {47, 48}, {13, 9}, {24, 2}};
  const int nsizes = static_cast<int>(sizeof(sizes) / sizeof(sizes[0]));
  int fast = 0, total = 0;
  for (int rep = 0; rep < 660; ++rep) {
    const cv::Size sz = sizes[rep % nsizes];
    cv::Mat kernel;
    const int kind = (rep / nsizes) % 4;
    if (kind < 3) {
      const double sigma = kind == 0 ? (rep % 2 ? 0.22 * 0.18 * 48 : 0.3 * 0.18 * 48) : kind == 1 ? usig(rng) : 0.18 * 48 * (rep % 2 ? 0.3 : 1.0);
      kernel = cv::getGaussianKernel(cvRound(sigma * 8 + 1) | 1, sigma, CV_32F);
    } else {  // a random symmetric kernel (and now and then a non-symmetric one)
      const int n = 7 + 2 * static_cast<int>(rng() % 20);
      kernel.create(n, 1, CV_32F);
      for (int i = 0; i <= n / 2; ++i) kernel.at<float>(i) = kernel.at<float>(n - 1 - i) = u(rng) / 300.0f;
      if (rep % 7 == 0) kernel.at<float>(0) += 0.5f;
    }
    const int n = kernel.rows;
    cv::Mat big(sz.height + 4, sz.width + 8, CV_32F);
    for (int y = 0; y < big.rows; ++y)
      for (int x = 0; x < big.cols; ++x) {
        float v = u(rng);
        if (rep % 3 == 1 && (x + 3 * y + rep) % 5) v = 0.0f;                             // sparse
        if (rep % 3 == 2) v = 100.0f + 50.0f * std::sin(0.3f * x) * std::cos(0.2f * y);  // smooth
        big.at<float>(y, x) = v;
      }
    const cv::Mat src = rep % 13 == 5 ? big(cv::Rect(4, 2, sz.width, sz.height)) : big(cv::Rect(4, 2, sz.width, sz.height)).clone();
    for (const int bt : {cv::BORDER_REPLICATE, cv::BORDER_REFLECT_101}) {
      cv::Mat want, got;
      cv::sepFilter2D(src, want, CV_32F, kernel, kernel, cv::Point(-1, -1), 0, bt);
      if (sep_filter_f32_fast_applies(src, n, bt)) ++fast;
      sep_filter_f32_fast(src, got, kernel.ptr<float>(), n, bt);
      ASSERT_EQ(got.size(), want.size());
      ASSERT_EQ(got.type(), want.type());
      ASSERT_TRUE(got.isContinuous() && want.isContinuous());
      EXPECT_EQ(std::memcmp(want.data, got.data, want.total() * want.elemSize()), 0)
          << "rep " << rep << " size " << sz << " taps " << n << " border " << bt;
      if (rep % 10 == 0) {  // in place (on a copy: a view's border reads its parent's pixels, as OpenCV's)
        cv::Mat inplace = src.clone(), want_copy;
        cv::sepFilter2D(inplace, want_copy, CV_32F, kernel, kernel, cv::Point(-1, -1), 0, bt);
        sep_filter_f32_fast(inplace, inplace, kernel.ptr<float>(), n, bt);
        EXPECT_EQ(std::memcmp(want_copy.data, inplace.data, want.total() * want.elemSize()), 0) << "rep " << rep << " in place";
      }
      ++total;
    }
  }
  EXPECT_EQ(total, 1320);
  // With AVX2 and FMA (and HEXDICE_NO_AVX2 unset) most of them took the fast path.
  if (avx2_steps_on() && __builtin_cpu_supports("fma")) EXPECT_GT(fast, 600);
  else EXPECT_EQ(fast, 0);
  // The lattice reader's maps take it.
  if (avx2_steps_on() && __builtin_cpu_supports("fma")) {
    EXPECT_TRUE(sep_filter_f32_fast_applies(cv::Mat(48, 48, CV_32F), 17, cv::BORDER_REPLICATE));
    EXPECT_TRUE(sep_filter_f32_fast_applies(cv::Mat(24, 24, CV_32F), 21, cv::BORDER_REPLICATE));
  }
}

// (speed21) resize_linear_up_f32 against cv::resize(INTER_LINEAR) bit for bit: the lattice
// reader's 24 -> 48 px map and other 2:1 enlargements (one pixel wide, unequal sides), other
// factors and the same size (cv::resize's own), maps of random floats (negative, zeros and -0 among them) and smooth
// ones, views into a larger map; a reduction goes to cv::resize.
// (speed22) resize_linear_up_u8c3 against cv::resize INTER_LINEAR on CV_8UC3 images: the
// lattice's 16 -> 48, 8 -> 48, 24 -> 48, 1 -> 6 (its own steps), and sizes it passes to
// cv::resize (other factors, row tails, smaller); random, blurred, flat and saturated images,
// views inside a larger image.
TEST(MaskOps, ResizeLinearU8C3IsOpenCVsResize) {
  std::mt19937 rng(2201);
  const std::pair<cv::Size, cv::Size> cases[] = {{{16, 16}, {48, 48}}, {{16, 16}, {50, 47}}, {{5, 5}, {17, 17}}, {{1, 1}, {6, 6}},
                                                 {{10, 7}, {31, 20}}, {{16, 16}, {16, 16}}, {{3, 9}, {40, 9}}, {{48, 48}, {16, 16}},
                                                 {{8, 8}, {48, 48}}, {{24, 24}, {48, 48}}};
  long bytes = 0;
  for (int rep = 0; rep < 400; ++rep) {
    const auto& [ss, ds] = cases[rep % 10];
    cv::Mat big(ss.height + 3, ss.width + 5, CV_8UC3);
    const int kind = (rep / 10) % 4;
    cv::randu(big, 0, 256);
    if (kind == 1) cv::GaussianBlur(big, big, cv::Size(5, 5), 1.5);
    if (kind == 2) big.setTo(cv::Scalar(static_cast<double>(rng() % 256), 255, 0));
    if (kind == 3) cv::threshold(big, big, 127, 255, cv::THRESH_BINARY);
    const cv::Mat src = (rep % 3 == 0) ? big(cv::Rect(2, 1, ss.width, ss.height)) : big(cv::Rect(0, 0, ss.width, ss.height)).clone();
    cv::Mat ref, got;
    cv::resize(src, ref, ds, 0, 0, cv::INTER_LINEAR);
    resize_linear_up_u8c3(src, got, ds);
    ASSERT_EQ(got.size(), ref.size());
    cv::Mat ne = ref != got;
    EXPECT_EQ(cv::countNonZero(ne.reshape(1)), 0) << ss << " -> " << ds << " rep " << rep;
    bytes += static_cast<long>(ref.total() * 3);
  }
  EXPECT_GT(bytes, 400000);
}

TEST(MaskOps, ResizeLinearUpF32IsOpenCVsResize) {
  std::mt19937 rng(2102);
  std::uniform_real_distribution<float> u(-80, 250);
  const std::pair<cv::Size, cv::Size> cases[] = {{{24, 24}, {48, 48}}, {{16, 16}, {48, 48}}, {{5, 5}, {10, 10}}, {{1, 1}, {2, 2}},
                                                 {{24, 24}, {24, 24}}, {{10, 7}, {20, 14}}, {{1, 6}, {2, 12}}, {{48, 48}, {24, 24}}};
  int n = 0;
  for (int rep = 0; rep < 96; ++rep) {
    const auto& [ss, ds] = cases[rep % 8];
    cv::Mat big(ss.height + 4, ss.width + 3, CV_32F);
    for (int y = 0; y < big.rows; ++y)
      for (int x = 0; x < big.cols; ++x) {
        const int k = (rep / 8) % 3;
        big.at<float>(y, x) = k == 0 ? u(rng) : k == 1 ? std::sin(0.3f * static_cast<float>(x + 2 * y)) * 40.0f
                                                       : ((x + y) % 3 == 0 ? -0.0f : (x * y) % 5 == 0 ? 0.0f : u(rng));
      }
    const cv::Mat src = rep % 2 ? big(cv::Rect(1, 2, ss.width, ss.height)) : big(cv::Rect(1, 2, ss.width, ss.height)).clone();
    cv::Mat want, got;
    cv::resize(src, want, ds, 0, 0, cv::INTER_LINEAR);
    resize_linear_up_f32(src, got, ds);
    ASSERT_EQ(got.size(), want.size());
    ASSERT_EQ(got.type(), want.type());
    for (int y = 0; y < want.rows; ++y)
      EXPECT_EQ(std::memcmp(want.ptr(y), got.ptr(y), want.cols * sizeof(float)), 0) << "rep " << rep << " " << ss << " -> " << ds << " row " << y;
    ++n;
  }
  EXPECT_EQ(n, 96);
}

// (speed35) The part of an enlargement by any factor, 1 to 4 channels: cv::resize's floats (the
// occluder's light map: a 10 mm grid of an A3 sheet, 31 x 43, to 1 px/mm, the sheet's 297 x 420
// of 301 x 421; and odd sizes, factors near 1, one row or column, parts cut anywhere).
TEST(MaskOps, ResizeLinearF32PartIsOpenCVsResize) {
  std::mt19937 rng(3505);
  std::uniform_real_distribution<float> u(0.05f, 3.0f);
  struct Case {
    cv::Size src, dst, part;
  };
  std::vector<Case> cases = {{{31, 43}, {301, 421}, {297, 420}}, {{31, 43}, {451, 631}, {446, 630}}, {{22, 31}, {211, 301}, {210, 297}},
                             {{31, 43}, {301, 421}, {301, 421}}, {{5, 5}, {10, 10}, {10, 10}}, {{1, 1}, {7, 3}, {7, 3}},
                             {{1, 6}, {5, 13}, {4, 13}}, {{7, 1}, {33, 9}, {30, 9}}, {{12, 9}, {12, 9}, {12, 9}},
                             {{12, 9}, {13, 10}, {13, 10}}, {{3, 4}, {200, 7}, {199, 7}}, {{9, 9}, {30, 30}, {0, 0}}};
  std::uniform_int_distribution<int> side(1, 40), grow(0, 300);
  for (int k = 0; k < 60; ++k) {
    const cv::Size a(side(rng), side(rng));
    const cv::Size b(a.width + grow(rng), a.height + grow(rng) % 60);
    cases.push_back({a, b, {b.width - grow(rng) % (b.width + 1) / 3, b.height - grow(rng) % (b.height + 1) / 3}});
  }
  long floats = 0;
  int i = 0;
  for (const Case& c : cases) {
    const int cn = 1 + i % 4;
    cv::Mat src(c.src, CV_32FC(cn));
    for (int y = 0; y < src.rows; ++y)
      for (int x = 0; x < src.cols * cn; ++x) src.ptr<float>(y)[x] = u(rng);
    cv::Mat want, got;
    cv::resize(src, want, c.dst, 0, 0, cv::INTER_LINEAR);
    resize_linear_f32_part(src, got, c.dst, c.part);
    ASSERT_EQ(got.size(), c.part) << "case " << i;
    ASSERT_EQ(got.type(), src.type());
    for (int y = 0; y < c.part.height; ++y)
      ASSERT_EQ(std::memcmp(want.ptr(y), got.ptr(y), static_cast<std::size_t>(c.part.width * cn) * sizeof(float)), 0)
          << "case " << i << " " << c.src << " -> " << c.dst << " part " << c.part << " cn " << cn << " row " << y;
    floats += static_cast<long>(c.part.area()) * cn;
    ++i;
  }
  EXPECT_GT(floats, 1000000);
}

TEST(MaskOps, ShadowRowMatchesThePerPixelLoop) {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> byte(0, 255), coin(0, 3);
  int shadow = 0, other = 0;
  const float papers[][3] = {{200, 210, 205}, {120.5f, 180, 230}, {240, 240, 240}, {60, 64, 70}};
  for (int rep = 0; rep < 300; ++rep) {
    const int n = 1 + rep % 97;
    const float* paper = papers[rep % 4];
    std::vector<uchar> px(static_cast<std::size_t>(3 * n)), where(static_cast<std::size_t>(n));
    for (int x = 0; x < n; ++x) {
      // Half of them the paper scaled (shadows, some at the kmin / kmax bounds), half random.
      const double k = coin(rng) ? (rep % 7) * 0.1 + 0.2 : -1;
      for (int c = 0; c < 3; ++c)
        px[static_cast<std::size_t>(3 * x + c)] = k > 0 ? cv::saturate_cast<uchar>(paper[c] * k + coin(rng) - 1) : static_cast<uchar>(byte(rng));
      where[static_cast<std::size_t>(x)] = coin(rng) ? 255 : 0;
    }
    for (const auto& [kmin, kmax] : {std::pair{0.3, 0.75}, {0.5, 0.5}, {0.2, 0.9}}) {
      std::vector<uchar> a(static_cast<std::size_t>(n), 7), b(static_cast<std::size_t>(n), 7);
      shadow_row_ref(px.data(), where.data(), n, paper, kmin, kmax, a.data());
      shadow_row(px.data(), where.data(), n, paper, kmin, kmax, b.data());
      EXPECT_EQ(a, b) << "rep " << rep << " n " << n;
      for (uchar v : a) (v == 255 ? shadow : other) += 1;
    }
  }
  EXPECT_GT(shadow, 500);  // both outcomes well represented
  EXPECT_GT(other, 500);
}

// (speed44) skin_row and shadow_row (their AVX2 steps, 8 pixels a step; SSE with
// HEXDICE_NO_AVX2=1) against their per-pixel loops on every one of the 2^24 colours: rows of
// every_colour() as views of varying start (0-16) and end (0-4 short), so every step meets
// every tail; the reader's parameters (hand_mask's, shadow_mask's) and others. shadow_row's
// `where` random and its output filled with noise first (the loop leaves those bytes); the
// whole output buffer is compared, so a byte written past n would show.
template <class Row, class Ref>
long colour_rows_differ(const cv::Mat& all, Row&& row, Ref&& ref, long* set) {
  long differ = 0;
  std::vector<uchar> a(static_cast<std::size_t>(all.cols)), b(a.size());
  for (int y = 0; y < all.rows; ++y) {
    const int x0 = y % 17, n = all.cols - x0 - (y / 17) % 5;
    const uchar* px = all.ptr<uchar>(y) + 3 * x0;
    for (int x = 0; x < all.cols; ++x) a[static_cast<std::size_t>(x)] = b[static_cast<std::size_t>(x)] = static_cast<uchar>(x * 37 + y);
    ref(px, n, a.data());
    row(px, n, b.data());
    for (int x = 0; x < all.cols; ++x) {
      differ += a[static_cast<std::size_t>(x)] != b[static_cast<std::size_t>(x)];
      if (x < n) *set += a[static_cast<std::size_t>(x)] == 255;
    }
  }
  return differ;
}

TEST(MaskOps, SkinRowIsTheLoopOnEveryColour) {
  const cv::Mat all = every_colour();
  const ReadParams rp;
  struct Case {
    float iw[3], chroma, hue_min, hue_max;
  };
  const Case cases[] = {
      {{1.0f / 228.0f, 1.0f / 235.0f, 1.0f / 240.0f}, static_cast<float>(rp.hand_chroma), static_cast<float>(rp.hand_hue_min),
       static_cast<float>(rp.hand_hue_max)},
      {{1.0f / 255.0f, 1.0f / 255.0f, 1.0f / 255.0f}, 0.0f, 0.0f, 60.0f},
      {{1.0f / 171.3f, 1.0f / 190.7f, 1.0f / 201.1f}, 0.25f, 5.5f, 33.3f},
  };
  for (const Case& c : cases) {
    long skin = 0;
    const long differ = colour_rows_differ(
        all, [&](const uchar* px, int n, uchar* o) { skin_row(px, n, c.iw, c.chroma, c.hue_min, c.hue_max, o); },
        [&](const uchar* px, int n, uchar* o) { skin_row_ref(px, n, c.iw, c.chroma, c.hue_min, c.hue_max, o); }, &skin);
    EXPECT_EQ(differ, 0) << "chroma " << c.chroma << " hue " << c.hue_min << ".." << c.hue_max;
    EXPECT_GT(skin, 100000);
  }
}

TEST(MaskOps, ShadowRowIsTheLoopOnEveryColour) {
  const cv::Mat all = every_colour();
  const ReadParams rp;
  std::mt19937 rng(44);
  std::vector<uchar> where(static_cast<std::size_t>(all.cols) + 16);
  for (auto& w : where) w = rng() % 4 ? static_cast<uchar>(1 + rng() % 255) : 0;
  const float papers[][3] = {{200, 210, 205}, {120.5f, 180, 230}, {240, 240, 240}, {60, 64, 70}, {200, 210, 205}};
  // The last bounds are two pixels' own k (brightness sums 300 and 450 over paper 0's): k on
  // the bound itself, where an operation done otherwise would show.
  const float ps0 = 200.0f + 210.0f + 205.0f + 1e-3f;
  const double k300 = (300.0f + 1e-3f) / ps0, k450 = (450.0f + 1e-3f) / ps0;
  const std::pair<double, double> bounds[] = {{rp.shadow_min, rp.shadow_max}, {0.3, 0.75}, {0.5, 0.52}, {0.2, 1.05}, {k300, k450}};
  for (int i = 0; i < 5; ++i) {
    const float* paper = papers[i];
    const auto [kmin, kmax] = bounds[i];
    long shadow = 0;
    const long differ = colour_rows_differ(
        all, [&](const uchar* px, int n, uchar* o) { shadow_row(px, where.data() + 16, n, paper, kmin, kmax, o); },
        [&](const uchar* px, int n, uchar* o) { shadow_row_ref(px, where.data() + 16, n, paper, kmin, kmax, o); }, &shadow);
    EXPECT_EQ(differ, 0) << "paper " << i << " k " << kmin << ".." << kmax;
    EXPECT_GT(shadow, 1000) << "paper " << i;
  }
}

}  // namespace

namespace {

// (speed16) Masks for the occluder's "no arm" proof: random_mask's speckle and small blobs,
// sometimes with arm-sized discs and bars and sparse dots (a mask that a dilation fills).
cv::Mat core_test_mask(std::mt19937& rng, cv::Size size) {
  cv::Mat m = random_mask(rng, size);
  std::uniform_int_distribution<int> ui(0, 1 << 30);
  switch (ui(rng) % 4) {
    case 0: cv::circle(m, {ui(rng) % size.width, ui(rng) % size.height}, 5 + ui(rng) % 30, cv::Scalar(255), cv::FILLED); break;
    case 1: {
      const cv::Point a(ui(rng) % size.width, ui(rng) % size.height), b(ui(rng) % size.width, ui(rng) % size.height);
      cv::line(m, a, b, cv::Scalar(255), 5 + ui(rng) % 40);
      break;
    }
    case 2: {  // dots every 2..7 px over a rectangle: empty to an erosion, full once dilated
      const int step = 2 + ui(rng) % 6, x0 = ui(rng) % size.width, y0 = ui(rng) % size.height;
      const int w = 10 + ui(rng) % 70, h = 10 + ui(rng) % 70;
      for (int y = y0; y < std::min(size.height, y0 + h); y += step)
        for (int x = x0; x < std::min(size.width, x0 + w); x += step) m.at<uchar>(y, x) = 255;
      break;
    }
    default: break;
  }
  return m;
}

// occluder_core_possible (bit rows) against its OpenCV form (the closings, the opening and
// the square erosion of read.cpp's occluder_mask): the same answer on masks with and
// without arm-sized parts, dark print everywhere, nowhere or in patches, at widths round
// the 64-bit words and with views into larger masks, for the reader's k (13) and others.
// And when it says no core, cv::distanceTransform of the closed and opened mask finds none.
TEST(MaskOps, OccluderCorePossibleMatchesOpenCV) {
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> ui(0, 1 << 30);
  const cv::Size sizes[] = {{297, 420}, {420, 297}, {64, 40}, {63, 70}, {65, 33}, {128, 50}, {129, 129}, {1, 1}, {3, 90}, {90, 3}, {200, 2}};
  int yes = 0, no = 0, views = 0;
  for (int rep = 0; rep < 10; ++rep)
    for (const cv::Size size : sizes)
      for (int k : {0, 1, 2, 5, 13, 20, 63, 64}) {
        cv::Mat diff = core_test_mask(rng, size), dark = random_mask(rng, size);
        if (rep % 3 == 1) dark.setTo(255);
        if (rep % 3 == 2) dark.setTo(0);
        if (rep % 4 == 3) {  // views: the bit rows read only the view's pixels
          cv::Mat big(size.height + 9, size.width + 70, CV_8U, cv::Scalar(255)), bigd(big.size(), CV_8U, cv::Scalar(255));
          const cv::Rect roi(ui(rng) % 70, ui(rng) % 9, size.width, size.height);
          diff.copyTo(big(roi));
          dark.copyTo(bigd(roi));
          diff = big(roi), dark = bigd(roi);
          ++views;
        }
        const bool want = occluder_core_possible_ref(diff, dark, k), got = occluder_core_possible(diff, dark, k);
        EXPECT_EQ(want, got) << size << " k " << k << " rep " << rep;
        (got ? yes : no) += 1;
      }
  EXPECT_GT(yes, 150);  // both answers well represented
  EXPECT_GT(no, 150);
  EXPECT_GT(views, 50);
  // The reader's r (20 px: occluder_core_mm 40 at 1 px/mm) on A3-sized masks: no core said
  // means no pixel of the distance transform beyond r.
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  int cores = 0;
  for (int i = 0; i < 60; ++i) {
    const cv::Mat diff = core_test_mask(rng, {297, 420}), dark = random_mask(rng, {297, 420});
    cv::Mat d = diff.clone(), closed, dist;
    cv::morphologyEx(d, closed, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    d |= closed & dark;
    cv::morphologyEx(d, d, cv::MORPH_CLOSE, k3);
    cv::morphologyEx(d, d, cv::MORPH_OPEN, k3);
    cv::distanceTransform(d, dist, cv::DIST_L2, cv::DIST_MASK_5);
    const bool core = cv::countNonZero(dist > 20.0) > 0;
    if (core) EXPECT_TRUE(occluder_core_possible(diff, dark, chamfer_core_half_side(20.0))) << i;
    cores += core;
  }
  EXPECT_GT(cores, 5);
}

// (speed39) occluder_core_possible reading the tinted dark lines from patches: the answer of
// occluder_core_possible_ref on with_patches(dark, box, parts). Arm-sized blobs cut by 3-pixel
// lines every 7-10 pixels (a printed grid: the closing bridges them only where the dark mask is
// set), dark masks of 0, 255 or noise, patches of the other kind over parts of the blobs, their
// left sides on multiples of 16 (as print_minmax_patches') or anywhere, overlapping, at the
// right side, the whole image; widths round the 64-bit words.
TEST(MaskOps, OccluderCorePossibleReadsThePatchedDark) {
  std::mt19937 rng(39);
  std::uniform_int_distribution<int> ui(0, 1 << 30);
  const cv::Size sizes[] = {{420, 297}, {297, 420}, {64, 40}, {65, 90}, {128, 50}, {129, 129}, {17, 30}, {200, 2}};
  int yes = 0, no = 0, moved = 0;
  for (int rep = 0; rep < 40; ++rep)
    for (const cv::Size size : sizes)
      for (int k : {1, 5, 13, 20}) {
        cv::Mat diff = rep % 2 ? core_test_mask(rng, size) : cv::Mat(size, CV_8U, cv::Scalar(0));
        for (int b = 0; b < 3; ++b) {  // blobs cut by a grid of lines
          const cv::Rect r(ui(rng) % size.width, ui(rng) % size.height, 40 + ui(rng) % 100, 40 + ui(rng) % 100);
          cv::rectangle(diff, r, cv::Scalar(255), cv::FILLED);
          const int step = 7 + ui(rng) % 4;  // lines 3 px wide: the 3x3 closing leaves them, the 5x5 one not
          for (int x = r.x; x < r.x + r.width; x += step)
            cv::rectangle(diff, cv::Rect(x, r.y, 3, r.height), cv::Scalar(0), cv::FILLED);
          for (int y = r.y; y < r.y + r.height; y += step)
            cv::rectangle(diff, cv::Rect(r.x, y, r.width, 3), cv::Scalar(0), cv::FILLED);
        }
        const int kind = rep % 3;
        cv::Mat dark = kind == 0 ? cv::Mat(size, CV_8U, cv::Scalar(0)) : kind == 1 ? cv::Mat(size, CV_8U, cv::Scalar(255)) : random_mask(rng, size);
        std::vector<cv::Rect> box;
        std::vector<cv::Mat> parts;
        const int n = rep % 7 == 0 ? 1 : 1 + ui(rng) % 6;
        for (int i = 0; i < n; ++i) {
          cv::Rect b;
          if (rep % 7 == 0) {
            b = cv::Rect(0, 0, size.width, size.height);
          } else {
            int x0 = ui(rng) % size.width;
            if (ui(rng) % 4) x0 = x0 / 16 * 16;
            const int x1 = ui(rng) % 3 == 0 ? size.width : std::min(size.width, x0 + 1 + ui(rng) % 120);
            const int y0 = ui(rng) % size.height, y1 = std::min(size.height, y0 + 1 + ui(rng) % 120);
            b = cv::Rect(x0, y0, x1 - x0, y1 - y0);
          }
          cv::Mat part = kind == 0 ? cv::Mat(b.size(), CV_8U, cv::Scalar(255)) : kind == 1 ? cv::Mat(b.size(), CV_8U, cv::Scalar(0)) : random_mask(rng, b.size());
          if (ui(rng) % 5 == 0) part = random_mask(rng, b.size());
          box.push_back(b);
          parts.push_back(part);
        }
        const cv::Mat patched = with_patches(dark, box, parts);
        const bool want = occluder_core_possible_ref(diff, patched, k), got = occluder_core_possible(diff, dark, box, parts, k);
        ASSERT_EQ(want, got) << size << " k " << k << " rep " << rep;
        moved += want != occluder_core_possible_ref(diff, dark, k);
        (got ? yes : no) += 1;
      }
  EXPECT_GT(yes, 150);  // both answers well represented
  EXPECT_GT(no, 150);
  EXPECT_GT(moved, 50);  // and the patches did decide
  // No patches: the mask's own answer.
  const cv::Mat diff = core_test_mask(rng, {420, 297}), dark = random_mask(rng, {420, 297});
  EXPECT_EQ(occluder_core_possible(diff, dark, 13), occluder_core_possible(diff, dark, {}, {}, 13));
}

// (speed30) chamfer5_threshold (bit-row erosion or dilation by the 5x5 chamfer ball) against
// cv::distanceTransform(DIST_L2, DIST_MASK_5) and the compare: the same mask, `d > t` and
// `d <= t`, at the occluder's thresholds (20, 20.5, 60 px) and others (whole, half and small),
// on random masks with arm-sized parts and on masks with no zero, all zeros and one zero, at
// widths round the 64-bit words, and on views into larger masks.
TEST(MaskOps, Chamfer5ThresholdIsTheDistanceTransforms) {
  std::mt19937 rng(30);
  std::uniform_int_distribution<int> ui(0, 1 << 30);
  const cv::Size sizes[] = {{297, 420}, {420, 297}, {64, 40}, {63, 70}, {65, 33}, {128, 50}, {129, 129}, {1, 1}, {3, 90}, {90, 3}};
  int set = 0, clear = 0, views = 0, masks = 0;
  for (int rep = 0; rep < 6; ++rep)
    for (const cv::Size size : sizes) {
      cv::Mat m = core_test_mask(rng, size);
      if (rep == 1) m.setTo(255);  // no zero: every pixel far
      if (rep == 2) m.setTo(0);
      if (rep == 3) m.setTo(255), m.at<uchar>(ui(rng) % size.height, ui(rng) % size.width) = 0;
      if (rep == 4 && size.area() > 100) m = ~m;
      if (rep == 5) {
        cv::Mat big(size.height + 9, size.width + 70, CV_8U, cv::Scalar(255));
        const cv::Rect roi(ui(rng) % 70, ui(rng) % 9, size.width, size.height);
        m.copyTo(big(roi));
        m = big(roi);
        ++views;
      }
      ++masks;
      for (const double t : {0.0, 1.0, 1.4, 2.5, 7.0, 20.0, 20.5, 33.3, 60.0})
        for (const bool within : {false, true}) {
          cv::Mat want, got;
          chamfer5_threshold_ref(m, t, within, want);
          // Every threshold here (the occluder's reach of 60 px included) takes the bit path.
          EXPECT_TRUE(chamfer5_threshold(m, t, within, got)) << size << " t " << t << " within " << within;
          ASSERT_EQ(got.size(), want.size());
          ASSERT_EQ(got.type(), CV_8UC1);
          EXPECT_EQ(cv::countNonZero(got != want), 0) << size << " t " << t << " within " << within << " rep " << rep;
          const int n = cv::countNonZero(want);
          set += n > 0 && n < static_cast<int>(want.total());
          clear += n == 0;
        }
    }
  EXPECT_GT(set, 200);  // masks partly in, partly out well represented
  EXPECT_GT(clear, 20);
  EXPECT_EQ(views, 10);
  EXPECT_EQ(masks, 60);
  // A half-width over 63 falls back to the distance map, with the same mask.
  cv::Mat m = core_test_mask(rng, {297, 420}), want, got;
  chamfer5_threshold_ref(m, 100.0, false, want);
  EXPECT_FALSE(chamfer5_threshold(m, 100.0, false, got));
  EXPECT_EQ(cv::countNonZero(got != want), 0);
}

// read.cpp's occluder light grid, 4 grid columns at a time, against its one-point-at-a-time
// loop: the same bits, on the reader's grid (31 x 43 for A3 portrait at 10 mm) and others
// (widths with and without a tail), weights from Gaussians as read.cpp makes them and raw
// random ones, cells far away (wsum below 1e-3: the global light) and no cells at all.
TEST(MaskOps, LightGridMatchesTheLoop) {
  std::mt19937 rng(18);
  std::uniform_real_distribution<double> pos(-50.0, 480.0), u01(0.0, 1.0);
  const cv::Size sizes[] = {{31, 43}, {43, 31}, {4, 4}, {5, 1}, {3, 7}, {1, 1}, {8, 2}, {13, 6}};
  int global_points = 0, weighted = 0;
  for (int rep = 0; rep < 40; ++rep)
    for (const cv::Size gs : sizes) {
      const std::size_t nk = rep % 10 == 9 ? 0 : 1 + static_cast<std::size_t>(u01(rng) * 120);
      const double far = rep % 5 == 4 ? 2000.0 : 0.0;  // cells far off the grid: tiny weights
      std::vector<double> ex(static_cast<std::size_t>(gs.width) * nk), ey(static_cast<std::size_t>(gs.height) * nk);
      std::vector<cv::Vec3f> rho(nk);
      for (std::size_t k = 0; k < nk; ++k) {
        const double cx = pos(rng) + far, cy = pos(rng);
        for (int gx = 0; gx < gs.width; ++gx) {
          const double dx = gx * 10.0 - cx;
          ex[static_cast<std::size_t>(gx) * nk + k] = rep % 3 == 2 ? u01(rng) : std::exp(-dx * dx / (2 * 45.0 * 45.0));
        }
        for (int gy = 0; gy < gs.height; ++gy) {
          const double dy = gy * 10.0 - cy;
          ey[static_cast<std::size_t>(gy) * nk + k] = rep % 3 == 2 ? u01(rng) : std::exp(-dy * dy / (2 * 45.0 * 45.0));
        }
        const float r0 = static_cast<float>(0.5 + u01(rng)), r1 = static_cast<float>(0.5 + u01(rng)), r2 = static_cast<float>(0.5 + u01(rng));
        const float sum = r0 + r1 + r2;
        rho[k] = cv::Vec3f(r0, r1, r2) * (3.0f / sum);
      }
      const cv::Vec3f global(0.9f, 1.0f, 1.1f);
      cv::Mat a(gs, CV_32FC3, cv::Scalar(-1, -1, -1)), b(gs, CV_32FC3, cv::Scalar(-2, -2, -2));
      light_grid_ref(ex, ey, rho, global, a);
      light_grid(ex, ey, rho, global, b);
      EXPECT_TRUE(same(a, b)) << gs << " nk " << nk << " rep " << rep;
      for (int y = 0; y < gs.height; ++y)
        for (int x = 0; x < gs.width; ++x) (a.at<cv::Vec3f>(y, x) == global ? global_points : weighted) += 1;
    }
  EXPECT_GT(global_points, 100);  // both branches taken
  EXPECT_GT(weighted, 1000);
}

}  // namespace

TEST(MaskOps, ThickLineReversedIsTheSameLine) {
  // (Speed round 26) draw_thick_segments draws a line whose rounded ends are another's in the
  // reverse order once: OpenCV's thick line (LINE_8, 2 fractional bits) must then give the same
  // pixels either way. Random quarter-pixel ends in and round small masks (clipped at every
  // side), every direction, short, long and zero-length lines, thicknesses 1 .. 14.
  std::mt19937 rng(2601);
  std::uniform_real_distribution<double> u(0, 1);
  int drawn = 0;
  for (int t = 0; t < 20000; ++t) {
    const cv::Size size(1 + static_cast<int>(u(rng) * 120), 1 + static_cast<int>(u(rng) * 120));
    const int thick = 1 + static_cast<int>(u(rng) * 14);
    auto end = [&] {
      return cv::Point(static_cast<int>((u(rng) * 1.6 - 0.3) * size.width * 4), static_cast<int>((u(rng) * 1.6 - 0.3) * size.height * 4));
    };
    const cv::Point a = end();
    cv::Point b = t % 7 == 0 ? a + cv::Point(static_cast<int>(u(rng) * 5) - 2, static_cast<int>(u(rng) * 5) - 2) : end();
    if (t % 11 == 0) b.y = a.y;  // horizontal
    if (t % 13 == 0) b.x = a.x;  // vertical
    cv::Mat m1(size, CV_8U, cv::Scalar(0)), m2(size, CV_8U, cv::Scalar(0));
    cv::line(m1, a, b, cv::Scalar(255), thick, cv::LINE_8, 2);
    cv::line(m2, b, a, cv::Scalar(255), thick, cv::LINE_8, 2);
    ASSERT_EQ(cv::norm(m1, m2, cv::NORM_INF), 0) << a << " " << b << " " << thick << " " << size;
    drawn += cv::countNonZero(m1) > 0;
  }
  EXPECT_GT(drawn, 12000);
}

TEST(MaskOps, DrawThickSegmentsIsEveryLineDrawn) {
  // (Speed round 26) The reader's grid masks: a hex sheet's cell edges (each shared edge twice,
  // reversed, as read_board lists them) through random perspectives into plane pixels, cut into
  // random patches round the cells and beyond the sheet: draw_thick_segments (each distinct
  // line once) against draw_thick_segments_ref (every segment), byte for byte.
  std::mt19937 rng(2602);
  std::uniform_real_distribution<double> u(0, 1);
  long lines_ref = 0, lines_fast = 0;
  for (int t = 0; t < 400; ++t) {
    const double hs = 8 + 10 * u(rng), ppm = 2 + 5 * u(rng);
    const cv::Matx33d h(ppm * (0.9 + 0.2 * u(rng)), 0.1 * (u(rng) - 0.5), 10 * u(rng), 0.1 * (u(rng) - 0.5),
                        ppm * (0.9 + 0.2 * u(rng)), 10 * u(rng), 1e-4 * (u(rng) - 0.5), 1e-4 * (u(rng) - 0.5), 1);
    std::vector<std::pair<cv::Point2d, cv::Point2d>> segs;
    std::vector<cv::Point2d> centres;
    for (int q = -3; q <= 3; ++q)
      for (int r = -3; r <= 3; ++r) {
        if (std::abs(q + r) > 3) continue;
        const cv::Point2d c(60 + hs * 1.5 * q, 60 + hs * std::sqrt(3.0) * (r + q / 2.0));
        centres.push_back(c);
        for (int i = 0; i < 6; ++i) {
          const double a0 = CV_PI / 3 * i, a1 = CV_PI / 3 * (i + 1);
          const cv::Point2d e0(c.x + hs * std::cos(a0), c.y + hs * std::sin(a0)), e1(c.x + hs * std::cos(a1), c.y + hs * std::sin(a1));
          const cv::Point3d w0 = h * cv::Point3d(e0.x, e0.y, 1), w1 = h * cv::Point3d(e1.x, e1.y, 1);
          segs.emplace_back(cv::Point2d(w0.x / w0.z, w0.y / w0.z), cv::Point2d(w1.x / w1.z, w1.y / w1.z));
        }
      }
    const int thick = std::max(1, cvRound((1 + 2 * u(rng)) * ppm));
    for (int k = 0; k < 20; ++k) {
      const cv::Point2d& c = centres[static_cast<std::size_t>(u(rng) * centres.size())];
      const cv::Point3d w = h * cv::Point3d(c.x, c.y, 1);
      const int rad = static_cast<int>(hs * ppm * (0.5 + u(rng)));
      const cv::Rect roi(static_cast<int>(w.x / w.z) - rad + static_cast<int>(u(rng) * 9) - 4,
                         static_cast<int>(w.y / w.z) - rad + static_cast<int>(u(rng) * 9) - 4, 2 * rad + 1 + static_cast<int>(u(rng) * 30),
                         2 * rad + 1 + static_cast<int>(u(rng) * 30));
      cv::Mat ref(roi.size(), CV_8U, cv::Scalar(0)), fast(roi.size(), CV_8U, cv::Scalar(0));
      draw_thick_segments_ref(ref, segs, cv::Point2d(roi.x, roi.y), thick);
      draw_thick_segments(fast, segs, cv::Point2d(roi.x, roi.y), thick);
      ASSERT_EQ(cv::norm(ref, fast, cv::NORM_INF), 0) << t << " " << k << " " << roi;
      lines_ref += cv::countNonZero(ref);
      lines_fast += cv::countNonZero(fast);
    }
  }
  EXPECT_GT(lines_ref, 0);
  EXPECT_EQ(lines_ref, lines_fast);
}

TEST(MaskOps, MaxLocMaskedIsMinMaxLocs) {
  // (Speed round 26) The face square's slide: max_loc_masked against cv::minMaxLoc's maximum's
  // location with the mask, on maps of a few integer values (ties everywhere, as the sums of
  // +-1 are), wide-ranging floats, NaN, -inf and -FLT_MAX; masks: filled discs (the reader's),
  // random pixels in a rectangle, a full rectangle, none; maps 1 .. 110 pixels a side.
  std::mt19937 rng(2603);
  std::uniform_real_distribution<double> u(0, 1);
  int found = 0, ties = 0;
  for (int t = 0; t < 30000; ++t) {
    const cv::Size size(1 + static_cast<int>(u(rng) * 110), 1 + static_cast<int>(u(rng) * 110));
    cv::Mat src(size, CV_32F);
    const int kind = t % 4;
    for (int y = 0; y < size.height; ++y)
      for (int x = 0; x < size.width; ++x) {
        float v = kind == 3 ? static_cast<float>((u(rng) - 0.5) * 1e6) : static_cast<float>(static_cast<int>(u(rng) * (2 + kind * 3)) - 2);
        const double r = u(rng);
        if (t % 5 == 0 && r < 0.05) v = std::numeric_limits<float>::quiet_NaN();
        else if (t % 5 == 1 && r < 0.05) v = -std::numeric_limits<float>::infinity();
        else if (t % 5 == 2 && r < 0.3) v = -FLT_MAX;
        src.at<float>(y, x) = v;
      }
    if (t % 9 == 0) src.setTo(-FLT_MAX);
    cv::Mat mask(size, CV_8U, cv::Scalar(0));
    const int mk = t % 3;
    if (mk == 0) {
      cv::circle(mask, cv::Point(static_cast<int>(u(rng) * size.width), static_cast<int>(u(rng) * size.height)),
                 1 + static_cast<int>(u(rng) * 40), cv::Scalar(255), cv::FILLED);
    } else {
      const cv::Rect r(static_cast<int>(u(rng) * size.width), static_cast<int>(u(rng) * size.height), 1 + static_cast<int>(u(rng) * 60),
                       1 + static_cast<int>(u(rng) * 60));
      const cv::Rect rr = r & cv::Rect(0, 0, size.width, size.height);
      for (int y = rr.y; y < rr.y + rr.height; ++y)
        for (int x = rr.x; x < rr.x + rr.width; ++x)
          if (mk == 2 || u(rng) < 0.5) mask.at<uchar>(y, x) = static_cast<uchar>(1 + u(rng) * 254);
      if (t % 17 == 0) mask.setTo(0);
    }
    cv::Point at_cv;
    cv::minMaxLoc(src, nullptr, nullptr, nullptr, &at_cv, mask);
    const cv::Point at = max_loc_masked(src, mask);
    ASSERT_EQ(at, at_cv) << t << " " << size;
    if (at.x >= 0) {
      ++found;
      cv::Mat eq = (src == src.at<float>(at)) & (mask != 0);
      ties += cv::countNonZero(eq) > 1;
    }
  }
  EXPECT_GT(found, 20000);
  EXPECT_GT(ties, 15000);
}

TEST(MaskOps, ForEachSetIsThePerPixelLoop) {
  // (Speed round 27) for_each_set (the reader's loops over a die's pixels in a patch) visits
  // the set pixels of a row in increasing x, as `for (x = 0; x < n; ++x) if (s[x]) f(x);`
  // does: rows of every width 1 .. 140 (under and over 16, the last part under 16 read as
  // the row's last 16), runs of set and zero pixels of random lengths, single pixels, empty
  // and full rows, values other than 255, and ROI views (a row not starting at the image's
  // first column); and mask_row_next's both kinds against its loop.
  std::mt19937 rng(2701);
  std::uniform_int_distribution<int> len(1, 40), val(1, 255);
  std::uniform_real_distribution<double> u(0, 1);
  long visited = 0, rows = 0;
  for (int t = 0; t < 6000; ++t) {
    const int w = 1 + t % 140;
    cv::Mat big(3, w + 9, CV_8U, cv::Scalar(0));
    cv::randu(big, 0, 256);  // bytes round the view that must not be visited
    cv::Mat row = big(cv::Rect(t % 9, 1, w, 1));
    const int kind = t % 5;
    for (int x = 0; x < w;) {
      const int l = kind == 0 ? 1 : len(rng);
      const bool on = kind == 3 ? true : kind == 4 ? false : u(rng) < 0.5;
      for (int k = 0; k < l && x < w; ++k, ++x) row.at<uchar>(0, x) = on ? static_cast<uchar>(kind == 2 ? val(rng) : 255) : 0;
    }
    const uchar* s = row.ptr<uchar>(0);
    std::vector<int> want, got;
    for (int x = 0; x < w; ++x)
      if (s[x]) want.push_back(x);
    for_each_set(s, w, [&](int x) { got.push_back(x); });
    ASSERT_EQ(got, want) << "width " << w << " kind " << kind;
    for (int x0 = 0; x0 <= w; ++x0)
      for (const bool zero : {false, true}) {
        int x = x0;
        while (x < w && ((s[x] == 0) != zero)) ++x;
        ASSERT_EQ(mask_row_next(s, x0, w, zero), x) << "width " << w << " from " << x0 << " zero " << zero;
      }
    visited += static_cast<long>(got.size());
    ++rows;
  }
  EXPECT_GT(visited, 100000);
  EXPECT_EQ(rows, 6000);
}

TEST(MaskOps, BgrLumRowIsThePerPixelSum) {
  // (Speed round 27) bgr_lum_row (16 pixels at a time) against b + 2 g + r per pixel: rows of
  // 0 .. 100 pixels at every offset in a wider image (the SIMD part, the tail and their seam),
  // random bytes and the extremes (0 and 255 in every channel: 0 and 1020).
  std::mt19937 rng(2702);
  int checked = 0, extremes = 0;
  for (int t = 0; t < 3000; ++t) {
    const int n = t % 101, off = (t / 101) % 7;
    cv::Mat img(1, n + off + 3, CV_8UC3);
    cv::randu(img, 0, 256);
    if (t % 5 == 0) img.setTo(cv::Scalar(255, 255, 255));
    if (t % 5 == 1) img.setTo(cv::Scalar(0, 0, 0));
    const uchar* p = img.ptr<uchar>(0) + 3 * off;
    std::vector<ushort> got(static_cast<std::size_t>(n) + 4, 7777);
    bgr_lum_row(p, n, got.data());
    for (int x = 0; x < n; ++x) {
      const int want = p[3 * x] + 2 * p[3 * x + 1] + p[3 * x + 2];
      ASSERT_EQ(got[static_cast<std::size_t>(x)], want) << "n " << n << " offset " << off << " x " << x;
      extremes += want == 0 || want == 1020;
      ++checked;
    }
    for (int x = n; x < n + 4; ++x) ASSERT_EQ(got[static_cast<std::size_t>(x)], 7777) << "written past n " << n;
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(extremes, 40000);
}

TEST(MaskOps, LumCompareRowIsThePerPixelFloatTest) {
  // (Speed round 33) lum_compare_row (16 at a time, an integer bound) against the reader's
  // per-pixel test it replaced (the int luminance against the float bound; the where byte):
  // rows of 0 .. 80 at every offset (the vector part, the tail, their seam), luminances
  // 0 .. 1020 with runs of equal values, bounds on, just off and halfway between integers,
  // outside 0 .. 1020, infinite and NaN; all three where rules, both senses.
  std::mt19937 rng(3303);
  std::uniform_int_distribution<int> lumd(0, 1020), byte(0, 3);
  const float specials[] = {-5.0f, -0.0f, 0.0f, 0.25f, 1020.0f, 1020.5f, 1021.0f, 1021.5f, 5000.0f,
                            std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  long checked = 0, on = 0, off = 0, bound_hits = 0;
  for (int t = 0; t < 6000; ++t) {
    const int n = t % 81, o = (t / 81) % 5;
    std::vector<ushort> lum(static_cast<std::size_t>(n + o));
    std::vector<uchar> where(static_cast<std::size_t>(n + o));
    const int base = lumd(rng);
    for (auto& v : lum) v = static_cast<ushort>(t % 3 == 0 ? std::clamp(base + byte(rng) - 1, 0, 1020) : lumd(rng));
    for (auto& v : where) v = static_cast<uchar>(byte(rng) == 0 ? 0 : (byte(rng) == 0 ? 255 : 1 + byte(rng)));
    float thr;
    switch (t % 4) {
      case 0: thr = specials[static_cast<std::size_t>(t / 4) % std::size(specials)]; break;
      case 1: thr = static_cast<float>(base); break;  // on an integer the row holds
      case 2: thr = std::nextafter(static_cast<float>(base), (t / 4) % 2 ? 2000.0f : -1.0f); break;
      default: thr = static_cast<float>(base) + 0.5f; break;
    }
    const bool above = (t / 2) % 2;
    const LumWhere rule = static_cast<LumWhere>((t / 7) % 3);
    std::vector<uchar> got(static_cast<std::size_t>(n + o) + 4, 77);
    lum_compare_row(lum.data() + o, rule == LumWhere::Any && t % 2 ? nullptr : where.data() + o, n, thr, above, rule,
                    got.data() + o);
    for (int x = 0; x < n; ++x) {
      const int l = lum[static_cast<std::size_t>(x + o)];
      const uchar w = where[static_cast<std::size_t>(x + o)];
      const bool cmp = above ? l > thr : l < thr;
      const bool pass = rule == LumWhere::Any || ((w != 0) == (rule == LumWhere::Set));
      const uchar want = cmp && pass ? 255 : 0;
      ASSERT_EQ(got[static_cast<std::size_t>(x + o)], want)
          << "n " << n << " x " << x << " lum " << l << " thr " << thr << " above " << above << " rule "
          << static_cast<int>(rule) << " where " << int(w);
      ++checked, (want ? on : off) += 1, bound_hits += std::abs(static_cast<float>(l) - thr) <= 0.5f;
    }
    for (int x = 0; x < o; ++x) ASSERT_EQ(got[static_cast<std::size_t>(x)], 77) << "written before the row";
    for (int x = n + o; x < n + o + 4; ++x) ASSERT_EQ(got[static_cast<std::size_t>(x)], 77) << "written past n " << n;
  }
  EXPECT_GT(checked, 200000);
  EXPECT_GT(on, 40000);
  EXPECT_GT(off, 40000);
  EXPECT_GT(bound_hits, 5000);  // the bound between pixels' luminances, where an off-by-one shows
}

TEST(MaskOps, LumCompareSpansIsOpenCVsCompareThere) {
  // (Speed round 37) lum_compare_spans against what find_plane_pips did before: cv::compare of
  // the whole image with ceil(thr) (CMP_LT) or floor(thr) (CMP_GT), setTo for bounds past
  // 0 .. 65535. Images 1..140 x 1..60 of luminances 0 .. 1020 (runs of equal values too), spans
  // per row empty, one pixel, under and over 16 wide, past both ends, a disc's; thresholds on,
  // just off and between integers and past 0 .. 1020; every byte inside the spans against the
  // compare, every byte outside against what out held.
  std::mt19937 rng(3707);
  std::uniform_int_distribution<int> lumd(0, 1020), small(0, 3);
  const float specials[] = {-5.0f, -0.0f, 0.0f, 0.25f, 0.75f, 1.0f, 1019.5f, 1020.0f, 1020.5f, 1021.0f, 1500.0f, 70000.0f};
  long inside = 0, outside = 0, on = 0, off = 0, bound_hits = 0;
  for (int rep = 0; rep < 400; ++rep) {
    const int w = 1 + rep % 140, h = 1 + (rep * 7) % 60;
    cv::Mat lum(h, w, CV_16U);
    const int base = lumd(rng);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        lum.at<ushort>(y, x) = static_cast<ushort>(rep % 3 == 0 ? std::clamp(base + small(rng) - 1, 0, 1020) : lumd(rng));
    float thr;
    switch (rep % 4) {
      case 0: thr = specials[static_cast<std::size_t>(rep / 4) % std::size(specials)]; break;
      case 1: thr = static_cast<float>(base); break;
      case 2: thr = std::nextafter(static_cast<float>(base), (rep / 4) % 2 ? 2000.0f : -1.0f); break;
      default: thr = static_cast<float>(base) + 0.5f; break;
    }
    const bool above = (rep / 2) % 2;
    std::vector<int> x0(static_cast<std::size_t>(h)), x1(static_cast<std::size_t>(h));
    std::uniform_int_distribution<int> pos(-20, w + 20);
    for (int y = 0; y < h; ++y) {
      int a = pos(rng), b = pos(rng);
      switch ((rep + y) % 6) {
        case 0: b = a; break;                     // empty
        case 1: b = a + 1; break;                 // one pixel
        case 2: a = -5, b = w + 5; break;         // past both ends
        case 3: if (a > b) std::swap(a, b); break;
        case 4: {                                 // a disc's span
          const double mid = (h - 1) / 2.0, rc = std::max(w, h) / 2.0, dy = y - mid, w2 = rc * rc - dy * dy;
          const double ww = w2 >= 0 ? std::sqrt(w2) : -1;
          a = ww < 0 ? 0 : static_cast<int>(std::ceil((w - 1) / 2.0 - ww));
          b = ww < 0 ? 0 : static_cast<int>(std::floor((w - 1) / 2.0 + ww)) + 1;
          break;
        }
        default: a = 3 + y % 17, b = a + 16 + y % 5; break;  // just over 16 wide
      }
      x0[static_cast<std::size_t>(y)] = a, x1[static_cast<std::size_t>(y)] = b;
    }
    cv::Mat want;
    const int t = static_cast<int>(std::ceil(thr)), tf = static_cast<int>(std::floor(thr));
    want.create(h, w, CV_8U);
    if (!above) {
      if (t <= 0) want.setTo(cv::Scalar(0));
      else if (t > 65535) want.setTo(cv::Scalar(255));
      else cv::compare(lum, cv::Scalar(t), want, cv::CMP_LT);
    } else {
      if (tf < 0) want.setTo(cv::Scalar(255));
      else if (tf >= 65535) want.setTo(cv::Scalar(0));
      else cv::compare(lum, cv::Scalar(tf), want, cv::CMP_GT);
    }
    cv::Mat got(h, w, CV_8U);
    cv::randu(got, 0, 256);
    const cv::Mat before = got.clone();
    lum_compare_spans(lum, thr, above, x0.data(), x1.data(), got);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const bool in = x >= x0[static_cast<std::size_t>(y)] && x < x1[static_cast<std::size_t>(y)];
        const uchar g = got.at<uchar>(y, x), e = in ? want.at<uchar>(y, x) : before.at<uchar>(y, x);
        ASSERT_EQ(g, e) << "rep " << rep << " row " << y << " x " << x << " span " << x0[static_cast<std::size_t>(y)] << ".."
                        << x1[static_cast<std::size_t>(y)] << " lum " << lum.at<ushort>(y, x) << " thr " << thr << " above " << above;
        if (in) {
          ++inside, (e ? on : off) += 1;
          bound_hits += std::abs(static_cast<float>(lum.at<ushort>(y, x)) - thr) <= 0.5f;
        } else {
          ++outside;
        }
      }
  }
  EXPECT_GT(inside, 300000);
  EXPECT_GT(outside, 200000);
  EXPECT_GT(on, 50000);
  EXPECT_GT(off, 50000);
  EXPECT_GT(bound_hits, 2000);
}

TEST(MaskOps, WarpPerspectiveLinearRunsOfBlocks) {
  // (Speed round 27) A row's blocks wholly inside the source are sampled by one call per run of
  // them (each block's positions still its own, as OpenCV's): rows of many blocks (widths to
  // 400; block widths 1024 / height for heights under 16, not multiples of 4 or 8), runs of
  // inside blocks broken by blocks that reach past the source's sides or last rows (and by
  // NaN-free strong perspective), against cv::warpPerspective byte for byte, both borders.
  std::mt19937 rng(2703);
  std::uniform_real_distribution<double> u(-1, 1);
  long compared = 0, rows_mixed = 0;
  for (int rep = 0; rep < 400; ++rep) {
    const cv::Size ss(120 + rep % 37 * 9, 40 + rep % 23 * 5);
    const cv::Size ds(60 + (rep * 53) % 341, 1 + rep % 20);
    const cv::Mat src = warp_test_source(ss, rep);
    // Mostly a shrink onto the source, sliding along x so a row's ends fall outside now and then.
    const double sc = 0.15 + 0.35 * (u(rng) + 1), ang = 0.3 * u(rng);
    const double cx = ss.width * (0.5 + 0.45 * u(rng)), cy = rep % 3 == 0 ? ss.height - 1.5 : ss.height * (0.5 + 0.4 * u(rng));
    const double p = rep % 4 == 0 ? 0 : 0.0015 * u(rng);
    const cv::Matx33d m = warp_test_matrix(ds, sc, ang, cx, cy, p, rng, u);
    for (int bt : {cv::BORDER_REPLICATE, cv::BORDER_CONSTANT}) {
      ASSERT_EQ(warp_max_diff(src, m, ds, bt, cv::Scalar(3, 130, 250)), 0.0) << "rep " << rep << " src " << ss << " dst " << ds << " border " << bt;
      compared += ds.area();
    }
    // Rows whose first or last pixel maps outside the source while the middle is inside.
    for (int y = 0; y < ds.height; ++y) {
      auto in = [&](int x) {
        const cv::Vec3d q = m * cv::Vec3d(x, y, 1);
        const double sx = q[0] / q[2], sy = q[1] / q[2];
        return sx >= 0 && sy >= 0 && sx < ss.width - 1 && sy < ss.height - 1;
      };
      rows_mixed += in(ds.width / 2) && (!in(0) || !in(ds.width - 1));
    }
  }
  EXPECT_GT(compared, 1000000);
  EXPECT_GT(rows_mixed, 500);
}

TEST(MaskOps, WarpPerspectiveLinearSpansAreTheWarpThere) {
  // (speed36) warp_perspective_linear_spans writes each row's span only, with the whole warp's
  // bytes there (each block's positions from its own X0, Y0, W0, each pixel's from its own i,
  // computed from the span's first pixel on): random spans (empty, one pixel, starting or ending
  // inside a block or on its edge, past the row's ends, whole rows), discs as find_plane_pips
  // asks, rows of one or several of OpenCV's blocks, sources reached past their sides and last
  // rows, both borders; against cv::warpPerspective byte for byte inside the spans, and the
  // bytes outside them as they were (a span's next pixel's first two bytes aside). Both paths
  // (AVX2 and, with HEXDICE_NO_AVX2=1, SSE2).
  std::mt19937 rng(3636);
  std::uniform_real_distribution<double> u(-1, 1);
  long compared = 0, kept = 0, partial_blocks = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const cv::Size ss(60 + rep % 31 * 11, 40 + rep % 17 * 7);
    const cv::Size ds(1 + (rep * 37) % 200, 1 + (rep * 11) % 120);
    const cv::Mat src = warp_test_source(ss, rep);
    const double sc = 0.2 + 0.5 * (u(rng) + 1), ang = 3.2 * u(rng);
    const double cx = ss.width * (0.5 + 0.5 * u(rng)), cy = rep % 3 == 0 ? ss.height - 1.5 : ss.height * (0.5 + 0.5 * u(rng));
    const double p = rep % 4 == 0 ? 0 : 0.002 * u(rng);
    const cv::Matx33d m = warp_test_matrix(ds, sc, ang, cx, cy, p, rng, u);
    std::vector<int> x0(static_cast<std::size_t>(ds.height)), x1(x0.size());
    const int bw0 = std::min(1024 / std::min(16, ds.height), ds.width);  // OpenCV's block width
    for (int y = 0; y < ds.height; ++y) {
      int& a0 = x0[static_cast<std::size_t>(y)];
      int& a1 = x1[static_cast<std::size_t>(y)];
      const int kind = rep % 3 == 2 ? 9 : static_cast<int>((u(rng) + 1) * 4.5);  // 9: a disc
      if (kind == 9) {
        const double r = ds.width / 2.0, dy = y - (ds.height - 1) / 2.0, w2 = r * r - dy * dy;
        a0 = w2 < 0 ? 0 : static_cast<int>(std::ceil((ds.width - 1) / 2.0 - std::sqrt(w2)));
        a1 = w2 < 0 ? 0 : static_cast<int>(std::floor((ds.width - 1) / 2.0 + std::sqrt(w2))) + 1;
      } else if (kind == 0) {
        a0 = a1 = static_cast<int>((u(rng) + 1) * ds.width / 2);  // empty
      } else if (kind == 1) {
        a0 = -5, a1 = ds.width + 5;  // past both ends
      } else if (kind == 2) {
        a0 = static_cast<int>((u(rng) + 1) * ds.width / 2), a1 = a0 + 1;  // one pixel
      } else if (kind == 3) {
        a0 = bw0 * static_cast<int>((u(rng) + 1) * 2), a1 = a0 + bw0;  // a block's edges
      } else {
        a0 = static_cast<int>((u(rng) + 1) * ds.width / 2), a1 = a0 + static_cast<int>((u(rng) + 1) * ds.width / 2);
      }
    }
    for (int bt : {cv::BORDER_REPLICATE, cv::BORDER_CONSTANT}) {
      cv::Mat want, got(ds, CV_8UC3);
      cv::warpPerspective(src, want, cv::Mat(m), ds, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, bt, cv::Scalar(3, 130, 250));
      cv::randu(got, cv::Scalar::all(0), cv::Scalar::all(256));
      const cv::Mat before = got.clone();
      warp_perspective_linear_spans(src, got, m, ds, bt, x0.data(), x1.data(), cv::Scalar(3, 130, 250));
      ASSERT_EQ(got.size(), ds);
      for (int y = 0; y < ds.height; ++y) {
        const int a0 = std::max(0, x0[static_cast<std::size_t>(y)]), a1 = std::min(ds.width, x1[static_cast<std::size_t>(y)]);
        if (a0 < a1 && (a0 % bw0 != 0 || (a1 % bw0 != 0 && a1 != ds.width))) ++partial_blocks;
        for (int x = 0; x < ds.width; ++x) {
          const uchar* g = got.ptr<uchar>(y) + 3 * x;
          const uchar* w = (x >= a0 && x < a1 ? want : before).ptr<uchar>(y) + 3 * x;
          const int nb = x >= a0 && x < a1 ? 3 : x == a1 ? 1 : 3;  // (the next pixel's first two bytes may be written)
          for (int k = 3 - nb; k < 3; ++k)
            ASSERT_EQ(g[k], w[k]) << "rep " << rep << " border " << bt << " row " << y << " x " << x << " span " << a0 << ".." << a1
                                  << " dst " << ds;
          (x >= a0 && x < a1 ? compared : kept) += 1;
        }
      }
    }
  }
  EXPECT_GT(compared, 500000);
  EXPECT_GT(kept, 500000);
  EXPECT_GT(partial_blocks, 5000);
}

TEST(MaskOps, ColorDistanceMaskEveryWidth) {
  // (Speed round 27) color_distance_mask's exact path takes a row's last part under 16 pixels
  // as its last 16 again (the vector step, SSSE3 or SSE2 with HEXDICE_NO_AVX2=1): every width
  // 1 .. 100, ROI views (rows not continuous, not starting at the image's first column),
  // thresholds at and round the squared distances, both senses; against the float test.
  std::mt19937 rng(2704);
  std::uniform_int_distribution<int> byte(0, 255);
  long compared = 0, above = 0;
  for (int w = 1; w <= 100; ++w)
    for (int rep = 0; rep < 3; ++rep) {
      cv::Mat img(1 + (w * 5 + rep) % 13, w + 5, CV_8UC3);
      cv::randu(img, 0, 256);
      const cv::Mat roi = img(cv::Rect(rep, 0, w, img.rows));
      const cv::Vec3f ref(static_cast<float>(byte(rng)), static_cast<float>(byte(rng)), static_cast<float>(byte(rng)));
      for (double thr : {0.0, 60.0, 100.0, 141.5, 200.0})
        for (bool greater : {true, false}) {
          const cv::Mat got = color_distance_mask(roi, ref, thr, greater);
          const float t2 = static_cast<float>(thr * thr);
          for (int y = 0; y < roi.rows; ++y)
            for (int x = 0; x < roi.cols; ++x) {
              const cv::Vec3b p = roi.at<cv::Vec3b>(y, x);
              const float d0 = p[0] - ref[0], d1 = p[1] - ref[1], d2 = p[2] - ref[2];
              const uchar want = ((d0 * d0 + d1 * d1 + d2 * d2 > t2) == greater) ? 255 : 0;
              ASSERT_EQ(got.at<uchar>(y, x), want) << "width " << w << " rep " << rep << " thr " << thr << " at " << x << "," << y;
              above += want != 0;
              ++compared;
            }
        }
    }
  EXPECT_GT(compared, 100000);
  EXPECT_GT(above, 30000);
}

TEST(MaskOps, ColorDistanceMaskAvx2RunIsTheFloatTest) {
  // (Speed round 32) color_distance_mask's exact path takes a continuous image as one run of
  // rows x cols pixels and does it 32 pixels at a time in AVX2 (the last part under 32 as
  // the run's last 32 again): continuous images and ROI views (rows not continuous) of every
  // width 1..80 and several heights, references at and round the pixels, thresholds at and
  // round the squared distances, both senses; every byte against the float test, and the
  // AVX2 steps must have written most pixels where they run (HEXDICE_NO_AVX2=1: the SSSE3 /
  // SSE2 steps, the same bytes).
  std::mt19937 rng(3204);
  std::uniform_int_distribution<int> byte(0, 255);
  long compared = 0, above = 0, by_avx2 = 0;
  for (int w = 1; w <= 80; ++w)
    for (int rep = 0; rep < 4; ++rep) {
      cv::Mat img(1 + (w * 7 + rep * 3) % 17, w + 3 * (rep % 2), CV_8UC3);
      cv::randu(img, 0, 256);
      // Pixels near the reference (small distances round the thresholds) as well as random ones.
      const cv::Vec3b base(static_cast<uchar>(byte(rng)), static_cast<uchar>(byte(rng)), static_cast<uchar>(byte(rng)));
      for (int y = 0; y < img.rows; ++y)
        for (int x = 0; x < img.cols; x += 2)
          for (int k = 0; k < 3; ++k)
            img.at<cv::Vec3b>(y, x)[k] = cv::saturate_cast<uchar>(base[k] + std::uniform_int_distribution<int>(-9, 9)(rng));
      const cv::Mat view = rep % 2 ? img(cv::Rect(rep % 3, 0, w, img.rows)) : img;  // rep 0, 2: continuous
      const cv::Vec3f ref(base[0], base[1], base[2]);
      for (double thr : {0.0, 3.0, 5.0, 7.5, 12.0, 60.0, 141.5, 300.0})
        for (bool greater : {true, false}) {
          const cv::Mat got = color_distance_mask(view, ref, thr, greater, &by_avx2);
          const float t2 = static_cast<float>(thr * thr);
          for (int y = 0; y < view.rows; ++y)
            for (int x = 0; x < view.cols; ++x) {
              const cv::Vec3b p = view.at<cv::Vec3b>(y, x);
              const float d0 = p[0] - ref[0], d1 = p[1] - ref[1], d2 = p[2] - ref[2];
              const uchar want = ((d0 * d0 + d1 * d1 + d2 * d2 > t2) == greater) ? 255 : 0;
              ASSERT_EQ(got.at<uchar>(y, x), want) << "width " << w << " rep " << rep << " thr " << thr << " at " << x << "," << y;
              above += want != 0;
              ++compared;
            }
        }
    }
  EXPECT_GT(compared, 300000);
  EXPECT_GT(above, compared / 4);
  EXPECT_LT(above, compared * 3 / 4);
  if (avx2_steps_on()) EXPECT_GT(by_avx2, compared / 2);
  else EXPECT_EQ(by_avx2, 0);
}

namespace {
bool same_rotated_rect(const cv::RotatedRect& a, const cv::RotatedRect& b) {
  const float fa[5] = {a.center.x, a.center.y, a.size.width, a.size.height, a.angle};
  const float fb[5] = {b.center.x, b.center.y, b.size.width, b.size.height, b.angle};
  return std::memcmp(fa, fb, sizeof fa) == 0;  // the same bits
}
}  // namespace

// (speed46) The reader's face_rect points: mask_outer_points (the outer contours traced in the
// box of the mask's pixels) gives mask_outer_points_ref's points (the whole mask's), the same
// ones in the same order, so the same minAreaRect bits, on masks like the reader's top masks
// (turned squares, axis-aligned ones, bitten and ragged ones, several blobs, touching the
// borders or not), random masks and noise of every density, lines, a few single pixels, empty
// masks, every mask of 1-3 x 1-3 px, and windows of a larger mask; nonzero_box is the box of
// the nonzero pixels; the largest component's mask traced in its statistics' box (the reader's
// call) gives its own points too.
TEST(MaskOps, MaskOuterPointsAreTheRef) {
  std::mt19937 rng(4646);
  int inner = 0;       // masks whose box lies off every border (the crop is smaller than the mask)
  int components = 0;  // masks with a component (its box given: the reader's call)
  std::vector<cv::Point> a, b;
  auto check = [&](const cv::Mat& m, int rep) {
    mask_outer_points(m, a);
    mask_outer_points_ref(m, b);
    ASSERT_EQ(a, b) << "rep " << rep << " size " << m.size();
    cv::Rect box_ref;  // (cv::boundingRect takes a mask of 2 columns for 2-d points)
    for (int y = 0; y < m.rows; ++y)
      for (int x = 0; x < m.cols; ++x)
        if (m.at<uchar>(y, x)) box_ref = box_ref.empty() ? cv::Rect(x, y, 1, 1) : (box_ref | cv::Rect(x, y, 1, 1));
    ASSERT_EQ(nonzero_box(m), box_ref) << "rep " << rep;
    // The reader's use: the largest 8-connected component's mask and its statistics' box.
    cv::Mat stats, cents;
    RunLabels runs;
    const int n = components_stats_runs(m, stats, cents, runs);
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (best == 0 || stats.at<int>(i, cv::CC_STAT_AREA) > stats.at<int>(best, cv::CC_STAT_AREA)) best = i;
    if (best > 0) {
      const cv::Mat comp = component_mask(runs, best, m.size());
      const cv::Rect sbox(stats.at<int>(best, cv::CC_STAT_LEFT), stats.at<int>(best, cv::CC_STAT_TOP),
                          stats.at<int>(best, cv::CC_STAT_WIDTH), stats.at<int>(best, cv::CC_STAT_HEIGHT));
      std::vector<cv::Point> c, cr;
      mask_outer_points(comp, c, &sbox);
      mask_outer_points_ref(comp, cr);
      ASSERT_EQ(c, cr) << "rep " << rep << " component " << best;
      ++components;
    }
    if (!b.empty()) {
      ASSERT_TRUE(same_rotated_rect(cv::minAreaRect(a), cv::minAreaRect(b))) << "rep " << rep;
      const cv::Rect box = nonzero_box(m);
      inner += box.x > 0 && box.y > 0 && box.br().x < m.cols && box.br().y < m.rows;
    }
  };
  for (int rep = 0; rep < 6000; ++rep) {
    const cv::Size sz(1 + static_cast<int>(rng() % 120), 1 + static_cast<int>(rng() % 120));
    cv::Mat m(sz, CV_8U, cv::Scalar(0));
    switch (rep % 4) {
      case 0: {  // a die's top: a rectangle turned by any angle (or none), maybe bitten, maybe ragged
        const cv::Point2f c(static_cast<float>(rng() % (sz.width + 10)) - 5, static_cast<float>(rng() % (sz.height + 10)) - 5);
        const float side = 2.0f + static_cast<float>(rng() % 60), ang = static_cast<float>(rng() % 3600) / 10.0f;
        cv::Point2f v[4];
        cv::RotatedRect(c, cv::Size2f(side, side * (0.7f + static_cast<float>(rng() % 60) / 100.0f)), rep % 8 == 0 ? 0.0f : ang).points(v);
        std::vector<cv::Point> pv;
        for (const auto& p : v) pv.emplace_back(cvRound(p.x), cvRound(p.y));
        cv::fillConvexPoly(m, pv, cv::Scalar(255));
        if (rng() % 2) cv::circle(m, pv[rng() % 4], static_cast<int>(rng() % 12), cv::Scalar(0), cv::FILLED);
        if (rng() % 2)
          for (int k = 0; k < 40; ++k) m.at<uchar>(static_cast<int>(rng() % sz.height), static_cast<int>(rng() % sz.width)) = 0;
        if (rng() % 3 == 0) cv::circle(m, {static_cast<int>(rng() % sz.width), static_cast<int>(rng() % sz.height)}, 3, cv::Scalar(255), cv::FILLED);
        break;
      }
      case 1: m = random_mask(rng, sz); break;
      case 2: {
        const unsigned density = rng() % 101;
        for (int y = 0; y < sz.height; ++y)
          for (int x = 0; x < sz.width; ++x) m.at<uchar>(y, x) = rng() % 100 < density ? static_cast<uchar>(1 + rng() % 255) : 0;
        break;
      }
      default: {  // lines, and a few single pixels
        if (rng() % 2) {
          cv::line(m, {static_cast<int>(rng() % sz.width), static_cast<int>(rng() % sz.height)},
                   {static_cast<int>(rng() % sz.width), static_cast<int>(rng() % sz.height)}, cv::Scalar(255), 1, rng() % 2 ? 8 : 4);
        } else {
          const int n = static_cast<int>(rng() % 5);
          for (int k = 0; k < n; ++k) m.at<uchar>(static_cast<int>(rng() % sz.height), static_cast<int>(rng() % sz.width)) = 255;
        }
        break;
      }
    }
    if (rep % 5 == 0) {  // a window of a larger mask of noise (rows not continuous)
      cv::Mat big(sz.height + 6, sz.width + 9, CV_8U);
      for (int y = 0; y < big.rows; ++y)
        for (int x = 0; x < big.cols; ++x) big.at<uchar>(y, x) = rng() % 2 ? 255 : 0;
      m.copyTo(big(cv::Rect(4, 3, sz.width, sz.height)));
      check(big(cv::Rect(4, 3, sz.width, sz.height)), rep);
    } else {
      check(m, rep);
    }
    if (HasFatalFailure()) return;
  }
  for (int h = 1; h <= 3; ++h)  // every mask of 1-3 x 1-3 pixels
    for (int w = 1; w <= 3; ++w)
      for (int bits = 0; bits < (1 << (w * h)); ++bits) {
        cv::Mat m(h, w, CV_8U);
        for (int i = 0; i < w * h; ++i) m.at<uchar>(i / w, i % w) = (bits >> i) & 1 ? 255 : 0;
        check(m, -bits);
        if (HasFatalFailure()) return;
      }
  EXPECT_GT(inner, 1000);  // (1204)
  EXPECT_GT(components, 5000);
}

// (speed47) cos_sin_table (mask_ops_ref.h) against the calls it replaced in read.cpp, with each
// use's own angle expression: every cosine and sine the same bits. Also shows why the expression
// must be the use's: the margin ring's a * pi / 18 written as (pi / 18) * a, or built by adding
// the step, gives other doubles for some directions.
TEST(MaskOps, CosSinTableIsTheCalls) {
  auto same_bits = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  auto check = [&](const auto& table, auto angle, const char* what) {
    for (std::size_t k = 0; k < table.size(); ++k) {
      const double t = angle(static_cast<int>(k));
      const double c = std::cos(t), s = std::sin(t);  // as the uses called them
      EXPECT_TRUE(same_bits(table[k].first, c)) << what << " k " << k;
      EXPECT_TRUE(same_bits(table[k].second, s)) << what << " k " << k;
    }
  };
  // cell_paper (speed27's table), margin_mask, look_at_place, the grid's corners: the tables the
  // reader makes (from ReaderAngles) against the calls at the angles as the uses wrote them.
  check(cos_sin_table<18>(ReaderAngles::cell_paper), [](int i) { return CV_PI / 9 * i + 0.17; }, "cell_paper");
  check(cos_sin_table<36>(ReaderAngles::margin_ring), [](int a) { return a * CV_PI / 18; }, "margin_mask");
  check(cos_sin_table<16>(ReaderAngles::place_ring), [](int a) { return CV_PI / 8 * a; }, "look_at_place");
  check(cos_sin_table<7>(ReaderAngles::hex_corner), [](int i) { return CV_PI / 3 * i; }, "grid corners");
  // The form matters (a table of another form would not be the reader's bits).
  const auto margin = cos_sin_table<36>(ReaderAngles::margin_ring);
  const auto other = cos_sin_table<36>([](int a) { return CV_PI / 18 * a; });
  int differ = 0;
  double t = 0;
  for (std::size_t k = 0; k < margin.size(); ++k, t += CV_PI / 18)
    differ += !same_bits(margin[k].first, other[k].first) || !same_bits(margin[k].second, other[k].second) ||
              !same_bits(margin[k].first, std::cos(t));
  EXPECT_GT(differ, 0);
}

TEST(MaskOps, ApplyHPointsIsApplyH) {
  // (speed47) apply_h_points (the printed-edge sample maps' homography step) against apply_h
  // point by point: the same float bits, for random homographies (paper mm -> image px as the
  // reader's, and wild ones), any count (the AVX2 steps and the tail), and points where the
  // denominator is 0 or tiny (apply_h's (1e9, 1e9)).
  std::mt19937 rng(4702);
  std::uniform_real_distribution<double> u(-1, 1);
  auto bits = [](float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  };
  int far_seen = 0, points = 0;
  for (int t = 0; t < 3000; ++t) {
    cv::Matx33d h;
    if (t % 3 == 0)
      h = cv::Matx33d(u(rng) * 1e3, u(rng) * 1e3, u(rng) * 1e4, u(rng) * 1e3, u(rng) * 1e3, u(rng) * 1e4, u(rng), u(rng), u(rng));
    else
      h = cv::Matx33d(3 + u(rng), 0.3 * u(rng), 200 + 100 * u(rng), 0.3 * u(rng), 3 + u(rng), 150 + 100 * u(rng), 1e-3 * u(rng),
                      1e-3 * u(rng), 1 + 0.1 * u(rng));
    const int n = static_cast<int>((u(rng) + 1) * 120);
    std::vector<double> x(static_cast<std::size_t>(n)), y(x.size());
    for (int i = 0; i < n; ++i) {
      x[static_cast<std::size_t>(i)] = 200 * u(rng) + 150;
      y[static_cast<std::size_t>(i)] = 150 * u(rng) + 100;
      if (i % 17 == 3 && std::abs(h(2, 0)) > 1e-9) {  // on the horizon: w = 0 or within 1e-12
        y[static_cast<std::size_t>(i)] = 0;
        x[static_cast<std::size_t>(i)] = -h(2, 2) / h(2, 0) * (i % 2 ? 1.0 : 1.0 + 1e-14);
      }
    }
    std::vector<float> fx(x.size() + 1, 7.f), fy(x.size() + 1, 7.f), rx(x.size() + 1, 7.f), ry(x.size() + 1, 7.f);
    apply_h_points(h, x.data(), y.data(), n, fx.data(), fy.data());
    apply_h_points_ref(h, x.data(), y.data(), n, rx.data(), ry.data());
    for (int i = 0; i <= n; ++i) {  // (the element past n: not written)
      ASSERT_EQ(bits(fx[static_cast<std::size_t>(i)]), bits(rx[static_cast<std::size_t>(i)])) << t << " " << i;
      ASSERT_EQ(bits(fy[static_cast<std::size_t>(i)]), bits(ry[static_cast<std::size_t>(i)])) << t << " " << i;
      far_seen += i < n && rx[static_cast<std::size_t>(i)] == 1e9f;
    }
    // The doubles before the conversion: every bit (a sum taken in another order differs here).
    std::vector<double> dx(x.size()), dy(x.size()), ex(x.size()), ey(x.size());
    apply_h_points_f64(h, x.data(), y.data(), n, dx.data(), dy.data());
    apply_h_points_f64_ref(h, x.data(), y.data(), n, ex.data(), ey.data());
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      ASSERT_EQ(std::memcmp(&dx[k], &ex[k], sizeof(double)), 0) << t << " " << i << " " << dx[k] << " " << ex[k];
      ASSERT_EQ(std::memcmp(&dy[k], &ey[k], sizeof(double)), 0) << t << " " << i << " " << dy[k] << " " << ey[k];
    }
    points += n;
  }
  EXPECT_GT(far_seen, 10);
  EXPECT_GT(points, 300000);
}
