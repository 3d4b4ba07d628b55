// Registration: homography from the markers, focal length estimate, the lifted plane.
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "vision/register.h"
#include "vision/sheet.h"
#include "vision/reader_synth.h"

namespace hexdice::vision {
namespace {

double max_error(const cv::Matx33d& a, const cv::Matx33d& b, const SheetLayout& layout) {
  double e = 0;
  for (const auto& c : layout.cells)
    e = std::max(e, cv::norm(apply_h(a, {c.centre.x, c.centre.y}) - apply_h(b, {c.centre.x, c.centre.y})));
  return e;
}

TEST(Register, ApplyHIsTheMatxProductToTheBit) {
  // apply_h (inline in register.h) must give the bits of h * (x, y, 1) and the division,
  // as it did when it used cv::Matx: the reader's results depend on them.
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-2, 2), big(-3000, 3000);
  for (int rep = 0; rep < 20000; ++rep) {
    const cv::Matx33d h(u(rng) * 3, u(rng), big(rng), u(rng), u(rng) * 3, big(rng), u(rng) * 1e-3, u(rng) * 1e-3,
                        1 + u(rng) * 0.1);
    const cv::Point2d p(big(rng) / 7, big(rng) / 9);
    const cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1.0);
    const cv::Point2d want(v[0] / v[2], v[1] / v[2]);
    const cv::Point2d got = apply_h(h, p);
    ASSERT_EQ(std::memcmp(&want, &got, sizeof want), 0) << rep;
  }
  EXPECT_EQ(apply_h(cv::Matx33d(1, 0, 0, 0, 1, 0, 0, 0, 0), {1, 1}), cv::Point2d(1e9, 1e9));  // at infinity
}

TEST(Register, NearestCentreIsTheLoopsAnswer) {
  // (Speed round 41) NearestCentre::nearest (the guard token's print test, per pixel) gives the
  // index the loop over every centre gives: on the standard sheet's cells and their neighbours
  // (each cell's own centre and the ones within 2.2 hex sizes, as the reader takes them), for
  // points all over and round each cell (inside, on the edges, at the corners where three
  // hexes tie, far outside, NaN); on random and crowded centres (ties, two at one place, one
  // alone, `own` not among them).
  const SheetLayout layout = standard_sheet();
  const double hs = layout.hex_size_mm;
  std::mt19937 rng(4102);
  std::uniform_real_distribution<double> u(-1.6, 1.6);
  long points = 0;
  for (std::size_t ci = 0; ci < layout.cells.size(); ++ci) {
    const auto& cell = layout.cells[ci];
    std::vector<cv::Point2d> near;
    std::size_t own = 0;
    for (std::size_t k = 0; k < layout.cells.size(); ++k)
      if (std::pow(layout.cells[k].centre.x - cell.centre.x, 2) + std::pow(layout.cells[k].centre.y - cell.centre.y, 2) <
          std::pow(2.2 * hs, 2)) {
        if (k == ci) own = near.size();
        near.emplace_back(layout.cells[k].centre.x, layout.cells[k].centre.y);
      }
    const NearestCentre nc(near, own);
    std::vector<cv::Point2d> at;
    for (int t = 0; t < 400; ++t) at.emplace_back(cell.centre.x + u(rng) * hs, cell.centre.y + u(rng) * hs);
    // Corners and edge midpoints (ties), and a hair either side of the shortcut's radius
    // (4 d^2 < 0.98 r^2, r the centres' spacing sqrt(3) hs: d < 0.857 hs).
    const double edge = 0.5 * std::sqrt(0.98) * std::sqrt(3.0);
    for (int t = 0; t < 6; ++t) {
      const double a = t * CV_PI / 3;
      for (const double f : {1.0, 0.866025403784438647, 0.495, 0.4949999, edge - 1e-7, edge, edge + 1e-7}) {
        at.emplace_back(cell.centre.x + f * hs * std::cos(a), cell.centre.y + f * hs * std::sin(a));
        at.emplace_back(cell.centre.x + f * hs * std::cos(a + CV_PI / 6), cell.centre.y + f * hs * std::sin(a + CV_PI / 6));
      }
    }
    at.emplace_back(cell.centre.x + 1e4, cell.centre.y);
    at.emplace_back(std::nan(""), cell.centre.y);
    for (const cv::Point2d& p : at) {
      ASSERT_EQ(nc.nearest(p), nc.nearest_loop(p)) << "cell " << ci << " at " << p;
      // The loop written out as the reader had it.
      std::size_t under = own;
      double bd = 1e18;
      for (std::size_t k = 0; k < near.size(); ++k) {
        const double ex = near[k].x - p.x, ey = near[k].y - p.y, dk = ex * ex + ey * ey;
        if (dk < bd) bd = dk, under = k;
      }
      ASSERT_EQ(nc.nearest_loop(p), under);
      ++points;
    }
  }
  // Crowded and odd sets of centres.
  std::uniform_real_distribution<double> v(0, 20);
  for (int t = 0; t < 3000; ++t) {
    std::vector<cv::Point2d> c;
    const int n = t % 9;
    for (int k = 0; k < n; ++k) c.emplace_back(std::round(v(rng)), std::round(v(rng)));  // integer: ties and repeats
    if (n >= 2 && t % 3 == 0) c[1] = c[0];
    const std::size_t own = static_cast<std::size_t>(t % 11);  // sometimes past the end
    const NearestCentre nc(c, own);
    for (int q = 0; q < 40; ++q) {
      const cv::Point2d p(q % 4 == 0 ? std::round(v(rng)) : v(rng), q % 4 == 0 ? std::round(v(rng)) + 0.5 : v(rng));
      ASSERT_EQ(nc.nearest(p), nc.nearest_loop(p)) << "set " << t << " at " << p;
    }
  }
  EXPECT_GT(points, 10000);
}

