// The face readers' faster forms (branch speed3) against their reference forms, kept in
// vision/die_face.cpp and face_lattice.cpp: the same reading, bit for bit (face, pips,
// confidence, body colour, pip polarity), on faces of every count, colour, turn, offset,
// blur, glare and noise, on crops of rendered scenes (dice, paper, grid, shadows) and on
// random noise, with the default parameters and with the speed options switched.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "tests/vision/face_synth.h"
#include "vision/die_face.h"
#include "vision/read.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace {

using namespace hexdice::vision;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// "" when equal, else what differs.
std::string differs(const FaceReading& a, const FaceReading& b) {
  if (a.face != b.face) return "face " + std::to_string(a.face) + " vs " + std::to_string(b.face);
  if (!same_bits(a.confidence, b.confidence)) return "confidence " + std::to_string(a.confidence) + " vs " + std::to_string(b.confidence);
  if (a.pip_polarity != b.pip_polarity) return "polarity";
  for (int k = 0; k < 3; ++k)
    if (!same_bits(a.body_bgr[k], b.body_bgr[k])) return "body";
  if (a.pips.size() != b.pips.size()) return "pip count";
  for (std::size_t i = 0; i < a.pips.size(); ++i)
    if (!same_bits(a.pips[i].x, b.pips[i].x) || !same_bits(a.pips[i].y, b.pips[i].y)) return "pip position";
  return "";
}

std::vector<cv::Mat> test_crops() {
  std::vector<cv::Mat> out;
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u(0, 1);
  const char* colours[] = {"red", "blue", "green", "yellow", "white", "black"};
  for (int rep = 0; rep < 8; ++rep)
    for (int face = 1; face <= 6; ++face)
      for (const char* c : colours) {
        hexdice::vision::testing::SynthFace f;
        f.face = face;
        f.colour = c;
        f.face_px = 14 + 14 * u(rng);
        f.angle_deg = 90 * u(rng);
        f.off_x = 0.2 * (u(rng) - 0.5);
        f.off_y = 0.2 * (u(rng) - 0.5);
        f.blur_px = rep % 3 == 0 ? 1.5 * u(rng) : 0;
        f.noise = 8 * u(rng);
        f.glare = rep % 2 ? u(rng) : 0;
        f.shade = 0.5 + 0.5 * u(rng);
        out.push_back(hexdice::vision::testing::synth_face_crop(f, &rng));
      }
  // Crops of a rendered scene anywhere on the board: dice, part of a die, paper, grid lines.
  {
    const SheetLayout layout = standard_sheet();
    SynthOptions o;
    o.camera.size = {1280, 720};
    o.camera.tilt_deg = 25;
    o.seed = 5;
    const SynthScene scene = render_synth_scene(layout, random_dice(layout, 24, 5), o);
    const Observation obs = read_board(scene.image, layout);
    if (obs.pose.found)
      for (std::size_t i = 0; i < layout.cells.size(); i += 2)
        for (double dx : {-6.0, 0.0, 5.0})
          out.push_back(cut_face_crop(scene.image, obs.pose.top_to_image,
                                      cv::Point2d(layout.cells[i].centre.x + dx, layout.cells[i].centre.y - dx / 2), 7.0 * dx,
                                      16.0 * ReadParams{}.face_crop_scale));
  }
  for (int i = 0; i < 40; ++i) {
    cv::Mat noise(kFaceCropPx, kFaceCropPx, CV_8UC3);
    cv::randu(noise, cv::Scalar::all(0), cv::Scalar::all(i % 2 ? 256 : 60));
    out.push_back(noise);
  }
  out.push_back(cv::Mat(kFaceCropPx, kFaceCropPx, CV_8UC3, cv::Scalar(128, 128, 128)));  // flat: no response at all
  return out;
}

TEST(FaceSpeed, LatticeReaderGivesTheReferenceReadingBitForBit) {
  const std::vector<cv::Mat> crops = test_crops();
  ASSERT_GT(crops.size(), 300u);
  FaceParams coarse5;
  coarse5.lattice_coarse5 = true;
  coarse5.lattice_refine_top4 = true;
  int read = 0;
  for (const FaceParams& p : {FaceParams{}, coarse5})
    for (std::size_t i = 0; i < crops.size(); ++i) {
      const FaceReading a = read_face_lattice(crops[i], p), b = read_face_lattice_reference(crops[i], p);
      EXPECT_EQ(differs(a, b), "") << "crop " << i;
      read += a.face > 0;
    }
  EXPECT_GT(read, static_cast<int>(crops.size()));  // most crops give a face: the comparison covers readings
}

