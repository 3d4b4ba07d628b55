// Replays the face read at the labelled boxes (`hexdice eval --real`'s oracle boxes) with
// other pip-reader parameters, in seconds instead of a full eval: the network's probabilities
// are taken from an ORACLE dump of the binary (they do not depend on PipParams), the lattice
// pip reader is run again at each box as the eval runs it (work image, square of the box's
// long side times pip_region_pad, 1.5 more for a top-face box), and its scores are fused with
// them (fuse_face, DiceParams defaults). Not built by CMake; real round 30 of docs/dice.md.
//   g++ -std=c++20 -O2 -w -I. $(pkg-config --cflags opencv4) scripts/dice_oracle_replay.cpp -o /tmp/oracle_replay \
//       build/vision/libhexdice_vision.a build/core/libhexdice_core.a $(pkg-config --libs opencv4)
//   HEXDICE_EVAL_DUMP=1 build/bin/hexdice eval --real REAL --split even --model FOREST --oracle-only \
//       2>&1 >/dev/null | grep '^ORACLE' > oracle_dump.txt
//   /tmp/oracle_replay oracle_dump.txt REAL [nested_score V] [two_weight V] ... > replay.txt
// Prints per source the dice read right by the dump and by the replay, and (with -v as the last
// argument) each die whose face changed; replay.txt's ORACLE lines (same columns as the dump)
// go to scripts/dice_fusion_sim.py --oracle.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <opencv2/imgcodecs.hpp>

#include "vision/dice.h"

using namespace hexdice::vision;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: oracle_replay ORACLE_DUMP REAL_DIR [param value]... [-v]\n";
    return 2;
  }
  const std::string dump = argv[1], real = argv[2];
  const bool verbose = std::string(argv[argc - 1]) == "-v";
  DiceParams dp;
  PipParams& p = dp.pips;
  const std::map<std::string, double*> knobs = {
      {"nested_score", &p.nested_score},   {"two_weight", &p.two_weight},         {"chroma_weight", &p.chroma_weight},
      {"edge_margin", &p.edge_margin},     {"max_colour_spread", &p.max_colour_spread},
      {"centre_weight", &p.centre_weight}, {"pip_region_pad", &dp.pip_region_pad}};
  for (int i = 3; i + 1 < argc - (verbose ? 1 : 0); i += 2) {
    const auto k = knobs.find(argv[i]);
    if (k == knobs.end()) {
      std::cerr << "unknown parameter " << argv[i] << '\n';
      return 2;
    }
    *k->second = std::stod(argv[i + 1]);
  }
  // The box of each label (the dump names its top-left corner).
  std::map<std::tuple<std::string, int, int>, std::pair<cv::Rect, bool>> boxes;
  {
    std::ifstream in(real + "/labels.csv");
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::stringstream ss(line);
      std::string f[8];
      for (auto& x : f) std::getline(ss, x, ',');
      const int x0 = std::stoi(f[1]), y0 = std::stoi(f[2]);
      boxes[{f[0], x0, y0}] = {cv::Rect(x0, y0, std::stoi(f[3]) - x0, std::stoi(f[4]) - y0), f[7] == "top_face"};
    }
  }
  std::ifstream in(dump);
  std::string line, name;
  cv::Mat work;
  double sc = 1;
  std::map<std::string, std::array<int, 3>> count;  // per source: dice, right in the dump, right now
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string tag, im;
    int x = 0, y = 0, lab = 0, face = 0, base = 0, cf = 0;
    std::array<float, 7> ps{}, cn{};
    ss >> tag >> im >> x >> y >> lab >> face >> base >> cf;
    for (int f = 1; f <= 6; ++f) ss >> ps[static_cast<std::size_t>(f)];
    for (int f = 1; f <= 6; ++f) ss >> cn[static_cast<std::size_t>(f)];
    ss >> cn[0];
    if (!ss) continue;  // a cut or malformed line
    if (tag != "ORACLE" || !boxes.count({im, x, y})) continue;
    if (im != name) {
      name = im;
      work = dice_work_image(cv::imread(real + "/images/" + im), dp, sc);
    }
    const auto& [b, top] = boxes.at({im, x, y});
    const float side = static_cast<float>(std::max(b.width, b.height) * sc * dp.pip_region_pad * (top ? 1.5 : 1.0));
    const cv::Point2f c(static_cast<float>((b.x + b.width / 2.0) * sc), static_cast<float>((b.y + b.height / 2.0) * sc));
    const PipRead r = read_pips(work, cv::Rect2f(c.x - side / 2, c.y - side / 2, side, side), p);
    const int nbase = r.face > 0 ? r.face : base;  // else the forest's face, as the dump's
    const int now = cf > 0 ? fuse_face(r.face_score, cn, nbase, dp.cnn_fuse_weight, dp.cnn_fuse_floor) : nbase;
    auto& n = count[im.substr(0, im.find('_'))];
    ++n[0];
    n[1] += face == lab;
    n[2] += now == lab;
    if (verbose && now != face) std::fprintf(stderr, "%s %d,%d labelled %d: %d -> %d\n", im.c_str(), x, y, lab, face, now);
    std::printf("ORACLE %s %d %d %d %d %d %d", im.c_str(), x, y, lab, now, nbase, cf);
    for (int f = 1; f <= 6; ++f) std::printf(" %g", r.face_score[static_cast<std::size_t>(f)]);
    for (int f = 1; f <= 6; ++f) std::printf(" %g", cn[static_cast<std::size_t>(f)]);
    std::printf(" %g\n", cn[0]);
  }
  for (const auto& [src, n] : count) std::fprintf(stderr, "%s: %d dice, right %d in the dump, %d replayed\n", src.c_str(), n[0], n[1], n[2]);
}
