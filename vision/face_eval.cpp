#include "vision/face_eval.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <cstdlib>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/read.h"
#include "vision/reader_eval.h"
#include "vision/reader_io.h"
#include "vision/register.h"
#include "vision/sheet.h"

namespace hexdice::vision {

namespace fs = std::filesystem;

std::vector<FaceCondition> default_face_conditions() {
  return {
      {"located", 0, false, 0, 1.0},
      {"turned", 0, true, 0, 1.0},
      {"off 1 mm", 1.0, true, 0, 1.0},
      {"off 2 mm", 2.0, true, 0, 1.0},
      {"off 3 mm", 3.0, true, 0, 1.0},
      {"blur 1 px", 0, true, 1.0, 1.0},
      {"0.7x image", 0, true, 0, 0.7},
  };
}

namespace {

struct LabelledDie {
  cv::Point2d centre_mm, top_px;
  double yaw = 0;
  int face = 0;
  std::string color;
};

}  // namespace

Result<FaceEvalResult> eval_faces(const std::string& dir, const FaceEvalOptions& opt, std::ostream* log) {
  auto scenes = scene_dir(dir);
  if (!scenes) return Error{scenes.error()};
  const std::vector<fs::path>& labels = scenes->labels;
  const SheetLayout& layout = scenes->layout;
  if (opt.conditions.empty()) return Error{"no face conditions"};
  std::error_code ec;
  if (!opt.dump_dir.empty()) fs::create_directories(opt.dump_dir, ec);
  FaceEvalResult res;
  res.conditions = opt.conditions;
  res.counts.resize(opt.conditions.size());
  double err_sum = 0;
  int err_n = 0;
  for (const auto& lp : labels) {
    if (opt.limit > 0 && res.scenes >= opt.limit) break;
    std::ifstream in(lp);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("dice") || !j["dice"].is_array()) continue;
    fs::path img_path = lp.parent_path() / j.value("image", lp.stem().string() + ".jpg");
    if (!fs::exists(img_path)) continue;
    auto image = load_image(img_path.string(), opt.warn);
    if (!image) return Error{image.error()};
    ++res.scenes;
    std::vector<LabelledDie> dice;
    int skipped = 0;
    for (const auto& d : j["dice"]) {
      if (!d.is_object() || !d.contains("centre_mm") || !d.contains("face")) continue;
      if (!d.value("in_view", true) || d.value("occluded", false)) {
        ++skipped;
        continue;
      }
      LabelledDie ld;
      ld.centre_mm = {d["centre_mm"][0].get<double>(), d["centre_mm"][1].get<double>()};
      if (d.contains("top_px")) ld.top_px = {d["top_px"][0].get<double>(), d["top_px"][1].get<double>()};
      ld.yaw = d.value("yaw_deg", 0.0);
      ld.face = d["face"].get<int>();
      ld.color = d.value("color", std::string());
      dice.push_back(ld);
    }
    // Registration is per condition (the image changes); the located pose also gives the
    // check of the lifted plane against the labels' top_px.
    bool any = false;
    for (std::size_t ci = 0; ci < opt.conditions.size(); ++ci) {
      const FaceCondition& cond = opt.conditions[ci];
      cv::Mat work = *image;
      if (cond.blur_sigma > 0) cv::GaussianBlur(work, work, cv::Size(0, 0), cond.blur_sigma);
      if (cond.scale != 1.0) cv::resize(work, work, cv::Size(), cond.scale, cond.scale, cv::INTER_AREA);
      const SheetPose pose = register_sheet(work, layout);
      if (!pose.found) continue;
      any = true;
      const cv::Vec3f white = white_reference(work, layout, pose.paper_to_image);
      // Perturbations from the scene name and condition: the same for every candidate reader.
      std::mt19937 rng(opt.seed * 7919u + static_cast<unsigned>(std::hash<std::string>{}(lp.stem().string()) % 100003u) +
                       static_cast<unsigned>(ci) * 104729u);
      std::uniform_real_distribution<double> uni(0.0, 1.0);
      FaceCounts& fc = res.counts[ci];
      for (std::size_t di = 0; di < dice.size(); ++di) {
        const LabelledDie& d = dice[di];
        const double heading = uni(rng) * 2 * CV_PI;
        const double turn = uni(rng) * 90.0;
        if (ci == 0 && cond.scale == 1.0 && d.top_px != cv::Point2d()) {
          const double e = cv::norm(apply_h(pose.top_to_image, d.centre_mm) - d.top_px);
          err_sum += e;
          ++err_n;
          res.centre_err_max_px = std::max(res.centre_err_max_px, e);
        }
        // The crop is centred where the renderer projected the top face (label top_px,
        // scaled with the image), on the registered top plane: a registration error of
        // the lifted plane does not move the crop off the face.
        cv::Point2d centre = d.centre_mm;
        if (d.top_px != cv::Point2d()) centre = apply_h(pose.top_to_image.inv(), d.top_px * cond.scale);
        const cv::Point2d c = centre + cond.offset_mm * cv::Point2d(std::cos(heading), std::sin(heading));
        const double angle = cond.random_turn ? d.yaw + turn : d.yaw;
        const cv::Mat crop = cut_face_crop(work, pose.top_to_image, c, angle, layout.die_height_mm);
        const FaceReading fr = read_face(crop, opt.face);
        const cv::Vec3f rel(fr.body_bgr[0] / white[0], fr.body_bgr[1] / white[1], fr.body_bgr[2] / white[2]);
        const std::string colour = name_color(rel);  // as read_board calls it
        const std::string colour_pol = name_color(rel, {}, fr.pip_polarity);
        fc.color_pol_ok += colour_pol == d.color;
        ++fc.dice;
        const bool face_ok = fr.face == d.face, colour_ok = colour == d.color;
        fc.face_ok += face_ok;
        fc.color_ok += colour_ok;
        fc.unreadable += fr.face == 0;
        (face_ok ? fc.conf_ok_sum : fc.conf_bad_sum) += fr.confidence;
        if (d.face >= 1 && d.face <= 6)
          ++fc.face_confusion[static_cast<std::size_t>(d.face)][static_cast<std::size_t>(std::clamp(fr.face, 0, 6))];
        ++fc.color_confusion[d.color][colour];
        static const bool log_all = std::getenv("HEXDICE_FACE_EVAL_ALL") != nullptr;
        if (!face_ok || !colour_ok || log_all) {
          if (log)
            *log << lp.stem().string() << " die " << di << " [" << cond.name << "] " << d.color << " " << d.face << " read "
                 << colour << " " << fr.face << " conf " << std::setprecision(2) << fr.confidence << " rel "
                 << rel[0] << " " << rel[1] << " " << rel[2] << '\n';
          if (!opt.dump_dir.empty()) {
            std::ostringstream name;
            name << lp.stem().string() << "_d" << di << "_c" << ci << "_" << d.color << d.face << "_read" << colour << fr.face
                 << ".png";
            cv::imwrite((fs::path(opt.dump_dir) / name.str()).string(), crop);
          }
        }
      }
    }
    if (any) ++res.scenes_used;
    res.dice_skipped += skipped + (any ? 0 : static_cast<int>(dice.size()));
  }
  if (res.scenes == 0) return Error{"no labelled scenes (image + .json with dice[]) in " + dir};
  res.centre_err_px = err_n ? err_sum / err_n : 0;
  return res;
}

