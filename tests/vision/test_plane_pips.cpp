// The white/black pip look's pieces (die_face.h): find_plane_pips (pip-shaped islands of
// one polarity on the top plane at the camera's resolution, side-face pips left out) and
// top_face_hypotheses (the pips grouped into standard layouts at the face's real size, the
// top face first), on synthetic top-plane views of a die drawn at 3 px/mm.
#include <gtest/gtest.h>
#include <algorithm>

#include <cmath>
#include <filesystem>
#include <random>
#include <tuple>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/die_face.h"

namespace hexdice::vision {
namespace {

constexpr double kPx = 3.0;  // image px per plane mm
const cv::Matx33d kPlaneToImage(kPx, 0, 0, 0, kPx, 0, 0, 0, 1);

cv::Point to_px(cv::Point2d mm) { return {cvRound(mm.x * kPx * 16), cvRound(mm.y * kPx * 16)}; }  // 4 fractional bits

struct DrawnDie {
  cv::Mat image;
  std::vector<cv::Point2d> top_pips;  // plane mm
};

// A die seen on its top plane: the 16 mm top (body grey level), turned by angle, centred at
// c; when d is given, the side face towards d (the top's edge facing it, swept along d, a
// little darker) with that face's pips squeezed along d, as a tilted camera sees them; a
// printed grid line through the scene. Pips of `pip` grey, blurred a little.
DrawnDie draw_die(int face, double angle_deg, cv::Point2d c, cv::Point2d d, int body, int side, int pip, int paper = 225) {
  DrawnDie out;
  out.image = cv::Mat(240, 240, CV_8UC3, cv::Scalar(paper, paper, paper));
  cv::line(out.image, to_px({2, 70}), to_px({78, 62}), cv::Scalar(60, 60, 60), cvRound(0.6 * kPx), cv::LINE_AA, 4);
  const double a = angle_deg * CV_PI / 180, ca = std::cos(a), sa = std::sin(a);
  auto on_top = [&](double u, double v) { return c + cv::Point2d(ca * u - sa * v, sa * u + ca * v); };
  if (cv::norm(d) > 0) {
    // The edge at u = +8 (choose the die's turn so it faces d) swept along d.
    const cv::Point2d e0 = on_top(8, -8), e1 = on_top(8, 8);
    std::vector<cv::Point> quad{to_px(e0), to_px(e1), to_px(e1 + d), to_px(e0 + d)};
    cv::fillConvexPoly(out.image, quad, cv::Scalar(side, side, side), cv::LINE_AA, 4);
    // Its pips (a 5): on the side face at lateral v and height h below the top edge.
    const double k = cv::norm(d) / 16;
    const cv::Point2d du = d * (1.0 / cv::norm(d));
    for (const auto& [v, h] : std::vector<std::pair<double, double>>{{-4.32, 3.68}, {4.32, 3.68}, {0, 8}, {-4.32, 12.32}, {4.32, 12.32}}) {
      const cv::Point2d p = on_top(8, v) + d * (h / 16);
      const double ang = std::atan2(du.y, du.x) * 180 / CV_PI;
      cv::ellipse(out.image, cv::RotatedRect(cv::Point2f(static_cast<float>(p.x * kPx), static_cast<float>(p.y * kPx)),
                                             cv::Size2f(static_cast<float>(2.9 * k * kPx), static_cast<float>(2.9 * kPx)),
                                             static_cast<float>(ang)),
                  cv::Scalar(pip, pip, pip), cv::FILLED, cv::LINE_AA);
    }
  }
  std::vector<cv::Point> sq;
  for (const auto& [u, v] : std::vector<std::pair<double, double>>{{-8, -8}, {8, -8}, {8, 8}, {-8, 8}}) sq.push_back(to_px(on_top(u, v)));
  cv::fillConvexPoly(out.image, sq, cv::Scalar(body, body, body), cv::LINE_AA, 4);
  for (const cv::Point2f& q : pip_layout(face)) {
    const cv::Point2d p = on_top(q.x * 16, q.y * 16);
    out.top_pips.push_back(p);
    cv::circle(out.image, to_px(p), cvRound(1.45 * kPx * 16), cv::Scalar(pip, pip, pip), cv::FILLED, cv::LINE_AA, 4);
  }
  cv::GaussianBlur(out.image, out.image, cv::Size(0, 0), 0.7);
  return out;
}

double nearest(const std::vector<cv::Point2d>& v, cv::Point2d p) {
  double best = 1e9;
  for (const auto& q : v) best = std::min(best, cv::norm(q - p));
  return best;
}

// White dice (dark pips) and black dice (light pips), every face, turned, off the search
// centre: exactly the top face's pips are found, and the first hypothesis is that face.
TEST(PlanePips, TopPipsOfWhiteAndBlackDiceAtAnyTurn) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  int n = 0, found_exact = 0, first_right = 0;
  for (const bool white : {true, false})
    for (int face = 1; face <= 6; ++face)
      for (int i = 0; i < 6; ++i) {
        const double ang = 90 * u(rng);
        const cv::Point2d c(40 + 8 * (u(rng) - 0.5), 40 + 8 * (u(rng) - 0.5));
        const DrawnDie die = white ? draw_die(face, ang, c, {}, 240, 0, 20) : draw_die(face, ang, c, {}, 15, 0, 235);
        const float thr = 0.6f * 4 * 225;
        const auto pips = find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, white, thr, {0, 0});
        ++n;
        bool exact = pips.size() == die.top_pips.size();
        for (const auto& p : die.top_pips) exact = exact && nearest(pips, p) < 0.5;
        found_exact += exact;
        const auto hyps = top_face_hypotheses(pips, {0, 0});
        if (!hyps.empty() && hyps[0].count == face && cv::norm(hyps[0].centre_mm - c) < 0.5) ++first_right;
        else ADD_FAILURE() << (white ? "white " : "black ") << face << " at " << ang << " deg: " << pips.size() << " pips, "
                           << (hyps.empty() ? 0 : hyps[0].count);
      }
  EXPECT_EQ(found_exact, n);
  EXPECT_EQ(first_right, n);
}

