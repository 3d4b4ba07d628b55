#include "vision/reader_synth.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/die_face.h"

namespace hexdice::vision {

namespace {

struct Cam {
  cv::Matx33d k;
  cv::Matx33d r;
  cv::Vec3d t;
  cv::Vec3d pos;
  cv::Point2d project(cv::Vec3d x) const {
    const cv::Vec3d c = k * (r * x + t);
    return {c[0] / c[2], c[1] / c[2]};
  }
};

Cam make_cam(const SheetLayout& layout, const SynthCamera& sc, double dist) {
  Cam cam;
  const double f = sc.focal_factor * sc.size.width;
  cam.k = cv::Matx33d(f, 0, (sc.size.width - 1) / 2.0, 0, f, (sc.size.height - 1) / 2.0, 0, 0, 1);
  const double th = sc.tilt_deg * CV_PI / 180, ps = sc.yaw_deg * CV_PI / 180;
  const cv::Vec3d c0(layout.width_mm / 2 + sc.shift_mm.x, layout.height_mm / 2 + sc.shift_mm.y, 0);
  cam.pos = c0 + dist * cv::Vec3d(0, std::sin(th), -std::cos(th));
  cv::Vec3d fw = c0 - cam.pos;
  fw *= 1.0 / cv::norm(fw);
  cv::Vec3d down(0, 1, 0);
  down -= down.dot(fw) * fw;
  down *= 1.0 / cv::norm(down);
  cv::Vec3d right = down.cross(fw);
  const cv::Vec3d xr = std::cos(ps) * right + std::sin(ps) * down;
  const cv::Vec3d yd = -std::sin(ps) * right + std::cos(ps) * down;
  cam.r = cv::Matx33d(xr[0], xr[1], xr[2], yd[0], yd[1], yd[2], fw[0], fw[1], fw[2]);
  cam.t = -(cam.r * cam.pos);
  return cam;
}

void poly(cv::Mat& img, const std::vector<cv::Point2d>& pts, cv::Scalar color) {
  std::vector<cv::Point> p;
  for (const auto& q : pts) p.emplace_back(cvRound(q.x * 16), cvRound(q.y * 16));
  cv::fillConvexPoly(img, p, color, cv::LINE_AA, 4);
}

cv::Scalar pip_color(const std::string& body) {
  if (body == "white" || body == "yellow") return {25, 25, 25};
  return {245, 245, 245};
}

}  // namespace

cv::Scalar synth_color_bgr(const std::string& name) {
  if (name == "red") return {40, 35, 190};
  if (name == "blue") return {170, 80, 25};
  if (name == "green") return {60, 140, 30};
  if (name == "yellow") return {30, 200, 225};
  if (name == "white") return {222, 228, 232};
  if (name == "black") return {38, 36, 36};
  return {128, 128, 128};
}

SynthScene render_synth_scene(const SheetLayout& layout, const std::vector<SynthDie>& dice,
                              const SynthOptions& o) {
  std::mt19937 rng(o.seed);
  std::uniform_real_distribution<double> uni(0, 1);
  const SynthCamera& sc = o.camera;
  // Distance so the sheet fills the frame.
  double lo = 50, hi = 50000;
  for (int it = 0; it < 50; ++it) {
    const double mid = 0.5 * (lo + hi);
    const Cam c = make_cam(layout, sc, mid);
    double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
    for (auto p : {cv::Vec3d(0, 0, 0), cv::Vec3d(layout.width_mm, 0, 0), cv::Vec3d(layout.width_mm, layout.height_mm, 0),
                   cv::Vec3d(0, layout.height_mm, 0)}) {
      const cv::Point2d q = c.project(p);
      x0 = std::min(x0, q.x); x1 = std::max(x1, q.x); y0 = std::min(y0, q.y); y1 = std::max(y1, q.y);
    }
    if (x1 - x0 > sc.fill * sc.size.width || y1 - y0 > sc.fill * sc.size.height) lo = mid;
    else hi = mid;
  }
  const Cam cam = make_cam(layout, sc, hi);

  // The flat sheet as a texture, 4 px per mm.
  const double s = 4.0;
  cv::Mat tex(cvRound(layout.height_mm * s), cvRound(layout.width_mm * s), CV_8UC3, cv::Scalar(244, 245, 246));
  const double hs = layout.hex_size_mm;
  for (const auto& cell : layout.cells) {
    std::vector<cv::Point> hex;
    for (int i = 0; i < 6; ++i) {
      const double a = CV_PI / 3 * i;
      hex.emplace_back(cvRound((cell.centre.x + hs * std::cos(a)) * s * 16), cvRound((cell.centre.y + hs * std::sin(a)) * s * 16));
    }
    const int dn = distance(cell.hex, Hex{0, -(layout.radius - 1)}), ds = distance(cell.hex, Hex{0, layout.radius - 1});
    cv::Scalar fill(244, 245, 246);
    if (dn == 0) fill = cv::Scalar(205, 215, 245);
    else if (dn == 1) fill = cv::Scalar(228, 232, 248);
    else if (ds == 0) fill = cv::Scalar(245, 222, 200);
    else if (ds == 1) fill = cv::Scalar(248, 236, 226);
    cv::fillConvexPoly(tex, hex, fill, cv::LINE_AA, 4);
    cv::polylines(tex, hex, true, cv::Scalar(95, 95, 95), cvRound(0.6 * s), cv::LINE_AA, 4);
    if (o.print_names)
      cv::putText(tex, cell.name, cv::Point(cvRound((cell.centre.x - 3) * s), cvRound((cell.centre.y - 10.5) * s)),
                  cv::FONT_HERSHEY_SIMPLEX, 0.09 * s, cv::Scalar(165, 165, 165), 1, cv::LINE_AA);
  }
  auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  for (const auto& m : layout.markers) {
    const int side = cvRound((m.corners[1].x - m.corners[0].x) * s);
    cv::Mat mk;
    cv::aruco::drawMarker(dict, m.id, side, mk, 1);
    cv::cvtColor(mk, mk, cv::COLOR_GRAY2BGR);
    mk.copyTo(tex(cv::Rect(cvRound(m.corners[0].x * s), cvRound(m.corners[0].y * s), side, side)));
  }
  cv::rectangle(tex, cv::Point(cvRound(layout.white_patch[0].x * s), cvRound(layout.white_patch[0].y * s)),
                cv::Point(cvRound(layout.white_patch[1].x * s), cvRound(layout.white_patch[1].y * s)),
                cv::Scalar(150, 150, 150), 1);

  SynthScene out;
  out.camera_matrix = cam.k;
  const cv::Matx33d rt(cam.r(0, 0), cam.r(0, 1), cam.t[0], cam.r(1, 0), cam.r(1, 1), cam.t[1], cam.r(2, 0), cam.r(2, 1), cam.t[2]);
  out.paper_to_image = cam.k * rt;
  cv::Mat img(sc.size, CV_8UC3, cv::Scalar(70, 100, 135));
  {
    // Table: a gentle gradient so the background is not flat.
    for (int y = 0; y < img.rows; ++y) img.row(y) += cv::Scalar(y * 30.0 / img.rows, y * 30.0 / img.rows, y * 30.0 / img.rows);
  }
  const cv::Matx33d to_tex(1 / s, 0, 0, 0, 1 / s, 0, 0, 0, 1);
  cv::warpPerspective(tex, img, out.paper_to_image * to_tex, img.size(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
  for (int id : o.hide_markers)
    for (const auto& m : layout.markers)
      if (m.id == id) {
        std::vector<cv::Point2d> p;
        const double cx = (m.corners[0].x + m.corners[2].x) / 2, cy = (m.corners[0].y + m.corners[2].y) / 2;
        for (int i = 0; i < 12; ++i) {
          const double a = CV_PI / 6 * i;
          p.push_back(cam.project({cx + 30 * std::cos(a), cy + 30 * std::sin(a), -20}));
        }
        poly(img, p, cv::Scalar(120, 150, 200));
      }

  // Dice, far ones first.
  struct Solid {
    cv::Point2d c;
    double size, angle;
    cv::Scalar body, pips;
    int face;
  };
  std::vector<Solid> solids;
  for (const auto& d : dice) {
    const Point cc = layout.cell_centre(d.hex);
    const double ang = uni(rng) * CV_PI / 2;
    if (d.guard) {
      const double dir = CV_PI / 3 * std::floor(uni(rng) * 6);
      solids.push_back({{cc.x + 5.5 * std::cos(dir), cc.y + 5.5 * std::sin(dir)}, 16.0, ang,
                        synth_color_bgr(d.color), pip_color(d.color), d.face});
      solids.push_back({{cc.x - 9.5 * std::cos(dir), cc.y - 9.5 * std::sin(dir)}, 10.0, uni(rng) * CV_PI / 2,
                        synth_color_bgr("blue"), pip_color("blue"), 1});
    } else {
      solids.push_back({{cc.x + (uni(rng) - 0.5) * 3, cc.y + (uni(rng) - 0.5) * 3}, 16.0, ang,
                        synth_color_bgr(d.color), pip_color(d.color), d.face});
    }
  }
  std::sort(solids.begin(), solids.end(), [&](const Solid& a, const Solid& b) {
    return cv::norm(cv::Vec3d(a.c.x, a.c.y, 0) - cam.pos) > cv::norm(cv::Vec3d(b.c.x, b.c.y, 0) - cam.pos);
  });
  for (const auto& so : solids) {
    const double h = so.size, ca = std::cos(so.angle), sa = std::sin(so.angle);
    auto world = [&](double u, double v, double z) {
      return cv::Vec3d(so.c.x + ca * u - sa * v, so.c.y + sa * u + ca * v, z);
    };
    const double e = h / 2;
    const double us[4] = {-e, e, e, -e}, vs[4] = {-e, -e, e, e};
    // Shadow on the paper.
    {
      std::vector<cv::Point2d> sh;
      for (int i = 0; i < 4; ++i) sh.push_back(cam.project(world(us[i] * 1.1 + 2.5, vs[i] * 1.1 + 3.0, 0)));
      cv::Mat layer = img.clone();
      poly(layer, sh, cv::Scalar(60, 60, 60));
      cv::addWeighted(img, 0.6, layer, 0.4, 0, img);
    }
    for (int i = 0; i < 4; ++i) {
      const int j = (i + 1) % 4;
      const cv::Vec3d mid = (world(us[i], vs[i], -e) + world(us[j], vs[j], -e)) * 0.5;
      const cv::Vec3d n = mid - world(0, 0, -e);
      if (n.dot(cam.pos - mid) <= 0) continue;
      const double shade = 0.45 + 0.25 * (0.5 + 0.5 * std::sin(so.angle + i));
      poly(img, {cam.project(world(us[i], vs[i], 0)), cam.project(world(us[j], vs[j], 0)),
                 cam.project(world(us[j], vs[j], -h)), cam.project(world(us[i], vs[i], -h))},
           so.body * shade);
    }
    std::vector<cv::Point2d> top;
    for (int i = 0; i < 4; ++i) top.push_back(cam.project(world(us[i] * 0.97, vs[i] * 0.97, -h)));
    poly(img, top, so.body);
    for (const auto& p : pip_layout(so.face)) {
      std::vector<cv::Point2d> circ;
      for (int k = 0; k < 14; ++k) {
        const double a = CV_PI / 7 * k, rr = 0.09 * h;
        circ.push_back(cam.project(world(p.x * h + rr * std::cos(a), p.y * h + rr * std::sin(a), -h)));
      }
      poly(img, circ, so.pips);
    }
  }

  cv::Mat f;
  img.convertTo(f, CV_32FC3);
  f = f.mul(cv::Scalar(o.cast[0] * o.brightness, o.cast[1] * o.brightness, o.cast[2] * o.brightness));
  if (o.glare_spots > 0) {
    cv::Mat glare(f.size(), CV_32FC3, cv::Scalar(0, 0, 0));
    for (int i = 0; i < o.glare_spots; ++i) {
      const cv::Point c(cvRound(uni(rng) * f.cols), cvRound(uni(rng) * f.rows));
      cv::ellipse(glare, c, cv::Size(cvRound(10 + uni(rng) * 40), cvRound(6 + uni(rng) * 20)), uni(rng) * 180, 0, 360,
                  cv::Scalar(90, 90, 90), -1);
    }
    cv::GaussianBlur(glare, glare, cv::Size(0, 0), 8);
    f += glare;
  }
  if (o.blur_sigma > 0) cv::GaussianBlur(f, f, cv::Size(0, 0), o.blur_sigma);
  if (o.noise_sigma > 0) {
    cv::Mat n(f.size(), CV_32FC3);
    cv::setRNGSeed(static_cast<int>(o.seed));
    cv::randn(n, cv::Scalar::all(0), cv::Scalar::all(o.noise_sigma));
    f += n;
  }
  f.convertTo(out.image, CV_8UC3);
  out.dice = dice;
  return out;
}

std::vector<SynthDie> random_dice(const SheetLayout& layout, int n, unsigned seed,
                                  const std::vector<std::string>& colors, double guard_rate) {
  std::mt19937 rng(seed);
  std::vector<Hex> cells;
  for (const auto& c : layout.cells) cells.push_back(c.hex);
  std::shuffle(cells.begin(), cells.end(), rng);
  std::vector<SynthDie> out;
  std::uniform_real_distribution<double> uni(0, 1);
  for (int i = 0; i < n && i < static_cast<int>(cells.size()); ++i) {
    SynthDie d;
    d.hex = cells[static_cast<std::size_t>(i)];
    d.color = colors[static_cast<std::size_t>(rng() % colors.size())];
    d.face = 1 + static_cast<int>(rng() % 6);
    d.guard = uni(rng) < guard_rate;
    out.push_back(d);
  }
  return out;
}

const CellObservation* find_cell(const Observation& obs, Hex h) {
  for (const auto& c : obs.cells)
    if (c.hex == h) return &c;
  return nullptr;
}

}  // namespace hexdice::vision
