// Debug tool for the lattice pip reader (vision/dice_pips.cpp), not built by CMake: for one
// box of a photo, prints read_pips' read and every blob of its channels (grey dark / light,
// distance from the body colour, chroma) with what became of it (KEPT; drop(ring/dup/min):
// lost inside log_blobs; off-top / edge / too-big: the top-face filters; chroma-excess: the
// chroma channel's gate), and writes one PNG: the patch (the read's pips in green), then
// the grey, body-distance and chroma channels, 6x, with the top-face mask (yellow) and the
// blobs (green kept, blue kept light-on-grey, red dropped by a filter, grey dropped in
// log_blobs). It #includes dice_pips.cpp, so it sees the reader's own helpers; the filter
// logic below mirrors read_pips (keep it in step). Round 18 of docs/dice.md.
//   g++ -std=c++20 -O1 -w -I. $(pkg-config --cflags opencv4) scripts/pip_debug.cpp -o /tmp/pip_debug \
//       -lopencv_core -lopencv_imgproc -lopencv_imgcodecs
//   /tmp/pip_debug IMG x y w h [pad (1.1)] [out prefix]     # a labelled box of labels.csv
#include "vision/dice_pips.cpp"

#include <cstdio>
#include <iostream>
#include <opencv2/imgcodecs.hpp>

using namespace hexdice::vision;

// All LoG maxima without the ring test, with a flag for the ring test.
struct DB {
  Blob b;
  bool ring = false;
  bool kept = false;
};

static std::vector<DB> all_blobs(const cv::Mat& patch, const PipParams& p, int kind_dark, int kind_light) {
  std::vector<float> sigmas;
  const std::vector<cv::Mat> resp = log_scale_space(patch, p, sigmas);
  std::vector<DB> out;
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  for (int pol = 0; pol < 2; ++pol) {
    const int kind = pol == 0 ? kind_dark : kind_light;
    if (kind < 0) continue;
    std::vector<cv::Mat> r(resp.size()), dil(resp.size());
    for (std::size_t k = 0; k < resp.size(); ++k) {
      r[k] = pol == 0 ? resp[k] : -resp[k];
      cv::dilate(r[k], dil[k], k3);
    }
    for (std::size_t k = 0; k < r.size(); ++k)
      for (int y = 1; y < p.canon - 1; ++y)
        for (int x = 1; x < p.canon - 1; ++x) {
          const float v = r[k].at<float>(y, x);
          if (v < 3.0 || v < dil[k].at<float>(y, x)) continue;
          if (k > 0 && v < dil[k - 1].at<float>(y, x)) continue;
          if (k + 1 < r.size() && v < dil[k + 1].at<float>(y, x)) continue;
          DB d;
          d.b = {cv::Point2f(x, y), sigmas[k], v, pol == 0, kind};
          out.push_back(d);
        }
  }
  std::sort(out.begin(), out.end(), [](const DB& a, const DB& b) { return a.b.resp > b.b.resp; });
  return out;
}

static cv::Mat to8(const cv::Mat& f, double lo, double hi) {
  cv::Mat o;
  f.convertTo(o, CV_8U, 255.0 / (hi - lo), -lo * 255.0 / (hi - lo));
  return o;
}

