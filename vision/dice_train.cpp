#include "vision/dice_train.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>

#include "vision/dice_classifier.h"
#include "vision/reader_io.h"

namespace hexdice::vision {

namespace fs = std::filesystem;

Result<std::vector<RealImage>> load_real_images(const std::string& dir_or_csv, const std::string& split) {
  if (split != "all" && split != "even" && split != "odd" && split != "even-fit" && split != "even-val")
    return Error{"split must be all, even, odd, even-fit or even-val: " + split};
  fs::path csv = dir_or_csv;
  std::error_code ec;
  if (fs::is_directory(csv, ec)) csv /= "labels.csv";
  std::ifstream in(csv);
  if (!in) return Error{"cannot read " + csv.string()};
  const fs::path images = csv.parent_path() / "images";
  std::map<std::string, std::vector<RealLabel>> by_image;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string f[8];
    for (auto& x : f) std::getline(ss, x, ',');
    try {
      const int x0 = std::stoi(f[1]), y0 = std::stoi(f[2]), x1 = std::stoi(f[3]), y1 = std::stoi(f[4]);
      const int face = std::stoi(f[5]);
      if (face < 1 || face > 6 || x1 <= x0 || y1 <= y0 || f[0].empty()) throw std::invalid_argument("range");
      by_image[f[0]].push_back({cv::Rect(x0, y0, x1 - x0, y1 - y0), face, f[7] == "top_face"});
    } catch (const std::exception&) {
      return Error{csv.string() + ": malformed row: " + line};
    }
  }
  std::vector<RealImage> out;
  int index = -1;
  for (auto& [name, labels] : by_image) {
    ++index;
    if (split == "even" && index % 2 != 0) continue;
    if (split == "odd" && index % 2 != 1) continue;
    // Model selection inside even: every fourth even image is held out.
    if (split == "even-fit" && (index % 2 != 0 || (index / 2) % 4 == 3)) continue;
    if (split == "even-val" && (index % 2 != 0 || (index / 2) % 4 != 3)) continue;
    RealImage r;
    r.name = name;
    r.path = (images / name).string();
    r.source = name.substr(0, name.find('_'));
    r.labels = labels;
    out.push_back(std::move(r));
  }
  if (out.empty()) return Error{"no labelled images in " + csv.string()};
  return out;
}

Status for_each_work_image(const std::vector<RealImage>& photos, const DiceParams& params, std::ostream* log, int& count,
                           const WorkImageVisit& visit) {
  for (const auto& im : photos) {
    auto img = load_image(im.path);
    if (!img) return Error{img.error()};
    double scale = 1;
    const cv::Mat work = dice_work_image(*img, params, scale);
    if (work.empty()) continue;
    ++count;
    if (log && count % 50 == 0) *log << "  " << count << " images\n" << std::flush;
    if (Status st = visit(im, *img, work, scale); !st) return st;
  }
  return Status::Ok();
}