// (Round 20) The coarse search's AVX2 rows against its scalar loop on random response maps:
// levels from a few values (ties between poses, where the first pose must win) and from a
// continuum, with spots of kOutside-like negative values, at the default search and at wider
// shifts (more than 8 centre columns a row: several AVX2 chunks, a partial last one).
TEST(FaceSpeed, LatticeCoarseSearchAvx2IsTheScalarSearch) {
  if (!avx2_steps_on()) GTEST_SKIP() << "no AVX2 steps on this CPU or HEXDICE_NO_AVX2 set";
  std::mt19937 rng(20);
  std::uniform_real_distribution<float> u(0, 1);
  int maps = 0;
  for (int rep = 0; rep < 120; ++rep) {
    cv::Mat map(48, 48, CV_32F);
    const int levels = rep % 3 == 0 ? 0 : 2 + rep % 5;  // 0: a continuum
    for (int y = 0; y < 48; ++y)
      for (int x = 0; x < 48; ++x) {
        const float v = u(rng);
        map.at<float>(y, x) = levels ? std::floor(v * static_cast<float>(levels)) : 50 * v * v;
      }
    if (rep % 4 == 1) map(cv::Rect(0, 0, 48, 6)).setTo(-1000.0f);
    if (rep % 5 == 2) cv::GaussianBlur(map, map, cv::Size(0, 0), 2.0);
    FaceParams p;
    p.lattice_coarse5 = rep % 2 == 1;
    p.lattice_shift = rep % 6 < 3 ? 0.16 : 0.1 + 0.05 * (rep % 7);
    p.lattice_min = 0.12 + 0.01 * (rep % 5);
    const LatticeCoarseBest a = lattice_coarse_search_for_test(map, p, true), b = lattice_coarse_search_for_test(map, p, false);
    for (std::size_t h = 0; h < 9; ++h) {
      EXPECT_TRUE(same_bits(a.margin[h], b.margin[h])) << "map " << rep << " hypothesis " << h << ": " << a.margin[h] << " vs " << b.margin[h];
      for (std::size_t k = 0; k < 4; ++k)
        EXPECT_TRUE(same_bits(a.pose[h][k], b.pose[h][k])) << "map " << rep << " hypothesis " << h << " pose " << k << ": "
                                                         << a.pose[h][k] << " vs " << b.pose[h][k];
    }
    ++maps;
  }
  EXPECT_EQ(maps, 120);
}

// (Speed round 32) The lattice reader's body median leaves out the pixels within hole_r of
// its pips by one interval of columns per pip and row (lattice_row_hole_columns), each end
// found by the per-pixel float test: the same columns as that test at every column and pip
// (the reference form), on random rows, spans and pips (0 to 9 of them, on and off the crop,
// at integer, half-integer and random columns; radii whose squares the distances meet
// exactly), with pips far off or not a number; and with far fewer float tests.
TEST(FaceSpeed, LatticeHoleColumnsAreThePerPixelTest) {
  std::mt19937 rng(3232);
  std::uniform_real_distribution<float> u(0, 1);
  long fast_tests = 0, ref_tests = 0, compared = 0, some_held = 0;
  for (int rep = 0; rep < 20000; ++rep) {
    std::vector<cv::Point2f> holes(static_cast<std::size_t>(rep % 10));
    for (auto& h : holes) {
      const int kind = static_cast<int>(u(rng) * 4);
      const float x = -15 + 78 * u(rng), y = -10 + 68 * u(rng);
      h = kind == 0 ? cv::Point2f(std::round(x), std::round(y))
          : kind == 1 ? cv::Point2f(std::round(x) + 0.5f, std::round(y) + 0.5f)
                      : cv::Point2f(x, y);
    }
    if (rep % 97 == 5 && !holes.empty()) holes[0].x = 3e7f;
    if (rep % 89 == 7 && !holes.empty()) holes[0].x = std::numeric_limits<float>::quiet_NaN();
    const float r = rep % 3 == 0 ? std::round(1 + 9 * u(rng)) : rep % 3 == 1 ? std::sqrt(std::round(1 + 80 * u(rng))) : 0.5f + 8 * u(rng);
    const float h2 = rep % 3 == 1 ? std::round(r * r) : r * r;
    const int y = static_cast<int>(u(rng) * 48);
    int x0 = static_cast<int>(u(rng) * 48), x1 = static_cast<int>(u(rng) * 48);
    if (rep % 5 != 0 && x0 > x1) std::swap(x0, x1);
    if (rep % 7 == 0) x0 = 0, x1 = 63;
    const std::uint64_t a = lattice_row_hole_columns(holes, h2, y, x0, x1, false, &fast_tests);
    const std::uint64_t b = lattice_row_hole_columns(holes, h2, y, x0, x1, true, &ref_tests);
    ASSERT_EQ(a, b) << "rep " << rep << " y " << y << " x " << x0 << ".." << x1 << " h2 " << h2;
    ++compared;
    some_held += b != 0;
  }
  EXPECT_EQ(compared, 20000);
  EXPECT_GT(some_held, 3500);
  EXPECT_LT(fast_tests, ref_tests / 2) << "float tests: intervals " << fast_tests << ", per pixel " << ref_tests;
}