// The plane is sampled at 2x the camera's own px/mm (at least 3, at most px_per_mm; branch
// speed9): a camera seeing the die at 1.8 px/mm (the 720p bench frame's) or 1.2 px/mm, the
// plane sampled at 3.6 / 3 px/mm instead of 6, still gives exactly the top face's pips, the
// first hypothesis that face, and leaves a side face's pips out.
TEST(PlanePips, TopPipsAtTheCameraResolution) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(0, 1);
  for (const double cam : {1.8, 1.2}) {
    const cv::Matx33d to_image(cam, 0, 0, 0, cam, 0, 0, 0, 1);
    auto seen = [&](const cv::Mat& drawn) {
      cv::Mat m;
      cv::resize(drawn, m, cv::Size(), cam / kPx, cam / kPx, cv::INTER_AREA);
      return m;
    };
    for (const bool white : {true, false})
      for (int face = 1; face <= 6; ++face) {
        const double ang = 90 * u(rng);
        const cv::Point2d c(40 + 8 * (u(rng) - 0.5), 40 + 8 * (u(rng) - 0.5));
        const DrawnDie die = white ? draw_die(face, ang, c, {}, 240, 0, 20) : draw_die(face, ang, c, {}, 15, 0, 235);
        const auto pips = find_plane_pips(seen(die.image), to_image, {40, 40}, 15, white, 0.6f * 4 * 225, {0, 0});
        EXPECT_EQ(pips.size(), die.top_pips.size()) << cam << (white ? " white " : " black ") << face;
        for (const auto& p : die.top_pips) EXPECT_LT(nearest(pips, p), 0.5) << cam << (white ? " white " : " black ") << face;
        const auto hyps = top_face_hypotheses(pips, {0, 0});
        ASSERT_FALSE(hyps.empty()) << cam << (white ? " white " : " black ") << face;
        EXPECT_EQ(hyps[0].count, face);
        EXPECT_LT(cv::norm(hyps[0].centre_mm - c), 0.5);
      }
    if (cam < 1.5) continue;  // (the side test below needs the squeezed pips resolved: 1.8 px/mm)
    for (int face = 2; face <= 6; ++face) {
      const cv::Point2d c(40, 38), d(0.45 * 16, 0);
      const DrawnDie die = draw_die(face, 0, c, d, 240, 170, 20);
      const auto pips = find_plane_pips(seen(die.image), to_image, {40, 40}, 15, true, 0.6f * 4 * 225, d);
      EXPECT_EQ(pips.size(), static_cast<std::size_t>(face)) << "side, face " << face;
    }
  }
}

// Seen from the side (parallax d, 0.3-0.6 of the face): the side face's pips, squeezed
// along d, are left out; the top face is read alone, whatever its count.
TEST(PlanePips, SideFacePipsAreLeftOut) {
  for (const double k : {0.3, 0.45, 0.6})
    for (int face = 1; face <= 6; ++face) {
      const cv::Point2d c(40, 38), d(k * 16, 0);
      const DrawnDie die = draw_die(face, 0, c, d, 240, 170, 20);
      const auto pips = find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, true, 0.6f * 4 * 225, d);
      EXPECT_EQ(pips.size(), static_cast<std::size_t>(face)) << "k " << k << " face " << face;
      const auto hyps = top_face_hypotheses(pips, d);
      ASSERT_FALSE(hyps.empty()) << "k " << k << " face " << face;
      EXPECT_EQ(hyps[0].count, face);
      EXPECT_LT(cv::norm(hyps[0].centre_mm - c), 0.5);
    }
  // Without the squeeze test (no parallax given) the side pips are found too: the test is
  // what removes them.
  const cv::Point2d d(0.45 * 16, 0);
  const DrawnDie die = draw_die(2, 0, {40, 38}, d, 240, 170, 20);
  EXPECT_GT(find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, true, 0.6f * 4 * 225, {0, 0}).size(), 2u);
}

