// Scoring read_face (die_face.h) on its own, independent of the board reader's top-face
// localisation: `hexdice eval --scenes DIR --faces`. For every labelled die of every
// scene the sheet is registered as the reader does it (register.h), the die's top face
// is cut from the plane 16 mm above the paper at the labelled centre and yaw with the
// reader's own cut_face_crop (read.h: the 48 px crop of the 16 mm face straight from the
// camera image), and read_face + name_color are scored per die.
// The same dice are then cut again under perturbations (crop centre off by 1-3 mm in a
// random direction, a random turn, image blur, a smaller image) to check that the
// reading is robust to localisation error and image quality.
#pragma once

#include <array>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "vision/die_face.h"
#include "vision/reader_io.h"

namespace hexdice::vision {

// One way of cutting the crops.
struct FaceCondition {
  std::string name;
  double offset_mm = 0;     // crop centre moved this far (top plane, mm) in a random direction
  bool random_turn = false;  // crop turned by a random angle instead of the die's yaw
  double blur_sigma = 0;     // Gaussian blur of the whole image first (image pixels)
  double scale = 1.0;        // image resized by this factor first (smaller dice)
};

// The conditions `--faces` runs by default: located, turned, off 1/2/3 mm, blur, 0.7x.
std::vector<FaceCondition> default_face_conditions();

struct FaceCounts {
  int dice = 0, face_ok = 0, color_ok = 0;
  int color_pol_ok = 0;  // colour named with the pip polarity as well (name_color's third argument)
  int unreadable = 0;  // read_face returned 0
  double conf_ok_sum = 0, conf_bad_sum = 0;  // confidence of right / wrong face reads
  // face_confusion[truth 1..6][read 0..6]
  std::array<std::array<int, 7>, 7> face_confusion{};
  // color_confusion[truth][read]
  std::map<std::string, std::map<std::string, int>> color_confusion;
  double face_accuracy() const { return dice ? static_cast<double>(face_ok) / dice : 0; }
  double color_accuracy() const { return dice ? static_cast<double>(color_ok) / dice : 0; }
};

struct FaceEvalResult {
  int scenes = 0;         // label files read
  int scenes_used = 0;    // ... whose sheet registered
  int dice_skipped = 0;   // labelled dice not scored (out of view, occluded, no sheet)
  double centre_err_px = 0;  // mean |projected labelled centre - label top_px| (image px)
  double centre_err_max_px = 0;  // ... the largest
  std::vector<FaceCondition> conditions;
  std::vector<FaceCounts> counts;  // one per condition
};

struct FaceEvalOptions {
  std::vector<FaceCondition> conditions = default_face_conditions();
  FaceParams face;
  int limit = 0;           // at most this many scenes (0 = all)
  unsigned seed = 1;       // perturbation directions and turns
  std::string dump_dir;    // when set: wrongly read crops written there as PNG
  WarningSink warn;        // a picture's decoder warning (robust22); empty: dropped
};

// Scores read_face on every labelled die of the scenes in `dir` (label JSON with
// dice[].centre_mm, yaw_deg, top_px, in_view, occluded; board.json beside them or the
// standard sheet). `log`: one line per wrong read.
Result<FaceEvalResult> eval_faces(const std::string& dir, const FaceEvalOptions& opt, std::ostream* log);

// Prints the figures of eval_faces (per condition, face and colour confusion of the first).
void print_face_eval(const FaceEvalResult& r, std::ostream& out);

}  // namespace hexdice::vision
