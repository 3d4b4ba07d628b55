// Bad input never crashes the reader: unreadable, empty, truncated or corrupt files give
// one clear error; frames without a (whole) sheet give board_found = false.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include <unistd.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "cli_run.h"
#include "vision/dice.h"
#include "vision/read.h"
#include "vision/sheet.h"
#include "vision/reader_io.h"
#include "vision/reader_synth.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;

std::vector<unsigned char> real_jpeg_bytes() {
  const fs::path p = fs::path(HEXDICE_SHARED_DIR) / "data/real-dice/images/byler_IMG_20191208_111228.jpg";
  std::ifstream in(p, std::ios::binary);
  std::vector<unsigned char> b{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (b.empty()) {  // no shared data here: a synthetic scene encoded as JPEG instead
    const SheetLayout layout = standard_sheet();
    cv::imencode(".jpg", render_synth_scene(layout, random_dice(layout, 8, 3), SynthOptions{}).image, b);
  }
  return b;
}

TEST(ReaderBadInput, MissingEmptyAndGarbageFiles) {
  EXPECT_FALSE(load_image("/nonexistent/dir/x.jpg").ok());
  const fs::path tmp = fs::temp_directory_path() / "hexdice_reader_empty.jpg";
  { std::ofstream(tmp) << ""; }
  auto e = load_image(tmp.string());
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("empty"), std::string::npos);
  { std::ofstream(tmp) << "this is not an image at all"; }
  EXPECT_FALSE(load_image(tmp.string()).ok());
  fs::remove(tmp);
  EXPECT_FALSE(decode_image({}).ok());
}

TEST(ReaderBadInput, FramesWithoutASheet) {
  const SheetLayout layout = standard_sheet();
  EXPECT_FALSE(read_board(cv::Mat(), layout).board_found);
  EXPECT_FALSE(read_board(cv::Mat(720, 1280, CV_8UC3, cv::Scalar(128, 128, 128)), layout).board_found);
  EXPECT_FALSE(read_board(cv::Mat(8, 8, CV_8UC3, cv::Scalar(0)), layout).board_found);
  cv::Mat noise(480, 640, CV_8UC3);
  cv::randu(noise, 0, 255);
  EXPECT_FALSE(read_board(noise, layout).board_found);
  EXPECT_FALSE(read_board(cv::Mat(100, 100, CV_32FC3, cv::Scalar(0.5)), layout).board_found);
  EXPECT_TRUE(find_dice(cv::Mat()).empty());
  EXPECT_TRUE(find_dice(cv::Mat(720, 1280, CV_8UC3, cv::Scalar(128, 128, 128))).empty());
}

// Half the sheet out of frame, two markers in view: the board is found, the cells out of
// view are listed as hidden (unknown, never reported as empty or as dice), and what is
// reported stands on cells in view and holds a die. One marker or none: not found.
TEST(ReaderBadInput, SheetHalfOutOfViewReportsOnlyWhatIsInView) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.shift_mm = {0, 130};  // look at the bottom part: top markers and cells out of frame
  o.camera.fill = 1.6;
  const auto dice = random_dice(layout, 30, 7);
  const SynthScene sc = render_synth_scene(layout, dice, o);
  const Observation obs = read_board(sc.image, layout);
  ASSERT_TRUE(obs.board_found) << obs.why_not_found;
  std::set<Hex> hidden(obs.hidden.begin(), obs.hidden.end());
  int out_of_frame = 0, in_frame = 0;
  for (const auto& c : layout.cells) {
    const cv::Point2d p = apply_h(sc.paper_to_image, {c.centre.x, c.centre.y});
    const bool out = p.x < 0 || p.y < 0 || p.x >= sc.image.cols || p.y >= sc.image.rows;
    if (out) {
      ++out_of_frame;
      EXPECT_TRUE(hidden.count(c.hex)) << "cell " << c.hex.q << "," << c.hex.r << " is out of frame";
    } else {
      ++in_frame;
    }
  }
  ASSERT_GT(out_of_frame, 10);
  ASSERT_GT(in_frame, 10);
  EXPECT_LT(hidden.size(), layout.cells.size());
  std::set<Hex> truth;
  for (const auto& d : dice) truth.insert(d.hex);
  int true_dice_in_view = 0;
  for (const auto& c : layout.cells)
    if (truth.count(c.hex) && !hidden.count(c.hex)) ++true_dice_in_view;
  ASSERT_GT(true_dice_in_view, 3);
  int correct = 0;
  for (const auto& c : obs.cells) {
    EXPECT_FALSE(hidden.count(c.hex)) << "a hidden cell is reported";
    correct += truth.count(c.hex) ? 1 : 0;
  }
  EXPECT_EQ(correct, static_cast<int>(obs.cells.size()));
  EXPECT_GE(correct, true_dice_in_view - 1);
  // The JSON lists them.
  const auto j = to_json(obs);
  ASSERT_TRUE(j.contains("hidden"));
  EXPECT_EQ(j["hidden"].size(), obs.hidden.size());
  // Further off, one marker at most: not found, nothing reported.
  o.camera.shift_mm = {0, 260};
  o.camera.fill = 2.2;
  const Observation far = read_board(render_synth_scene(layout, dice, o).image, layout);
  EXPECT_FALSE(far.board_found);
  EXPECT_TRUE(far.cells.empty());
  EXPECT_FALSE(far.why_not_found.empty());
  EXPECT_FALSE(to_json(far).contains("hidden"));
}

