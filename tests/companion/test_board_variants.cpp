// The printed boards of Hexa Demial and Hexa Threcimal (docs/rules-hexadecimal.md 2.2):
// every start square of the variant tinted in its army's colour with its piece letters,
// the segments named with their army or "(empty)", and `hexdice board --ruleset hexademial`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "core/hexadecimal/hexadecimal.h"
#include "tests/companion/cli_runner.h"
#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;
constexpr double kDpi = 100.0;

bool is_rgb(cv::Vec3b px, Rgb c, int tol = 6) {
  return std::abs(px[2] - c.r) <= tol && std::abs(px[1] - c.g) <= tol && std::abs(px[0] - c.b) <= tol;
}

TEST(HexadecimalVariantBoard, EveryStartSquareTintedByItsArmyAndLettered) {
  auto s = make_sheet(5, "a3");
  ASSERT_TRUE(s.ok());
  const std::array<Rgb, 3> tint = {{{255, 243, 212}, {208, 222, 244}, {214, 240, 208}}};
  for (auto [name, v, empty_segments] : {std::tuple{"demial", hexadecimal::Variant::Demial, 2},
                                         std::tuple{"threcimal", hexadecimal::Variant::Threcimal, 0}}) {
    SCOPED_TRACE(name);
    const auto shapes = hexadecimal_variant_drawing(*s, name);
    ASSERT_FALSE(shapes.empty());
    const cv::Mat img = render_shapes(*s, shapes, kDpi);
    auto start = hexadecimal::start(v);
    ASSERT_TRUE(start.ok());
    const auto& board = hexadecimal::State::board();
    int pieces = 0;
    std::array<int, 3> per_army{};
    for (int i = 0; i < hexadecimal::kCells; ++i) {
      const auto& c = start->cells[static_cast<std::size_t>(i)];
      const Point p = s->cell_centre(board.hex(i));
      const double k = kDpi / 25.4;
      const cv::Vec3b px = img.at<cv::Vec3b>(static_cast<int>((p.y + s->hex_size_mm * 0.1) * k),
                                             static_cast<int>((p.x + s->hex_size_mm * 0.6) * k));
      if (c.empty()) {
        EXPECT_FALSE(is_rgb(px, tint[0]) || is_rgb(px, tint[1]) || is_rgb(px, tint[2])) << board.name(board.hex(i));
        continue;
      }
      ++pieces;
      ++per_army[static_cast<std::size_t>(c.owner)];
      EXPECT_TRUE(is_rgb(px, tint[static_cast<std::size_t>(c.owner)])) << board.name(board.hex(i));
    }
    int letters = 0, empty = 0;
    for (const auto& sh : shapes) {
      if (sh.kind != SheetShape::Kind::Text) continue;
      for (const char* l : {"P", "S", "Pr", "D", "E", "G", "St", "W", "PM", "K"}) letters += sh.text == l;
      empty += sh.text.find("(empty)") != std::string::npos;
    }
    EXPECT_EQ(letters, pieces);
    EXPECT_EQ(empty, empty_segments);
    EXPECT_EQ(per_army[0], per_army[1]);
    EXPECT_EQ(per_army[2], v == hexadecimal::Variant::Threcimal ? per_army[0] : 0);
  }
  EXPECT_TRUE(hexadecimal_variant_drawing(*s, "octimal").empty());
}

TEST(HexadecimalVariantBoard, BoardCommandWritesTheVariant) {
  const fs::path dir = fs::temp_directory_path() / ("hexdice_variant_board_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto r = testing::run_hexdice("board --ruleset hexademial --dpi 50 --out " + (dir / "d").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(testing::slurp(dir / "d" / "board.json"));
  EXPECT_EQ(j["ruleset"], "hexadecimal");
  EXPECT_EQ(j["variant"], "demial");
  EXPECT_EQ(testing::slurp(dir / "d" / "board.pdf").rfind("%PDF", 0), 0u);
  r = testing::run_hexdice("board --ruleset hexadecimal --variant threcimal --dpi 50 --out " + (dir / "t").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(testing::slurp(dir / "t" / "board.json"))["variant"], "threcimal");
  const cv::Mat a = cv::imread((dir / "d" / "board.png").string()), b = cv::imread((dir / "t" / "board.png").string());
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(cv::norm(a, b, cv::NORM_L1), 0.0) << "two variants, two different boards";
  r = testing::run_hexdice("board --ruleset wizardhex --variant demial --out " + (dir / "w").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--variant applies to --ruleset hexadecimal only"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "w" / "board.png"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice::vision
