// `hexdice board`: three files, a 300 dpi A3 PNG, a well-formed vector PDF, board.json
// equal to the standard sheet; bad input writes nothing. Also the raster itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <regex>

#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct CmdResult {
  int status;
  std::string err;
};

CmdResult hexdice(const std::string& args, const fs::path& tmp) {
  const fs::path err = tmp / "stderr.txt";
  const std::string cmd = std::string(HEXDICE_BIN_DIR) + "/hexdice " + args + " > /dev/null 2> " + err.string();
  const int rc = std::system(cmd.c_str());
  return {rc, slurp(err)};
}

class BoardCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("hexdice_board_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }
  fs::path tmp_;
};

// Every xref entry points at "N 0 obj" and startxref points at "xref".
void expect_valid_pdf(const std::string& pdf, int pages) {
  ASSERT_EQ(pdf.rfind("%PDF-1.4", 0), 0u);
  ASSERT_NE(pdf.find("%%EOF"), std::string::npos);
  const auto sx = pdf.rfind("startxref\n");
  ASSERT_NE(sx, std::string::npos);
  const std::size_t xref = std::stoul(pdf.substr(sx + 10));
  ASSERT_EQ(pdf.compare(xref, 4, "xref"), 0);
  std::smatch m;
  const std::string tail = pdf.substr(xref);
  ASSERT_TRUE(std::regex_search(tail, m, std::regex("xref\n0 (\\d+)\n")));
  const int n = std::stoi(m[1]);
  std::size_t at = xref + m.length(0) + 20;  // skip the free entry
  for (int obj = 1; obj < n; ++obj, at += 20) {
    const std::size_t off = std::stoul(pdf.substr(at, 10));
    EXPECT_EQ(pdf.compare(off, std::to_string(obj).size() + 6, std::to_string(obj) + " 0 obj"), 0) << "object " << obj;
  }
  EXPECT_NE(pdf.find("/Count " + std::to_string(pages)), std::string::npos);
  EXPECT_NE(pdf.find("/BaseFont /Helvetica"), std::string::npos);
  EXPECT_NE(pdf.find(" Tj ET"), std::string::npos);  // text
  EXPECT_NE(pdf.find("h f\n"), std::string::npos);    // filled polygons
}

TEST_F(BoardCommand, WritesPngPdfAndJsonForTheStandardSheet) {
  const CmdResult r = hexdice("board --out " + tmp_.string() + "/out", tmp_);
  ASSERT_EQ(r.status, 0) << r.err;
  const fs::path out = tmp_ / "out";
  ASSERT_TRUE(fs::exists(out / "board.png"));
  ASSERT_TRUE(fs::exists(out / "board.pdf"));
  ASSERT_TRUE(fs::exists(out / "board.json"));
  const cv::Mat png = cv::imread((out / "board.png").string());
  EXPECT_EQ(png.cols, 3508);  // 297 mm at 300 dpi
  EXPECT_EQ(png.rows, 4961);  // 420 mm at 300 dpi
  const std::string bytes = slurp(out / "board.png");
  const auto phys = bytes.find("pHYs");
  ASSERT_NE(phys, std::string::npos);
  const auto be32 = [&](std::size_t i) {
    return (std::uint32_t(std::uint8_t(bytes[i])) << 24) | (std::uint32_t(std::uint8_t(bytes[i + 1])) << 16) |
           (std::uint32_t(std::uint8_t(bytes[i + 2])) << 8) | std::uint32_t(std::uint8_t(bytes[i + 3]));
  };
  EXPECT_EQ(be32(phys + 4), 11811u);  // pixels per metre = 300 dpi
  auto sheet = sheet_from_json_text(slurp(out / "board.json"));
  ASSERT_TRUE(sheet) << sheet.error();
  EXPECT_EQ(to_json_text(*sheet), to_json_text(standard_sheet()));
  const std::string pdf = slurp(out / "board.pdf");
  expect_valid_pdf(pdf, 1);
  EXPECT_NE(pdf.find("/MediaBox [0 0 841.89 1190.551]"), std::string::npos);  // A3 in points
  // Same drawing as the PNG: every cell name, the title, and the marker bits as filled squares.
  for (const CellMm& c : standard_sheet().cells) EXPECT_NE(pdf.find("(" + c.name + ") Tj"), std::string::npos) << c.name;
  EXPECT_NE(pdf.find("(HEX DICE) Tj"), std::string::npos);
  EXPECT_NE(pdf.find("0 0 0 rg\n28.346 1162.205 m\n"), std::string::npos);  // marker 0's top-left bit at (10, 10) mm
}

