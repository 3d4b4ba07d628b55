#include "vision/reader_eval.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "vision/reader_io.h"

namespace hexdice::vision {

namespace fs = std::filesystem;

Result<SceneScore> eval_scenes(const std::string& dir, const ReadParams& params, int limit, std::ostream* log) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{"not a directory: " + dir};
  std::vector<fs::path> labels;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.path().filename() != "board.json") labels.push_back(e.path());
  std::sort(labels.begin(), labels.end());
  SheetLayout layout = standard_sheet();
  if (fs::exists(fs::path(dir) / "board.json")) {
    std::ifstream in(fs::path(dir) / "board.json");
    std::stringstream ss;
    ss << in.rdbuf();
    auto l = sheet_from_json_text(ss.str());
    if (!l) return Error{"board.json: " + l.error()};
    layout = *l;
  }
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
    auto image = load_image(img.string());
    if (!image) return Error{image.error()};
    const Observation obs = read_board(*image, layout, nullptr, params);
    ++s.scenes;
    s.found_ok += obs.board_found == truth->board_found;
    std::map<Hex, const CellObservation*> seen;
    for (const auto& c : obs.cells) seen[c.hex] = &c;
    s.truth_cells += static_cast<int>(truth->cells.size());
    s.seen_cells += static_cast<int>(obs.cells.size());
    bool exact = obs.board_found == truth->board_found && obs.cells.size() == truth->cells.size();
    for (const auto& t : truth->cells) {
      auto it = seen.find(t.hex);
      if (it == seen.end()) {
        exact = false;
        if (log) *log << img.filename().string() << ": missed " << t.hex.q << "," << t.hex.r << " " << t.color << " " << t.face << '\n';
        continue;
      }
      ++s.matched;
      const auto& o = *it->second;
      s.color_ok += o.color == t.color;
      s.face_ok += o.face == t.face;
      s.guard_ok += o.guard == t.guard;
      if (o.color != t.color || o.face != t.face || o.guard != t.guard) {
        exact = false;
        if (log)
          *log << img.filename().string() << ": " << t.hex.q << "," << t.hex.r << " truth " << t.color << " " << t.face
               << (t.guard ? " guard" : "") << " read " << o.color << " " << o.face << (o.guard ? " guard" : "") << '\n';
      }
    }
    s.exact_boards += exact;
  }
  if (s.scenes == 0) return Error{"no labelled scenes (image + .json) in " + dir};
  return s;
}

namespace {

struct Label {
  cv::Rect box;
  int face;
};

}  // namespace

Result<RealScore> eval_real(const std::string& dir_or_csv, const std::string& split, int limit,
                            const DiceParams& params, std::ostream* log) {
  fs::path csv = dir_or_csv;
  std::error_code ec;
  if (fs::is_directory(csv, ec)) csv /= "labels.csv";
  std::ifstream in(csv);
  if (!in) return Error{"cannot read " + csv.string()};
  const fs::path images = csv.parent_path() / "images";
  std::map<std::string, std::vector<Label>> by_image;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string f[8];
    for (auto& x : f) std::getline(ss, x, ',');
    try {
      const int x0 = std::stoi(f[1]), y0 = std::stoi(f[2]), x1 = std::stoi(f[3]), y1 = std::stoi(f[4]);
      by_image[f[0]].push_back({cv::Rect(x0, y0, x1 - x0, y1 - y0), std::stoi(f[5])});
    } catch (const std::exception&) {
      return Error{csv.string() + ": malformed row: " + line};
    }
  }
  RealScore s;
  int index = -1;
  for (const auto& [name, labels] : by_image) {
    ++index;
    if (split == "even" && index % 2 != 0) continue;
    if (split == "odd" && index % 2 != 1) continue;
    if (limit > 0 && s.images >= limit) break;
    auto img = load_image((images / name).string());
    if (!img) return Error{img.error()};
    const auto dets = find_dice(*img, params);
    ++s.images;
    s.labels += static_cast<int>(labels.size());
    s.detections += static_cast<int>(dets.size());
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
    for (const auto& p : pairs) {
      if (used_l.count(p.l) || used_k.count(p.k)) continue;
      used_l.insert(p.l);
      used_k.insert(p.k);
      ++s.matched;
      const bool ok = dets[p.k].face == labels[p.l].face;
      s.face_ok += ok;
      if (!ok && log)
        *log << name << ": box " << labels[p.l].box << " face " << labels[p.l].face << " read " << dets[p.k].face << '\n';
    }
    if (log) {
      for (std::size_t l = 0; l < labels.size(); ++l)
        if (!used_l.count(l)) *log << name << ": missed " << labels[l].box << " face " << labels[l].face << '\n';
      for (std::size_t k = 0; k < dets.size(); ++k)
        if (!used_k.count(k)) *log << name << ": false " << dets[k].box << " face " << dets[k].face << '\n';
    }
  }
  if (s.images == 0) return Error{"no labelled images in " + csv.string()};
  return s;
}

Status run_eval(const EvalArgs& a, std::ostream& out) {
  auto pct = [](int num, int den) {
    std::ostringstream ss;
    ss.setf(std::ios::fixed);
    ss.precision(1);
    ss << (den ? 100.0 * num / den : 0.0) << "% (" << num << "/" << den << ")";
    return ss.str();
  };
  if (!a.scenes_dir.empty()) {
    auto s = eval_scenes(a.scenes_dir, ReadParams{}, a.limit, a.verbose ? &out : nullptr);
    if (!s) return Error{s.error()};
    out << "scenes: " << s->scenes << "  board_found agrees: " << pct(s->found_ok, s->scenes) << '\n'
        << "occupancy precision: " << pct(s->matched, s->seen_cells) << "  recall: " << pct(s->matched, s->truth_cells) << '\n'
        << "colour accuracy: " << pct(s->color_ok, s->matched) << "  face accuracy: " << pct(s->face_ok, s->matched)
        << "  guard accuracy: " << pct(s->guard_ok, s->matched) << '\n'
        << "whole-board exact match: " << pct(s->exact_boards, s->scenes) << '\n'
        << "eval done: " << s->scenes << " scenes, face " << pct(s->face_ok, s->matched) << '\n';
  } else {
    auto s = eval_real(a.real, a.split, a.limit, DiceParams{}, a.verbose ? &out : nullptr);
    if (!s) return Error{s.error()};
    out << "real photos (" << a.split << "): " << s->images << " images, " << s->labels << " labelled dice, "
        << s->detections << " detections\n"
        << "detection recall: " << pct(s->matched, s->labels) << "  precision: " << pct(s->matched, s->detections) << '\n'
        << "face accuracy (matched dice): " << pct(s->face_ok, s->matched)
        << "  end to end (correct / labelled): " << pct(s->face_ok, s->labels) << '\n'
        << "eval done: " << s->images << " images, face " << pct(s->face_ok, s->matched) << '\n';
  }
  return {};
}

}  // namespace hexdice::vision