// (exact17) A face's pips give the face square's own turn (angle_deg, 0..90 degrees, in the
// plane's axes as cut_face_crop takes its angle): the board reader turns the camera-resolution
// look's square to it when the blob's angle is off the face. One pip has no turn (0).
TEST(PlanePips, LayoutGivesTheFaceTurn) {
  for (int face = 2; face <= 6; ++face)
    for (const double ang : {0.0, 12.0, 37.0, 58.0, 84.0, 106.0, 151.0}) {
      const double a = ang * CV_PI / 180, c = std::cos(a), s = std::sin(a);
      std::vector<cv::Point2d> pips;
      for (const auto& p : pip_layout(face)) pips.emplace_back(40 + 16 * (c * p.x - s * p.y), 40 + 16 * (s * p.x + c * p.y));
      const auto hyps = top_face_hypotheses(pips, {0, 0});
      ASSERT_FALSE(hyps.empty()) << face << " at " << ang;
      EXPECT_EQ(hyps[0].count, face);
      EXPECT_GE(hyps[0].angle_deg, 0);
      EXPECT_LT(hyps[0].angle_deg, 90);
      const double d = std::fmod(hyps[0].angle_deg - ang + 720.0, 90.0);
      EXPECT_LE(std::min(d, 90 - d), 1.0) << face << " at " << ang << ": " << hyps[0].angle_deg;
    }
  const auto one = top_face_hypotheses({{40, 40}}, {0, 0});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].angle_deg, 0);
}

// Not pips: a grid line, the paper round a black die (light but not an island), blank
// faces; a set of pips at the wrong scale is no face.
TEST(PlanePips, NoPipsWhereThereAreNone) {
  cv::Mat paper(240, 240, CV_8UC3, cv::Scalar(225, 225, 225));
  cv::line(paper, {0, 200}, {239, 170}, cv::Scalar(60, 60, 60), 2);
  EXPECT_TRUE(find_plane_pips(paper, kPlaneToImage, {40, 40}, 15, true, 540, {0, 0}).empty());
  EXPECT_TRUE(find_plane_pips(paper, kPlaneToImage, {40, 40}, 15, false, 540, {0, 0}).empty());
  cv::Mat blank(240, 240, CV_8UC3, cv::Scalar(225, 225, 225));
  cv::rectangle(blank, cv::Rect(96, 96, 48, 48), cv::Scalar(15, 15, 15), cv::FILLED);
  EXPECT_TRUE(find_plane_pips(blank, kPlaneToImage, {40, 40}, 15, false, 540, {0, 0}).empty());
  EXPECT_TRUE(find_plane_pips(cv::Mat(), kPlaneToImage, {40, 40}, 15, true, 540, {0, 0}).empty());
  // Four pips on a square of 6 mm (a 16 mm die's are 8.64 apart): no face of 4.
  const std::vector<cv::Point2d> small{{37, 37}, {43, 37}, {37, 43}, {43, 43}};
  for (const auto& h : top_face_hypotheses(small, {0, 0})) EXPECT_NE(h.count, 4);
  EXPECT_TRUE(top_face_hypotheses({}, {0, 0}).empty());
}

// One sampling for several thresholds (the cache kept between calls, thresholds in one call)
// finds exactly what one call per threshold finds; a threshold is strict on the integer
// luminance either side of it (lum < t for dark pips, lum > t for light ones), and
// thresholds past the luminance's range find no pips rather than everything.
TEST(PlanePips, OneSamplingForAllThresholdsFindsTheSamePips) {
  for (const bool white : {true, false}) {
    const DrawnDie die = white ? draw_die(5, 20, {41, 39}, {}, 240, 0, 20) : draw_die(6, 35, {39, 41}, {}, 15, 0, 235);
    const std::vector<float> thr = white ? std::vector<float>{540, 405, 300.5f} : std::vector<float>{540, 675, 810.5f};
    PlaneSample cache;
    const auto first = find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, white, std::vector<float>{thr[0]}, {0, 0}, PlanePipParams{}, &cache);
    const auto rest = find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, white, std::vector<float>(thr.begin() + 1, thr.end()), {0, 0},
                                      PlanePipParams{}, &cache);
    ASSERT_EQ(first.size(), 1u);
    ASSERT_EQ(rest.size(), thr.size() - 1);
    for (std::size_t i = 0; i < thr.size(); ++i) {
      const auto alone = find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, white, thr[i], {0, 0});
      const auto& got = i == 0 ? first[0] : rest[i - 1];
      EXPECT_EQ(got, alone) << (white ? "white" : "black") << " threshold " << thr[i];
      EXPECT_EQ(alone.size(), white ? 5u : 6u) << (white ? "white" : "black") << " threshold " << thr[i];
    }
  }
  const DrawnDie w = draw_die(3, 0, {40, 40}, {}, 240, 0, 20);
  EXPECT_TRUE(find_plane_pips(w.image, kPlaneToImage, {40, 40}, 15, true, 0.0f, {0, 0}).empty());
  EXPECT_TRUE(find_plane_pips(w.image, kPlaneToImage, {40, 40}, 15, true, -5.0f, {0, 0}).empty());
  EXPECT_TRUE(find_plane_pips(w.image, kPlaneToImage, {40, 40}, 15, false, 1e6f, {0, 0}).empty());
  // Dark pips of lum exactly 80 (grey 20: 20 + 2 * 20 + 20, the blur's rim aside): a
  // threshold of 80 leaves their flat cores out, 81 keeps them.
  cv::Mat flat(240, 240, CV_8UC3, cv::Scalar(240, 240, 240));
  for (const cv::Point2f& q : pip_layout(2)) cv::circle(flat, to_px({40 + q.x * 16, 40 + q.y * 16}), cvRound(1.45 * kPx * 16), cv::Scalar(20, 20, 20), cv::FILLED, cv::LINE_8, 4);
  EXPECT_TRUE(find_plane_pips(flat, kPlaneToImage, {40, 40}, 15, true, 80.0f, {0, 0}).empty());
  EXPECT_EQ(find_plane_pips(flat, kPlaneToImage, {40, 40}, 15, true, 80.5f, {0, 0}).size(), 2u);
  EXPECT_EQ(find_plane_pips(flat, kPlaneToImage, {40, 40}, 15, true, 81.0f, {0, 0}).size(), 2u);
}

