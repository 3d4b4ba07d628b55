#include "vision/reader_eval.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <opencv2/imgproc.hpp>

#include "vision/dice_classifier.h"
#include "vision/dice_cnn.h"
#include "vision/dice_train.h"
#include "vision/face_eval.h"
#include "vision/reader_io.h"

namespace hexdice::vision {

namespace fs = std::filesystem;

std::string percent(int num, int den) {
  std::ostringstream ss;
  ss.setf(std::ios::fixed);
  ss.precision(1);
  ss << (den ? 100.0 * num / den : 0.0) << "% (" << num << "/" << den << ")";
  return ss.str();
}

Result<SceneDir> scene_dir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{"not a directory: " + dir};
  SceneDir out;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.path().filename() != "board.json") out.labels.push_back(e.path());
  std::sort(out.labels.begin(), out.labels.end());
  out.layout = standard_sheet();
  if (fs::exists(fs::path(dir) / "board.json")) {
    std::ifstream in(fs::path(dir) / "board.json");
    std::stringstream ss;
    ss << in.rdbuf();
    auto l = sheet_from_json_text(ss.str());
    if (!l) return Error{"board.json: " + l.error()};
    out.layout = *l;
  }
  return out;
}

namespace {

// Every cell of the label that holds a die, whether it can be seen or not (occluded, out
// of view): the dice the reader may rightly list as hidden.
std::set<Hex> labelled_cells(const nlohmann::json& j) {
  std::set<Hex> out;
  if (!j.is_object()) return out;
  for (const char* key : {"cells", "dice", "units"}) {
    if (!j.contains(key) || !j[key].is_array()) continue;
    for (const auto& d : j[key])
      if (d.is_object() && d.contains("q") && d["q"].is_number_integer() && d.contains("r") && d["r"].is_number_integer())
        out.insert(Hex{d["q"].get<int>(), d["r"].get<int>()});
    break;
  }
  return out;
}

}  // namespace