TEST(ReaderBadInput, TruncatedAndCorruptJpegNeverCrash) {
  const auto bytes = real_jpeg_bytes();
  ASSERT_GT(bytes.size(), 1000u);
  const SheetLayout layout = standard_sheet();
  std::mt19937 rng(42);
  int decoded = 0, rejected = 0;
  for (int i = 0; i < 40; ++i) {
    std::vector<unsigned char> b = bytes;
    if (i % 2 == 0) {
      // Truncated; the first one to a header-only prefix, which can never decode (longer
      // prefixes often decode as a partial image).
      b.resize(i == 0 ? std::size_t{16} : static_cast<std::size_t>(rng() % bytes.size()));
    } else {
      for (int k = 0; k < 20; ++k) b[rng() % b.size()] = static_cast<unsigned char>(rng());  // corrupted
    }
    auto img = decode_image(b);
    // A cut-short JPEG is refused with a reason rather than read half grey.
    if (i % 2 == 0) {
      ASSERT_FALSE(img.ok()) << "prefix of " << b.size() << " bytes decoded";
      EXPECT_NE(img.error().find("truncated"), std::string::npos) << img.error();
    }
    if (!img) {
      ++rejected;
      EXPECT_FALSE(img.error().empty());
      continue;
    }
    ++decoded;
    const Observation obs = read_board(*img, layout);
    if (obs.board_found) EXPECT_LE(obs.cells.size(), layout.cells.size());
    const auto dice = find_dice(*img);
    for (const auto& d : dice) EXPECT_TRUE(d.face >= 1 && d.face <= 6);
  }
  EXPECT_EQ(decoded + rejected, 40);
  EXPECT_GE(rejected, 20);  // every truncated prefix
}

TEST(ReaderBadInput, WholeJpegWithATrailerStillDecodes) {
  // Cameras append thumbnails and maker data after the end marker; the image is whole.
  std::vector<unsigned char> b = real_jpeg_bytes();
  ASSERT_TRUE(decode_image(b).ok());
  for (int k = 0; k < 300; ++k) b.push_back(static_cast<unsigned char>(k * 7));
  EXPECT_TRUE(decode_image(b).ok());
  // A whole encoded frame decodes; without its last byte (the end marker's 0xD9) it is refused.
  std::vector<unsigned char> cut;
  cv::imencode(".jpg", render_synth_scene(standard_sheet(), {}, SynthOptions{}).image, cut);
  ASSERT_TRUE(decode_image(cut).ok());
  cut.pop_back();
  const auto r = decode_image(cut);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("truncated"), std::string::npos) << r.error();
}

TEST(ReaderBadInput, CorruptPngRejected) {
  std::vector<unsigned char> png;
  cv::imencode(".png", cv::Mat(64, 64, CV_8UC3, cv::Scalar(10, 200, 30)), png);
  ASSERT_TRUE(decode_image(png).ok());
  std::vector<unsigned char> cut(png.begin(), png.begin() + 40);
  EXPECT_FALSE(decode_image(cut).ok());
  // Every prefix is refused as cut short (libpng never sees it); the whole file with data
  // after IEND still decodes.
  for (std::size_t n = 8; n < png.size(); n += 7) {
    const auto r = decode_image(std::vector<unsigned char>(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(n)));
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_NE(r.error().find("truncated PNG"), std::string::npos) << n << ": " << r.error();
  }
  std::vector<unsigned char> trailer = png;
  trailer.insert(trailer.end(), 50, 0x33);
  EXPECT_TRUE(decode_image(trailer).ok());
}

