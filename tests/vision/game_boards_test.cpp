// The sheet generator's boards for the other rulesets (docs/sheet.md "Other games"):
// Wizard Hex keeps the reader's markers and geometry (a rendered board registers with no
// dice seen; a synthetic photo of dice on it reads back as a Wizard Hex position) and
// tints the starting spaces; Hexa Decimal shows its hole, roads and start squares.
// Also `hexdice board --ruleset ...` and `hexdice board-read`.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "core/hexadecimal/hexadecimal.h"
#include "core/wizardhex/wizardhex.h"
#include "vision/read.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr double kDpi = 100.0;

cv::Vec3b pixel(const cv::Mat& img, Point mm) {
  const double k = kDpi / 25.4;
  return img.at<cv::Vec3b>(static_cast<int>(mm.y * k), static_cast<int>(mm.x * k));
}
bool is_rgb(cv::Vec3b px, Rgb c, int tol = 6) {
  return std::abs(px[2] - c.r) <= tol && std::abs(px[1] - c.g) <= tol && std::abs(px[0] - c.b) <= tol;
}

TEST(WizardHexBoard, StartingSpacesTintedCentreWhiteMarkersWhereTheLayoutSays) {
  auto s = make_sheet(2, "a3");
  ASSERT_TRUE(s.ok());
  const cv::Mat img = render_shapes(*s, wizardhex_drawing(*s), kDpi);
  // Off-centre sample points avoid the cell name (top) and the grid.
  auto sample = [&](Hex h) {
    const Point c = s->cell_centre(h);
    return pixel(img, {c.x + s->hex_size_mm * 0.25, c.y + s->hex_size_mm * 0.25});
  };
  // Edge 2 (fire, red dice) middle space and edge 4 (wind) middle space.
  const auto& b = wizardhex::State::board();
  const cv::Vec3b fire = sample(b.hex(wizardhex::starting_spaces(wizardhex::kFire)[1]));
  EXPECT_GT(fire[2], fire[1] + 30);  // reddish
  const cv::Vec3b water = sample(b.hex(wizardhex::starting_spaces(wizardhex::kWater)[1]));
  EXPECT_GT(water[0], water[2] + 30);  // bluish
  EXPECT_TRUE(is_rgb(sample({0, 0}), {255, 255, 255}));
  // Marker 0 has its black border at its top-left corner; the white patch is white.
  EXPECT_TRUE(is_rgb(pixel(img, {s->markers[0].corners[0].x + 1, s->markers[0].corners[0].y + 1}), {0, 0, 0}));
  EXPECT_TRUE(is_rgb(pixel(img, {(s->white_patch[0].x + s->white_patch[1].x) / 2, (s->white_patch[0].y + s->white_patch[1].y) / 2}),
                     {255, 255, 255}));
}

TEST(WizardHexBoard, TheReaderRegistersTheRenderedBoardAndSeesNoDice) {
  auto s = make_sheet(2, "a3");
  ASSERT_TRUE(s.ok());
  cv::Mat img = render_shapes(*s, wizardhex_drawing(*s), 60.0);
  const Observation obs = read_board(img, *s);
  EXPECT_TRUE(obs.board_found) << obs.why_not_found;
  EXPECT_TRUE(obs.cells.empty()) << obs.cells.size() << " cells misread as dice on the printed art";
}

TEST(WizardHexBoard, SyntheticPhotoOfDiceReadsBackAsAPosition) {
  auto s = make_sheet(2, "a3");
  ASSERT_TRUE(s.ok());
  // Six dice, one per element colour, levels 1-3, on the 19 spaces.
  const std::vector<SynthDie> dice = {{{0, -2}, "green", 1}, {{1, -2}, "red", 3}, {{0, 0}, "black", 2},
                                      {{-2, 1}, "white", 1}, {{2, 0}, "blue", 2}, {{-1, 2}, "yellow", 3}};
  SynthOptions o;
  o.seed = 3;
  const SynthScene sc = render_synth_scene(*s, dice, o);
  const Observation obs = read_board(sc.image, *s);
  ASSERT_TRUE(obs.board_found) << obs.why_not_found;
  auto base = wizardhex::start({{"green", wizardhex::kEarth}, {"black", wizardhex::kWind}});
  ASSERT_TRUE(base.ok());
  auto pos = wizardhex::position_from_observation(*base, to_json(obs));
  ASSERT_TRUE(pos.ok()) << pos.error();
  const auto& b = wizardhex::State::board();
  int tokens = 0;
  for (const auto& t : pos->cells) tokens += !t.empty();
  EXPECT_EQ(tokens, 6);
  for (const SynthDie& d : dice) {
    const auto& t = pos->cells[static_cast<std::size_t>(b.index(d.hex))];
    EXPECT_EQ(wizardhex::kElementColours[static_cast<std::size_t>(std::max<int>(0, t.element))], d.color) << b.name(d.hex);
    EXPECT_EQ(t.level, d.face) << b.name(d.hex);
  }
}