// label_runs (die_face.h) against OpenCV: on random masks of every density, odd and even
// sizes, blobs and noise, with and without row spans, serial and threaded OpenCV, the same
// components in the same order (component c = label c + 1: the labels image rebuilt from the
// runs is OpenCV's), the same boxes, areas and centroids (bit for bit).
TEST(PlanePips, RunLabellingIsConnectedComponentsWithStats) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(0, 1);
  RunLabels rl;
  int masks = 0, comps = 0;
  const int threads0 = cv::getNumThreads();
  for (const int threads : {1, std::max(2, threads0)}) {
    cv::setNumThreads(threads);
    for (int it = 0; it < 120; ++it) {
      const int rows = 1 + static_cast<int>(u(rng) * 190), cols = 1 + static_cast<int>(u(rng) * 190);
      cv::Mat mask(rows, cols, CV_8U, cv::Scalar(0));
      const int kind = it % 4;
      if (kind == 0) {  // salt noise of some density
        const double p = u(rng);
        for (int y = 0; y < rows; ++y)
          for (int x = 0; x < cols; ++x) mask.at<uchar>(y, x) = u(rng) < p ? static_cast<uchar>(1 + static_cast<int>(u(rng) * 254)) : 0;
      } else if (kind == 1) {  // discs and lines, pip-like
        for (int k = 0; k < 25; ++k)
          cv::circle(mask, {static_cast<int>(u(rng) * cols), static_cast<int>(u(rng) * rows)}, static_cast<int>(u(rng) * 12), cv::Scalar(255), cv::FILLED);
        for (int k = 0; k < 4; ++k)
          cv::line(mask, {static_cast<int>(u(rng) * cols), static_cast<int>(u(rng) * rows)},
                   {static_cast<int>(u(rng) * cols), static_cast<int>(u(rng) * rows)}, cv::Scalar(255), 1 + static_cast<int>(u(rng) * 3));
      } else if (kind == 2) {  // thresholded smooth noise (large winding blobs, holes)
        cv::Mat f(rows, cols, CV_32F);
        cv::randu(f, 0, 1);
        cv::GaussianBlur(f, f, cv::Size(0, 0), 1 + 3 * u(rng));
        mask = f > 0.5;
      } else {  // diagonal touching only (8- but not 4-connected), checkerboards
        for (int y = 0; y < rows; ++y)
          for (int x = 0; x < cols; ++x) mask.at<uchar>(y, x) = ((x + y) % 2 == 0 && u(rng) < 0.9) ? 255 : 0;
      }
      std::vector<int> x0(static_cast<std::size_t>(rows)), x1(static_cast<std::size_t>(rows));
      const bool spans = it % 3 == 1;
      cv::Mat in = mask.clone();
      if (spans) {
        for (int y = 0; y < rows; ++y) {
          x0[static_cast<std::size_t>(y)] = static_cast<int>(u(rng) * cols) - 5;
          x1[static_cast<std::size_t>(y)] = x0[static_cast<std::size_t>(y)] + static_cast<int>(u(rng) * (cols + 10));
          for (int x = 0; x < cols; ++x)
            if (x < x0[static_cast<std::size_t>(y)] || x >= x1[static_cast<std::size_t>(y)]) in.at<uchar>(y, x) = 0;
        }
      }
      cv::Mat labels, stats, cents;
      const int ncv = cv::connectedComponentsWithStats(in, labels, stats, cents, 8, CV_32S);
      const int n = spans ? label_runs(mask, rl, x0.data(), x1.data()) : label_runs(mask, rl);
      ++masks;
      ASSERT_EQ(n, ncv - 1) << "mask " << it << " threads " << threads;
      cv::Mat mine(rows, cols, CV_32S, cv::Scalar(0));
      for (int c = 0; c < n; ++c) {
        ++comps;
        for (int k = rl.comp_begin[static_cast<std::size_t>(c)]; k < rl.comp_begin[static_cast<std::size_t>(c) + 1]; ++k) {
          const MaskRun& r = rl.runs[static_cast<std::size_t>(rl.comp_runs[static_cast<std::size_t>(k)])];
          if (k > rl.comp_begin[static_cast<std::size_t>(c)]) {  // raster order
            const MaskRun& q = rl.runs[static_cast<std::size_t>(rl.comp_runs[static_cast<std::size_t>(k - 1)])];
            EXPECT_TRUE(q.y < r.y || (q.y == r.y && q.x1 < r.x0));
          }
          for (int x = r.x0; x < r.x1; ++x) mine.at<int>(r.y, x) = c + 1;
        }
        const RunComponent& m = rl.comps[static_cast<std::size_t>(c)];
        EXPECT_EQ(m.left, stats.at<int>(c + 1, cv::CC_STAT_LEFT));
        EXPECT_EQ(m.top, stats.at<int>(c + 1, cv::CC_STAT_TOP));
        EXPECT_EQ(m.right - m.left + 1, stats.at<int>(c + 1, cv::CC_STAT_WIDTH));
        EXPECT_EQ(m.bottom - m.top + 1, stats.at<int>(c + 1, cv::CC_STAT_HEIGHT));
        EXPECT_EQ(m.area, stats.at<int>(c + 1, cv::CC_STAT_AREA));
        EXPECT_EQ(m.cx, cents.at<double>(c + 1, 0));
        EXPECT_EQ(m.cy, cents.at<double>(c + 1, 1));
      }
      ASSERT_EQ(cv::countNonZero(mine != labels), 0) << "mask " << it << " kind " << kind << " threads " << threads;
    }
  }
  cv::setNumThreads(threads0);
  EXPECT_EQ(masks, 240);
  EXPECT_GT(comps, 5000);
  EXPECT_EQ(label_runs(cv::Mat(7, 9, CV_8U, cv::Scalar(0)), rl), 0);
  EXPECT_EQ(label_runs(cv::Mat(7, 9, CV_8U, cv::Scalar(3)), rl), 1);
  EXPECT_EQ(rl.comps[0].area, 63);
}

