// An 8x4 PNG that is whole and good but makes libpng warn (a gAMA chunk of 0): for the tests
// of a decoder's warning said in one line of ours (tests/vision/test_decode_once.cpp) and in
// the window's event log (tests/companion/referee_bad_frames_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include <zlib.h>

namespace hexdice::testing {

inline void put32(std::vector<unsigned char>& v, std::uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<unsigned char>(x >> s));
}
inline void chunk(std::vector<unsigned char>& png, const char* type, const std::vector<unsigned char>& data) {
  put32(png, static_cast<std::uint32_t>(data.size()));
  std::vector<unsigned char> td(type, type + 4);
  td.insert(td.end(), data.begin(), data.end());
  png.insert(png.end(), td.begin(), td.end());
  put32(png, static_cast<std::uint32_t>(crc32(0, td.data(), static_cast<uInt>(td.size()))));
}
// An 8x4 RGB PNG with a gAMA chunk of 0: whole and good, but libpng warns "gAMA: gamma
// value out of range" (and cv::imdecode printed that as "libpng warning: ...").
inline std::vector<unsigned char> png_with_bad_gamma() {
  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  std::vector<unsigned char> ihdr;
  put32(ihdr, 8);
  put32(ihdr, 4);
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});
  chunk(png, "IHDR", ihdr);
  chunk(png, "gAMA", {0, 0, 0, 0});
  std::vector<unsigned char> raw;
  for (int y = 0; y < 4; ++y) {
    raw.push_back(0);
    for (int x = 0; x < 8; ++x) raw.insert(raw.end(), {static_cast<unsigned char>(30 * x), static_cast<unsigned char>(60 * y), 100});
  }
  std::vector<unsigned char> z(compressBound(static_cast<uLong>(raw.size())));
  uLongf zn = static_cast<uLongf>(z.size());
  compress(z.data(), &zn, raw.data(), static_cast<uLong>(raw.size()));
  z.resize(zn);
  chunk(png, "IDAT", z);
  chunk(png, "IEND", {});
  return png;
}

}  // namespace hexdice::testing
