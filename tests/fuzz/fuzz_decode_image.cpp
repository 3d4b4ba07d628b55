// libFuzzer: the image files the reader loads (vision/reader_io.h decode_image, the path of
// `hexdice read`, `dice`, `board-read` and a referee's image directory). Whatever the bytes:
// a BGR image or one non-empty error, never a crash, a hang or a sanitizer report; the
// libjpeg/libpng checks run before OpenCV's decode with error handlers of their own
// (setjmp/longjmp), the part most worth fuzzing. Seeds: corpus_decode_image/ (small PNG and
// JPEG files, whole and damaged).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "vision/reader_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  auto img = hexdice::vision::decode_image(bytes);
  if (img.ok()) {
    if (img->empty() || img->type() != CV_8UC3) std::abort();
    (void)hexdice::vision::has_colour(*img);
    (void)hexdice::vision::frame_unusable(*img);
  } else if (img.error().empty()) {
    std::abort();
  }
  return 0;
}