// The offset of a JPEG's start-of-frame (0xFFC0: length, precision, height, width), found by
// walking the segments (0 when there is none).
std::size_t jpeg_sof(const std::vector<unsigned char>& jpg) {
  for (std::size_t i = 2; i + 8 < jpg.size();) {
    if (jpg[i + 1] == 0xC0) return i;
    i += 2 + ((static_cast<std::size_t>(jpg[i + 2]) << 8) | jpg[i + 3]);
  }
  return 0;
}
// The JPEG with its start-of-frame saying w x h (the data unchanged).
std::vector<unsigned char> jpeg_sized(std::vector<unsigned char> b, int w, int h) {
  const std::size_t sof = jpeg_sof(b);
  b[sof + 5] = static_cast<unsigned char>(h >> 8), b[sof + 6] = static_cast<unsigned char>(h);
  b[sof + 7] = static_cast<unsigned char>(w >> 8), b[sof + 8] = static_cast<unsigned char>(w);
  return b;
}
// The PNG with its IHDR (bytes 16-23) saying w x h, and the chunk's CRC made right again (the
// data unchanged).
std::vector<unsigned char> png_sized(std::vector<unsigned char> b, std::uint32_t w, std::uint32_t h) {
  for (int k = 0; k < 4; ++k) {
    b[16 + static_cast<std::size_t>(k)] = static_cast<unsigned char>(w >> (24 - 8 * k));
    b[20 + static_cast<std::size_t>(k)] = static_cast<unsigned char>(h >> (24 - 8 * k));
  }
  std::uint32_t crc = 0xFFFFFFFFu;  // CRC-32 of the chunk type and data (bytes 12-28)
  for (std::size_t i = 12; i < 29; ++i) {
    crc ^= b[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  crc ^= 0xFFFFFFFFu;
  for (int k = 0; k < 4; ++k) b[29 + static_cast<std::size_t>(k)] = static_cast<unsigned char>(crc >> (24 - 8 * k));
  return b;
}

// (robust18) A header declaring far more pixels than the file holds: libjpeg decoded a
// JPEG whose start-of-frame said 30000 x 30000 as a 900-megapixel grey page (7 GB, 40 s, then
// "board not found", exit 0). Refused from the header before decoding, for JPEG and PNG;
// a header declaring no pixels likewise (the real sizes decode, above).
TEST(ReaderBadInput, HeaderDeclaringTooManyPixelsIsRefusedBeforeDecoding) {
  const cv::Mat small(48, 64, CV_8UC3, cv::Scalar(20, 140, 230));
  std::vector<unsigned char> jpg, png;
  cv::imencode(".jpg", small, jpg);
  cv::imencode(".png", small, png);
  ASSERT_TRUE(decode_image(jpg).ok());
  ASSERT_TRUE(decode_image(png).ok());
  const std::size_t sof = jpeg_sof(jpg);
  ASSERT_GT(sof, 0u);
  ASSERT_EQ((jpg[sof + 5] << 8) | jpg[sof + 6], 48);
  ASSERT_EQ((jpg[sof + 7] << 8) | jpg[sof + 8], 64);
  for (const auto& b : {jpeg_sized(jpg, 30000, 30000), jpeg_sized(jpg, 65535, 4000), jpeg_sized(jpg, 0, 48),
                        png_sized(png, 30000, 30000), png_sized(png, 100000, 100000), png_sized(png, 64, 0)}) {
    const auto r = decode_image(b);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("the image header declares"), std::string::npos) << r.error();
  }
}

TEST(ReaderBadInput, CliOneErrorLineAndNonZeroExit) {
  if (!fs::exists(fs::path(HEXDICE_BIN_DIR) / "hexdice")) GTEST_SKIP() << "hexdice binary not built";
  std::string err;
  EXPECT_NE(run_cli("read /nonexistent.jpg --json", err), 0);
  EXPECT_EQ(err.rfind("hexdice: ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(run_cli("dice /nonexistent.jpg --json", err), 0);
  EXPECT_EQ(err.rfind("hexdice: ", 0), 0u) << err;
  EXPECT_NE(run_cli("eval --scenes /nonexistent", err), 0);
  EXPECT_EQ(err.rfind("hexdice: ", 0), 0u) << err;
  // A library's own message (OpenCV's for a file that is no model) ends in a newline; the
  // user still sees one line.
  const fs::path junk = fs::temp_directory_path() / ("hexdice_junk_model_" + std::to_string(::getpid()) + ".yml.gz");
  { std::ofstream(junk, std::ios::binary) << std::string(200, '\x5a'); }
  const std::string img = (fs::path(HEXDICE_SOURCE_DIR) / "data/demo/setup_roll.jpg").string();
  for (const char* flag : {"--cnn", "--model"}) {
    EXPECT_NE(run_cli("dice " + img + " " + flag + " " + junk.string(), err), 0) << flag;
    EXPECT_EQ(err.rfind("hexdice: ", 0), 0u) << flag << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << flag << ": " << err;
  }
  fs::remove(junk);
  // (robust18) A grey image has no colour to read the dice by: `read` reported a yellow die
  // as a sure white one; refused with one line (`read`, `dice`; `board-read` and `calibrate
  // colors` load their image the same way).
  cv::Mat grey_frame = render_synth_scene(standard_sheet(), {{Hex{0, 0}, "yellow", 3, false}}, SynthOptions{}).image;
  cv::cvtColor(grey_frame, grey_frame, cv::COLOR_BGR2GRAY);
  const fs::path grey = fs::temp_directory_path() / ("hexdice_grey_" + std::to_string(::getpid()) + ".png");
  ASSERT_TRUE(cv::imwrite(grey.string(), grey_frame));
  for (const char* cmd : {"read", "dice"}) {
    EXPECT_NE(run_cli(std::string(cmd) + " " + grey.string() + " --json", err), 0) << cmd;
    EXPECT_EQ(err.rfind("hexdice: ", 0), 0u) << cmd << ": " << err;
    EXPECT_NE(err.find("a grey image"), std::string::npos) << cmd << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << cmd << ": " << err;
  }
  fs::remove(grey);
  const auto loaded = load_image(img);
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(has_colour(*loaded));
  cv::Mat g3;
  cv::cvtColor(grey_frame, g3, cv::COLOR_GRAY2BGR);
  EXPECT_FALSE(has_colour(g3));
  g3.at<cv::Vec3b>(g3.rows - 1, g3.cols - 1)[2] ^= 1;  // one pixel of colour, the last
  EXPECT_TRUE(has_colour(g3));
}

// (robust20) Whole files whose data is short of what their header declares: a JPEG whose
// start-of-frame claims twice its rows was decoded by libjpeg with "Corrupt JPEG data:
// premature end of data segment" on stderr and its bottom half grey, and read (exit 0); a
// PNG likewise gave libpng's own "libpng error: Not enough image data" line beside ours.
// Both are now refused by decode_image with the library's words in one line of ours, and
// nothing else reaches stderr.
TEST(ReaderBadInput, DataShortOfItsHeaderIsRefusedInOneLine) {
  const cv::Mat frame = render_synth_scene(standard_sheet(), random_dice(standard_sheet(), 6, 5), SynthOptions{}).image;
  std::vector<unsigned char> jpg, png;
  cv::imencode(".jpg", frame, jpg);
  cv::imencode(".png", frame(cv::Rect(0, 0, 160, 120)), png);
  ASSERT_TRUE(decode_image(jpg).ok());
  ASSERT_TRUE(decode_image(png).ok());
  const auto tall_jpg = jpeg_sized(jpg, frame.cols, 2 * frame.rows);
  const auto tall_png = png_sized(png, 160, 240);
  const auto rj = decode_image(tall_jpg);
  ASSERT_FALSE(rj.ok());
  EXPECT_NE(rj.error().find("corrupt JPEG (libjpeg: Corrupt JPEG data: premature end of data segment)"), std::string::npos)
      << rj.error();
  const auto rp = decode_image(tall_png);
  ASSERT_FALSE(rp.ok());
  EXPECT_NE(rp.error().find("corrupt PNG (libpng: Not enough image data)"), std::string::npos) << rp.error();
  // `hexdice read` on each: one line of ours, none of the library's.
  if (!fs::exists(fs::path(HEXDICE_BIN_DIR) / "hexdice")) GTEST_SKIP() << "hexdice binary not built";
  const std::string stem = (fs::temp_directory_path() / ("hexdice_short_" + std::to_string(::getpid()))).string();
  for (const auto& [ext, bytes] : {std::pair{std::string(".jpg"), tall_jpg}, std::pair{std::string(".png"), tall_png}}) {
    const std::string file = stem + ext;
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    std::string err;
    EXPECT_NE(run_cli("read " + file + " --json", err), 0) << ext;
    EXPECT_EQ(err.rfind("hexdice: " + file + ": corrupt", 0), 0u) << ext << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << ext << ": " << err;
    fs::remove(file);
  }
}

// (robust20, found by tests/fuzz/fuzz_decode_image under ASan+UBSan) cv::imdecode tries every
// decoder OpenCV has: 128 bytes and "DICM" reached its DICOM reader (GDCM), whose failed
// assertion aborted `hexdice read` (exit 134). Only PNG, JPEG and BMP (what frame folders
// hold) reach a decoder now; a PNG chunk with a bad CRC is refused rather than warned about.
TEST(ReaderBadInput, OnlyPngJpegAndBmpReachTheDecoder) {
  std::vector<unsigned char> dicom(128, 0xFF);
  for (char c : std::string("DICM")) dicom.push_back(static_cast<unsigned char>(c));
  const std::string hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n";
  const std::string ppm = "P6\n1 1\n255\n\x10\x20\x30";
  const std::vector<unsigned char> jp2{0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x10};
  for (const auto& b : {dicom, std::vector<unsigned char>(hdr.begin(), hdr.end()),
                        std::vector<unsigned char>(ppm.begin(), ppm.end()), jp2}) {
    const auto r = decode_image(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), "not a PNG, JPEG or BMP image");
  }
  const cv::Mat small(12, 16, CV_8UC3, cv::Scalar(20, 140, 230));
  std::vector<unsigned char> bmp, png;
  cv::imencode(".bmp", small, bmp);
  ASSERT_TRUE(decode_image(bmp).ok());
  EXPECT_EQ(cv::norm(*decode_image(bmp), small, cv::NORM_INF), 0);
  // A BMP cut short (OpenCV printed its own "Unexpected end of input stream" line), or whose
  // header declares far more pixels than it holds: one line of ours.
  for (std::size_t n : {std::size_t{2}, std::size_t{30}, bmp.size() - 1}) {
    const auto cut = decode_image(std::vector<unsigned char>(bmp.begin(), bmp.begin() + static_cast<std::ptrdiff_t>(n)));
    ASSERT_FALSE(cut.ok()) << n;
    EXPECT_EQ(cut.error().rfind("truncated BMP (its ", 0), 0u) << n << ": " << cut.error();
  }
  std::vector<unsigned char> rle9 = bmp;
  rle9[30] = 9;  // compression 9: OpenCV's readHeader assertion, printed
  ASSERT_FALSE(decode_image(rle9).ok());
  EXPECT_EQ(decode_image(rle9).error(), "a BMP with a malformed header (compression 9, 0 colours)");
  rle9[14] = 36;  // an info header of 36 bytes: OpenCV reads its compression too (third fuzz run)
  ASSERT_FALSE(decode_image(rle9).ok());
  EXPECT_EQ(decode_image(rle9).error(), "a BMP with a malformed header (compression 9, 0 colours)");
  std::vector<unsigned char> huge = bmp;
  huge[19] = huge[20] = huge[23] = huge[24] = 0x7F;  // about 10^9 pixels a side
  EXPECT_FALSE(decode_image(huge).ok());
  // A text chunk after IHDR whose CRC is wrong: libpng warned (through OpenCV, on stderr)
  // and the picture was read; now one error of ours.
  cv::imencode(".png", small, png);
  const std::string text = "tEXtkey";
  std::vector<unsigned char> chunk{0, 0, 0, 3};
  chunk.insert(chunk.end(), text.begin(), text.begin() + 4);
  chunk.insert(chunk.end(), {'k', 0, 'v', 0xDE, 0xAD, 0xBE, 0xEF});
  png.insert(png.begin() + 33, chunk.begin(), chunk.end());
  const auto r = decode_image(png);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("CRC error"), std::string::npos) << r.error();
}

TEST(ReaderParams, SaveLoadRoundTrip) {
  ReadParams p;
  p.px_per_mm = 3.25;
  p.paper_distance = 31;
  p.reg.min_markers = 3;
  p.face.pip_diameter = 0.2;
  p.coloured_pip_look_below = 0.7;
  p.coloured_pip_look_near_hand = false;
  p.token_look_small_blob = false;
  p.one_pip_off_centre_mm = 2.5;
  p.grey_polarity_band = 0.07;
  p.coloured_pip_look_body_max = 0.8;
  p.coloured_pip_agree_confidence = 0.45;
  p.guard_core_ratio = 0.5;
  p.guard_core_open = 0.7;
  p.guard_core_saturation = 0.42;
  p.guard_part_area = 0.4;
  p.guard_core_hole = 0.2;
  p.guard_part_saturation = 0.5;
  p.guard_other_feet = 1.3;
  p.token_one_other_die = 0.8;
  p.token_other_die_max_face = 3;
  p.fine_unit_top_shown = 0.7;
  p.token_in_blob_area = 1.7;
  p.reg.focal_min_tilt_deg = 4.5;
  p.reg.full_search_margin = 0.75;
  p.grid_refine_all_shift_mm = 2.5;
  p.grid_refine_min_corners = 9;
  p.margin_distance = 33;
  p.white_one_in_hole = 0.45;
  p.occluded_skin_min_saturation = 0.07;
  p.pip_unit_fine_mm = 2.25;
  p.occluded_white_fine_layout = false;
  p.occluded_white_one_fine = false;
  p.fine_keep_sure = 0.85;
  p.fine_pip_angle_deg = 7.5;
  p.fine_pip_angle_agree_pips = 4;
  p.coloured_pip_look_occluded_pips = 5;
  p.white_top_paper_fraction = 0.21;
  p.coloured_pip_more_sure = 0.87;
  p.white_no_pip_below = 0.33;
  p.white_no_pip_body_ratio = 0.7;
  p.colour_clip_level = 240;
  p.occluded_pip_unit_confidence = 0.83;
  p.weak_recentre_below = 0.27;
  p.weak_recentre_min_mm = 0.8;
  p.weak_recentre_max_mm = 3.5;
  p.weak_recentre_min_pips = 4;
  p.fine_unit_pool_mm = 1.75;
  p.guard_print_chroma = 0.03;
  p.face_scale_min = 0.8;
  p.face_scale_max = 1.3;
  p.face_scale_gate = false;
  p.sure_face_scale_stands = false;
  p.pip_look_scale_stands = false;
  p.weak_recentre_one = false;
  p.occluded_shown_places = false;
  p.occluded_shown_min_pips = 3;
  p.weak_shown_places = false;
  p.edges_read_occluded_hex_mm = 21.5;
  p.lone_pip_print_seen = 0.77;
  p.lone_pip_print_ring_mm = 3.25;
  p.occluded_colour_cover_min = 0.45;
  p.occluded_colour_sure_cover = 0.8;
  p.occluded_colour_sure_confidence = 0.95;
  p.occluded_shown_one_pip_min_shown = 7;
  p.occluded_shown_any_place = false;
  p.occluded_any_place_on_face = false;
  p.occluded_own_pip_ring = 0.43;
  p.pip_look_off_token = false;
  p.occluded_off_skin = false;
  p.occluded_white_one_surrounded = false;
  p.guard_print_tint = true;
  p.edges_read_no_hand = false;
  p.occluded_black_fine_min_pips = 3;
  p.occluded_black_fine_lum = 0.6;
  p.one_top_shown = 0.45;
  p.pip_grid_restore = false;
  p.chamfer_bits = false;
  p.colour_shade_occluded = false;
  p.occluded_skin_untinted = false;
  p.occluded_dark_skin_saturation = 0.2;
  p.black_pip_contrast_min = 0.15;
  p.occluded_colour_full_cover = 0.8;
  p.occluded_colour_full_saturation = 0.5;
  p.occluded_colour_full_confidence = 0.42;
  p.guard_room_shift = 0.3;
  p.token_small_blob_print_chroma = 0.03;
  p.token_look_polarity = false;
  p.occluded_white_ratio = 0.71;
  p.occluded_light_beside_mm = 11.5;
  p.core_light_ratio = 1.4;
  p.dim_white_level = 120;
  p.dim_min_confidence = 0.33;
  p.noise_grey_level = 0.07;
  p.noise_white_level = 0.03;
  p.noise_one_min_confidence = 0.65;
  p.white_one_lone_pip = 0.25;
  p.white_one_lone_pip_shadow = 0.45;
  p.guess_clear_ratio = 0.2;
  p.guess_clear_min_pip = 0.11;
  p.guess_clear_min_shown = 5;
  p.side_pair_min_confidence = 0.55;
  p.side_pair_scale_min = 0.62;
  p.side_pair_scale_max = 0.8;
  p.faint_pip_fill_ratio = 0.45;
  p.faint_pip_fill_empty = 0.55;
  p.faint_pip_fill_min_pip = 0.12;
  p.faint_pip_fill_max_confidence = 0.87;
  p.grey_other_lifted_low = 0.66;
  p.grey_other_lifted_high = 0.88;
  p.guard_opened_core_ratio = 0.47;
  p.grey_other_lifted_one = 0.77;
  p.sure_face_stands_min_pips = 3;
  p.coloured_pip_grey_confidence = 0.93;
  p.occluded_min_confidence = 0.55;  // (exact42) default 0.45
  p.white_top_drop_one = false;
  p.white_one_apart_mm = 4.5;
  p.noise_pip_contrast = 0.45;
  p.noise_pip_place_min = 0.07;
  p.white_empty_over_pip = 1.5;
  p.noise_ring_average = 3;
  p.one_top_clear_ratio = 0.3;  // (robust47) default 0.25
  p.one_top_clear_min = 0.35;
  p.one_top_clear_min_pip = 0.4;
  p.noise_cells_half_mm = 7.5;
  p.noise_clipped_level = 233.0;
  p.noise_paper_to_grey = 1.7;
  p.pip_look_drop_min_pips = 5;
  p.pip_look_missing_pip_fit = 0.045;
  p.pip_look_light_only_min_pips = 3;
  p.coloured_layout_places_min_pips = 5;
  p.coloured_layout_places_ratio = 2.75;
  p.coloured_layout_places_shown = 7;
  p.noise_one_sure_contrast = 4.2;
  p.noise_one_clear_ratio = 0.27;
  p.noise_one_body_contrast = 1.7;  // (exact48) default 1.5
  p.weak_guess_clear_ratio = 0.23;
  p.in_view_face_mm = 5.5;
  p.blur_agreed_min_response = 4.5;
  p.blur_faint_below = 5.5;
  p.blur_faint_empty_ratio = 0.4;
  p.blur_deblur_iterations = 7;
  p.blur_deblur_sigma_scale = 0.3;
  p.blur_deblur_min_confidence = 0.6;
  p.blur_deblur_past_faint = false;
  p.blur_grid_line_contrast = 0.035;
  const fs::path f = fs::temp_directory_path() / ("hexdice_read_params_" + std::to_string(::getpid()) + ".yml");
  ASSERT_TRUE(p.save(f.string()).ok());
  auto q = ReadParams::load(f.string());
  ASSERT_TRUE(q.ok()) << q.error();
  EXPECT_DOUBLE_EQ(q->px_per_mm, 3.25);
  EXPECT_DOUBLE_EQ(q->paper_distance, 31);
  EXPECT_EQ(q->reg.min_markers, 3);
  EXPECT_DOUBLE_EQ(q->face.pip_diameter, 0.2);
  EXPECT_DOUBLE_EQ(q->coloured_pip_look_below, 0.7);
  EXPECT_FALSE(q->coloured_pip_look_near_hand);
  EXPECT_FALSE(q->token_look_small_blob);
  EXPECT_DOUBLE_EQ(q->one_pip_off_centre_mm, 2.5);
  EXPECT_DOUBLE_EQ(q->grey_polarity_band, 0.07);
  EXPECT_DOUBLE_EQ(q->coloured_pip_look_body_max, 0.8);
  EXPECT_DOUBLE_EQ(q->coloured_pip_agree_confidence, 0.45);
  EXPECT_DOUBLE_EQ(q->guard_core_ratio, 0.5);
  EXPECT_DOUBLE_EQ(q->guard_core_open, 0.7);
  EXPECT_DOUBLE_EQ(q->guard_core_saturation, 0.42);
  EXPECT_DOUBLE_EQ(q->guard_part_area, 0.4);
  EXPECT_DOUBLE_EQ(q->guard_core_hole, 0.2);
  EXPECT_DOUBLE_EQ(q->guard_part_saturation, 0.5);
  EXPECT_DOUBLE_EQ(q->guard_other_feet, 1.3);
  EXPECT_DOUBLE_EQ(q->token_one_other_die, 0.8);
  EXPECT_EQ(q->token_other_die_max_face, 3);
  EXPECT_DOUBLE_EQ(q->fine_unit_top_shown, 0.7);
  EXPECT_DOUBLE_EQ(q->token_in_blob_area, 1.7);
  EXPECT_DOUBLE_EQ(q->reg.focal_min_tilt_deg, 4.5);
  EXPECT_DOUBLE_EQ(q->reg.full_search_margin, 0.75);
  EXPECT_DOUBLE_EQ(q->grid_refine_all_shift_mm, 2.5);
  EXPECT_EQ(q->grid_refine_min_corners, 9);
  EXPECT_DOUBLE_EQ(q->margin_distance, 33);
  EXPECT_DOUBLE_EQ(q->white_one_in_hole, 0.45);
  EXPECT_DOUBLE_EQ(q->occluded_skin_min_saturation, 0.07);
  EXPECT_DOUBLE_EQ(q->pip_unit_fine_mm, 2.25);
  EXPECT_FALSE(q->occluded_white_fine_layout);
  EXPECT_FALSE(q->occluded_white_one_fine);
  EXPECT_DOUBLE_EQ(q->fine_keep_sure, 0.85);
  EXPECT_DOUBLE_EQ(q->fine_pip_angle_deg, 7.5);
  EXPECT_EQ(q->fine_pip_angle_agree_pips, 4);
  EXPECT_EQ(q->coloured_pip_look_occluded_pips, 5);
  EXPECT_DOUBLE_EQ(q->white_top_paper_fraction, 0.21);
  EXPECT_DOUBLE_EQ(q->coloured_pip_more_sure, 0.87);
  EXPECT_DOUBLE_EQ(q->white_no_pip_below, 0.33);
  EXPECT_DOUBLE_EQ(q->white_no_pip_body_ratio, 0.7);
  EXPECT_DOUBLE_EQ(q->colour_clip_level, 240);
  EXPECT_DOUBLE_EQ(q->occluded_pip_unit_confidence, 0.83);
  EXPECT_DOUBLE_EQ(q->weak_recentre_below, 0.27);
  EXPECT_DOUBLE_EQ(q->weak_recentre_min_mm, 0.8);
  EXPECT_DOUBLE_EQ(q->weak_recentre_max_mm, 3.5);
  EXPECT_EQ(q->weak_recentre_min_pips, 4);
  EXPECT_DOUBLE_EQ(q->fine_unit_pool_mm, 1.75);
  EXPECT_DOUBLE_EQ(q->guard_print_chroma, 0.03);
  EXPECT_DOUBLE_EQ(q->face_scale_min, 0.8);
  EXPECT_DOUBLE_EQ(q->face_scale_max, 1.3);
  EXPECT_FALSE(q->face_scale_gate);
  EXPECT_FALSE(q->sure_face_scale_stands);
  EXPECT_FALSE(q->pip_look_scale_stands);
  EXPECT_FALSE(q->weak_recentre_one);
  EXPECT_FALSE(q->occluded_shown_places);
  EXPECT_EQ(q->occluded_shown_min_pips, 3);
  EXPECT_FALSE(q->weak_shown_places);
  EXPECT_EQ(q->edges_read_occluded_hex_mm, 21.5);
  EXPECT_EQ(q->lone_pip_print_seen, 0.77);
  EXPECT_EQ(q->lone_pip_print_ring_mm, 3.25);
  EXPECT_EQ(q->occluded_colour_cover_min, 0.45);
  EXPECT_DOUBLE_EQ(q->occluded_colour_sure_cover, 0.8);
  EXPECT_DOUBLE_EQ(q->occluded_colour_sure_confidence, 0.95);
  EXPECT_EQ(q->occluded_shown_one_pip_min_shown, 7);
  EXPECT_FALSE(q->occluded_shown_any_place);
  EXPECT_FALSE(q->occluded_any_place_on_face);
  EXPECT_EQ(q->occluded_own_pip_ring, 0.43);
  EXPECT_FALSE(q->pip_look_off_token);
  EXPECT_FALSE(q->occluded_off_skin);
  EXPECT_FALSE(q->occluded_white_one_surrounded);
  EXPECT_TRUE(q->guard_print_tint);
  EXPECT_FALSE(q->edges_read_no_hand);
  EXPECT_EQ(q->occluded_black_fine_min_pips, 3);
  EXPECT_EQ(q->occluded_black_fine_lum, 0.6);
  EXPECT_DOUBLE_EQ(q->one_top_shown, 0.45);
  EXPECT_FALSE(q->pip_grid_restore);
  EXPECT_FALSE(q->chamfer_bits);
  EXPECT_FALSE(q->colour_shade_occluded);
  EXPECT_FALSE(q->occluded_skin_untinted);
  EXPECT_DOUBLE_EQ(q->occluded_dark_skin_saturation, 0.2);
  EXPECT_DOUBLE_EQ(q->black_pip_contrast_min, 0.15);
  EXPECT_DOUBLE_EQ(q->occluded_colour_full_cover, 0.8);
  EXPECT_DOUBLE_EQ(q->occluded_colour_full_saturation, 0.5);
  EXPECT_DOUBLE_EQ(q->occluded_colour_full_confidence, 0.42);
  EXPECT_DOUBLE_EQ(q->guard_room_shift, 0.3);
  EXPECT_DOUBLE_EQ(q->token_small_blob_print_chroma, 0.03);
  EXPECT_FALSE(q->token_look_polarity);
  EXPECT_DOUBLE_EQ(q->occluded_white_ratio, 0.71);
  EXPECT_DOUBLE_EQ(q->occluded_light_beside_mm, 11.5);
  EXPECT_DOUBLE_EQ(q->core_light_ratio, 1.4);
  EXPECT_DOUBLE_EQ(q->dim_white_level, 120);
  EXPECT_DOUBLE_EQ(q->dim_min_confidence, 0.33);
  EXPECT_DOUBLE_EQ(q->noise_grey_level, 0.07);
  EXPECT_DOUBLE_EQ(q->noise_white_level, 0.03);
  EXPECT_DOUBLE_EQ(q->noise_one_min_confidence, 0.65);
  EXPECT_DOUBLE_EQ(q->white_one_lone_pip, 0.25);
  EXPECT_DOUBLE_EQ(q->white_one_lone_pip_shadow, 0.45);
  EXPECT_DOUBLE_EQ(q->guess_clear_ratio, 0.2);
  EXPECT_DOUBLE_EQ(q->guess_clear_min_pip, 0.11);
  EXPECT_EQ(q->guess_clear_min_shown, 5);
  EXPECT_DOUBLE_EQ(q->side_pair_min_confidence, 0.55);
  EXPECT_DOUBLE_EQ(q->side_pair_scale_min, 0.62);
  EXPECT_DOUBLE_EQ(q->side_pair_scale_max, 0.8);
  EXPECT_DOUBLE_EQ(q->faint_pip_fill_ratio, 0.45);
  EXPECT_DOUBLE_EQ(q->faint_pip_fill_empty, 0.55);
  EXPECT_DOUBLE_EQ(q->faint_pip_fill_max_confidence, 0.87);
  EXPECT_DOUBLE_EQ(q->grey_other_lifted_low, 0.66);
  EXPECT_DOUBLE_EQ(q->grey_other_lifted_high, 0.88);
  EXPECT_DOUBLE_EQ(q->guard_opened_core_ratio, 0.47);
  EXPECT_DOUBLE_EQ(q->grey_other_lifted_one, 0.77);
  EXPECT_EQ(q->sure_face_stands_min_pips, 3);
  EXPECT_DOUBLE_EQ(q->coloured_pip_grey_confidence, 0.93);
  EXPECT_DOUBLE_EQ(q->occluded_min_confidence, 0.55);
  EXPECT_DOUBLE_EQ(q->faint_pip_fill_min_pip, 0.12);
  EXPECT_FALSE(q->white_top_drop_one);
  EXPECT_DOUBLE_EQ(q->white_one_apart_mm, 4.5);
  EXPECT_DOUBLE_EQ(q->noise_pip_contrast, 0.45);
  EXPECT_DOUBLE_EQ(q->noise_pip_place_min, 0.07);
  EXPECT_DOUBLE_EQ(q->white_empty_over_pip, 1.5);
  EXPECT_EQ(q->noise_ring_average, 3);
  EXPECT_DOUBLE_EQ(q->one_top_clear_ratio, 0.3);
  EXPECT_DOUBLE_EQ(q->one_top_clear_min, 0.35);
  EXPECT_DOUBLE_EQ(q->one_top_clear_min_pip, 0.4);
  EXPECT_DOUBLE_EQ(q->noise_cells_half_mm, 7.5);
  EXPECT_DOUBLE_EQ(q->noise_clipped_level, 233.0);
  EXPECT_DOUBLE_EQ(q->noise_paper_to_grey, 1.7);
  EXPECT_EQ(q->pip_look_drop_min_pips, 5);
  EXPECT_DOUBLE_EQ(q->pip_look_missing_pip_fit, 0.045);
  EXPECT_EQ(q->pip_look_light_only_min_pips, 3);
  EXPECT_EQ(q->coloured_layout_places_min_pips, 5);
  EXPECT_DOUBLE_EQ(q->coloured_layout_places_ratio, 2.75);
  EXPECT_EQ(q->coloured_layout_places_shown, 7);
  EXPECT_DOUBLE_EQ(q->noise_one_sure_contrast, 4.2);
  EXPECT_DOUBLE_EQ(q->noise_one_clear_ratio, 0.27);
  EXPECT_DOUBLE_EQ(q->noise_one_body_contrast, 1.7);
  EXPECT_DOUBLE_EQ(q->weak_guess_clear_ratio, 0.23);
  EXPECT_DOUBLE_EQ(q->in_view_face_mm, 5.5);
  EXPECT_DOUBLE_EQ(q->blur_agreed_min_response, 4.5);
  EXPECT_DOUBLE_EQ(q->blur_faint_below, 5.5);
  EXPECT_DOUBLE_EQ(q->blur_faint_empty_ratio, 0.4);
  EXPECT_EQ(q->blur_deblur_iterations, 7);
  EXPECT_DOUBLE_EQ(q->blur_deblur_sigma_scale, 0.3);
  EXPECT_DOUBLE_EQ(q->blur_deblur_min_confidence, 0.6);
  EXPECT_FALSE(q->blur_deblur_past_faint);
  EXPECT_DOUBLE_EQ(q->blur_grid_line_contrast, 0.035);
  fs::remove(f);
  EXPECT_FALSE(ReadParams::load("/nonexistent/params.yml").ok());
}

TEST(ReaderIo, CalibrationAndLabels) {
  auto c = calibration_from_json_text(R"({"camera_matrix": [900,0,640,0,900,360,0,0,1], "dist_coeffs": [0.1,-0.05,0,0],
      "image_size": [1280, 720], "colors": [{"name": "purple", "bgr_rel": [0.6, 0.2, 0.5]}]})");
  ASSERT_TRUE(c.ok()) << c.error();
  ASSERT_TRUE(c->camera.has_value());
  EXPECT_DOUBLE_EQ(c->camera->camera_matrix(0, 0), 900);
  EXPECT_EQ(c->colors.size(), 1u);
  EXPECT_FALSE(calibration_from_json_text(R"({"camera_matrix": [1,2]})").ok());
  EXPECT_FALSE(calibration_from_json_text("[").ok());
  // A guard token listed as its own die folds into its unit's cell.
  auto t = scene_truth_from_json(nlohmann::json::parse(R"({"dice": [
      {"q": 0, "r": -4, "color": "red", "face": 3, "guard": false},
      {"q": 0, "r": -4, "color": "blue", "face": 1, "guard": true},
      {"q": 1, "r": 0, "color": "blue", "face": 6}]})"));
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->cells.size(), 2u);
  EXPECT_EQ(t->cells[0].color, "red");
  EXPECT_TRUE(t->cells[0].guard);
  EXPECT_FALSE(t->cells[1].guard);
}