TEST_F(BoardCommand, A4x2GivesTwoA4LandscapePages) {
  const CmdResult r = hexdice("board --paper a4x2 --out " + tmp_.string(), tmp_);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string pdf = slurp(tmp_ / "board.pdf");
  expect_valid_pdf(pdf, 2);
  EXPECT_NE(pdf.find("/MediaBox [0 0 841.89 595.276]"), std::string::npos);
  auto sheet = sheet_from_json_text(slurp(tmp_ / "board.json"));
  ASSERT_TRUE(sheet);
  EXPECT_EQ(sheet->paper, "a4x2");
  EXPECT_EQ(sheet->pages.size(), 2u);
  const cv::Mat top = cv::imread((tmp_ / "board_page1.png").string()), bottom = cv::imread((tmp_ / "board_page2.png").string());
  EXPECT_EQ(top.cols, 3508);  // A4 landscape at 300 dpi
  EXPECT_EQ(top.rows, 2480);
  EXPECT_EQ(bottom.rows, 2480);  // the halves tile the A3 raster (4961 rows: 420 mm rounds up)
  const cv::Mat whole = cv::imread((tmp_ / "board.png").string());
  EXPECT_EQ(cv::norm(whole(cv::Rect(0, 2480, 3508, bottom.rows)), bottom, cv::NORM_INF), 0.0);
}

TEST_F(BoardCommand, OtherRadiusAndCharuco) {
  const CmdResult r = hexdice("board --radius 3 --paper letter --charuco --out " + tmp_.string(), tmp_);
  ASSERT_EQ(r.status, 0) << r.err;
  auto sheet = sheet_from_json_text(slurp(tmp_ / "board.json"));
  ASSERT_TRUE(sheet);
  EXPECT_EQ(sheet->radius, 3);
  EXPECT_EQ(sheet->cells.size(), 37u);
  const cv::Mat png = cv::imread((tmp_ / "board.png").string());
  EXPECT_EQ(png.cols, 2550);  // 8.5 in at 300 dpi
  EXPECT_EQ(png.rows, 3300);  // 11 in
  const cv::Mat charuco = cv::imread((tmp_ / "charuco.png").string());
  EXPECT_EQ(charuco.cols, 2480);  // A4 at 300 dpi
  EXPECT_EQ(charuco.rows, 3508);
  const std::string cj = slurp(tmp_ / "charuco.json");
  EXPECT_NE(cj.find("\"squares_x\": 7"), std::string::npos);
  EXPECT_NE(cj.find("DICT_5X5_100"), std::string::npos);
}