// (speed36) find_plane_pips samples only its search disc grown by the island ring's width
// (the pixels its tests read), not the square round it: pips near the disc's edge, whose rings
// reach past it, with arcs of the pip's polarity in their rings (near the ring_fraction
// bar), both polarities, against find_plane_pips_reference (the whole square) bit for bit.
TEST(PlanePips, PipsAtTheSearchDiscsEdgeAreTheReferences) {
  std::mt19937 rng(3636);
  std::uniform_real_distribution<double> u(0, 1);
  const cv::Point2d c(40, 40);
  std::size_t pips = 0;
  for (int k = 0; k < 600; ++k) {
    const bool dark = k % 2 == 0;
    const int body = dark ? 235 : 25, pip = dark ? 30 : 220;
    cv::Mat img(240, 240, CV_8UC3, cv::Scalar::all(body));
    // The pip's centre 12.6 .. 13.1 mm from the disc's (radius 15 mm): its ring crosses the edge.
    const double a = 2 * CV_PI * u(rng), dist = 12.6 + 0.5 * u(rng);
    const cv::Point2d p = c + dist * cv::Point2d(std::cos(a), std::sin(a));
    cv::circle(img, to_px(p), cvRound(1.45 * kPx * 16), cv::Scalar::all(pip), cv::FILLED, cv::LINE_AA, 4);
    // An arc of the pip's polarity in its ring (0.8 mm wide), on the side towards the disc's
    // centre, over 60 .. 160 degrees: the ring's share of the other polarity near the bar.
    const double turn = a * 180 / CV_PI + 180, span = 60 + 100 * u(rng);
    cv::ellipse(img, to_px(p), cv::Size(cvRound(2.05 * kPx * 16), cvRound(2.05 * kPx * 16)), turn, -span / 2, span / 2,
                cv::Scalar::all(pip), cvRound(0.6 * kPx), cv::LINE_AA, 4);
    const std::vector<float> thr{540, 405, 675};
    PlanePipParams pp;  // rings of 0.8 .. 3.2 mm (5 .. 19 px here): up to ~20 px past the disc
    pp.ring_mm = k % 3 == 0 ? 0.8 : 1.2 + 2.0 * u(rng);
    PlaneSample sa, sb;
    const auto want = find_plane_pips_reference(img, kPlaneToImage, c, 15, dark, thr, {0, 0}, pp, &sa);
    const auto got = find_plane_pips(img, kPlaneToImage, c, 15, dark, thr, {0, 0}, pp, &sb);
    ASSERT_EQ(got, want) << "case " << k << " pip at " << p << " dark " << dark;
    for (const auto& g : got) pips += g.size();
    // The other polarity from the cached sample.
    EXPECT_EQ(find_plane_pips(img, kPlaneToImage, c, 15, !dark, thr, {0, 0}, pp, &sb),
              find_plane_pips_reference(img, kPlaneToImage, c, 15, !dark, thr, {0, 0}, pp, &sa));
    // A sample cached by a call with a narrower ring (its spans grown less) is not used by one
    // with a wider ring: that call samples again (PlaneSample::ring).
    if (pp.ring_mm > 0.8) {
      PlanePipParams narrow = pp;
      narrow.ring_mm = 0.8;
      PlaneSample sc;
      (void)find_plane_pips(img, kPlaneToImage, c, 15, dark, thr, {0, 0}, narrow, &sc);
      const int narrow_ring = sc.ring;
      EXPECT_EQ(find_plane_pips(img, kPlaneToImage, c, 15, dark, thr, {0, 0}, pp, &sc), want) << "case " << k << " (narrow cache)";
      EXPECT_GT(sc.ring, narrow_ring) << "case " << k << ": the narrow sample was used again";
    }
  }
  EXPECT_GT(pips, 300u);
}