TEST(FaceSpeed, ComponentReaderGivesTheReferenceReadingBitForBit) {
  const std::vector<cv::Mat> crops = test_crops();
  FaceParams no_peaks;
  no_peaks.use_peaks = false;
  int read = 0;
  for (const FaceParams& p : {FaceParams{}, no_peaks})
    for (std::size_t i = 0; i < crops.size(); ++i) {
      const FaceReading a = read_face_components(crops[i], p), b = read_face_components_reference(crops[i], p);
      EXPECT_EQ(differs(a, b), "") << "crop " << i;
      read += a.face > 0;
    }
  EXPECT_GT(read, static_cast<int>(crops.size()));
}

// read_face(crop, params, useful) (branch speed8): a caller that keeps a reading only at
// `useful` or more gets read_face's reading bit for bit wherever read_face's is at least
// `useful`, and a reading below `useful` wherever read_face's is below it; the component
// fallback is skipped only when useful > fallback_below. Over every crop and several
// `useful` on both sides of fallback_below, the fallback's own readings must occur (else
// the comparison proves nothing).
TEST(FaceSpeed, FaceReaderReadsACropOnceForEveryUseful) {
  // One FaceReader asked at several `useful`s, in an order that needs the fallback late and
  // early: each reading read_face's at that useful, bit for bit, each reader run at most once.
  const std::vector<cv::Mat> crops = test_crops();
  const FaceParams p;
  // read_face as it was written before FaceReader (round 14), from the two readers.
  auto read_face_r14 = [&](const cv::Mat& crop, double useful) {
    if (p.lattice && p.fallback_below > 0 && useful > p.fallback_below) return read_face_lattice(crop, p);
    FaceReading r = read_face_lattice(crop, p);
    if (p.fallback_below > 0 && r.confidence < p.fallback_below) {
      const FaceReading c = read_face_components(crop, p);
      if (c.face > 0 && c.confidence > r.confidence) {
        r.face = c.face;
        r.pips = c.pips;
        r.confidence = std::min(c.confidence, p.fallback_below);
      }
    }
    return r;
  };
  int both = 0;
  for (std::size_t i = 0; i < crops.size(); ++i)
    for (const std::vector<double>& usefuls : {std::vector<double>{0.95, 0.0, 0.5, p.fallback_below, 0.31},
                                               std::vector<double>{0.0, 0.7, 0.2, 0.0}}) {
      FaceReader reader(crops[i], p);
      for (double useful : usefuls) {
        const FaceReading r = reader.read(useful);
        EXPECT_EQ(differs(r, read_face_r14(crops[i], useful)), "") << "crop " << i << " useful " << useful;
        EXPECT_EQ(differs(r, read_face(crops[i], p, useful)), "") << "crop " << i << " useful " << useful;
        EXPECT_LE(reader.lattice_reads(), 1);
        EXPECT_LE(reader.component_reads(), 1);
      }
      both += reader.component_reads();
    }
  EXPECT_GT(both, 20);  // crops whose fallback was asked (and answered from the first run)
  FaceParams comp = p;
  comp.lattice = false;  // the component counter alone
  FaceReader reader(crops[0], comp);
  EXPECT_EQ(differs(reader.read(0.5), read_face_components(crops[0], comp)), "");
  EXPECT_EQ(reader.lattice_reads(), 0);
}

TEST(FaceSpeed, UsefulReadingIsReadFaceWhereItCounts) {
  const std::vector<cv::Mat> crops = test_crops();
  const FaceParams p;
  int fallback = 0, kept = 0, below = 0;
  for (std::size_t i = 0; i < crops.size(); ++i) {
    const FaceReading full = read_face(crops[i], p);
    const FaceReading lat = read_face_lattice(crops[i], p);
    if (differs(full, lat) != "") ++fallback;
    for (double useful : {0.0, 0.2, p.fallback_below, 0.31, 0.5, 0.7, 0.95}) {
      const FaceReading r = read_face(crops[i], p, useful);
      if (full.confidence >= useful) {
        EXPECT_EQ(differs(r, full), "") << "crop " << i << " useful " << useful;
        ++kept;
      } else {
        EXPECT_LT(r.confidence, useful) << "crop " << i << " useful " << useful;
        ++below;
      }
      if (useful <= p.fallback_below) EXPECT_EQ(differs(r, full), "") << "crop " << i << " useful " << useful;
    }
  }
  EXPECT_GT(fallback, 20);  // crops whose reading is the component counter's
  EXPECT_GT(kept, 100);
  EXPECT_GT(below, 100);
}