Result<SceneScore> eval_scenes(const std::string& dir, const ReadParams& params, int limit, std::ostream* log,
                               const WarningSink& warn) {
  auto scenes = scene_dir(dir);
  if (!scenes) return Error{scenes.error()};
  const std::vector<fs::path>& labels = scenes->labels;
  const SheetLayout& layout = scenes->layout;
  SceneScore s;
  for (const auto& lp : labels) {
    if (limit > 0 && s.scenes >= limit) break;
    std::ifstream in(lp);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) continue;
    fs::path img;
    if (j.is_object() && j.contains("image") && j["image"].is_string()) img = lp.parent_path() / j["image"].get<std::string>();
    else
      for (const char* ext : {".jpg", ".png", ".jpeg"})
        if (fs::exists(fs::path(lp).replace_extension(ext))) {
          img = fs::path(lp).replace_extension(ext);
          break;
        }
    if (img.empty()) continue;
    auto truth = scene_truth_from_json(j);
    if (!truth) return Error{lp.string() + ": " + truth.error()};
    auto image = load_image(img.string(), warn);
    if (!image) return Error{image.error()};
    const Observation obs = read_board(*image, layout, nullptr, params);
    const std::string name = img.filename().string();
    ++s.scenes;
    s.found_ok += obs.board_found == truth->board_found;
    s.seen_cells += static_cast<int>(obs.cells.size());
    bool exact = obs.board_found == truth->board_found;
    // No sheet in the label (too few markers in view, no sheet at all): nothing to find.
    // Its dice are not truth; anything the reader reports there is a false detection.
    if (!truth->board_found) {
      s.not_found_dice += static_cast<int>(truth->cells.size());
      exact = exact && obs.cells.empty();
      if (log)
        for (const auto& c : obs.cells)
          *log << name << ": false " << c.hex.q << "," << c.hex.r << " " << c.color << " " << c.face
               << " conf " << c.confidence << " (label: no board)\n";
      s.exact_boards += exact;
      s.exact_strict += exact;
      continue;
    }
    bool exact_strict = obs.board_found == truth->board_found;
    const std::set<Hex> hidden(obs.hidden.begin(), obs.hidden.end());
    std::map<Hex, const CellObservation*> seen;
    for (const auto& c : obs.cells) seen[c.hex] = &c;
    // Labelled dice in cells the reader says it cannot see: neither hit nor miss, but
    // counted, and a visible one (in view, not occluded: a truth cell) spoils the board.
    for (const Hex& h : labelled_cells(j)) s.hidden_dice += hidden.count(h) ? 1 : 0;
    std::set<Hex> truth_hexes;
    for (const auto& t : truth->cells) {
      truth_hexes.insert(t.hex);
      ++s.visible_dice;
      const int lattice = t.pip_lattice_hidden;
      const bool part = lattice > 0;
      s.part_covered += part;
      s.visible_strict += !part;
      const std::string part_note =
          part ? " [part covered: " + std::to_string(lattice) + " of 9 pip places under the hand]" : "";
      if (hidden.count(t.hex) && !seen.count(t.hex)) {
        ++s.hidden_visible;
        exact = false;
        exact_strict = exact_strict && part;
        s.part_covered_hidden += part;
        const auto why = obs.hidden_why.find(t.hex);
        const std::string reason = why == obs.hidden_why.end() ? "unknown: no reason recorded" : why->second;
        ++s.hidden_visible_why[reason.substr(0, reason.find(':'))];
        if (log)
          *log << name << ": hidden " << t.hex.q << "," << t.hex.r << " " << t.color << " " << t.face << " (visible)"
               << part_note << ": " << reason << '\n';
        continue;
      }
      ++s.truth_cells;
      auto it = seen.find(t.hex);
      if (it == seen.end()) {
        exact = false;
        exact_strict = exact_strict && part;
        s.part_covered_hidden += part;
        if (log)
          *log << name << ": missed " << t.hex.q << "," << t.hex.r << " " << t.color << " " << t.face << part_note << '\n';
        continue;
      }
      ++s.matched;
      s.matched_strict += !part;
      const auto& o = *it->second;
      s.color_ok += o.color == t.color;
      s.face_ok += o.face == t.face;
      s.guard_ok += o.guard == t.guard;
      const bool right = o.color == t.color && o.face == t.face && o.guard == t.guard;
      s.part_covered_right += part && right;
      s.part_covered_wrong += part && !right;
      if (!right) {
        exact = false;
        exact_strict = false;
        if (log)
          *log << name << ": " << t.hex.q << "," << t.hex.r << " truth " << t.color << " " << t.face
               << (t.guard ? " guard" : "") << " read " << o.color << " " << o.face << (o.guard ? " guard" : "")
               << part_note << '\n';
      }
    }
    for (const auto& c : obs.cells)
      if (!truth_hexes.count(c.hex)) {
        exact = false;
        exact_strict = false;
        if (log)
          *log << name << ": false " << c.hex.q << "," << c.hex.r << " " << c.color << " " << c.face << " conf "
               << c.confidence << '\n';
      }
    s.exact_boards += exact;
    s.exact_strict += exact_strict;
  }
  if (s.scenes == 0) return Error{"no labelled scenes (image + .json) in " + dir};
  return s;
}