int main(int argc, char** argv) {
  if (argc < 6) return 2;
  cv::Mat img = cv::imread(argv[1]);
  const float x = std::stof(argv[2]), y = std::stof(argv[3]), w = std::stof(argv[4]), h = std::stof(argv[5]);
  const float pad = argc > 6 ? std::stof(argv[6]) : 1.1f;
  const std::string pre = argc > 7 ? argv[7] : "pip_debug";
  PipParams p;
  const cv::Point2f c(x + w / 2, y + h / 2);
  const float side = std::max(w, h) * pad;
  const cv::Rect2f region(c.x - side / 2, c.y - side / 2, side, side);
  const PipRead r = read_pips(img, region, p);
  std::printf("read face %d pipd %.1f spacing %.1f scores", r.face, r.pip_diameter, r.spacing);
  for (int k = 1; k <= 6; ++k) std::printf(" %.0f", r.face_score[k]);
  std::printf("\n");
  double scale;
  cv::Point2f origin;
  const cv::Mat cp = canonical_patch(img, region, p.canon, scale, origin);
  cv::Mat grey;
  cv::cvtColor(cp, grey, cv::COLOR_BGR2GRAY);
  const cv::Mat dist = body_distance(cp);
  std::vector<cv::Mat> ch;
  cv::split(cp, ch);
  const cv::Mat chroma = cv::max(cv::max(ch[0], ch[1]), ch[2]) - cv::min(cv::min(ch[0], ch[1]), ch[2]);
  const cv::Mat top = top_face_mask(dist, p.top_face_distance, p.top_face_close, p.top_face_grow);
  cv::Mat inside;
  if (!top.empty()) cv::distanceTransform(top, inside, cv::DIST_L2, 3);
  const double top_side = top.empty() ? 0 : std::sqrt(static_cast<double>(cv::countNonZero(top)));
  // Actual kept blobs per channel
  std::vector<Blob> kg = log_blobs(grey, p, 0, 1), kd = log_blobs(dist, p, -1, 2), kc = log_blobs(chroma, p, -1, 3);
  // body chroma
  cv::Mat csm;
  cv::GaussianBlur(chroma, csm, cv::Size(0, 0), 1.0);
  const int n = p.canon;
  const float cbody = middle_median(chroma).value_or(0.0f);  // as read_pips' chroma gate
  std::printf("scale %.3f (img px per patch px), top %s side %.1f, chroma body %.1f\n", scale, top.empty() ? "none" : "ok", top_side, cbody);
  const char* names[] = {"grey-dark", "grey-light", "dist", "chroma"};
  const cv::Mat* chans[] = {&grey, &grey, &dist, &chroma};
  const std::vector<Blob>* kept[] = {&kg, &kg, &kd, &kc};
  const int up = 6;
  std::vector<cv::Mat> vis;
  for (int ci = 0; ci < 4; ci += (ci == 0 ? 2 : 1)) {
    std::vector<DB> all = ci == 0 ? all_blobs(grey, p, 0, 1) : all_blobs(*chans[ci], p, -1, ci);
    double lo, hi;
    cv::minMaxLoc(*chans[ci], &lo, &hi);
    cv::Mat v8 = to8(*chans[ci], lo, hi), v;
    cv::resize(v8, v8, cv::Size(), up, up, cv::INTER_NEAREST);
    cv::cvtColor(v8, v, cv::COLOR_GRAY2BGR);
    if (!top.empty()) {
      cv::Mat t;
      cv::resize(top, t, cv::Size(), up, up, cv::INTER_NEAREST);
      std::vector<std::vector<cv::Point>> cs;
      cv::findContours(t, cs, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
      cv::drawContours(v, cs, -1, cv::Scalar(0, 255, 255), 1);
    }
    for (auto& d : all) {
      if (d.b.resp < 4) continue;
      bool k = false;
      for (auto& kb : *kept[ci])
        if (kb.kind == d.b.kind && cv::norm(kb.p - d.b.p) < 0.9 && kb.sigma == d.b.sigma) k = true;
      const int xi = std::clamp(cvRound(d.b.p.x), 0, n - 1), yi = std::clamp(cvRound(d.b.p.y), 0, n - 1);
      std::string fate = k ? "KEPT" : "drop(ring/dup/min)";
      if (k && !top.empty()) {
        if (!top.at<uchar>(yi, xi)) fate = "off-top";
        else if (inside.at<float>(yi, xi) < p.edge_margin * d.b.diameter()) fate = "edge";
        else if (d.b.diameter() > p.max_pip_frac * top_side) fate = "too-big";
      }
      if (k && ci == 3 && csm.at<float>(yi, xi) - cbody < p.chroma_min_excess) fate = "chroma-excess";
      if (k || std::getenv("PIP_DEBUG_ALL"))  // all blobs: PIP_DEBUG_ALL=1
        std::printf("%-10s %s (%5.1f,%5.1f) d %4.1f resp %6.1f val %6.1f inside %4.1f %s\n", names[d.b.kind], d.b.dark ? "D" : "L",
                    d.b.p.x, d.b.p.y, d.b.diameter(), d.b.resp, chans[ci]->at<float>(yi, xi),
                    inside.empty() ? -1.f : inside.at<float>(yi, xi), fate.c_str());
      if (d.b.resp < p.min_response) continue;
      cv::Scalar col = fate == "KEPT" ? cv::Scalar(0, 255, 0) : (fate.rfind("drop", 0) == 0 ? cv::Scalar(128, 128, 128) : cv::Scalar(0, 0, 255));
      if (ci == 0 && !d.b.dark && fate == "KEPT") col = cv::Scalar(255, 128, 0);
      cv::circle(v, cv::Point(cvRound((d.b.p.x + 0.5) * up), cvRound((d.b.p.y + 0.5) * up)), cvRound(d.b.diameter() / 2 * up), col, 1);
    }
    vis.push_back(v);
  }
  cv::Mat colour8, cu;
  cp.convertTo(colour8, CV_8U);
  cv::resize(colour8, cu, cv::Size(), up, up, cv::INTER_CUBIC);
  for (auto& q : r.pips) {
    const cv::Point2f pp = (q - origin) * (1.0 / scale);
    cv::circle(cu, cv::Point(cvRound(pp.x * up), cvRound(pp.y * up)), 5, cv::Scalar(0, 255, 0), 2);
  }
  vis.insert(vis.begin(), cu);
  cv::Mat row;
  cv::hconcat(vis, row);
  cv::imwrite(pre + ".png", row);
  return 0;
}
