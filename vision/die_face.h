// Reading one die's top face: its pips, its count checked against the standard pip
// layouts, and its body colour. Shared by the board reader (read.h) and the sheet-free
// dice finder (dice.h). Const functions, no drawing.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/calibration_data.h"
#include "vision/mask_ops.h"

namespace hexdice::vision {

struct FaceParams {
  // Expected pip diameter as a fraction of the top face's side (standard dice ~0.18).
  double pip_diameter = 0.18;
  // Pip components are accepted between these multiples of the expected pip area.
  double pip_area_min = 0.25;
  double pip_area_max = 3.0;
  // Fraction of the crop, on each side, ignored for pips (edges, bevels, side faces).
  double border = 0.06;
  // Pips are looked for within this radius of the crop centre (fraction of its side).
  double pip_disc = 0.47;
  // Minimum contrast (BGR distance) between pips and the body for any pip to count.
  double min_contrast = 30.0;
  // Layout fit: mean pip distance from the standard layout (in face-side units) that
  // halves the confidence.
  double fit_scale = 0.08;
  // Also read pips as difference-of-Gaussian peaks; keep whichever reading fits a
  // standard layout better.
  bool use_peaks = true;

  // --- The lattice reader (default since the face/colour work of issue 3) ---
  // true: fit the standard pip layouts to the crop (a 3x3 pip lattice at any rotation,
  // position and spacing, scored on a pip-response map of both polarities) and take the
  // layout whose pips stand out most from every other place on the face. false: the
  // component / peak counting reader above (kept for comparison and as a fallback).
  bool lattice = true;
  // Lattice spacing searched: pip offset from the face centre as a fraction of the crop
  // side (standard dice 0.27; a loose crop or a whole-die box gives smaller values).
  double lattice_min = 0.17;
  double lattice_max = 0.32;
  // The lattice centre is searched within this fraction of the crop side of its centre
  // (the crop may be off the face by a few pixels).
  double lattice_shift = 0.16;
  // Pips are measured against the local body colour: a median over this many pip
  // diameters (0 = against the face's median colour).
  double lattice_local_window = 1.6;
  // Every blob-shaped response within this fraction of the crop side of the crop centre
  // (or near the lattice) must be one of the layout's pips.
  double lattice_face_radius = 0.45;
  // Pip response (a difference of Gaussians of the body-colour distance) below this
  // on the weakest pip of the best layout: unreadable (face 0).
  double lattice_min_response = 8.0;
  // The pip response is the DoG capped by this times its weaker curvature, so ridges
  // (the face's rim, shadow and glare edges, paper at the crop border) do not count.
  double lattice_blob_gain = 1.8;
  // Confidence: separation of the best layout's normalised contrast (weakest pip vs the
  // strongest other response, 0..1) from the best other face's that gives full confidence.
  double lattice_full_separation = 0.4;
  // Below this lattice confidence the component counter's reading is taken when it is
  // more confident (0 = never).
  double fallback_below = 0.3;
  bool lattice_refine_top4 = false;  // speed: refine only the 4 best coarse hypotheses
  bool lattice_coarse5 = false;       // speed: coarse search on a 5x5 maximum
  // Pip polarity is reported when the pips differ from the body by this many grey levels.
  double polarity_min_difference = 12.0;
  // (robust25) A second look for a face whose lattice found no layout whose weakest pip
  // reaches lattice_min_response (face 0): the lattice again with this lower bar, its face
  // taken (at its own confidence) only when the component counter reads the same count.
  // Two readers that agree on a faint face (a dim, blurred frame: the pips' contrast falls
  // with the exposure and spreads with the blur) are believed; one alone is not.
  // 0 = off (read_board sets it in a frame its markers say is blurred).
  double lattice_agreed_min_response = 0.0;
};

struct FaceReading {
  int face = 0;               // 1..6, 0 = unreadable
  double confidence = 0;      // 0..1: layout fit x contrast
  cv::Vec3f body_bgr{0, 0, 0};  // median body colour (pips excluded)
  std::vector<cv::Point2f> pips;  // pip centres in crop pixels
  // Pips lighter (+1) or darker (-1) than the body, 0 = unknown (lattice reader only).
  // Dice conventionally have dark pips on white, light pips on black: name_color uses it
  // to tell a glared black die from a shaded white one.
  int pip_polarity = 0;
};

// Reads a square crop (BGR) showing one top face, the face roughly filling it (any
// rotation). Tries both pip polarities and a few thresholds; keeps the reading whose
// pips fit a standard layout best.
FaceReading read_face(const cv::Mat& crop_bgr, const FaceParams& params = {});
// read_face for a caller that keeps a reading only when its confidence is at least
// `useful` (a second reading that must beat the first, a look that needs a sure face).
// The component counter's fallback gives readings capped at params.fallback_below, so
// when useful > fallback_below it cannot give a kept reading and is not run: a reading
// read_face gives at >= useful is returned bit for bit, and one below useful stays below
// it (FaceSpeed.UsefulReadingIsReadFaceWhereItCounts). useful <= fallback_below: read_face.
FaceReading read_face(const cv::Mat& crop_bgr, const FaceParams& params, double useful);
// One crop read for any number of `useful`s (a caller reading one square with several bars):
// read(useful) is read_face(crop, params, useful) and read() is read_face(crop, params), bit
// for bit (read_face is a FaceReader read once), while each of the crop's two readings
// (read_face_lattice, read_face_components) is computed at most once, when first needed.
class FaceReader {
 public:
  FaceReader(cv::Mat crop_bgr, const FaceParams& params);
  FaceReading read(double useful = 0);
  // (speed22) For a caller that keeps a reading only when its confidence is ABOVE `useful`
  // (strictly: a retry that must beat the best so far). The fallback's readings are capped at
  // fallback_below, so with useful >= fallback_below none could be kept and the component
  // counter is not run. A reading read(useful) gives above useful is returned bit for bit,
  // and one at or below useful stays at or below it (FaceSpeed.ReadAboveIsReadWhereItCounts).
  FaceReading read_above(double useful);
  const cv::Mat& crop() const { return crop_; }
  int lattice_reads() const { return lattice_done_; }        // 0 or 1
  int component_reads() const { return components_done_; }  // 0 or 1