TEST(Register, StandardSheetGeometry) {
  const SheetLayout s = standard_sheet();
  ASSERT_EQ(s.markers.size(), 4u);
  EXPECT_DOUBLE_EQ(s.markers[0].corners[0].x, 10.0);
  EXPECT_DOUBLE_EQ(s.markers[1].corners[0].x, 247.0);
  EXPECT_DOUBLE_EQ(s.markers[2].corners[2].y, 410.0);
  EXPECT_EQ(s.cells.size(), 91u);
  for (const auto& c : s.cells)
    if (c.hex == Hex{0, 0}) {
      EXPECT_EQ(c.name, "f6");
      EXPECT_DOUBLE_EQ(c.centre.x, 148.5);
      EXPECT_DOUBLE_EQ(c.centre.y, 210.0);
    } else if (c.hex == Hex{0, -5}) {
      EXPECT_EQ(c.name, "f1");
    } else if (c.hex == Hex{0, 4}) {
      EXPECT_EQ(c.name, "f10");
    }
}

TEST(Register, LayoutJsonRoundTrip) {
  auto made = make_sheet(3, "a3");
  ASSERT_TRUE(made.ok()) << made.error();
  auto l = sheet_from_json_text(to_json_text(*made));
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(l->cells.size(), 37u);
  EXPECT_EQ(l->markers.size(), 4u);
  EXPECT_FALSE(sheet_from_json_text("{nope").ok());
  EXPECT_FALSE(sheet_from_json_text(R"({"radius": -2})").ok());
}

