// Synthetic photos of the sheet with dice on it, with known truth: the reader's own
// test-scene generator (the POV-Ray renderer is a separate tool). A pinhole camera looks
// at the flat sheet (drawn from the layout: markers, hex grid, tinted cells, white patch)
// and at dice drawn as 3D cubes standing on their cells, top faces with pips. Optional
// noise, blur, glare and a colour cast. Deterministic for a given seed.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "core/hex.h"
#include "vision/read.h"
#include "vision/sheet.h"

namespace hexdice::vision {

struct SynthDie {
  Hex hex;
  std::string color = "red";  // red blue green yellow white black
  int face = 1;
  bool guard = false;  // a 10 mm blue guard token (face 1) placed beside the unit
};

struct SynthCamera {
  cv::Size size{1280, 720};
  double tilt_deg = 0;    // camera tilted from straight down, standing south of the sheet
  double yaw_deg = 0;     // rotation of the view about its axis
  double focal_factor = 0.9;  // focal length = factor x image width
  double fill = 0.92;     // the sheet's projection fills this fraction of the frame
  cv::Point2d shift_mm{0, 0};  // look-at point offset from the sheet centre
};

struct SynthOptions {
  SynthCamera camera;
  double noise_sigma = 3.0;   // Gaussian pixel noise (grey levels)
  double blur_sigma = 0.6;    // Gaussian blur (pixels); 0 = none
  int glare_spots = 0;        // bright elliptical highlights
  cv::Vec3d cast{1.0, 1.0, 1.0};  // per-channel gain (B, G, R): a light colour cast
  double brightness = 1.0;
  bool print_names = true;    // small cell names printed in each cell
  std::vector<int> hide_markers;  // marker ids covered (drawn over with table colour)
  unsigned seed = 1;
};

struct SynthScene {
  cv::Mat image;                // BGR
  cv::Matx33d paper_to_image;   // truth homography (mm -> px)
  cv::Matx33d camera_matrix;
  std::vector<SynthDie> dice;
};

SynthScene render_synth_scene(const SheetLayout& layout, const std::vector<SynthDie>& dice,
                              const SynthOptions& options);

// Random legal-looking dice: `n` units on distinct cells, random colours from `colors`,
// faces 1..6, about `guard_rate` of them with a guard token.
std::vector<SynthDie> random_dice(const SheetLayout& layout, int n, unsigned seed,
                                  const std::vector<std::string>& colors = {"red", "blue", "green", "yellow", "white", "black"},
                                  double guard_rate = 0.15);

// Nominal body BGR of a named colour used by the generator.
cv::Scalar synth_color_bgr(const std::string& name);

// The die read at cell h of obs (nullptr when none was read there): the tests' lookup of
// a synthetic die's reading.
const CellObservation* find_cell(const Observation& obs, Hex h);

}  // namespace hexdice::vision