 private:
  const FaceReading& lattice();
  const FaceReading& components();
  cv::Mat crop_;
  FaceParams params_;
  FaceReading lattice_, components_;
  int lattice_done_ = 0, components_done_ = 0;
};
// The two readers behind read_face, whatever params.lattice says.
FaceReading read_face_lattice(const cv::Mat& crop_bgr, const FaceParams& params = {});
FaceReading read_face_components(const cv::Mat& crop_bgr, const FaceParams& params = {});
// The same two readers as they were computed before the speed work of branch speed3
// (OpenCV's dilations, sorts, the per-hypothesis coarse search): kept to check, bit for
// bit, that the faster forms above give the same readings (tests/vision/mask_ops_test.cpp).
FaceReading read_face_lattice_reference(const cv::Mat& crop_bgr, const FaceParams& params = {});
FaceReading read_face_components_reference(const cv::Mat& crop_bgr, const FaceParams& params = {});
// (Testing, round 20) the lattice reader's coarse search alone on a 48 x 48 CV_32F response
// map (taken as its 3x3 maximum, or with params.lattice_coarse5 its 5x5 one): each layout
// hypothesis's best margin and pose (centre x, y, angle, spacing), from the AVX2 rows when
// `avx2` and the CPU has them (and HEXDICE_NO_AVX2 is unset), else from the scalar loop.
struct LatticeCoarseBest {
  std::array<float, 9> margin{};
  std::array<std::array<float, 4>, 9> pose{};
};
LatticeCoarseBest lattice_coarse_search_for_test(const cv::Mat& map, const FaceParams& params, bool avx2);
// (speed32) read_face_lattice's body median without the pips: the columns x0..x1 (0..63) of
// crop row y that no hole disc holds out, as bits of a word (bit x set: some hole h has
// (x - h.x)^2 + (y - h.y)^2 <= h2, in float). By one interval per hole and row, each end
// found by the same float test (per_pixel false), or that test at every column and hole
// (per_pixel true): the same bits. tests, when given: += the float tests made.
std::uint64_t lattice_row_hole_columns(const std::vector<cv::Point2f>& holes, float h2, int y, int x0, int x1, bool per_pixel,
                                       long* tests = nullptr);
// (Testing, speed21) top_face_hypotheses' layout fit: the mean distance (face units) of pips
// (plane mm) from their count's standard layout at the face's size, best turned in 2 degree
// steps (1 when the scale is more than 20% off), and that turn modulo 90 in angle_deg; its
// loop as it was (`reference`: per-turn cos/sin, vectors, chamfer) or as it is (a table,
// chamfer_fast).
double metric_layout_fit_for_test(const std::vector<cv::Point2d>& pips_mm, double face_mm, double* angle_deg, bool reference);

// The standard layout of `face` (1..6) in face-side units, centre (0,0), pips on a
// 3x3 grid at +-0.27; `variant` 1 gives the other diagonal / the 90 degree turn.
std::vector<cv::Point2f> pip_layout(int face, int variant = 0);
// Mean distance (face-side units) between pips and the best-rotated standard layout of
// their count, pips given in crop pixels for a face of `side` pixels. Large = no fit.
double layout_fit(const std::vector<cv::Point2f>& pips, double side);

// --- Pips on the plane of a die's top face, at the camera's own resolution ---
// (the board reader's white/black pip look: its 2 px/mm patch merges the close pips of a
// 4/5/6 and loses small dark pips, docs/reader.md "whiteblack2").
struct PlanePipParams {
  double px_per_mm = 6.0;   // the plane is sampled at 2x the camera's px/mm at the die, at least 3, at most this (die_face.cpp; a flat 4 let a false white 1 through on dev2)
  double face_mm = 16.0;    // the die's side
  double pip_mm = 2.9;      // pip diameter (0.18 x the side)
  double area_min = 0.3, area_max = 2.5;  // accepted blob area, x the pip's
  double ring_mm = 0.8;     // a pip is an island: the ring this wide round it ...
  double ring_fraction = 0.75;  // ... is this much of the other polarity (the body)
  int drop_min_pips = 0;    // (robust40) search_top_faces: top_face_hypotheses' drop_min_pips
  double missing_pip_fit = 0;  // (robust41) search_top_faces: top_face_hypotheses' missing_pip_fit
};
// Centres (plane mm) of the pip-shaped islands of one polarity within radius_mm of
// centre_mm on the plane that plane_to_image maps (mm -> image pixels): dark_pips: blobs
// of luminance (b + 2g + r) below lum_threshold ringed by lighter pixels (a white die's
// pips); else blobs above it ringed by darker ones (a black die's). parallax_mm: where the
// die's base appears on this plane (its sides are seen from the top face towards it): a
// blob squeezed along it by about the side faces' foreshortening (|parallax| / face) is a
// side face's pip and left out.
std::vector<cv::Point2d> find_plane_pips(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image, cv::Point2d centre_mm,
                                         double radius_mm, bool dark_pips, float lum_threshold, cv::Point2d parallax_mm,
                                         const PlanePipParams& params = {});
// The plane's sampling (luminance), kept between calls for the same die.
struct PlaneSample {
  cv::Mat lum;  // CV_16U, b + 2g + r (speed36: within the search disc grown by the island ring; 0 beyond it)
  cv::Point2d centre_mm{0, 0};
  double radius_mm = -1;
  int ring = -1;  // the island ring (sample px) the spans were grown by; a call with a wider ring samples again
};
// The same for several thresholds at once (one sampling of the plane): one list per threshold.
// With `cache`, a sampling of the same disc made by an earlier call is used again.
std::vector<std::vector<cv::Point2d>> find_plane_pips(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image,
                                                      cv::Point2d centre_mm, double radius_mm, bool dark_pips,
                                                      const std::vector<float>& lum_thresholds, cv::Point2d parallax_mm,
                                                      const PlanePipParams& params = {}, PlaneSample* cache = nullptr);
// The same as find_plane_pips computed before branch speed5 (cv::connectedComponents'
// labels image): kept to check, bit for bit, that the faster form gives the same pips.
std::vector<std::vector<cv::Point2d>> find_plane_pips_reference(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image,
                                                                cv::Point2d centre_mm, double radius_mm, bool dark_pips,
                                                                const std::vector<float>& lum_thresholds, cv::Point2d parallax_mm,
                                                                const PlanePipParams& params = {}, PlaneSample* cache = nullptr);

// label_runs, RunLabels (runs, components in cv::connectedComponents' order, their
// statistics and runs, no labels image): mask_ops.h, the one run labeller.
// One top face the pips may come from: its centre (the centroid of a standard layout) and
// how many pips it holds.
struct TopFacePips {
  cv::Point2d centre_mm;
  int count = 0;
  double fit = 0;  // mean distance (face units) from the metric standard layout of `count`
  // (exact17) The turn (degrees, 0..90, plane axes) of that best-fitting layout: the face
  // square's own axes as its pips say (0 for one pip, which has none).
  double angle_deg = 0;
  // (robust41) Pips of the layout not among the set (1 for a set completed by missing_pip_fit).
  int missing = 0;
  // (robust42) The pip the set was gathered with and left out as a speck (drop_min_pips): it lies
  // within the face's reach of the centre but is no part of the face. `dropped` 0: none.
  int dropped = 0;
  cv::Point2d dropped_mm{0, 0};
};
// The sets of pips (plane mm) that are one standard layout at the face's real size (the
// plane is metric: pip offset 0.27 x face, scale within +-20%), each set being every pip
// within the face's reach of its centre. Most pips first, then the one furthest against
// the parallax (a die's top face is at the far end of its sides): the top face first.
// (robust40) drop_min_pips: a set of that many pips (at least 3) to 7 that is no layout is tried
// without each of its pips (the best fit kept when it fits): a speck within the face's reach.
// 0 = off. (robust41) missing_pip_fit: a set of 3-5 pips that is no layout but fits the layout
// of one pip more less one of its pips within this mean distance (face units, as `fit`) is that
// face too (`missing` 1, its centre the whole layout's; listed before the drop's reading of the
// same pips, which it does not remove as a part of itself). 0 = off.
std::vector<TopFacePips> top_face_hypotheses(const std::vector<cv::Point2d>& pips_mm, cv::Point2d parallax_mm,
                                             double face_mm = 16.0, int drop_min_pips = 0, double missing_pip_fit = 0);

// The camera-resolution looks' search (read_board's fine pip look and its no-blob look
// share it): threshold by threshold (the first sampled and labelled alone, the others
// together from the kept `sample` only when reached), the top_face_hypotheses of that
// threshold's pips, of which the first `max_tries` whose centre is within max_offset_mm of
// centre_mm are given to visit(threshold index, that threshold's pips, hypothesis) in their
// order; visit returns true to stop the search. on_threshold, when given, sees each
// threshold's pips and hypotheses before they are visited. Returns whether visit stopped it.
using TopFaceVisit = std::function<bool(std::size_t, const std::vector<cv::Point2d>&, const TopFacePips&)>;
using TopFaceThreshold = std::function<void(std::size_t, const std::vector<cv::Point2d>&, const std::vector<TopFacePips>&)>;
bool search_top_faces(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image, cv::Point2d centre_mm, double radius_mm,
                      bool dark_pips, const std::vector<float>& thresholds, cv::Point2d parallax_mm, double max_offset_mm,
                      PlaneSample& sample, const TopFaceVisit& visit, const TopFaceThreshold& on_threshold = {}, int max_tries = 3,
                      const PlanePipParams& params = {});

// Colour naming. `bgr_rel` is the body colour divided by the paper/background white.
// Uses calibrated samples when given, else the six built-in colours.
// `pip_polarity` (FaceReading::pip_polarity), when known, decides white (dark pips) from
// black (light pips) for a grey body without calibrated samples; else lightness does.
std::string name_color(cv::Vec3f bgr_rel, const std::vector<ColorSample>& samples = {}, int pip_polarity = 0);
// (speed25) name_color without samples, as a number (no std::string): name_color(rel, {}, pol)
// == builtin_color_name(builtin_color(rel, pol)) for every rel and pol (name_color is made so).
enum class BuiltinColor : unsigned char { black, white, red, yellow, green, blue };
BuiltinColor builtin_color(cv::Vec3f bgr_rel, int pip_polarity = 0);
const char* builtin_color_name(BuiltinColor c);
// (speed31) The board reader's colour_mask test (read.cpp) over one patch row, without colour
// samples: hit[x] = 1 where in[x] is set and the BGR pixel x relative to `white` (each byte over
// white's channel, in float) passes name_color's grey pre-test (its max above 1e-3 and max - min
// not under 0.125 x max) and builtin_color names it `want`; else 0. The same floats compared in
// the same way as the per-pixel test; 8 pixels at a time in AVX2 where the CPU has it (and
// HEXDICE_NO_AVX2 is unset) and allow_avx2. Returns how many pixels the AVX2 steps did.
int builtin_color_row(const unsigned char* bgr, const unsigned char* in, int n, cv::Vec3f white, BuiltinColor want,
                      unsigned char* hit, bool allow_avx2 = true);
// (speed31) The same for the guard token's test (read.cpp: blue over red relative to `white`,
// saturated at min_sat, a float, and named blue): hit[x] = 1 where in[x] is set and it passes.
int saturated_blue_row(const unsigned char* bgr, const unsigned char* in, int n, cv::Vec3f white, float min_sat, unsigned char* hit,
                       bool allow_avx2 = true);
// Lightness (max channel of bgr_rel) splitting grey bodies into black and white when the
// pip polarity is unknown: glared black tops reach ~0.71, white tops stay >= ~0.84 on
// the rendered fixtures.
inline constexpr float kGreySplit = 0.77f;

}  // namespace hexdice::vision