TEST(Register, TiltedViewHomographyAndFocal) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.tilt_deg = 35;
  o.camera.yaw_deg = 10;
  o.camera.fill = 0.8;  // all four markers inside the frame
  o.noise_sigma = 2;
  const SynthScene sc = render_synth_scene(layout, {}, o);
  const SheetPose pose = register_sheet(sc.image, layout);
  ASSERT_TRUE(pose.found);
  EXPECT_EQ(pose.marker_ids.size(), 4u);
  EXPECT_LT(max_error(pose.paper_to_image, sc.paper_to_image, layout), 1.5);
  ASSERT_TRUE(pose.focal_estimated);
  EXPECT_NEAR(pose.focal_px, sc.camera_matrix(0, 0), 0.05 * sc.camera_matrix(0, 0));
  // The lifted plane agrees with lifting the true homography with the true camera.
  const cv::Matx33d truth_top = lift_homography(sc.paper_to_image, 16.0, sc.camera_matrix);
  EXPECT_LT(max_error(pose.top_to_image, truth_top, layout), 2.0);
  // ... and differs from the paper plane by far more (the parallax being corrected).
  EXPECT_GT(max_error(pose.paper_to_image, pose.top_to_image, layout), 8.0);
}

TEST(Register, IntrinsicsFromCalibrationAreUsed) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.tilt_deg = 30;
  const SynthScene sc = render_synth_scene(layout, {}, o);
  CalibrationData calib;
  calib.camera = CameraIntrinsics{sc.camera_matrix, cv::Mat(), sc.image.size()};
  const SheetPose pose = register_sheet(sc.image, layout, &calib);
  ASSERT_TRUE(pose.found);
  EXPECT_FALSE(pose.focal_estimated);
  EXPECT_DOUBLE_EQ(pose.focal_px, sc.camera_matrix(0, 0));
}

TEST(Register, AnyTwoMarkersSuffice) {
  const SheetLayout layout = standard_sheet();
  // Diagonal pairs pin the sheet well; two markers along one edge leave the far side
  // extrapolated (measured ~9 px at the far cells of a 720p frame).
  for (auto [hidden, tol] : {std::pair{std::vector<int>{0, 1}, 12.0}, {{1, 2}, 12.0}, {{0, 2}, 3.0}, {{1, 3}, 3.0}}) {
    SynthOptions o;
    o.camera.tilt_deg = 20;
    o.hide_markers = hidden;
    const SynthScene sc = render_synth_scene(layout, {}, o);
    const SheetPose pose = register_sheet(sc.image, layout);
    ASSERT_TRUE(pose.found);
    EXPECT_EQ(pose.marker_ids.size(), 2u);
    EXPECT_LT(max_error(pose.paper_to_image, sc.paper_to_image, layout), tol) << hidden[0] << "," << hidden[1];
  }
  SynthOptions o;
  o.hide_markers = {0, 1, 2};
  EXPECT_FALSE(register_sheet(render_synth_scene(layout, {}, o).image, layout).found);
}

// The tracker (a video loop): windows round the last markers are searched at the whole
// frame's detection scale when the markers were big enough there; the pose is the same as
// a fresh full-frame registration (corners are refined at full resolution either way).
TEST(Register, TrackedWindowsAtTheDetectionScaleGiveTheSamePose) {
  const SheetLayout layout = standard_sheet();
  for (cv::Size size : {cv::Size(1280, 720), cv::Size(1920, 1080)}) {
    SynthOptions o;
    o.camera.size = size;
    o.camera.tilt_deg = 25;
    const SynthScene sc = render_synth_scene(layout, {}, o);
    const SheetPose fresh = register_sheet(sc.image, layout);
    ASSERT_TRUE(fresh.found);
    TrackerState tracker;
    ASSERT_TRUE(register_sheet(sc.image, layout, nullptr, {}, &tracker).found);
    const SheetPose tracked = register_sheet(sc.image, layout, nullptr, {}, &tracker);
    ASSERT_TRUE(tracked.found);
    EXPECT_TRUE(tracker.last_used_tracking);
    EXPECT_EQ(tracked.marker_ids.size(), 4u);
    EXPECT_LT(max_error(tracked.paper_to_image, fresh.paper_to_image, layout), 0.25) << size;
    EXPECT_LT(max_error(tracked.paper_to_image, sc.paper_to_image, layout), 2.0) << size;
  }
}