TEST(DieFace, LayoutsAndColours) {
  for (int f = 1; f <= 6; ++f) {
    EXPECT_EQ(static_cast<int>(pip_layout(f).size()), f);
    std::vector<cv::Point2f> px;
    for (const auto& p : pip_layout(f)) px.push_back((p + cv::Point2f(0.5f, 0.5f)) * 48.0f);
    EXPECT_LT(layout_fit(px, 48), 0.02) << f;
  }
  // Six pips in a ring do not fit the 2x3 layout of a six.
  std::vector<cv::Point2f> ring;
  for (int i = 0; i < 6; ++i) ring.emplace_back(24 + 13 * std::cos(i * CV_PI / 3), 24 + 13 * std::sin(i * CV_PI / 3));
  EXPECT_GT(layout_fit(ring, 48), 0.03);
  EXPECT_EQ(name_color({0.2f, 0.2f, 0.9f}), "red");
  EXPECT_EQ(name_color({0.15f, 0.85f, 0.9f}), "yellow");
  EXPECT_EQ(name_color({0.2f, 0.6f, 0.15f}), "green");
  EXPECT_EQ(name_color({0.7f, 0.35f, 0.1f}), "blue");
  EXPECT_EQ(name_color({0.92f, 0.93f, 0.95f}), "white");
  EXPECT_EQ(name_color({0.12f, 0.12f, 0.13f}), "black");
}

}  // namespace
}  // namespace hexdice::vision