// find_plane_pips (runs, scratch kept between calls) gives exactly the pips of
// find_plane_pips_reference (OpenCV's labels image): synthetic white and black dice with and
// without side faces, and the committed scenes' camera images sampled round many points at
// several scales, turns, perspectives, parallaxes and thresholds, both polarities, with
// and without the cached sample.
TEST(PlanePips, RunFormFindsTheReferencePipsBitForBit) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(0, 1);
  int calls = 0;
  std::size_t pips = 0;
  auto same = [&](const cv::Mat& img, const cv::Matx33d& h, cv::Point2d c, double r, bool dark, const std::vector<float>& thr, cv::Point2d d) {
    PlaneSample a, b;
    const auto want = find_plane_pips_reference(img, h, c, r, dark, thr, d, PlanePipParams{}, &a);
    const auto got = find_plane_pips(img, h, c, r, dark, thr, d, PlanePipParams{}, &b);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].size(), want[i].size()) << "call " << calls << " threshold " << thr[i];
      for (std::size_t j = 0; j < got[i].size(); ++j) {
        EXPECT_EQ(got[i][j].x, want[i][j].x);
        EXPECT_EQ(got[i][j].y, want[i][j].y);
      }
      pips += got[i].size();
    }
    // Again from the cached sample (the other polarity's call of the fine pip look).
    const auto again = find_plane_pips(img, h, c, r, !dark, thr, d, PlanePipParams{}, &b);
    const auto again_ref = find_plane_pips_reference(img, h, c, r, !dark, thr, d, PlanePipParams{}, &a);
    EXPECT_EQ(again, again_ref);
    ++calls;
  };
  for (const bool white : {true, false})
    for (int face = 1; face <= 6; ++face)
      for (int i = 0; i < 3; ++i) {
        const cv::Point2d d = i == 0 ? cv::Point2d(0, 0) : cv::Point2d(4 + 4 * u(rng), 2 * u(rng));
        const DrawnDie die = white ? draw_die(face, 90 * u(rng), {40 + 4 * u(rng), 40}, d, 235, 160, 30)
                                   : draw_die(face, 90 * u(rng), {40, 40 - 4 * u(rng)}, d, 25, 10, 220);
        same(die.image, kPlaneToImage, {40, 40}, 15, white, {540, 405, 300.5f, 675, 810.5f}, d);
      }
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  for (const char* name : {"scene_000.jpg", "scene_007.jpg", "scene_018.jpg", "scene_027.jpg"}) {
    const cv::Mat img = cv::imread((dir / name).string());
    ASSERT_FALSE(img.empty()) << name;
    for (int k = 0; k < 25; ++k) {
      // A plane of 1.5-4 px/mm, turned, slightly in perspective, round a random point.
      const double ppm = 1.5 + 2.5 * u(rng), a = 2 * CV_PI * u(rng);
      const cv::Point2d at(img.cols * u(rng), img.rows * u(rng));
      const cv::Matx33d h(ppm * std::cos(a), -ppm * std::sin(a), at.x, ppm * std::sin(a), ppm * std::cos(a), at.y,
                          2e-4 * (u(rng) - 0.5), 2e-4 * (u(rng) - 0.5), 1);
      const cv::Point2d c(20 * (u(rng) - 0.5), 20 * (u(rng) - 0.5));
      const float paper = static_cast<float>(4 * (150 + 80 * u(rng)));
      same(img, h, c, 15.1 + u(rng), k % 2 == 0, {0.6f * paper, 0.45f * paper, 0.75f * paper, 0.9f * paper},
           cv::Point2d(8 * (u(rng) - 0.5), 8 * (u(rng) - 0.5)));
    }
  }
  EXPECT_EQ(calls, 136);
  EXPECT_GT(pips, 300u);  // the comparison is of real pips, not of empty lists
}