TEST(HexadecimalBoard, HoleRoadsAndStandardStartSquares) {
  auto s = make_sheet(5, "a3");
  ASSERT_TRUE(s.ok());
  const cv::Mat img = render_shapes(*s, hexadecimal_drawing(*s), kDpi);
  auto sample = [&](Hex h) {
    const Point c = s->cell_centre(h);
    return pixel(img, {c.x + s->hex_size_mm * 0.6, c.y + s->hex_size_mm * 0.1});
  };
  EXPECT_LT(sample({0, 0})[0], 80);                      // the hole is dark
  EXPECT_TRUE(is_rgb(sample({0, -3}), {196, 196, 196}));  // a road (N)
  EXPECT_TRUE(is_rgb(sample({-1, -2}), {255, 255, 255}));  // an empty segment cell (e3)
  // Standard start: White on column q = -5 (ivory), Black on q = 5 (blue), off the roads.
  EXPECT_TRUE(is_rgb(sample({-5, 2}), {255, 243, 212}));
  EXPECT_TRUE(is_rgb(sample({5, -2}), {208, 222, 244}));
  // Every start square carries its piece's letters: as many text shapes as pieces + names.
  auto start = hexadecimal::start(hexadecimal::Variant::Standard);
  ASSERT_TRUE(start.ok());
  int pieces = 0, letters = 0;
  for (const auto& c : start->cells) pieces += !c.empty();
  for (const auto& sh : hexadecimal_drawing(*s))
    letters += sh.kind == SheetShape::Kind::Text && (sh.text == "K" || sh.text == "P" || sh.text == "PM" || sh.text == "St" ||
                                                     sh.text == "Pr" || sh.text == "S" || sh.text == "D" || sh.text == "E" ||
                                                     sh.text == "G" || sh.text == "W");
  EXPECT_EQ(pieces, 64);
  EXPECT_EQ(letters, pieces);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class GameBoardCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("hexdice_game_board_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }
  int run(const std::string& args, std::string* out = nullptr) {
    const std::string cmd = std::string(HEXDICE_BIN_DIR) + "/hexdice " + args + " > " + (tmp_ / "out.txt").string() +
                            " 2> " + (tmp_ / "err.txt").string();
    const int rc = std::system(cmd.c_str());
    if (out) *out = slurp(tmp_ / "out.txt");
    return rc;
  }
  std::string err() { return slurp(tmp_ / "err.txt"); }
  fs::path tmp_;
};

TEST_F(GameBoardCommand, WizardHexAndHexadecimalWritePngPdfAndJson) {
  for (const auto& [ruleset, radius, cells] : {std::tuple{"wizardhex", 2, 19}, std::tuple{"hexadecimal", 5, 91}}) {
    const fs::path dir = tmp_ / ruleset;
    ASSERT_EQ(run(std::string("board --ruleset ") + ruleset + " --dpi 60 --out " + dir.string()), 0) << err();
    const cv::Mat png = cv::imread((dir / "board.png").string());
    ASSERT_FALSE(png.empty());
    EXPECT_NEAR(png.cols, 297.0 / 25.4 * 60, 2);
    EXPECT_EQ(slurp(dir / "board.pdf").rfind("%PDF-1.4", 0), 0u);
    const Json j = Json::parse(slurp(dir / "board.json"));
    EXPECT_EQ(j["ruleset"], ruleset);
    EXPECT_EQ(j["radius"], radius);
    EXPECT_EQ(j["cells"].size(), static_cast<std::size_t>(cells));
    // The reader's own loader accepts it.
    EXPECT_TRUE(sheet_from_json_text(slurp(dir / "board.json")).ok());
  }
}

TEST_F(GameBoardCommand, BoardReadTurnsAnObservationIntoAPositionOrOneMisreadLine) {
  Json obs{{"board_found", true},
           {"cells", {{{"q", 0}, {"r", -2}, {"color", "green"}, {"face", 2}, {"guard", false}, {"confidence", 1}}}}};
  std::ofstream(tmp_ / "obs.json") << obs.dump();
  std::string out;
  ASSERT_EQ(run("board-read " + (tmp_ / "obs.json").string() + " --ruleset wizardhex", &out), 0) << err();
  const Json pos = Json::parse(out);
  EXPECT_EQ(pos["ruleset"], "wizardhex");
  ASSERT_EQ(pos["tokens"].size(), 1u);
  EXPECT_EQ(pos["tokens"][0]["element"], "earth");
  EXPECT_EQ(pos["tokens"][0]["level"], 2);
  obs["cells"][0]["face"] = 6;
  std::ofstream(tmp_ / "bad.json") << obs.dump();
  EXPECT_NE(run("board-read " + (tmp_ / "bad.json").string() + " --ruleset wizardhex", &out), 0);
  EXPECT_TRUE(out.empty());
  const std::string e = err();
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
  EXPECT_NE(e.find("hexdice: observation: c1 shows face 6"), std::string::npos) << e;
}

}  // namespace
}  // namespace hexdice::vision