// (robust20) A radius-12 map on A3 has 7.6 mm hexes: no 16 mm die fits a cell and none can
// be read. The sheet is still made (interfaces.md: any radius works), with one warning line.
TEST_F(BoardCommand, ARadiusWhoseCellsCannotHoldADieIsMadeWithOneWarning) {
  const CmdResult r = hexdice("board --radius 12 --dpi 50 --out " + tmp_.string(), tmp_);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("hexdice: warning: a radius-12 map on a3 has 7.6 mm hexes", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("(radius 9 is the largest on a3)"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(fs::exists(tmp_ / "board.json"));
  // Radius 9 holds a die square on (9.9 mm hexes): only the older note, a turned die overhangs.
  const CmdResult nine = hexdice("board --radius 9 --dpi 50 --out " + (tmp_ / "nine").string(), tmp_);
  ASSERT_EQ(nine.status, 0) << nine.err;
  EXPECT_EQ(nine.err.rfind("hexdice: note: hex 9.9", 0), 0u) << nine.err;
}

TEST_F(BoardCommand, BadInputIsOneLineAndWritesNothing) {
  for (const std::string args : {"board --radius 1 --out ", "board --radius 99 --out ", "board --paper a5 --out "}) {
    const CmdResult r = hexdice(args + tmp_.string() + "/none", tmp_);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(tmp_ / "none" / "board.png")) << args;
    EXPECT_FALSE(fs::exists(tmp_ / "none" / "board.json")) << args;
  }
}

// The raster: markers, patches and tints where board.json says they are.
TEST(SheetRaster, MarkersPatchesAndBasesWhereTheLayoutSays) {
  const SheetLayout s = standard_sheet();
  const double dpi = 100.0, k = dpi / 25.4;
  const cv::Mat img = render_sheet(s, dpi);
  auto at = [&](double x_mm, double y_mm) { return img.at<cv::Vec3b>(int(y_mm * k), int(x_mm * k)); };
  for (const MarkerMm& m : s.markers) {
    // The black border ring (one bit of 40/6 mm) and the white quiet zone just outside.
    const double x0 = m.corners[0].x, y0 = m.corners[0].y, bit = 40.0 / 6.0;
    for (double t = 0.5; t < 40; t += 3.0) {
      EXPECT_EQ(at(x0 + t, y0 + bit / 2)[0], 0) << "marker " << m.id;
      EXPECT_EQ(at(x0 + bit / 2, y0 + t)[1], 0) << "marker " << m.id;
      EXPECT_EQ(at(x0 + 40 - bit / 2, y0 + t)[2], 0) << "marker " << m.id;
      for (double q : {1.0, 3.0, 5.0}) {  // quiet zone: nothing printed within 5 mm
        EXPECT_EQ(at(x0 + t, y0 - q), cv::Vec3b(255, 255, 255)) << "marker " << m.id;
        EXPECT_EQ(at(x0 + t, y0 + 40 + q), cv::Vec3b(255, 255, 255)) << "marker " << m.id;
        EXPECT_EQ(at(x0 - q, y0 + t), cv::Vec3b(255, 255, 255)) << "marker " << m.id;
        EXPECT_EQ(at(x0 + 40 + q, y0 + t), cv::Vec3b(255, 255, 255)) << "marker " << m.id;
      }
    }
  }
  const auto w = s.white_patch, g = s.grey_patch;
  EXPECT_EQ(at((w[0].x + w[1].x) / 2, (w[0].y + w[1].y) / 2), cv::Vec3b(255, 255, 255));
  EXPECT_EQ(at((g[0].x + g[1].x) / 2, (g[0].y + g[1].y) / 2), cv::Vec3b(128, 128, 128));
  const SheetPalette pal;
  const Point n_base = s.cell_centre({0, -4}), s_base = s.cell_centre({0, 4}), centre = s.cell_centre({0, 0});
  EXPECT_EQ(at(n_base.x, n_base.y), cv::Vec3b(pal.base_n.b, pal.base_n.g, pal.base_n.r));
  EXPECT_EQ(at(s_base.x, s_base.y), cv::Vec3b(pal.base_s.b, pal.base_s.g, pal.base_s.r));
  EXPECT_EQ(at(centre.x, centre.y), cv::Vec3b(255, 255, 255));
  const Point n_zone = s.cell_centre({1, -5});  // g1: in N's deployment zone
  EXPECT_EQ(at(n_zone.x, n_zone.y), cv::Vec3b(pal.zone_n.b, pal.zone_n.g, pal.zone_n.r));
}

}  // namespace
}  // namespace hexdice::vision