Result<DiceTrainReport> train_dice_model(const DiceTrainArgs& a, std::ostream* log) {
  if (a.out.empty()) return Error{"dice-train needs --out FILE"};
  auto images = load_real_images(a.real, a.split);
  if (!images) return Error{images.error()};
  DiceTrainReport rep;
  cv::RNG rng(a.seed);
  cv::Mat samples, classes;
  auto add = [&](const cv::Mat& gray, cv::Point2f c, float side, float angle, int cls) {
    samples.push_back(die_features(die_patch(gray, c, side, angle)));
    classes.push_back(cls);
  };
  const Status pass = for_each_work_image(*images, a.params, log, rep.images, [&](const RealImage& im, const cv::Mat& /*img*/,
                                                                                const cv::Mat& work, double scale) -> Status {
    cv::Mat gray;
    cv::cvtColor(work, gray, cv::COLOR_BGR2GRAY);
    const auto cands = dice_candidates(work, a.params);
    std::vector<int> label_hit(im.labels.size(), 0);
    std::vector<std::size_t> negatives;
    for (std::size_t k = 0; k < cands.size(); ++k) {
      const auto& c = cands[k];
      int best = -1;
      double best_d = 1e9;
      bool would_match = false;
      for (std::size_t l = 0; l < im.labels.size(); ++l) {
        const cv::Rect& b = im.labels[l].box;
        const cv::Point2f lc(static_cast<float>((b.x + b.width / 2.0) * scale), static_cast<float>((b.y + b.height / 2.0) * scale));
        const double d = cv::norm(lc - c.centre);
        const double lside = std::max(b.width, b.height) * scale;
        if (d <= 0.5 * std::max<double>(lside, c.side)) would_match = true;
        if (d < best_d) best_d = d, best = static_cast<int>(l);
      }
      if (best >= 0 && best_d <= 0.2 * c.side) {
        const RealLabel& lab = im.labels[static_cast<std::size_t>(best)];
        const double lside = std::max(lab.box.width, lab.box.height) * scale;
        // Labels of a lone pip (a face-1 box drawn around the pip only) say nothing of the size.
        const bool size_known = !(lab.face == 1 && lside < 0.45 * c.side);
        const double ratio = c.side / lside;
        if (size_known && (ratio < 0.5 || ratio > 1.9)) {
          negatives.push_back(k);  // right place, wrong scale: not a die patch
          continue;
        }
        if (size_known && (ratio < 0.62 || ratio > 1.45)) continue;  // in between: no lesson
        const int face = lab.face;
        label_hit[static_cast<std::size_t>(best)] = 1;
        add(gray, c.centre, c.side, 0, face);
        for (int j = 0; j < a.augment; ++j) {
          const float s = c.side * static_cast<float>(rng.uniform(0.9, 1.1));
          const cv::Point2f shift(static_cast<float>(rng.uniform(-0.05, 0.05)) * c.side,
                                  static_cast<float>(rng.uniform(-0.05, 0.05)) * c.side);
          add(gray, c.centre + shift, s, static_cast<float>(rng.uniform(0.0, 360.0)), face);
        }
        rep.positives += 1 + a.augment;
      } else if (!would_match) {
        negatives.push_back(k);
      }
    }
    rep.labels += static_cast<int>(im.labels.size());
    for (int h : label_hit) rep.labels_with_candidate += h;
    // A deterministic sample of the negatives (Fisher-Yates with the seeded RNG).
    for (std::size_t i = negatives.size(); i > 1; --i) std::swap(negatives[i - 1], negatives[static_cast<std::size_t>(rng.uniform(0, static_cast<int>(i)))]);
    if (negatives.size() > static_cast<std::size_t>(a.negatives_per_image)) negatives.resize(static_cast<std::size_t>(a.negatives_per_image));
    for (std::size_t k : negatives) {
      add(gray, cands[k].centre, cands[k].side, 90.0f * static_cast<float>(rng.uniform(0, 4)), 0);
      ++rep.negatives;
    }
    return Status::Ok();
  });
  if (!pass) return Error{pass.error()};
  if (rep.positives == 0) return Error{"no positive training patches (no candidate on any labelled die)"};
  if (log)
    *log << "training patches: " << rep.positives << " positive, " << rep.negatives << " negative; labelled dice with a "
         << "candidate: " << rep.labels_with_candidate << "/" << rep.labels << '\n';

  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  cv::setRNGSeed(static_cast<int>(a.seed));
  auto forest = cv::ml::RTrees::create();
  forest->setMaxDepth(a.max_depth);
  forest->setMinSampleCount(5);
  forest->setActiveVarCount(0);
  forest->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, a.trees, 0));
  bool ok = false;
  try {
    ok = forest->train(cv::ml::TrainData::create(samples, cv::ml::ROW_SAMPLE, classes));
  } catch (const cv::Exception& e) {
    cv::setNumThreads(threads);
    return Error{std::string("training failed: ") + e.what()};
  }
  cv::setNumThreads(threads);
  if (!ok) return Error{"training failed"};
  cv::Mat pred;
  forest->predict(samples, pred);
  int correct = 0;
  for (int i = 0; i < pred.rows; ++i) correct += cvRound(pred.at<float>(i)) == classes.at<int>(i);
  rep.train_accuracy = static_cast<double>(correct) / pred.rows;
  try {
    forest->save(a.out);
  } catch (const cv::Exception& e) {
    return Error{"cannot write " + a.out + ": " + e.what()};
  }
  if (!fs::exists(a.out)) return Error{"cannot write " + a.out};
  return rep;
}

}  // namespace hexdice::vision
