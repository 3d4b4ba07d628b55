// decode_image decodes a JPEG or PNG once, itself, and gives OpenCV's picture bit for bit;
// a decoder's warning on a good picture and a run-length BMP cut short are one line of ours
// (robust21, docs/reader.md "Robustness round 21").
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>
#include <zlib.h>

#include <opencv2/imgcodecs.hpp>

#include "cli_run.h"
#include "tests/vision/png_warning.h"
#include "vision/reader_io.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;
using hexdice::testing::png_with_bad_gamma;

std::vector<unsigned char> file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void expect_opencvs_picture(const std::vector<unsigned char>& b, const std::string& what) {
  const auto ours = decode_image(b);
  ASSERT_TRUE(ours.ok()) << what << ": " << ours.error();
  const cv::Mat ref = cv::imdecode(b, cv::IMREAD_COLOR);
  ASSERT_FALSE(ref.empty()) << what;
  ASSERT_EQ(ours->size(), ref.size()) << what;
  ASSERT_EQ(ours->type(), ref.type()) << what;
  EXPECT_EQ(cv::norm(*ours, ref, cv::NORM_INF), 0) << what;
}

// An Exif block (APP1) whose one tag says the picture is turned: orientation 6 (the camera
// held upright; OpenCV turns the picture a quarter).
std::vector<unsigned char> with_exif_orientation(std::vector<unsigned char> jpeg, int orientation) {
  const unsigned char tiff[] = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0,
                                static_cast<unsigned char>(orientation), 0, 0, 0, 0, 0, 0, 0};
  std::vector<unsigned char> app1 = {'E', 'x', 'i', 'f', 0, 0};
  app1.insert(app1.end(), std::begin(tiff), std::end(tiff));
  const std::size_t len = app1.size() + 2;
  std::vector<unsigned char> seg = {0xFF, 0xE1, static_cast<unsigned char>(len >> 8), static_cast<unsigned char>(len & 255)};
  seg.insert(seg.end(), app1.begin(), app1.end());
  jpeg.insert(jpeg.begin() + 2, seg.begin(), seg.end());
  return jpeg;
}

// A 4x2 RLE8 BMP: a run of 4, end of row, a run of 4, end of picture; `cut` bytes off its end.
std::vector<unsigned char> rle8_bmp(std::size_t cut) {
  const std::vector<unsigned char> rle = {4, 5, 0, 0, 4, 200, 0, 1};
  std::vector<unsigned char> b = {'B', 'M'};
  auto le = [&](std::uint32_t x, int n) {
    for (int k = 0; k < n; ++k) b.push_back(static_cast<unsigned char>(x >> (8 * k)));
  };
  const std::uint32_t off = 14 + 40 + 1024;
  le(off + static_cast<std::uint32_t>(rle.size()), 4), le(0, 4), le(off, 4);
  le(40, 4), le(4, 4), le(2, 4), le(1, 2), le(8, 2), le(1, 4), le(static_cast<std::uint32_t>(rle.size()), 4), le(2835, 4), le(2835, 4),
      le(256, 4), le(0, 4);
  for (int i = 0; i < 256; ++i) le(static_cast<std::uint32_t>(i | (255 - i) << 8 | ((i * 7) & 255) << 16), 4);
  b.insert(b.end(), rle.begin(), rle.end());
  b.resize(b.size() - cut);
  return b;
}