void print_face_eval(const FaceEvalResult& r, std::ostream& out) {
  const auto pct = percent;
  out << "faces: " << r.scenes << " scenes (" << r.scenes_used << " registered), " << r.dice_skipped
      << " dice skipped (out of view / occluded / no sheet); labelled centre vs top_px "
      << std::fixed << std::setprecision(2) << r.centre_err_px << " px mean, " << r.centre_err_max_px
      << " max (crops are centred on top_px)\n";
  for (std::size_t i = 0; i < r.counts.size(); ++i) {
    const FaceCounts& c = r.counts[i];
    const int bad = c.dice - c.face_ok;
    out << "  " << std::left << std::setw(12) << r.conditions[i].name << std::right << " face " << pct(c.face_ok, c.dice)
        << "  colour " << pct(c.color_ok, c.dice) << " (+pip polarity " << pct(c.color_pol_ok, c.dice) << ")  unreadable " << c.unreadable << "  mean conf right "
        << std::setprecision(2) << (c.face_ok ? c.conf_ok_sum / c.face_ok : 0.0) << " wrong "
        << (bad ? c.conf_bad_sum / bad : 0.0) << '\n';
  }
  if (r.counts.empty()) return;
  const FaceCounts& c = r.counts[0];
  out << "face confusion [" << r.conditions[0].name << "] (rows: labelled; columns: read, 0 = unreadable)\n"
      << "       0     1     2     3     4     5     6\n";
  for (int t = 1; t <= 6; ++t) {
    out << "  " << t << ":";
    for (int k = 0; k <= 6; ++k) out << std::setw(6) << c.face_confusion[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)];
    out << '\n';
  }
  out << "colour confusion [" << r.conditions[0].name << "] (labelled: read counts)\n";
  for (const auto& [truth, row] : c.color_confusion) {
    int n = 0;
    for (const auto& [name, k] : row) n += k;
    out << "  " << std::left << std::setw(7) << truth << std::right << " " << pct(row.count(truth) ? row.at(truth) : 0, n) << ":";
    for (const auto& [name, k] : row) out << " " << name << " " << k;
    out << '\n';
  }
}

}  // namespace hexdice::vision
