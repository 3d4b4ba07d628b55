// Diagnostic for the dice finder's candidates (vision/dice.cpp dice_candidates), not built by
// CMake: per labelled die of a real-photo split, is there a candidate centred on it (within 0.15
// of its side) at about its size (0.7..1.3)? Round 21 of docs/dice.md.
//   g++ -std=c++20 -O2 -w -I. $(pkg-config --cflags opencv4) scripts/dice_candidate_recall.cpp -o /tmp/cand_recall \
//       build/vision/libhexdice_vision.a build/core/libhexdice_core.a $(pkg-config --libs opencv4)
//   /tmp/cand_recall SPLIT PIP_FACE(0|1) [name filter] [v: list the dice without one] [v: with the pip candidates near them]
//   env WIN, FSCALE: DiceParams::pip_face_window, pip_face_scale; HIST=1: per byler die, the best
//   face-centred candidate's side over the labelled side ("C3 ratio").
#include <cstdio>
#include <iostream>
#include <opencv2/imgproc.hpp>
#include "vision/dice.h"
#include "vision/dice_train.h"
#include "vision/reader_io.h"
using namespace hexdice::vision;
int main(int argc, char** argv) {
  std::string split = argc > 1 ? argv[1] : "even";
  int mode = argc > 2 ? atoi(argv[2]) : 0;
  std::string only = argc > 3 ? argv[3] : "";
  auto ims = load_real_images(getenv("REAL_DICE") ? getenv("REAL_DICE") : "../shared/data/real-dice", split);
  DiceParams p;
  p.use_model = true;
  if (mode >= 0) p.pip_face_candidates = mode; if (getenv("WIN")) p.pip_face_window = atof(getenv("WIN")); if (getenv("FSCALE")) p.pip_face_scale = atof(getenv("FSCALE"));
  int tot[2] = {0, 0}, hit[2] = {0, 0};
  long ncand = 0, nim = 0, nsrc3 = 0;
  double t0 = cv::getTickCount();
  for (auto& im : *ims) {
    if (!only.empty() && im.name.find(only) == std::string::npos) continue;
    auto img = load_image(im.path);
    double scale;
    cv::Mat work = dice_work_image(*img, p, scale);
    auto cands = dice_candidates(work, p);
    ncand += cands.size(); ++nim;
    for (auto& c : cands) nsrc3 += c.source == 3;
    int s = im.source == "byler" ? 0 : 1;
    for (auto& l : im.labels) {
      cv::Point2f lc((l.box.x + l.box.width / 2.0f) * scale, (l.box.y + l.box.height / 2.0f) * scale);
      float ls = std::max(l.box.width, l.box.height) * scale;
      bool ok = false;
      int src = -1;
      for (auto& c : cands)
        if (cv::norm(c.centre - lc) < 0.15 * ls && c.side > 0.7 * ls && c.side < 1.3 * ls) { ok = true; if (src < 0 || c.source==3) src = c.source; }
      tot[s]++; hit[s] += ok;
      if (getenv("HIST") && s == 0) { float best = 0; for (auto& c : cands) if (c.source == 3 && cv::norm(c.centre - lc) < 0.15 * ls) { float r = c.side / ls; if (best == 0 || std::abs(std::log(r)) < std::abs(std::log(best))) best = r; } if (best > 0) printf("C3 %.3f\n", best); else printf("C3 0\n"); }
      if (!ok && argc > 4) {
        printf("nocand %s %d,%d %dx%d f%d  centre %.0f,%.0f side %.0f\n", im.name.c_str(), l.box.x, l.box.y, l.box.width, l.box.height, l.face, lc.x, lc.y, ls);
        for (auto& c : cands) if (cv::norm(c.centre - lc) < 0.6 * ls && (c.source != 1 || argc > 5)) printf("   src %d at %.1f,%.1f side %.1f (off %.2f, size %.2f)\n", c.source, c.centre.x, c.centre.y, c.side, cv::norm(c.centre-lc)/ls, c.side/ls);
      }
    }
  }
  printf("%s mode %d: byler %d/%d penlington %d/%d, candidates/image %.1f (new %.1f), %.2f s/image\n", split.c_str(), mode, hit[0], tot[0], hit[1], tot[1],
         double(ncand) / nim, double(nsrc3)/nim, (cv::getTickCount() - t0) / cv::getTickFrequency() / nim);
}