// (speed22) FaceReader::read_above(useful): for a caller that keeps a reading only above
// `useful`. Above useful it is read(useful) bit for bit; at or below it, it stays at or below;
// at useful >= fallback_below the component counter is not run (the retries' saving).
TEST(FaceSpeed, ReadAboveIsReadWhereItCounts) {
  const std::vector<cv::Mat> crops = test_crops();
  const FaceParams p;
  int above = 0, not_above = 0, skipped = 0, capped_at_bar = 0;
  for (std::size_t i = 0; i < crops.size(); ++i) {
    for (double useful : {0.0, 0.2, p.fallback_below, 0.31, 0.5, 0.7, 0.95}) {
      FaceReader ref(crops[i], p), fast(crops[i], p);
      const FaceReading r = ref.read(useful);
      const FaceReading a = fast.read_above(useful);
      if (r.confidence > useful) {
        EXPECT_EQ(differs(a, r), "") << "crop " << i << " useful " << useful;
        ++above;
      } else {
        EXPECT_LE(a.confidence, useful) << "crop " << i << " useful " << useful;
        ++not_above;
      }
      if (useful < p.fallback_below) EXPECT_EQ(differs(a, r), "") << "crop " << i << " useful " << useful;
      if (useful >= p.fallback_below) EXPECT_EQ(fast.component_reads(), 0) << "crop " << i << " useful " << useful;
      skipped += ref.component_reads() > fast.component_reads();
      capped_at_bar += useful == p.fallback_below && r.confidence == useful && differs(a, r) != "";
    }
  }
  EXPECT_GT(above, 100);
  EXPECT_GT(not_above, 100);
  EXPECT_GT(skipped, 10);       // read() ran the component counter where read_above did not
  EXPECT_GT(capped_at_bar, 0);  // a fallback reading capped at the bar: not kept by either
}

}  // namespace

// (speed21) top_face_hypotheses' layout fit from its turn table and chamfer_fast against the
// loop it replaces (cos / sin per turn, chamfer): the same fit bits and the same best turn, on
// standard layouts of 2-6 pips turned, shifted, jittered and scaled (some beyond the 20% it
// accepts), and on random pips.
TEST(FaceSpeed, MetricLayoutFitIsTheReferenceLoop) {
  std::mt19937 rng(2103);
  std::uniform_real_distribution<double> u(0, 1);
  int fitted = 0;
  for (int rep = 0; rep < 600; ++rep) {
    const int n = 1 + rep % 6;
    std::vector<cv::Point2d> pips;
    if (rep % 5 == 4) {
      for (int i = 0; i < n; ++i) pips.emplace_back(40 * u(rng), 40 * u(rng));
    } else {
      const double th = CV_PI * u(rng), sc = 16.0 * (0.75 + 0.5 * u(rng)), jit = rep % 3 == 0 ? 0.0 : 0.8 * u(rng);
      const cv::Point2d c(100 * u(rng), 100 * u(rng));
      for (const cv::Point2f& q : pip_layout(n, rep % 2)) {
        const double x = q.x * sc, y = q.y * sc;
        pips.emplace_back(c.x + std::cos(th) * x - std::sin(th) * y + jit * (u(rng) - 0.5),
                          c.y + std::sin(th) * x + std::cos(th) * y + jit * (u(rng) - 0.5));
      }
    }
    double a_fast = -1, a_ref = -1;
    const double f_fast = metric_layout_fit_for_test(pips, 16.0, &a_fast, false);
    const double f_ref = metric_layout_fit_for_test(pips, 16.0, &a_ref, true);
    EXPECT_EQ(std::memcmp(&f_fast, &f_ref, sizeof(double)), 0) << "rep " << rep << ": " << f_fast << " vs " << f_ref;
    EXPECT_EQ(a_fast, a_ref) << "rep " << rep;
    fitted += n > 1 && f_ref < 1.0;
  }
  EXPECT_GT(fitted, 250);  // most layouts are within the scale band: the turns are compared
}