// search_top_faces (the fine pip look's and the no-blob look's shared search) visits what the
// loop it replaced visited: threshold by threshold, the hypotheses of that threshold's pips
// (one find_plane_pips call per threshold) whose centre is within the offset, the first three
// of them, in order; a visit returning true stops it there (no later threshold is looked at).
TEST(PlanePips, TopFaceSearchVisitsTheHypothesesInOrder) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(0, 1);
  int dice = 0, visits = 0;
  for (const bool white : {true, false})
    for (int face = 1; face <= 6; ++face) {
      const cv::Point2d d = face % 2 ? cv::Point2d(0, 0) : cv::Point2d(5, 1);
      const DrawnDie die = white ? draw_die(face, 90 * u(rng), {40 + 3 * u(rng), 41}, d, 235, 160, 30)
                                 : draw_die(face, 90 * u(rng), {39, 40 + 3 * u(rng)}, d, 25, 10, 220);
      const std::vector<float> thr = white ? std::vector<float>{540, 405} : std::vector<float>{540, 675, 810};
      const double max_offset = face % 3 == 0 ? 2.0 : 7.5;
      // What the replaced loop visited.
      std::vector<std::tuple<std::size_t, double, double, int>> want;
      for (std::size_t ti = 0; ti < thr.size(); ++ti) {
        const auto pips = find_plane_pips(die.image, kPlaneToImage, {40, 40}, 15, white, thr[ti], d);
        int tried = 0;
        for (const TopFacePips& h : top_face_hypotheses(pips, d)) {
          if (cv::norm(h.centre_mm - cv::Point2d(40, 40)) > max_offset || tried >= 3) continue;
          ++tried;
          want.emplace_back(ti, h.centre_mm.x, h.centre_mm.y, h.count);
        }
      }
      PlaneSample sample;
      std::vector<std::tuple<std::size_t, double, double, int>> got;
      std::size_t thresholds_seen = 0;
      const bool stopped = search_top_faces(
          die.image, kPlaneToImage, {40, 40}, 15, white, thr, d, max_offset, sample,
          [&](std::size_t ti, const std::vector<cv::Point2d>&, const TopFacePips& h) {
            got.emplace_back(ti, h.centre_mm.x, h.centre_mm.y, h.count);
            return false;
          },
          [&](std::size_t, const std::vector<cv::Point2d>&, const std::vector<TopFacePips>&) { ++thresholds_seen; });
      EXPECT_FALSE(stopped);
      EXPECT_EQ(got, want) << (white ? "white " : "black ") << face;
      EXPECT_EQ(thresholds_seen, thr.size());
      // Stopped at the first visit: only that one, and no later threshold looked at.
      if (!want.empty()) {
        PlaneSample s2;
        std::size_t seen2 = 0;
        int n = 0;
        EXPECT_TRUE(search_top_faces(
            die.image, kPlaneToImage, {40, 40}, 15, white, thr, d, max_offset, s2,
            [&](std::size_t, const std::vector<cv::Point2d>&, const TopFacePips&) { return ++n == 1; },
            [&](std::size_t, const std::vector<cv::Point2d>&, const std::vector<TopFacePips>&) { ++seen2; }));
        EXPECT_EQ(n, 1);
        EXPECT_EQ(seen2, std::get<0>(want[0]) + 1);
      }
      ++dice;
      visits += static_cast<int>(got.size());
    }
  EXPECT_EQ(dice, 12);
  EXPECT_GE(visits, 12);  // the comparison is of real visits, not of empty lists
  PlaneSample none;
  EXPECT_FALSE(search_top_faces(cv::Mat(), kPlaneToImage, {40, 40}, 15, true, {540}, {0, 0}, 7.5, none,
                                [](std::size_t, const std::vector<cv::Point2d>&, const TopFacePips&) { return true; }));
  EXPECT_FALSE(search_top_faces(cv::Mat(), kPlaneToImage, {40, 40}, 15, true, {}, {0, 0}, 7.5, none,
                                [](std::size_t, const std::vector<cv::Point2d>&, const TopFacePips&) { return true; }));
}

// (robust40) drop_min_pips: the light pips the fine look found on gain3 3118's black 4 at (0,-3)
// (plane mm from the cell's centre): the face's four and a speck of the noise near its top edge,
// all within one face's reach. As five they fit no layout, and the face's lone corner pips stood
// as 1s; without the speck they are the 4, found first. A set that fits keeps all its pips (a 5
// stays a 5), and a set of pips no drop makes a layout gives nothing more.
TEST(PlanePips, ASpeckAmongAFacesPipsIsDropped) {
  const std::vector<cv::Point2d> pips{{-1.2, -6.7}, {2.4, -6.1}, {6.5, -3.7}, {-4.6, 1.2}, {3.5, 4.4}};
  const std::vector<TopFacePips> plain = top_face_hypotheses(pips, {0, 0});
  ASSERT_FALSE(plain.empty());
  for (const auto& h : plain) EXPECT_EQ(h.count, 1) << "no face of more than one pip without the drop";
  const std::vector<TopFacePips> dropped = top_face_hypotheses(pips, {0, 0}, 16.0, 4);
  ASSERT_FALSE(dropped.empty());
  EXPECT_EQ(dropped[0].count, 4);
  EXPECT_NEAR(dropped[0].centre_mm.x, 1.05, 0.05);
  EXPECT_NEAR(dropped[0].centre_mm.y, -1.2, 0.05);
  EXPECT_LE(dropped[0].fit, 0.06);
  // (robust42) The speck it left out is named (the reader's own-cell and token tests skip it).
  EXPECT_EQ(dropped[0].dropped, 1);
  EXPECT_EQ(dropped[0].dropped_mm, pips[1]) << "the speck near the top edge";
  for (const auto& h : dropped) EXPECT_NE(h.count, 1) << "the 4's corner pips are part of it";
  // A whole 5 (0.27 face = 4.32 mm) stays a 5, with and without the drop, and drops nothing.
  const std::vector<cv::Point2d> five{{-4.32, -4.32}, {4.32, -4.32}, {0, 0}, {-4.32, 4.32}, {4.32, 4.32}};
  for (const bool drop : {false, true}) {
    const auto h = top_face_hypotheses(five, {0, 0}, 16.0, drop ? 4 : 0);
    ASSERT_FALSE(h.empty());
    EXPECT_EQ(h[0].count, 5) << drop;
    EXPECT_EQ(h[0].dropped, 0) << drop;
  }
  // Three pips in a row 2 mm apart: no layout with or without one of them.
  const std::vector<cv::Point2d> row{{-2, 0}, {0, 0}, {2, 0}};
  EXPECT_TRUE(top_face_hypotheses(row, {0, 0}, 16.0, 3).empty());
}