Result<RealScore> eval_real(const std::string& dir_or_csv, const std::string& split, int limit,
                            const DiceParams& params, std::ostream* log, bool detect, const WarningSink& warn) {
  auto images = load_real_images(dir_or_csv, split);
  if (!images) return Error{images.error()};
  auto models = load_dice_models(params);
  if (!models) return Error{models.error()};
  const std::shared_ptr<const DiceClassifier> model = models->model;
  const std::shared_ptr<const DiceCnn> cnn = models->cnn;
  RealScore s;
  for (const auto& im : *images) {
    if (limit > 0 && s.images >= limit) break;
    const auto& labels = im.labels;
    const auto& name = im.name;
    auto img = load_image(im.path, warn);
    if (!img) return Error{img.error()};
    auto found = detect ? find_dice_checked(*img, params) : Result<std::vector<DieDetection>>(std::vector<DieDetection>{});
    if (!found) return Error{found.error()};
    const auto& dets = *found;
    RealCounts& src = s.by_source[im.source];
    {
      // Oracle boxes: the face read at each labelled box (the working image, as find_dice).
      double sc = 1;
      const cv::Mat work = dice_work_image(*img, params, sc);
      cv::Mat gray;
      if (!work.empty()) cv::cvtColor(work, gray, cv::COLOR_BGR2GRAY);
      OracleCounts& os = s.oracle_by_source[im.source];
      for (const auto& l : labels) {
        const cv::Rect2f box(static_cast<float>(l.box.x * sc), static_cast<float>(l.box.y * sc),
                             static_cast<float>(l.box.width * sc), static_cast<float>(l.box.height * sc));
        // A top-face box frames the pips only: read a little around it.
        const float pad = l.top_face ? 1.5f : 1.0f;
        const cv::Point2f c(box.x + box.width / 2, box.y + box.height / 2);
        const float side = std::max(box.width, box.height);
        DieRead r;
        if (!gray.empty()) {
          DiceParams rp = params;
          rp.pip_region_pad *= pad;
          r = read_die(work, gray, cv::Rect2f(c.x - side / 2, c.y - side / 2, side, side), model.get(), rp, cnn.get(),
                       l.top_face ? kCnnTopFaceScale : 1.0f);
        }
        for (OracleCounts* o : {&s.oracle, &os}) {
          ++o->labels;
          o->cnn_ok += r.cnn_face == l.face;
          for (std::size_t t = 0; t < kCnnSweep.size(); ++t)
            o->ok_at[t] += (r.cnn_face > 0 && r.cnn_prob >= kCnnSweep[t] ? r.cnn_face : r.base_face) == l.face;
          for (std::size_t t = 0; t < kFuseSweep.size(); ++t)
            o->fuse_ok[t] += fuse_face(r.pips.face_score, r.cnn_scores, r.base_face, r.cnn_face > 0 ? kFuseSweep[t] : 0.0,
                                       params.cnn_fuse_floor) == l.face;
          o->pips_read += r.pip_face > 0;
          o->pips_ok += r.pip_face == l.face;
          o->model_ok += r.model_face == l.face;
          o->combined_ok += r.face == l.face;
        }
        if (std::getenv("HEXDICE_EVAL_DUMP")) {  // as the matched dice's DUMP lines below, tag ORACLE
          std::cerr << "ORACLE " << name << ' ' << l.box.x << ' ' << l.box.y << ' ' << l.face << ' ' << r.face << ' ' << r.base_face << ' ' << r.cnn_face;
          for (int f = 1; f <= 6; ++f) std::cerr << ' ' << r.pips.face_score[static_cast<std::size_t>(f)];
          for (int f = 1; f <= 6; ++f) std::cerr << ' ' << r.cnn_scores[static_cast<std::size_t>(f)];
          std::cerr << ' ' << r.cnn_scores[0] << '\n';
        }
        ++s.oracle_confusion[static_cast<std::size_t>(l.face)][static_cast<std::size_t>(std::clamp(r.face, 0, 6))];
        if (log && r.face != l.face)
          *log << name << ": oracle box " << l.box << " face " << l.face << " read " << r.face << " (pips " << r.pip_face
               << ", model " << r.model_face << ")\n";
      }
    }
    int matched = 0, face_ok = 0, cnn_ok = 0;
    std::array<int, kCnnSweep.size()> ok_at{};
    std::array<int, kFuseSweep.size()> fuse_ok{};
    // Greedy matching by centre distance; a match needs the centres within half the
    // larger box side (labels may be whole dice or top faces only).
    struct Pair { double d; std::size_t l, k; };
    std::vector<Pair> pairs;
    for (std::size_t l = 0; l < labels.size(); ++l)
      for (std::size_t k = 0; k < dets.size(); ++k) {
        const cv::Point2d a(labels[l].box.x + labels[l].box.width / 2.0, labels[l].box.y + labels[l].box.height / 2.0);
        const cv::Point2d b(dets[k].box.x + dets[k].box.width / 2.0, dets[k].box.y + dets[k].box.height / 2.0);
        const double d = cv::norm(a - b);
        const double lim = 0.5 * std::max({labels[l].box.width, labels[l].box.height, dets[k].box.width, dets[k].box.height});
        if (d <= lim) pairs.push_back({d, l, k});
      }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.d < b.d; });
    std::set<std::size_t> used_l, used_k;
    std::map<std::size_t, std::size_t> label_of;  // detection -> the label it matched
    for (const auto& p : pairs) {
      if (used_l.count(p.l) || used_k.count(p.k)) continue;
      used_l.insert(p.l);
      used_k.insert(p.k);
      label_of[p.k] = p.l;
      ++matched;
      const bool ok = dets[p.k].face == labels[p.l].face;
      face_ok += ok;
      const DieDetection& dd = dets[p.k];
      cnn_ok += dd.cnn_face == labels[p.l].face;
      for (std::size_t t = 0; t < kCnnSweep.size(); ++t)
        ok_at[t] += (dd.cnn_face > 0 && dd.cnn_prob >= kCnnSweep[t] ? dd.cnn_face : dd.base_face) == labels[p.l].face;
      for (std::size_t t = 0; t < kFuseSweep.size(); ++t)
        fuse_ok[t] += fuse_face(dd.pip_scores, dd.cnn_scores, dd.base_face, dd.cnn_face > 0 ? kFuseSweep[t] : 0.0,
                                params.cnn_fuse_floor) == labels[p.l].face;
      const int read = std::clamp(dets[p.k].face, 0, 6);
      // HEXDICE_EVAL_DUMP=1: every matched die on stderr (photo, label box x y, label, face read,
      // pip/forest face, network face, pip layout scores 1..6, network probabilities 1..6 and
      // not-a-die), for scripts/dice_fusion_sim.py to replay the fusion offline.
      if (std::getenv("HEXDICE_EVAL_DUMP")) {
        std::cerr << "DUMP " << name << ' ' << labels[p.l].box.x << ' ' << labels[p.l].box.y << ' ' << labels[p.l].face << ' ' << dd.face << ' ' << dd.base_face << ' ' << dd.cnn_face;
        for (int f = 1; f <= 6; ++f) std::cerr << ' ' << dd.pip_scores[static_cast<std::size_t>(f)];
        for (int f = 1; f <= 6; ++f) std::cerr << ' ' << dd.cnn_scores[static_cast<std::size_t>(f)];
        std::cerr << ' ' << dd.cnn_scores[0] << '\n';
      }
      ++s.confusion[static_cast<std::size_t>(labels[p.l].face)][static_cast<std::size_t>(read)];
      if (!ok && log)
      {
        *log << name << ": box " << labels[p.l].box << " face " << labels[p.l].face << " read " << dets[p.k].face;
        if (dd.cnn_face > 0) {
          // The evidence the fusion weighs: pip layout scores and the network's probabilities of faces 1..6.
          *log << " (pips";
          for (int f = 1; f <= 6; ++f) *log << ' ' << std::lround(dd.pip_scores[static_cast<std::size_t>(f)]);
          *log << "; network";
          for (int f = 1; f <= 6; ++f) *log << ' ' << std::lround(100 * dd.cnn_scores[static_cast<std::size_t>(f)]);
          *log << ')';
        }
        *log << '\n';
      }
    }
    for (std::size_t l = 0; l < labels.size(); ++l)
      if (!used_l.count(l)) {
        ++s.confusion[static_cast<std::size_t>(labels[l].face)][0];
        if (log) *log << name << ": missed " << labels[l].box << " face " << labels[l].face << '\n';
      }
    if (log)
      for (std::size_t k = 0; k < dets.size(); ++k)
        if (!used_k.count(k)) *log << name << ": false " << dets[k].box << " face " << dets[k].face << (dets[k].from_gap ? " (gap)" : "") << '\n';
    // HEXDICE_GAP_DUMP=1: every detection of the gap candidates on stderr (photo, box, the
    // labelled face it matches or 0 = false, face read, network's not-a-die, forest margin).
    if (std::getenv("HEXDICE_GAP_DUMP"))
      for (std::size_t k = 0; k < dets.size(); ++k)
        if (dets[k].from_gap) {
          const int lf = label_of.count(k) ? labels[label_of[k]].face : 0;
          std::cerr << "GAP " << name << ' ' << dets[k].box.x << ' ' << dets[k].box.y << ' ' << dets[k].box.width << ' '
                    << lf << ' ' << dets[k].face << ' ' << dets[k].cnn_not_die << ' ' << dets[k].confidence << '\n';
        }
    std::array<int, kCnnSweep.size()> nd_matched{}, nd_false{};
    for (std::size_t k = 0; k < dets.size(); ++k)
      for (std::size_t t = 0; t < kCnnSweep.size(); ++t)
        if (dets[k].cnn_face > 0 && dets[k].cnn_not_die >= kCnnSweep[t]) ++(used_k.count(k) ? nd_matched : nd_false)[t];
    for (RealCounts* c : {static_cast<RealCounts*>(&s), &src}) {
      for (std::size_t t = 0; t < kCnnSweep.size(); ++t) {
        c->not_die_matched[t] += nd_matched[t];
        c->not_die_false[t] += nd_false[t];
      }
      ++c->images;
      c->labels += static_cast<int>(labels.size());
      c->detections += static_cast<int>(dets.size());
      c->matched += matched;
      c->face_ok += face_ok;
      c->cnn_ok += cnn_ok;
      for (std::size_t t = 0; t < kCnnSweep.size(); ++t) c->face_ok_at[t] += ok_at[t];
      for (std::size_t t = 0; t < kFuseSweep.size(); ++t) c->fuse_ok[t] += fuse_ok[t];
    }
  }
  if (s.images == 0) return Error{"no labelled images in " + dir_or_csv};
  return s;
}

