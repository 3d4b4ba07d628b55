// Scoring the reader: `hexdice eval --scenes DIR` (images + label JSON) and
// `hexdice eval --real DIR_OR_CSV` (the real dice photos and their labels.csv).
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "vision/dice.h"
#include "vision/read.h"
#include "vision/reader_io.h"

namespace hexdice::vision {

struct EvalArgs {
  std::string scenes_dir;
  std::string real;           // directory holding labels.csv + images/, or the CSV
  std::string split = "all";  // all | even | odd: images by sorted name, alternating
  int limit = 0;              // 0 = no limit
  std::string model;          // --real: dice model file ("" = the shipped one)
  bool no_model = false;      // --real: pip counting only
  bool oracle_only = false;   // --real: skip detection, score face reading at the labelled boxes
  std::string cnn;            // --real: face network file ("" = the shipped one, if present)
  bool no_cnn = false;        // --real: without the face network
  double cnn_min_prob = -1;   // --real: DiceParams::cnn_min_prob (< 0 = its default)
  double below_side_face_radius = -1;  // --real: DiceParams::below_side_face_radius (< 0 = its default; 0 = off)
  double centred_pip_is_one = -1;  // --real: DiceParams::centred_pip_is_one (0 = off, < 0 = its default)
  double wide_read_body_shift = -1;  // --real: DiceParams::wide_read_body_shift (0 = off, < 0 = its default)
  double min_read_face = -1;  // --real: DiceParams::min_read_face (0 = off, < 0 = its default)
  int min_face_same_kind = -1;  // --real: PipParams::min_face_same_kind (0 = off, 1 = on, < 0 = its default)
  int lone_pip_off_face = -1;   // --real: PipParams::lone_pip_off_face (0 = off, 1 = on, < 0 = its default)
  double pre_nms_wide = -1;  // --real: DiceParams::pre_nms_wide (0 = off, < 0 = its default)
  double below_side_face_pip = -1;     // --real: DiceParams::below_side_face_pip (< 0 = its default)
  double below_side_face_pair_pip = -1;  // --real: DiceParams::below_side_face_pair_pip (< 0 = its default, 0 = off)
  double below_side_face_own = -1;  // --real: DiceParams::below_side_face_own (< 0 = its default, 0 = off; real round 41)
  double upper_face_pip = -1;  // --real: DiceParams::upper_face_pip (< 0 = its default, 0 = off; real round 42)
  double cnn_max_not_die = -1;  // --real: DiceParams::cnn_max_not_die (< 0 = its default)
  double min_body_share = -1;   // --real: DiceParams::min_body_share (< 0 = its default, 0 = off)
  double min_body_die_share = -1;  // --real: DiceParams::min_body_die_share (< 0 = its default, 0 = off)
  double cnn_fuse_weight = -1;  // --real: DiceParams::cnn_fuse_weight (< 0 = its default)
  double cnn_fuse_floor = -1;   // --real: DiceParams::cnn_fuse_floor (< 0 = its default)
  int cnn_views = 0;            // --real: DiceParams::cnn_views (0 = its default)
  double cnn_finder_scale = -1;  // --real: DiceParams::cnn_finder_scale (< 0 = its default)
  double max_pip_over_median = -1;  // --real: DiceParams::max_pip_over_median (< 0 = its default)
  double pip_reference_min = -1;    // --real: DiceParams::pip_reference_min (< 0 = its default)
  double chroma_weight = -1;  // --real: PipParams::chroma_weight (< 0 = its default)
  double chroma_min_excess = -1;  // --real: PipParams::chroma_min_excess (< 0 = its default)
  double value_channel_max_body = -1;  // --real: PipParams::value_channel_max_body (< 0 = its default)
  bool pip_face_candidates = false;  // --real: DiceParams::pip_face_candidates (face-centred candidates, round 21)
  int gap_candidates = -1;        // --real: DiceParams::gap_candidates (1 on, 0 off, < 0 = its default; round 22)
  double gap_min_margin = -9;     // --real: DiceParams::gap_min_margin (-9 = its default)
  double gap_max_not_die = -1;    // --real: DiceParams::gap_max_not_die (< 0 = its default)
  double gap_side_face_radius = -1;  // --real: DiceParams::gap_side_face_radius (< 0 = its default)
  double final_side_face_radius = -1;  // --real: DiceParams::final_side_face_radius (< 0 = its default)
  int gap_residual_seeds = -1;     // --real: DiceParams::gap_residual_seeds (1 on, 0 off, < 0 = its default; round 23)
  double gap_residual_clear = -1;   // --real: DiceParams::gap_residual_clear (< 0 = its default)
  double gap_residual_depth = -1;   // --real: DiceParams::gap_residual_depth (< 0 = its default)
  double gap_residual_spacing = -1; // --real: DiceParams::gap_residual_spacing (< 0 = its default)
  double gap_residual_side = -1;    // --real: DiceParams::gap_residual_side (< 0 = its default)
  int gap_residual_connected = -1;  // --real: DiceParams::gap_residual_connected (1 on, 0 off, < 0 = its default)
  double gap_residual_sure_die = -1;  // --real: DiceParams::gap_residual_sure_die (< 0 = its default)
  double gap_seed_repeat = -1;  // --real: DiceParams::gap_seed_repeat (< 0 = its default)
  int gap_seed_on_fg = -1;  // --real: DiceParams::gap_seed_on_fg (1 on, 0 off, < 0 = its default)
  double hue_channel_min_body = -1;  // --real: PipParams::hue_channel_min_body (0 = off, < 0 = its default; round 27)
  double pip_shape_spread = -1;  // --real: PipParams::max_pip_shape_spread (0 = off, < 0 = its default; real rounds 39-40)
  double dash_max_tilt = -1;     // --real: PipParams::dash_max_tilt (< 0 = its default; real round 40)
  double round_pip_max_elong = -1;  // --real: PipParams::round_pip_max_elong (< 0 = its default; real round 40)
  double small_die_reread = -1;  // --real: DiceParams::small_die_reread (0 = off, < 0 = its default; round 27)
  double body_reread_max_not_die = -1;  // --real: DiceParams::body_reread_max_not_die (< 0 = its default; real round 43)
  double body_reread = -1;         // --real: DiceParams::body_reread (0 = off, < 0 = its default; round 28)
  double body_reread_window = -1;  // --real: DiceParams::body_reread_window (< 0 = its default)
  int reread_sides_before_gap = -1;  // --real: DiceParams::reread_sides_before_gap (1 on, 0 off, < 0 = its default; docs/dice.md real28)
  double six_missing_pair = -1;  // --real: PipParams::six_missing_pair (0 = off, < 0 = its default; round 24)
  bool verbose = false;
  std::string params_file;    // --scenes: ReadParams to load (ReadParams::load), "" = defaults
  bool faces = false;         // --scenes: score read_face alone at the labelled dice (face_eval.h)
  std::string dump_faces;     // --faces: write wrongly read crops here
  std::string face_reader = "lattice";  // --faces: lattice | components (FaceParams::lattice)
};

// Scoring rules (docs/reader.md, "How the scorer counts"):
// - a scene whose label says board_found: false has no truth cells; whatever the reader
//   reports there is a false detection;
// - truth cells are the labelled dice in view and not occluded, outside the cells the
//   reader lists as hidden; a labelled die in a hidden cell is neither hit nor miss, it is
//   counted in hidden_dice, and in hidden_visible when the label says it could be seen
//   (in view and not occluded): a board with such a die is not exact;
// - recall() is over the scored truth cells; recall_visible() over every visible labelled
//   die (hidden ones counted as missed), so hiding everything cannot look good.
struct SceneScore {
  int scenes = 0, found_ok = 0;
  int truth_cells = 0, seen_cells = 0, matched = 0;
  int color_ok = 0, face_ok = 0, guard_ok = 0, exact_boards = 0;
  int visible_dice = 0;    // labelled dice (cells) in view and not occluded, hidden or not
  int hidden_dice = 0;     // labelled dice (cells) in cells the reader listed as hidden
  int hidden_visible = 0;  // ... of which the label says visible (in view, not occluded)
  int not_found_dice = 0;  // labelled dice in scenes labelled board_found: false (not scored)
  // hidden_visible by the reader's reason class (Observation::hidden_why: "view", "edges",
  // "occluder", "weak", "noface"): where the recall of all visible dice is lost.
  std::map<std::string, int> hidden_visible_why;
  // The second reading (labels from scene_gen.py round 14 on, with "pip_lattice_hidden"):
  // a visible die (its top's centre clear of the hand) some of whose nine pip places the
  // hand hides is "part covered": its face cannot be told from the image. Of those:
  // read right, read wrong (colour, face or guard), hidden. The strict figures count a
  // part-covered die as not visible (hidden or read right is fine; misread still spoils a
  // board): visible_strict, matched_strict, exact_strict. Labels without the field: every
  // die as in the first reading.
  int part_covered = 0, part_covered_right = 0, part_covered_wrong = 0, part_covered_hidden = 0;
  int visible_strict = 0, matched_strict = 0, exact_strict = 0;
  double precision() const { return seen_cells ? static_cast<double>(matched) / seen_cells : 0; }
  double recall() const { return truth_cells ? static_cast<double>(matched) / truth_cells : 0; }
  double recall_visible() const { return visible_dice ? static_cast<double>(matched) / visible_dice : 0; }
  double recall_visible_strict() const { return visible_strict ? static_cast<double>(matched_strict) / visible_strict : 0; }
};

// Probability thresholds the scorer tries for the face network (its face where its
// probability is at least t, else the finder's own; the last: never).
inline constexpr std::array<float, 9> kCnnSweep{0.0f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 0.95f, 0.98f, 2.0f};
// Weights the scorer tries for the fusion of the network with the pip scores (fuse_face,
// at DiceParams::cnn_fuse_floor): 0 = the finder's face without the network.
inline constexpr std::array<float, 9> kFuseSweep{0.0f, 0.1f, 0.25f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 4.0f};

struct RealCounts {
  int images = 0, labels = 0, detections = 0, matched = 0, face_ok = 0;
  std::array<int, kCnnSweep.size()> face_ok_at{};  // matched dice read right with the network at each threshold
  int cnn_ok = 0;                                   // matched dice the network alone reads right
  std::array<int, kFuseSweep.size()> fuse_ok{};    // matched dice read right fused at each weight
  // Detections the network calls not-a-die with probability >= kCnnSweep[t]: matched, false.
  std::array<int, kCnnSweep.size()> not_die_matched{}, not_die_false{};
  double recall() const { return labels ? static_cast<double>(matched) / labels : 0; }
  double precision() const { return detections ? static_cast<double>(matched) / detections : 0; }
  double face_accuracy() const { return matched ? static_cast<double>(face_ok) / matched : 0; }
  // Labelled dice read correctly over all labelled dice (a missed die counts as wrong).
  double end_to_end() const { return labels ? static_cast<double>(face_ok) / labels : 0; }
};

// Face reading alone, on the labelled boxes ("oracle boxes": detection taken as perfect).
struct OracleCounts {
  int labels = 0;
  int pips_read = 0, pips_ok = 0;  // lattice pip reader (dice_pips.h): read (a layout fits), right
  int model_ok = 0;                // learned classifier at the box (when a model is loaded)
  int combined_ok = 0;             // what find_dice reports for a die at that box
  int cnn_ok = 0;                  // face network alone at the box
  std::array<int, kCnnSweep.size()> ok_at{};  // network where its probability >= threshold, else the rest
  std::array<int, kFuseSweep.size()> fuse_ok{};  // fused at each weight
};

struct RealScore : RealCounts {
  OracleCounts oracle;
  std::map<std::string, OracleCounts> oracle_by_source;
  std::array<std::array<int, 7>, 7> oracle_confusion{};  // combined reading at the labelled box
  std::map<std::string, RealCounts> by_source;  // "byler", "penlington"
  // confusion[truth][read], truth 1..6, read 0 = not detected, 1..6.
  std::array<std::array<int, 7>, 7> confusion{};
};

// "91.3% (482/528)": the scorers' figure format (0.0% when den is 0).
std::string percent(int num, int den);

// A directory of labelled scenes: its label files (*.json but board.json, sorted) and the
// sheet they were rendered on (its board.json, else the standard sheet).
struct SceneDir {
  std::vector<std::filesystem::path> labels;
  SheetLayout layout;
};
Result<SceneDir> scene_dir(const std::string& dir);

// `warn` (all three): a picture's decoder warning, one call per file (the command line prints
// it as a `hexdice: warning:` line and the run goes on; robust22); empty: dropped.
Result<SceneScore> eval_scenes(const std::string& dir, const ReadParams& params, int limit, std::ostream* log,
                               const WarningSink& warn = {});
// detect = false: only the oracle-box figures (face reading at the labelled boxes).
Result<RealScore> eval_real(const std::string& dir_or_csv, const std::string& split, int limit,
                            const DiceParams& params, std::ostream* log, bool detect = true, const WarningSink& warn = {});

// Runs whichever the arguments ask for and prints the figures and a closing line.
Status run_eval(const EvalArgs& args, std::ostream& out, const WarningSink& warn = {});

}  // namespace hexdice::vision