// A marker covered while the others are tracked, then uncovered: still tracked, all four
// back. With the markers far away (too small for the downscaled copy) the full-size search
// still runs, so they are found at all (with and without a tracker).
TEST(Register, CoveredMarkerComesBackAndSmallMarkersStillFound) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.tilt_deg = 15;
  TrackerState tracker;
  ASSERT_TRUE(register_sheet(render_synth_scene(layout, {}, o).image, layout, nullptr, {}, &tracker).found);
  o.hide_markers = {2};
  const SheetPose covered = register_sheet(render_synth_scene(layout, {}, o).image, layout, nullptr, {}, &tracker);
  ASSERT_TRUE(covered.found);
  EXPECT_EQ(covered.marker_ids.size(), 3u);
  o.hide_markers = {0, 1, 2};  // too few to track: the last pose is kept
  EXPECT_TRUE(register_sheet(render_synth_scene(layout, {}, o).image, layout, nullptr, {}, &tracker).found);
  EXPECT_EQ(tracker.frames_since_seen, 1);
  o.hide_markers.clear();
  const SheetPose back = register_sheet(render_synth_scene(layout, {}, o).image, layout, nullptr, {}, &tracker);
  ASSERT_TRUE(back.found);
  EXPECT_EQ(back.marker_ids.size(), 4u);
  EXPECT_EQ(tracker.frames_since_seen, 0);

  // Far: the sheet fills 30% of a 1920 px frame, markers ~18 px at the 640 px copy.
  SynthOptions far;
  far.camera.size = {1920, 1080};
  far.camera.fill = 0.3;
  const SynthScene sc = render_synth_scene(layout, {}, far);
  const SheetPose fresh = register_sheet(sc.image, layout);
  ASSERT_TRUE(fresh.found);
  ASSERT_GE(fresh.marker_ids.size(), 3u);
  TrackerState t2;
  ASSERT_TRUE(register_sheet(sc.image, layout, nullptr, {}, &t2).found);
  far.hide_markers = {0, 1, 2};
  EXPECT_TRUE(register_sheet(render_synth_scene(layout, {}, far).image, layout, nullptr, {}, &t2).found);
  far.hide_markers.clear();
  const SheetPose again = register_sheet(render_synth_scene(layout, {}, far).image, layout, nullptr, {}, &t2);
  ASSERT_TRUE(again.found);
  EXPECT_EQ(again.marker_ids.size(), fresh.marker_ids.size());
  EXPECT_LT(max_error(again.paper_to_image, sc.paper_to_image, layout), 2.0);
}

// (speed29) A marker the downscaled copy misses is looked for at full size only in a window
// round where the found markers put it (RegisterParams::full_search_margin), not over the
// whole frame: the same markers and the same pose to the bit, at a small share of the
// pixels. With the rule off (margin 0) the whole frame is searched, and the share test fails.
TEST(Register, MissingMarkerSearchedAtFullSizeOnlyWhereTheOthersPutIt) {
  const SheetLayout layout = standard_sheet();
  RegisterParams whole;
  whole.full_search_margin = 0;
  auto same_pose = [](const SheetPose& a, const SheetPose& b) {
    return a.found && b.found && a.marker_ids == b.marker_ids && a.marker_corners == b.marker_corners &&
           std::memcmp(a.paper_to_image.val, b.paper_to_image.val, sizeof a.paper_to_image.val) == 0 &&
           std::memcmp(a.top_to_image.val, b.top_to_image.val, sizeof a.top_to_image.val) == 0;
  };
  // A covered marker (the copy finds three): one window, where the three put the fourth.
  for (cv::Size size : {cv::Size(1280, 720), cv::Size(1920, 1080)}) {
    SynthOptions o;
    o.camera.size = size;
    o.camera.tilt_deg = 25;
    o.hide_markers = {2};
    const SynthScene sc = render_synth_scene(layout, {}, o);
    const SheetPose all = register_sheet(sc.image, layout, nullptr, whole);
    const SheetPose win = register_sheet(sc.image, layout);
    EXPECT_EQ(all.full_size_searched_px, static_cast<long>(size.area())) << size;
    EXPECT_GT(win.full_size_searched_px, 0) << size;
    EXPECT_LT(win.full_size_searched_px, size.area() / 20) << size;
    EXPECT_EQ(win.marker_ids.size(), 3u) << size;
    EXPECT_TRUE(same_pose(win, all)) << size;
  }
  // Far (the sheet fills 30% of a 1920 px frame, markers ~18 px at the 640 px copy): the
  // markers the copy misses are found in their windows, the same as in the whole frame.
  SynthOptions far;
  far.camera.size = {1920, 1080};
  far.camera.fill = 0.3;
  const SynthScene sc = render_synth_scene(layout, {}, far);
  const SheetPose all = register_sheet(sc.image, layout, nullptr, whole);
  const SheetPose win = register_sheet(sc.image, layout);
  EXPECT_EQ(all.marker_ids.size(), 4u);
  EXPECT_GT(win.full_size_searched_px, 0);
  EXPECT_LT(win.full_size_searched_px, 1920 * 1080 / 20);
  EXPECT_TRUE(same_pose(win, all));
  // Every marker found in the copy: no full-size search.
  EXPECT_EQ(register_sheet(render_synth_scene(layout, {}, SynthOptions{}).image, layout).full_size_searched_px, 0);
}