Status run_eval(const EvalArgs& a, std::ostream& out, const WarningSink& warn) {
  const auto pct = percent;
  if (!a.scenes_dir.empty() && a.faces) {
    FaceEvalOptions fo;
    fo.limit = a.limit;
    fo.dump_dir = a.dump_faces;
    if (a.face_reader != "lattice" && a.face_reader != "components")
      return Error{"--face-reader must be lattice or components, not " + a.face_reader};
    fo.face.lattice = a.face_reader == "lattice";
    fo.warn = warn;
    auto r = eval_faces(a.scenes_dir, fo, a.verbose ? &out : nullptr);
    if (!r) return Error{r.error()};
    print_face_eval(*r, out);
    out << "eval done: " << r->scenes << " scenes, faces " << (r->counts.empty() ? 0 : r->counts[0].dice) << " dice\n";
  } else if (!a.scenes_dir.empty()) {
    ReadParams rp;
    if (!a.params_file.empty()) {
      auto loaded = ReadParams::load(a.params_file);
      if (!loaded) return Error{loaded.error()};
      rp = *loaded;
    }
    auto s = eval_scenes(a.scenes_dir, rp, a.limit, a.verbose ? &out : nullptr, warn);
    if (!s) return Error{s.error()};
    out << "scenes: " << s->scenes << "  board_found agrees: " << pct(s->found_ok, s->scenes) << '\n'
        << "occupancy precision: " << pct(s->matched, s->seen_cells) << "  recall: " << pct(s->matched, s->truth_cells)
        << "  (of all visible dice, hidden = missed: " << pct(s->matched, s->visible_dice) << ")\n"
        << "dice in hidden cells: " << s->hidden_dice << ", of them labelled visible (in view, not occluded): "
        << s->hidden_visible << "; dice in scenes labelled board_found false (not scored): " << s->not_found_dice << '\n';
    if (!s->hidden_visible_why.empty()) {
      out << "visible dice hidden, by why:";
      for (const auto& [why, n] : s->hidden_visible_why) out << ' ' << why << ' ' << n;
      out << '\n';
    }
    out
        << "colour accuracy: " << pct(s->color_ok, s->matched) << "  face accuracy: " << pct(s->face_ok, s->matched)
        << "  guard accuracy: " << pct(s->guard_ok, s->matched) << '\n'
        << "whole-board exact match: " << pct(s->exact_boards, s->scenes) << '\n';
    if (s->part_covered > 0)
      out << "part covered (the label's pip_lattice_hidden > 0: some of the top's nine pip places under the hand, "
             "its centre clear): "
          << s->part_covered << ", read right " << s->part_covered_right << ", read wrong " << s->part_covered_wrong
          << ", hidden " << s->part_covered_hidden << "\n"
          << "counting a part-covered die as not visible: of all visible dice read "
          << pct(s->matched_strict, s->visible_strict) << ", whole-board exact " << pct(s->exact_strict, s->scenes) << '\n';
    out
        << "eval done: " << s->scenes << " scenes, face " << pct(s->face_ok, s->matched) << '\n';
  } else {
    DiceParams dp;
    dp.model_path = a.model;
    dp.use_model = !a.no_model;
    dp.cnn_path = a.cnn;
    dp.use_cnn = !a.no_cnn;
    if (a.cnn_min_prob >= 0) dp.cnn_min_prob = a.cnn_min_prob;
    if (a.cnn_max_not_die >= 0) dp.cnn_max_not_die = a.cnn_max_not_die;
    if (a.cnn_fuse_weight >= 0) dp.cnn_fuse_weight = a.cnn_fuse_weight;
    if (a.cnn_fuse_floor >= 0) dp.cnn_fuse_floor = a.cnn_fuse_floor;
    if (a.cnn_views > 0) dp.cnn_views = a.cnn_views;
    if (a.cnn_finder_scale > 0) dp.cnn_finder_scale = a.cnn_finder_scale;
    if (a.max_pip_over_median >= 0) dp.max_pip_over_median = a.max_pip_over_median;
    if (a.pip_reference_min >= 0) dp.pip_reference_min = a.pip_reference_min;
    if (a.value_channel_max_body >= 0) dp.pips.value_channel_max_body = a.value_channel_max_body;
    if (a.chroma_weight >= 0) dp.pips.chroma_weight = a.chroma_weight;
    if (a.chroma_min_excess >= 0) dp.pips.chroma_min_excess = a.chroma_min_excess;
    if (a.pip_face_candidates) dp.pip_face_candidates = true;
    if (a.gap_candidates >= 0) dp.gap_candidates = a.gap_candidates > 0;
    if (a.gap_min_margin > -9) dp.gap_min_margin = a.gap_min_margin;
    if (a.gap_max_not_die >= 0) dp.gap_max_not_die = a.gap_max_not_die;
    if (a.gap_side_face_radius >= 0) dp.gap_side_face_radius = a.gap_side_face_radius;
    if (a.final_side_face_radius >= 0) dp.final_side_face_radius = a.final_side_face_radius;
    if (a.below_side_face_radius >= 0) dp.below_side_face_radius = a.below_side_face_radius;
    if (a.below_side_face_pip >= 0) dp.below_side_face_pip = a.below_side_face_pip;
    if (a.below_side_face_pair_pip >= 0) dp.below_side_face_pair_pip = a.below_side_face_pair_pip;
    if (a.below_side_face_own >= 0) dp.below_side_face_own = a.below_side_face_own;
    if (a.upper_face_pip >= 0) dp.upper_face_pip = a.upper_face_pip;
    if (a.centred_pip_is_one >= 0) dp.centred_pip_is_one = a.centred_pip_is_one;
    if (a.pre_nms_wide >= 0) dp.pre_nms_wide = a.pre_nms_wide;
    if (a.wide_read_body_shift >= 0) dp.wide_read_body_shift = a.wide_read_body_shift;
    if (a.min_read_face >= 0) dp.min_read_face = a.min_read_face;
    if (a.min_face_same_kind >= 0) dp.pips.min_face_same_kind = a.min_face_same_kind > 0;
    if (a.lone_pip_off_face >= 0) dp.pips.lone_pip_off_face = a.lone_pip_off_face > 0;
    if (a.min_body_share >= 0) dp.min_body_share = a.min_body_share;
    if (a.min_body_die_share >= 0) dp.min_body_die_share = a.min_body_die_share;
    if (a.gap_residual_seeds >= 0) dp.gap_residual_seeds = a.gap_residual_seeds > 0;
    if (a.gap_residual_clear >= 0) dp.gap_residual_clear = a.gap_residual_clear;
    if (a.gap_residual_depth >= 0) dp.gap_residual_depth = a.gap_residual_depth;
    if (a.gap_residual_spacing >= 0) dp.gap_residual_spacing = a.gap_residual_spacing;
    if (a.gap_residual_side >= 0) dp.gap_residual_side = a.gap_residual_side;
    if (a.gap_residual_connected >= 0) dp.gap_residual_connected = a.gap_residual_connected > 0;
    if (a.gap_residual_sure_die >= 0) dp.gap_residual_sure_die = a.gap_residual_sure_die;
    if (a.gap_seed_repeat >= 0) dp.gap_seed_repeat = a.gap_seed_repeat;
    if (a.gap_seed_on_fg >= 0) dp.gap_seed_on_fg = a.gap_seed_on_fg > 0;
    if (a.six_missing_pair >= 0) dp.pips.six_missing_pair = a.six_missing_pair;
    if (a.small_die_reread >= 0) dp.small_die_reread = a.small_die_reread;
    if (a.body_reread_max_not_die >= 0) dp.body_reread_max_not_die = a.body_reread_max_not_die;
    if (a.body_reread >= 0) dp.body_reread = a.body_reread;
    if (a.body_reread_window >= 0) dp.body_reread_window = a.body_reread_window;
    if (a.reread_sides_before_gap >= 0) dp.reread_sides_before_gap = a.reread_sides_before_gap > 0;
    if (a.hue_channel_min_body >= 0) dp.pips.hue_channel_min_body = a.hue_channel_min_body;
    if (a.pip_shape_spread >= 0) dp.pips.max_pip_shape_spread = a.pip_shape_spread;
    if (a.dash_max_tilt >= 0) dp.pips.dash_max_tilt = a.dash_max_tilt;
    if (a.round_pip_max_elong >= 0) dp.pips.round_pip_max_elong = a.round_pip_max_elong;
    auto s = eval_real(a.real, a.split, a.limit, dp, a.verbose ? &out : nullptr, !a.oracle_only, warn);
    if (!s) return Error{s.error()};
    out << "real photos (" << a.split << "): " << s->images << " images, " << s->labels << " labelled dice, "
        << s->detections << " detections\n"
        << "detection recall: " << pct(s->matched, s->labels) << "  precision: " << pct(s->matched, s->detections) << '\n'
        << "face accuracy (matched dice): " << pct(s->face_ok, s->matched)
        << "  end to end (correct / labelled): " << pct(s->face_ok, s->labels) << '\n';
    for (const auto& [src, c] : s->by_source)
      out << "  " << src << ": " << c.images << " images, recall " << pct(c.matched, c.labels) << ", precision "
          << pct(c.matched, c.detections) << ", face " << pct(c.face_ok, c.matched) << ", end to end "
          << pct(c.face_ok, c.labels) << '\n';
    auto sweep = [&](const std::string& what, const std::array<int, kCnnSweep.size()>& ok, int cnn_ok, int n) {
      out << what << ": network alone " << pct(cnn_ok, n) << "; its face where p >=";
      for (std::size_t t = 0; t < kCnnSweep.size(); ++t)
        out << ' ' << (kCnnSweep[t] > 1 ? std::string("never") : std::to_string(kCnnSweep[t]).substr(0, 4)) << ' ' << pct(ok[t], n);
      out << '\n';
    };
    auto fuse = [&](const std::string& what, const std::array<int, kFuseSweep.size()>& ok, int n) {
      out << what << ": fused with the pip scores (floor " << dp.cnn_fuse_floor << "), weight";
      for (std::size_t t = 0; t < kFuseSweep.size(); ++t) out << ' ' << kFuseSweep[t] << ' ' << pct(ok[t], n);
      out << '\n';
    };
    if (!a.no_model && !a.no_cnn) {
      sweep("face network, matched dice", s->face_ok_at, s->cnn_ok, s->matched);
      for (const auto& [src, c] : s->by_source) sweep("  " + src, c.face_ok_at, c.cnn_ok, c.matched);
      fuse("face network, matched dice", s->fuse_ok, s->matched);
      for (const auto& [src, c] : s->by_source) fuse("  " + src, c.fuse_ok, c.matched);
      auto not_die = [&](const std::string& what, const RealCounts& c) {
        out << what << ": detections the network calls not a die with p >= t (matched / false):";
        for (std::size_t t = 1; t + 1 < kCnnSweep.size(); ++t)
          out << ' ' << std::to_string(kCnnSweep[t]).substr(0, 4) << ' ' << c.not_die_matched[t] << '/' << c.not_die_false[t];
        out << '\n';
      };
      not_die("not-a-die filter", *s);
      for (const auto& [src, c] : s->by_source) not_die("  " + src, c);
    }
    auto confusion = [&out](const std::array<std::array<int, 7>, 7>& m) {
      for (int t = 1; t <= 6; ++t) {
        out << "  " << t << ":";
        for (int r = 0; r <= 6; ++r) {
          std::string v = std::to_string(m[static_cast<std::size_t>(t)][static_cast<std::size_t>(r)]);
          out << std::string(6 - std::min<std::size_t>(5, v.size()), ' ') << v;
        }
        out << '\n';
      }
    };
    out << "confusion (rows: labelled face; columns: read face, 0 = not detected)\n       0     1     2     3     4     5     6\n";
    confusion(s->confusion);
    auto oracle_line = [&](const std::string& what, const OracleCounts& o) {
      out << what << ": face " << pct(o.combined_ok, o.labels) << "; pip lattice read " << pct(o.pips_read, o.labels)
          << ", right " << pct(o.pips_ok, o.labels) << " (" << pct(o.pips_ok, o.pips_read) << " of read)";
      if (!a.no_model) out << "; model alone " << pct(o.model_ok, o.labels);
      out << '\n';
    };
    oracle_line("oracle boxes (face read at the labelled box)", s->oracle);
    for (const auto& [src, o] : s->oracle_by_source) oracle_line("  " + src, o);
    if (!a.no_model && !a.no_cnn) {
      sweep("face network, oracle boxes", s->oracle.ok_at, s->oracle.cnn_ok, s->oracle.labels);
      for (const auto& [src, o] : s->oracle_by_source) sweep("  " + src, o.ok_at, o.cnn_ok, o.labels);
      fuse("face network, oracle boxes", s->oracle.fuse_ok, s->oracle.labels);
      for (const auto& [src, o] : s->oracle_by_source) fuse("  " + src, o.fuse_ok, o.labels);
    }
    out << "oracle confusion (rows: labelled face; columns: read face, 0 = unreadable)\n       0     1     2     3     4     5     6\n";
    confusion(s->oracle_confusion);
    out << "eval done: " << s->images << " images, face " << pct(s->face_ok, s->matched) << '\n';
  }
  return {};
}

}  // namespace hexdice::vision