// What `f` writes on stderr (file descriptor 2: the C libraries' and OpenCV's lines).
template <class F>
std::string stderr_of(F&& f) {
  const fs::path p = fs::temp_directory_path() / ("hexdice_decode_err_" + std::to_string(::getpid()) + ".txt");
  std::fflush(stderr);
  const int saved = ::dup(2);
  std::FILE* tmp = std::fopen(p.c_str(), "w");
  ::dup2(::fileno(tmp), 2);
  f();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::fclose(tmp);
  std::ifstream in(p);
  std::string s{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  fs::remove(p);
  return s;
}

// The one decode gives cv::imdecode's picture bit for bit: baseline, progressive and grey
// JPEGs, 8- and 16-bit, grey, palette, RGBA and interlaced PNGs (the fuzz seeds), the demo's
// 720p frame and the first rendered fixtures; an Exif orientation turns the picture as
// cv::imdecode does (robust22: decoded once; more cases below); a CMYK JPEG, which OpenCV
// converts itself, still goes to cv::imdecode (fails if decode_image gives its own decode).
TEST(DecodeOnce, EveryPictureIsOpenCVsBitForBit) {
  const fs::path src(HEXDICE_SOURCE_DIR);
  int n = 0;
  for (const auto& e : fs::directory_iterator(src / "tests/fuzz/corpus_decode_image")) {
    if (e.path().filename() == "tall.jpg") continue;  // corrupt on purpose (refused)
    expect_opencvs_picture(file_bytes(e.path()), e.path().filename().string());
    ++n;
  }
  EXPECT_GE(n, 10);
  const auto demo = file_bytes(src / "data/demo/frames/00000.jpg");
  expect_opencvs_picture(demo, "demo frame 0");
  int scenes = 0;
  for (const auto& e : fs::directory_iterator(src / "data/fixtures/scenes"))
    if (e.path().extension() == ".jpg" && scenes < 4) expect_opencvs_picture(file_bytes(e.path()), e.path().filename().string()), ++scenes;
  std::vector<unsigned char> small;
  cv::imencode(".jpg", cv::imdecode(demo, cv::IMREAD_COLOR)(cv::Rect(600, 300, 64, 36)), small);
  const auto turned = with_exif_orientation(small, 6);
  expect_opencvs_picture(turned, "Exif orientation 6");
  EXPECT_EQ(decode_image(turned)->size(), cv::Size(36, 64));  // turned a quarter
  expect_opencvs_picture(file_bytes(src / "data/fixtures/decode/cmyk.jpg"), "CMYK JPEG");
  expect_opencvs_picture(png_with_bad_gamma(), "PNG with a bad gAMA");
}

// An APP1 segment: `sig` (6 bytes) and a TIFF block of IFD0 `entries` (tag, type, count, value
// field), byte order "II" or "MM", then `tail` (data the entries point into, at 8 + 2 + 12 n + 4).
struct IfdEntry {
  std::uint16_t tag, type;
  std::uint32_t count, value;
};
std::vector<unsigned char> app1_segment(const std::string& sig, bool intel, const std::vector<IfdEntry>& entries,
                                        const std::vector<unsigned char>& tail = {}) {
  std::vector<unsigned char> t = {static_cast<unsigned char>(intel ? 'I' : 'M'), static_cast<unsigned char>(intel ? 'I' : 'M')};
  auto put = [&](std::uint32_t v, int n) {
    for (int i = 0; i < n; ++i) t.push_back(static_cast<unsigned char>(intel ? v >> (8 * i) : v >> (8 * (n - 1 - i))));
  };
  put(42, 2), put(8, 4), put(static_cast<std::uint32_t>(entries.size()), 2);
  for (const auto& e : entries) {
    put(e.tag, 2), put(e.type, 2), put(e.count, 4);
    if (e.type == 3 && e.count == 1) put(e.value, 2), put(0, 2);  // a SHORT sits in the field's first two bytes
    else put(e.value, 4);
  }
  put(0, 4);
  t.insert(t.end(), tail.begin(), tail.end());
  std::vector<unsigned char> seg = {0xFF, 0xE1, 0, 0};
  seg.insert(seg.end(), sig.begin(), sig.end());
  seg.insert(seg.end(), t.begin(), t.end());
  seg[2] = static_cast<unsigned char>((seg.size() - 2) >> 8), seg[3] = static_cast<unsigned char>((seg.size() - 2) & 255);
  return seg;
}
std::vector<unsigned char> with_segments(std::vector<unsigned char> jpeg, const std::vector<std::vector<unsigned char>>& segs) {
  std::size_t at = 2;
  for (const auto& s : segs) jpeg.insert(jpeg.begin() + static_cast<std::ptrdiff_t>(at), s.begin(), s.end()), at += s.size();
  return jpeg;
}

// (robust22) A JPEG with Exif is decoded once and turned here as cv::imdecode turns it (before,
// it was checked here and decoded again by cv::imdecode): each of the orientations 0-9 in
// both byte orders, and the cases where OpenCV 4.6's reading of the block decides: it reads
// the FIRST APP1 (an XMP block first: nothing turned), whatever its signature says, and stops
// at the first entry whose data lies outside the block (an orientation after it: not turned).
// Every picture bit for bit OpenCV's, and turned or not as said.
TEST(DecodeOnce, EveryExifOrientationIsTurnedAsOpenCVTurnsIt) {
  const auto demo = file_bytes(fs::path(HEXDICE_SOURCE_DIR) / "data/demo/frames/00000.jpg");
  std::vector<unsigned char> small;
  cv::imencode(".jpg", cv::imdecode(demo, cv::IMREAD_COLOR)(cv::Rect(600, 300, 40, 24)), small);
  const std::string exif("Exif\0\0", 6);
  auto check = [&](const std::vector<unsigned char>& jpeg, bool turned, const std::string& what) {
    expect_opencvs_picture(jpeg, what);
    const auto ours = decode_image(jpeg);
    ASSERT_TRUE(ours.ok()) << what;
    EXPECT_EQ(ours->size(), turned ? cv::Size(24, 40) : cv::Size(40, 24)) << what;
  };
  for (const bool intel : {true, false})
    for (std::uint32_t o = 0; o <= 9; ++o)
      check(with_segments(small, {app1_segment(exif, intel, {{0x0112, 3, 1, o}})}), o >= 5 && o <= 8,
            std::string(intel ? "II" : "MM") + " orientation " + std::to_string(o));
  // A 20-byte Make string at an offset past the block, then the orientation: the parse stops.
  const IfdEntry bad_make{0x010F, 2, 20, 4000}, orient6{0x0112, 3, 1, 6};
  check(with_segments(small, {app1_segment(exif, true, {bad_make, orient6})}), false, "bad Make, then orientation 6");
  check(with_segments(small, {app1_segment(exif, true, {orient6, bad_make})}), true, "orientation 6, then bad Make");
  // Make and XResolution inside the block (after IFD0 of 3 entries: 8 + 2 + 36 + 4 = 50).
  std::vector<unsigned char> tail(20, 'a');
  tail.insert(tail.end(), {72, 0, 0, 0, 1, 0, 0, 0});
  check(with_segments(small, {app1_segment(exif, true, {{0x010F, 2, 20, 50}, {0x011A, 5, 1, 70}, {0x0112, 3, 1, 8}}, tail)}),
        true, "Make, XResolution, orientation 8");
  check(with_segments(small, {app1_segment(exif, false, {{0x011A, 5, 1, 9000}, orient6})}), false, "XResolution out of the block");
  // An XMP block first: OpenCV reads that one (no TIFF header: nothing turned).
  std::vector<unsigned char> xmp = {0xFF, 0xE1, 0, 0};
  const std::string x = std::string("http://ns.adobe.com/xap/1.0/", 28) + std::string(1, '\0') + "<x:xmpmeta/>";
  xmp.insert(xmp.end(), x.begin(), x.end());
  xmp[3] = static_cast<unsigned char>(xmp.size() - 2);
  check(with_segments(small, {xmp, app1_segment(exif, true, {orient6})}), false, "XMP first, then Exif orientation 6");
  check(with_segments(small, {app1_segment(std::string("Abcd\0\0", 6), true, {orient6})}), true, "signature not Exif");
}

// libpng's warning on a whole, good PNG reached stderr through cv::imdecode as "libpng warning:
// gAMA: gamma value out of range"; now decode_image prints nothing and gives the warning, and
// `hexdice read` says it in one line of its own and reads the picture.
TEST(DecodeOnce, APngWarningIsOneLineOfOurs) {
  const auto png = png_with_bad_gamma();
  std::string warning;
  const std::string err = stderr_of([&] { ASSERT_TRUE(decode_image(png, &warning).ok()); });
  EXPECT_EQ(err, "");
  EXPECT_EQ(warning, "libpng: gAMA: gamma value out of range (a warning: the picture was read as it is)");
  if (!fs::exists(fs::path(HEXDICE_BIN_DIR) / "hexdice")) GTEST_SKIP() << "hexdice binary not built";
  const std::string file = (fs::temp_directory_path() / ("hexdice_gamma_" + std::to_string(::getpid()) + ".png")).string();
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  std::string cli;
  EXPECT_EQ(run_cli("read " + file + " --json", cli), 0);
  EXPECT_EQ(cli, "hexdice: warning: " + file + ": libpng: gAMA: gamma value out of range (a warning: the picture was read as it is)\n");
  fs::remove(file);
}

// `hexdice eval` and the referee's frame folders load many pictures: a decoder's warning on one
// of them is one `hexdice: warning: FILE: ...` line per file, as `read` prints it, and the run
// goes on (robust22; before, eval and the referee dropped it and said nothing).
TEST(DecodeOnce, EvalAndTheRefereesFramesSayAWarningOnceAFile) {
  if (!fs::exists(fs::path(HEXDICE_BIN_DIR) / "hexdice")) GTEST_SKIP() << "hexdice binary not built";
  const auto png = png_with_bad_gamma();
  const fs::path dir = fs::temp_directory_path() / ("hexdice_warn_dir_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string want;
  for (const char* name : {"scene_000", "scene_001"}) {
    const fs::path pic = dir / (std::string(name) + ".png");
    std::ofstream(pic, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
    std::ofstream(dir / (std::string(name) + ".json")) << "{\"image\": \"" << name << ".png\", \"board_found\": false, \"dice\": []}\n";
    want += "hexdice: warning: " + pic.string() + ": libpng: gAMA: gamma value out of range (a warning: the picture was read as it is)\n";
  }
  std::string err;
  EXPECT_EQ(run_cli("eval --scenes " + dir.string(), err), 0);
  EXPECT_EQ(err, want);
  // The referee on the folder as frames (its JSON files are not frames: PNG/JPEG/BMP only).
  err.clear();
  EXPECT_EQ(run_cli("referee --source " + dir.string() + " --db " + (dir / "game.db").string() + " --no-stdin --fps 0", err), 0);
  EXPECT_EQ(err, want);
  fs::remove_all(dir);
}

// A run-length coded BMP cut short: OpenCV's reader printed "imdecode_(''): can't read data:
// ... Unexpected end of input stream" before failing; now it is refused before OpenCV sees
// it, in one line, and nothing reaches stderr. The whole file reads as OpenCV reads it.
TEST(DecodeOnce, ARunLengthBmpCutShortIsRefusedInOneLine) {
  expect_opencvs_picture(rle8_bmp(0), "whole RLE8 BMP");
  // Without its end-of-picture code it is still whole: its last run fills the last row.
  expect_opencvs_picture(rle8_bmp(2), "RLE8 BMP without its end code");
  for (std::size_t cut : {4u, 6u}) {
    Result<cv::Mat> r = Error{""};
    const std::string err = stderr_of([&] { r = decode_image(rle8_bmp(cut)); });
    ASSERT_FALSE(r.ok()) << cut;
    EXPECT_EQ(r.error(), "truncated BMP (its run-length data ends before its last row): the file was cut short") << cut;
    EXPECT_EQ(err, "") << cut;
  }
}

}  // namespace
}  // namespace hexdice::vision