// (exact13) The tilt the pose implies, and the focal chosen from it: a synthetic view at 35
// deg measures 35 deg with its own camera; an almost straight-down homography (1 deg, whose
// focal the constraints cannot tell) gets the fallback, not the estimate.
TEST(Register, PlaneTiltAndTheFocalChosenFromIt) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.tilt_deg = 35;
  const SynthScene sc = render_synth_scene(layout, {}, o);
  const cv::Point2d pp(sc.camera_matrix(0, 2), sc.camera_matrix(1, 2));
  EXPECT_NEAR(plane_tilt_deg(sc.paper_to_image, pp, sc.camera_matrix(0, 0)), 35.0, 0.5);
  RegisterParams rp;
  bool estimated = false;
  const double f35 = choose_focal(sc.paper_to_image, sc.image.size(), rp, &estimated);
  EXPECT_TRUE(estimated);
  EXPECT_NEAR(f35, sc.camera_matrix(0, 0), 0.02 * sc.camera_matrix(0, 0));
  SynthOptions flat = o;
  flat.camera.tilt_deg = 1;
  const SynthScene sf = render_synth_scene(layout, {}, flat);
  EXPECT_LT(plane_tilt_deg(sf.paper_to_image, pp, rp.fallback_focal_factor * std::max(sf.image.cols, sf.image.rows)), 2.0);
  const double f1 = choose_focal(sf.paper_to_image, sf.image.size(), rp, &estimated);
  EXPECT_FALSE(estimated);
  EXPECT_DOUBLE_EQ(f1, rp.fallback_focal_factor * std::max(sf.image.cols, sf.image.rows));
  rp.focal_min_tilt_deg = 0;  // off: the estimate (when plausible), as before
  const double f1_est = estimate_focal(sf.paper_to_image, {(sf.image.cols - 1) / 2.0, (sf.image.rows - 1) / 2.0});
  const double f1_old = choose_focal(sf.paper_to_image, sf.image.size(), rp, &estimated);
  const double side = std::max(sf.image.cols, sf.image.rows);
  EXPECT_EQ(estimated, f1_est > 0.25 * side && f1_est < 6.0 * side);
  EXPECT_DOUBLE_EQ(f1_old, estimated ? f1_est : rp.fallback_focal_factor * side);
}

TEST(Register, FocalUnknownStraightDownFallsBack) {
  // A fronto-parallel homography carries no focal information.
  const cv::Matx33d h(2, 0, 100, 0, 2, 50, 0, 0, 1);
  EXPECT_LE(estimate_focal(h, {640, 360}), 0.0);
}

}  // namespace
}  // namespace hexdice::vision