// (robust41) gain3 3107 (3,2)'s four light pips at 0.90 of the paper (plane mm from the cell
// centre): a black 5 less one corner pip. No layout alone (with the drop three of them are a 3);
// with missing_pip_fit 0.06 a 5 centred on the 5's centre pip, one pip missing, listed first. A 6
// less one pip, turned 30 degrees, is a 6 at its centre; three pips in a row stay no face.
// (session 40, the round's review) A 4 with a speck at a side's middle is a 6 less one pip, and a
// 3 with a speck at a free corner a 5 less one: the drop's 4 and 3 are offered after them (the
// completion stood alone before the mend, and the right face was never tried).
TEST(PlanePips, AFaceLessOnePipIsCompleted) {
  const std::vector<cv::Point2d> pips{{-7.0, -6.7}, {-1.9, -3.4}, {3.0, 0.1}, {-5.5, 2.0}};
  for (const auto& h : top_face_hypotheses(pips, {0, 0}, 16.0, 4)) EXPECT_LT(h.count, 4) << "no face of four or more without the rule";
  const std::vector<TopFacePips> done = top_face_hypotheses(pips, {0, 0}, 16.0, 4, 0.06);
  ASSERT_FALSE(done.empty());
  EXPECT_EQ(done[0].count, 5);
  EXPECT_EQ(done[0].missing, 1);
  EXPECT_LE(done[0].fit, 0.06);
  EXPECT_NEAR(done[0].centre_mm.x, -1.9, 0.6);
  EXPECT_NEAR(done[0].centre_mm.y, -3.4, 0.6);
  const double a = 0.27 * 16.0, c = std::cos(CV_PI / 6), sn = std::sin(CV_PI / 6);
  std::vector<cv::Point2d> six;
  for (const cv::Point2d q : {cv::Point2d(-a, -a), cv::Point2d(-a, 0), cv::Point2d(-a, a), cv::Point2d(a, -a), cv::Point2d(a, 0)})
    six.emplace_back(10 + c * q.x - sn * q.y, 5 + sn * q.x + c * q.y);
  const std::vector<TopFacePips> s6 = top_face_hypotheses(six, {0, 0}, 16.0, 0, 0.06);
  ASSERT_FALSE(s6.empty());
  EXPECT_EQ(s6[0].count, 6);
  EXPECT_EQ(s6[0].missing, 1);
  EXPECT_NEAR(s6[0].centre_mm.x, 10.0, 0.3);
  EXPECT_NEAR(s6[0].centre_mm.y, 5.0, 0.3);
  EXPECT_TRUE(top_face_hypotheses(six, {0, 0}, 16.0, 0, 0.0).empty()) << "no face without the rule";
  // A whole 5 is a 5 as it was (missing 0).
  const std::vector<cv::Point2d> five{{-a, -a}, {a, -a}, {0, 0}, {-a, a}, {a, a}};
  const auto h5 = top_face_hypotheses(five, {0, 0}, 16.0, 0, 0.06);
  ASSERT_FALSE(h5.empty());
  EXPECT_EQ(h5[0].count, 5);
  EXPECT_EQ(h5[0].missing, 0);
  const std::vector<cv::Point2d> row{{-2, 0}, {0, 0}, {2, 0}};
  EXPECT_TRUE(top_face_hypotheses(row, {0, 0}, 16.0, 3, 0.06).empty());
  const auto offered = [](const std::vector<TopFacePips>& h, int count, int missing) {
    return std::any_of(h.begin(), h.end(), [&](const TopFacePips& t) { return t.count == count && t.missing == missing; });
  };
  const std::vector<cv::Point2d> four_speck{{-a, -a}, {a, -a}, {-a, a}, {a, a}, {-a, 0.3}};
  const auto h4 = top_face_hypotheses(four_speck, {0, 0}, 16.0, 4, 0.06);
  ASSERT_FALSE(h4.empty());
  EXPECT_EQ(h4[0].count, 6) << "the completion first";
  EXPECT_TRUE(offered(h4, 4, 0)) << "the 4 without its speck offered too";
  const std::vector<cv::Point2d> three_speck{{-a, -a}, {0, 0}, {a, a}, {a - 0.3, -a}};
  const auto h3 = top_face_hypotheses(three_speck, {0, 0}, 16.0, 4, 0.06);
  EXPECT_TRUE(offered(h3, 5, 1)) << "a 5 less one pip";
  EXPECT_TRUE(offered(h3, 3, 0)) << "the 3 without its speck offered too";
}

}  // namespace
}  // namespace hexdice::vision
