// The rendered fixture scenes (data/fixtures/scenes, tests/render/scene_gen.py): every
// label agrees with the sheet geometry and with its own camera, so the reader can be
// scored against them. Checks labels and image headers only (no detection here).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <set>

#include "core/board.h"
#include "vision/sheet.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct V3 {
  double x, y, z;
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator*(V3 a, double k) { return {a.x * k, a.y * k, a.z * k}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
V3 unit(V3 a) { return a * (1.0 / std::sqrt(dot(a, a))); }

// An independent pinhole model from the label's camera block (location, target, yaw, hfov).
struct Cam {
  V3 L, D, R, U;
  int w, h;
  explicit Cam(const Json& label) {
    const Json& c = label["camera"];
    w = label["width"];
    h = label["height"];
    L = {c["location_mm"][0], c["location_mm"][1], c["location_mm"][2]};
    const V3 T{c["target_mm"][0], c["target_mm"][1], c["target_mm"][2]};
    const double yaw = c["yaw_deg"].get<double>() * M_PI / 180, hfov = c["hfov_deg"].get<double>() * M_PI / 180;
    const V3 d = unit(T - L);
    const V3 fwd{std::sin(yaw), 0, std::cos(yaw)};
    const V3 up = unit(fwd - d * dot(fwd, d) + V3{0, 1e-12, 0});  // image up: the yaw direction, seen from d
    R = cross(up, d);
    D = d * (0.5 / std::tan(hfov / 2));
    U = up * (double(h) / w);
  }
  cv::Point2d project(V3 p) const {
    const V3 d = p - L;
    const double t = dot(d, D) / dot(D, D);
    const double u = dot(d, R) / (t * dot(R, R)), v = dot(d, U) / (t * dot(U, U));
    return {(u + 0.5) * w - 0.5, (0.5 - v) * h - 0.5};
  }
};

V3 world(const SheetLayout& s, double x, double y, double height = 0) {
  return {x - s.width_mm / 2, height, s.height_mm / 2 - y};
}

std::vector<Point> square(double cx, double cy, double side, double yaw_deg) {
  const double a = yaw_deg * M_PI / 180, hs = side / 2 - 0.05;  // 0.05 mm: label rounding
  std::vector<Point> out;
  for (auto [sx, sy] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}})
    out.push_back({cx + sx * hs * std::cos(a) - sy * hs * std::sin(a), cy + sx * hs * std::sin(a) + sy * hs * std::cos(a)});
  return out;
}

std::vector<fs::path> label_files() {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(HEXDICE_SOURCE_DIR) / "data" / "fixtures" / "scenes";
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void expect_near_px(const Json& got, cv::Point2d want, const std::string& what) {
  ASSERT_TRUE(got.is_array()) << what;
  EXPECT_NEAR(got[0].get<double>(), want.x, 0.3) << what;
  EXPECT_NEAR(got[1].get<double>(), want.y, 0.3) << what;
}

TEST(SceneFixtures, AFirstBatchIsCommitted) { EXPECT_GE(label_files().size(), 8u); }

TEST(SceneFixtures, LabelsAgreeWithTheSheetAndTheirCamera) {
  const SheetLayout sheet = standard_sheet();
  const auto board = Board::get(5);
  const std::set<std::string> colours{"red", "blue", "green", "yellow", "white", "black"};
  for (const fs::path& path : label_files()) {
    SCOPED_TRACE(path.filename().string());
    std::ifstream in(path);
    const Json l = Json::parse(in);
    ASSERT_EQ(l["format"], "hexdice-scene-label");
    const fs::path img = path.parent_path() / l["image"].get<std::string>();
    ASSERT_TRUE(fs::exists(img));
    const cv::Mat m = cv::imread(img.string(), cv::IMREAD_REDUCED_GRAYSCALE_8);  // size check only
    EXPECT_EQ(m.cols, (l["width"].get<int>() + 7) / 8);
    EXPECT_EQ(m.rows, (l["height"].get<int>() + 7) / 8);
    const Cam cam(l);
    const bool present = l["sheet_present"];

    // Markers: their corners are the sheet's marker corners seen by this camera.
    int visible = 0;
    for (const Json& mk : l["markers"]) {
      const MarkerMm& mm = sheet.markers.at(mk["id"].get<std::size_t>());
      for (std::size_t k = 0; k < 4; ++k) {
        const cv::Point2d p = cam.project(world(sheet, mm.corners[k].x, mm.corners[k].y));
        expect_near_px(mk["corners_px"][k], p, "marker " + std::to_string(mm.id));
        if (mk["fully_visible"]) {
          EXPECT_GE(p.x, -0.5);
          EXPECT_LE(p.x, cam.w - 0.5);
          EXPECT_GE(p.y, -0.5);
          EXPECT_LE(p.y, cam.h - 0.5);
        }
      }
      visible += mk["fully_visible"].get<bool>();
    }
    EXPECT_EQ(l["markers_visible"], visible);
    EXPECT_EQ(l["board_found"].get<bool>(), present && visible >= 2);

    std::set<std::pair<int, int>> used;
    for (const Json& d : l["dice"]) {
      const int face = d["face"];
      EXPECT_GE(face, 1);
      EXPECT_LE(face, 6);
      EXPECT_TRUE(colours.count(d["color"].get<std::string>())) << d["color"];
      EXPECT_EQ(d["guard"].get<bool>(), d.contains("guard_token"));
      const double x = d["centre_mm"][0], y = d["centre_mm"][1];
      expect_near_px(d["top_px"], cam.project(world(sheet, x, y, 16.0)), "die top");
      if (!present) {
        EXPECT_TRUE(d["q"].is_null());
        continue;
      }
      const Hex h{d["q"], d["r"]};
      ASSERT_TRUE(board->contains(h));
      EXPECT_EQ(d["cell"], board->name(h));
      EXPECT_TRUE(used.insert({h.q, h.r}).second) << "two units in " << board->name(h);
      // The die's whole base stands inside its cell.
      for (Point p : square(x, y, 16.0, d["yaw_deg"])) {
        auto at = sheet.cell_at(p);
        ASSERT_TRUE(at);
        EXPECT_EQ(*at, h) << "die corner outside " << board->name(h);
      }
      if (d.contains("guard_token")) {
        const Json& g = d["guard_token"];
        EXPECT_EQ(g["face"], 1);
        EXPECT_EQ(g["color"], "blue");
        for (Point p : square(g["centre_mm"][0], g["centre_mm"][1], g["size_mm"], g.value("yaw_deg", 0.0))) {
          if (!g.contains("yaw_deg")) break;
          auto at = sheet.cell_at(p);
          ASSERT_TRUE(at);
          EXPECT_EQ(*at, h) << "guard corner outside " << board->name(h);
        }
        auto gc = sheet.cell_at({g["centre_mm"][0], g["centre_mm"][1]});
        ASSERT_TRUE(gc);
        EXPECT_EQ(*gc, h);
      }
    }
  }
}

}  // namespace
}  // namespace hexdice::vision
