#include "vision/reader_io.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>

#include <csetjmp>
#include <cstdio>

#include <jpeglib.h>
#include <png.h>
#include <opencv2/imgcodecs.hpp>

namespace hexdice::vision {

namespace {

const unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
bool is_png(const std::vector<unsigned char>& b) {
  return b.size() >= 8 && std::equal(kPngSignature, kPngSignature + 8, b.begin());
}
bool is_jpeg(const std::vector<unsigned char>& b) { return b.size() >= 2 && b[0] == 0xFF && b[1] == 0xD8; }
bool is_bmp(const std::vector<unsigned char>& b) { return b.size() >= 2 && b[0] == 'B' && b[1] == 'M'; }

// n bytes from b[i] on as one big-endian number (the caller has checked they are there).
std::uint64_t big_endian(const std::vector<unsigned char>& b, std::size_t i, int n) {
  std::uint64_t v = 0;
  for (int k = 0; k < n; ++k) v = (v << 8) | b[i + static_cast<std::size_t>(k)];
  return v;
}

// How a walk of a JPEG's header ended: at its first scan (`i` at the start-of-scan marker),
// with the file ending inside the header, at bytes that are no marker (malformed: the decoder
// says so), or where the visitor stopped it.
enum class JpegHeaderEnd { kScan, kCutShort, kMalformed, kStopped };

// Walks a JPEG's header segments from after its start-of-image to its first scan: an EXIF
// thumbnail inside APP1 has a scan and an end marker of its own, so the bytes themselves
// cannot be searched. visit(marker, i) sees each segment that has a length (its 4 header
// bytes are there); returning true stops the walk with `i` at that segment.
template <class Visit>
JpegHeaderEnd walk_jpeg_header(const std::vector<unsigned char>& b, std::size_t& i, Visit&& visit) {
  i = 2;
  for (;;) {
    while (i + 1 < b.size() && b[i] == 0xFF && b[i + 1] == 0xFF) ++i;  // fill bytes
    if (i + 1 >= b.size()) return JpegHeaderEnd::kCutShort;             // the header alone
    if (b[i] != 0xFF) return JpegHeaderEnd::kMalformed;
    const unsigned char m = b[i + 1];
    if (m == 0xDA) return JpegHeaderEnd::kScan;
    if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {  // markers without a length
      i += 2;
      continue;
    }
    if (i + 3 >= b.size()) return JpegHeaderEnd::kCutShort;
    if (visit(m, i)) return JpegHeaderEnd::kStopped;
    i += 2 + static_cast<std::size_t>(big_endian(b, i + 2, 2));
  }
}

// A JPEG whose first scan has no end-of-image marker after it was cut short (a copy or a
// write interrupted). libjpeg decodes such a file anyway, greying out what is missing, and a
// referee would then read half a board. Inside a scan's entropy-coded data 0xFF is only ever
// followed by 0x00 (stuffing) or a restart marker (0xD0-0xD7), so an 0xFF 0xD9 after the
// first start-of-scan (0xFF 0xDA) is the real end marker; data a camera appends after it
// (thumbnails, maker trailers) does not matter.
bool jpeg_cut_short(const std::vector<unsigned char>& b) {
  if (!is_jpeg(b)) return false;
  std::size_t i = 0;
  switch (walk_jpeg_header(b, i, [](unsigned char, std::size_t) { return false; })) {
    case JpegHeaderEnd::kCutShort: return true;
    case JpegHeaderEnd::kScan: break;
    default: return false;  // malformed: the decoder says so
  }
  for (i += 2; i + 1 < b.size(); ++i)
    if (b[i] == 0xFF && b[i + 1] == 0xD9) return false;
  return true;
}

// A PNG is a run of chunks (4-byte length, 4-byte type, data, 4-byte CRC) ending in IEND;
// one whose chunks run off the end of the file was cut short. Refused here, before libpng
// sees it (it would print its own line on stderr beside ours).
bool png_cut_short(const std::vector<unsigned char>& b) {
  if (!is_png(b)) return false;
  std::size_t i = 8;
  while (i + 8 <= b.size()) {
    const std::size_t len = static_cast<std::size_t>(big_endian(b, i, 4));
    if (std::equal(b.begin() + static_cast<std::ptrdiff_t>(i + 4), b.begin() + static_cast<std::ptrdiff_t>(i + 8), "IEND")) return i + 12 > b.size();
    i += 12 + len;
  }
  return true;
}

// The width and height a PNG's IHDR or a JPEG's start-of-frame declares (false when there is
// none to find: another format, or malformed, which the decoder reports). libjpeg decodes a
// JPEG whose header claims more rows and columns than its data holds (greying out the
// rest): a frame whose header says 30000 x 30000 took 7 GB and 40 s to "read" as a grey page
// (robust18), so the size is checked before anything is decoded.
// n bytes from b[i] on as one little-endian number (the caller has checked they are there).
std::uint64_t little_endian(const std::vector<unsigned char>& b, std::size_t i, int n) {
  std::uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = (v << 8) | b[i + static_cast<std::size_t>(k)];
  return v;
}

// A BMP's info header (36 bytes or more, as OpenCV's reader takes it; little-endian): width
// at 18, height at 22 (negative: top-down), bits a pixel at 28, compression at 30. False when
// it is not there.
bool bmp_header(const std::vector<unsigned char>& b, std::int64_t& w, std::int64_t& h, int& bpp, int& compression) {
  if (!is_bmp(b) || b.size() < 50 || little_endian(b, 14, 4) < 36) return false;
  w = static_cast<std::int32_t>(little_endian(b, 18, 4));
  h = static_cast<std::int32_t>(little_endian(b, 22, 4));
  bpp = static_cast<int>(little_endian(b, 28, 2));
  compression = static_cast<int>(little_endian(b, 30, 4));
  return true;
}

// What is wrong with a BMP ("" when nothing we can see), checked before OpenCV's reader,
// which prints its own line for each of these (its readHeader assertions, and "Unexpected
// end of input stream") and then fails: a header or colour table past the file's end, an
// info header size, compression or colour count its reader refuses, and, uncompressed,
// pixel rows that run past the end of the file.
std::string bmp_problem(const std::vector<unsigned char>& b) {
  if (!is_bmp(b)) return "";
  if (b.size() < 18) return "truncated BMP (its header runs past the end of the file)";
  const auto info = static_cast<std::int32_t>(little_endian(b, 14, 4));
  const std::uint64_t offset = little_endian(b, 10, 4);
  if (info <= 0 || 14 + static_cast<std::uint64_t>(info) > b.size() || offset > b.size())
    return "truncated BMP (its header runs past the end of the file)";
  std::int64_t w = 0, h = 0;
  int bpp = 0, compression = 0;
  if (!bmp_header(b, w, h, bpp, compression)) return "";  // the old 12-byte header: OpenCV's to judge
  const auto colours = static_cast<std::int32_t>(little_endian(b, 46, 4));
  if (compression < 0 || compression > 3 || colours < 0 || colours > 256)
    return "a BMP with a malformed header (compression " + std::to_string(compression) + ", " + std::to_string(colours) +
           " colours)";
  if (compression == 1 || compression == 2) {
    // (robust21) Run-length coded (RLE8, RLE4): its codes walked as OpenCV 4.6's reader walks
    // them (grfmt_bmp.cpp), which reads until its last row is filled; data ending before that
    // made it print "Unexpected end of input stream" (and fail). Its reader's own rules:
    // RLE8: a run that fills its row exactly moves to the next row, and an end-of-row code
    // right after it is then skipped; an end-of-picture code fills every row left; a move
    // (dx, dy) fills dx + dy rows of pixels. RLE4: runs never move to the next row; an
    // end-of-row and an end-of-picture code each fill one row; a move fills dx pixels (dy is
    // not used). A run past its row's end stops the reader without reading on.
    const bool rle4 = compression == 2;
    const std::uint64_t rows = static_cast<std::uint64_t>(std::abs(h)), width = static_cast<std::uint64_t>(std::abs(w));
    const std::string cut = "truncated BMP (its run-length data ends before its last row): the file was cut short";
    if (width == 0) return "";
    std::uint64_t i = offset, x = 0, y = 0;
    bool row_filled = false;  // RLE8: a run filled its row and moved to the next
    auto fill = [&](std::uint64_t n) {  // n pixels from (x, y) on, row after row
      const std::uint64_t p = x + n;
      y += p / width, x = p % width;
    };
    while (y < rows) {
      if (i + 2 > b.size()) return cut;
      const unsigned count = b[i], code = b[i + 1];
      i += 2;
      if (count != 0 || code > 2) {  // a run of `count` pixels of one colour, or `code` pixels as they are
        const std::uint64_t n = count != 0 ? count : code;
        if (x + n > width) return "";  // OpenCV's reader stops here (its picture refused without a line)
        if (count == 0) {
          const std::uint64_t nb = rle4 ? (((code + 1) >> 1) + 1) & ~1u : (code + 1) & ~1u;
          if (i + nb > b.size()) return cut;
          i += nb;
        }
        x += n;
        row_filled = false;
        if (!rle4 && count != 0 && x == width) ++y, x = 0, row_filled = true;
        continue;
      }
      if (code == 2) {  // a move: dx, dy
        if (i + 2 > b.size()) return cut;
        const std::uint64_t dx = b[i], dy = b[i + 1];
        i += 2;
        fill(dx + (rle4 ? 0 : dy * width));
      } else if (rle4 || code == 1 || !row_filled || x != 0) {  // end of a row, or of the picture
        fill(rle4 || code == 0 ? width - x : (rows - y) * width - x);
      }
      row_filled = false;
    }
    return "";
  }
  if (compression != 0 && compression != 3) return "";
  const std::uint64_t stride = ((static_cast<std::uint64_t>(std::abs(w)) * static_cast<std::uint64_t>(bpp) + 31) / 32) * 4;
  if (offset + stride * static_cast<std::uint64_t>(std::abs(h)) > b.size())
    return "truncated BMP (its pixel rows run past the end of the file)";
  return "";
}

bool header_size(const std::vector<unsigned char>& b, std::uint64_t& w, std::uint64_t& h) {
  if (std::int64_t bw = 0, bh = 0; is_bmp(b)) {
    int bpp = 0, compression = 0;
    if (!bmp_header(b, bw, bh, bpp, compression)) return false;
    w = static_cast<std::uint64_t>(std::abs(bw)), h = static_cast<std::uint64_t>(std::abs(bh));
    return true;
  }
  if (is_png(b)) {
    if (b.size() < 24 || !std::equal(b.begin() + 12, b.begin() + 16, "IHDR")) return false;
    w = big_endian(b, 16, 4), h = big_endian(b, 20, 4);
    return true;
  }
  if (!is_jpeg(b)) return false;
  bool found = false;
  std::size_t i = 0;
  walk_jpeg_header(b, i, [&](unsigned char m, std::size_t at) {
    // SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC): length, precision, height, width.
    if (m < 0xC0 || m > 0xCF || m == 0xC4 || m == 0xC8 || m == 0xCC) return false;
    if (at + 8 < b.size()) {
      h = big_endian(b, at + 5, 2), w = big_endian(b, at + 7, 2);
      found = true;
    }
    return true;
  });
  return found;
}

// ---- Corrupt data, and the one decode ------------------------------------------------------
// cv::imdecode (OpenCV 4.6) runs libjpeg and libpng with their default error handlers: they
// print their own lines on stderr ("Corrupt JPEG data: premature end of data segment",
// "libpng error: Not enough image data", "libpng warning: iCCP: known incorrect sRGB
// profile"), and libjpeg goes on past missing data, greying out the rows it does not have
// (a JPEG whose header claims 1440 rows for 720 of data was read as a board with its bottom
// half grey, exit 0). OpenCV gives no way to install handlers of our own, so JPEG and PNG
// files are decoded here, with handlers that print nothing: the first libjpeg warning
// (corrupt data) or libpng error refuses the file with the library's own words in our one
// line. (robust21) The picture is decoded once, here, the way OpenCV 4.6's decoders do for
// cv::IMREAD_COLOR (the same libraries and the same settings: libjpeg-turbo's BGR output at
// its default DCT and upsampling; libpng's transforms as its PngDecoder sets them), so it is
// bit-identical to cv::imdecode's (checked on every PNG and JPEG of the real photos, the
// fixtures and the rendered sets, docs/reader.md robust21); before, robust20 decoded each
// file twice (a check here, then cv::imdecode), +3-4 ms a 720p JPEG. Where OpenCV would do
// more than that plain decode (an Exif block, whose orientation it applies; a 4-component
// CMYK JPEG, which it converts itself; a PNG's eXIf chunk), the file is still checked here
// and then decoded by cv::imdecode as before (`fallback`).

struct Decoded {
  std::string problem;    // the library's first complaint ("" when none)
  bool fallback = false;  // cv::imdecode must decode it (see above); `img` is not the picture
  std::string warning;    // libpng's first warning on a picture read whole ("" when none)
  int orientation = 1;    // the Exif orientation OpenCV applies (1: none; robust22)
};

struct JpegQuiet {
  jpeg_error_mgr mgr;  // first: libjpeg's err pointer is this struct's address
  std::jmp_buf jump;
};
// An error, or a warning (-1; levels >= 0 are traces): the decode stops at the first.
[[noreturn]] void jpeg_quiet_exit(j_common_ptr c) { std::longjmp(reinterpret_cast<JpegQuiet*>(c->err)->jump, 1); }
void jpeg_quiet_message(j_common_ptr c, int level) {
  if (level < 0) jpeg_quiet_exit(c);
}
void jpeg_quiet_output(j_common_ptr) {}

// (robust22) The Exif orientation cv::imdecode applies to a JPEG, found as OpenCV 4.6 finds it
// (grfmt_jpeg.cpp and exif.cpp, read for their behaviour): the FIRST APP1 marker, whatever its
// first six bytes say ("Exif\0\0" is not checked), longer than 6 bytes; after those six, a TIFF
// header: byte order "II" little-endian, anything else read big-endian; the tag mark 42 at 2;
// IFD0's offset at 4; its entries (12 bytes each) in file order, each read by its tag: a
// string tag (0x010E/F, 0x0110, 0x0131, 0x0132, 0x8298) needs its data inside the block (more
// than 4 bytes: at the offset the entry gives), a rational tag (0x011A/B: 1, 0x013E: 2,
// 0x013F: 6, 0x0211: 3, 0x0214: 6 rationals at the entry's offset) needs those rationals
// inside, the orientation (0x0112) is the 16-bit value at the entry's byte 8. The first read
// out of the block ends the parse; tags read before it stand, the first orientation wins.
// 1 when there is none (or the tag mark is wrong): nothing is turned.
int jpeg_exif_orientation(const jpeg_decompress_struct& cinfo) {
  jpeg_saved_marker_ptr app1 = nullptr;
  for (jpeg_saved_marker_ptr m = cinfo.marker_list; m && !app1; m = m->next)
    if (m->marker == JPEG_APP0 + 1) app1 = m;
  if (!app1 || app1->data_length <= 6) return 1;
  const unsigned char* d = app1->data + 6;
  const std::size_t n = app1->data_length - 6;
  const bool intel = n >= 1 && (n == 1 || d[0] == d[1]) && d[0] == 'I';
  // Bounds-checked reads: false when the value would lie past the block's end.
  auto u16 = [&](std::size_t at, std::uint32_t& v) {
    if (at + 1 >= n) return false;
    v = intel ? d[at] | (d[at + 1] << 8) : (d[at] << 8) | d[at + 1];
    return true;
  };
  auto u32 = [&](std::size_t at, std::uint32_t& v) {
    if (at + 3 >= n) return false;
    v = intel ? d[at] | (d[at + 1] << 8) | (d[at + 2] << 16) | (static_cast<std::uint32_t>(d[at + 3]) << 24)
              : (static_cast<std::uint32_t>(d[at]) << 24) | (d[at + 1] << 16) | (d[at + 2] << 8) | d[at + 3];
    return true;
  };
  // `count` rationals (two 32-bit values each) from the offset in the entry at `at`; the
  // offset steps in 32 bits, as OpenCV's does.
  auto rationals = [&](std::size_t at, int count) {
    std::uint32_t off = 0, v = 0;
    if (!u32(at + 8, off)) return false;
    for (int i = 0; i < count; ++i, off += 8)
      if (!u32(off, v) || !u32(static_cast<std::size_t>(off) + 4, v)) return false;
    return true;
  };
  std::uint32_t mark = 0, ifd = 0, entries = 0;
  if (!u16(2, mark) || mark != 42) return 1;
  if (!u32(4, ifd) || !u16(ifd, entries)) return 1;
  std::uint32_t at = ifd + 2;
  for (std::uint32_t e = 0; e < entries; ++e, at += 12) {
    std::uint32_t tag = 0;
    if (!u16(at, tag)) return 1;
    switch (tag) {
      case 0x0112: {
        std::uint32_t o = 1;
        return u16(static_cast<std::size_t>(at) + 8, o) ? static_cast<int>(o) : 1;
      }
      case 0x010E: case 0x010F: case 0x0110: case 0x0131: case 0x0132: case 0x8298: {
        std::uint32_t size = 0, off = 8;
        if (!u32(static_cast<std::size_t>(at) + 4, size)) return 1;
        if (size > 4 && !u32(static_cast<std::size_t>(at) + 8, off)) return 1;
        if (off > n || static_cast<std::size_t>(off) + size > n) return 1;
        break;
      }
      case 0x011A: case 0x011B:
        if (!rationals(at, 1)) return 1;
        break;
      case 0x013E:
        if (!rationals(at, 2)) return 1;
        break;
      case 0x013F: case 0x0214:
        if (!rationals(at, 6)) return 1;
        break;
      case 0x0211:
        if (!rationals(at, 3)) return 1;
        break;
      case 0x0128: case 0x0213: {
        std::uint32_t v = 0;
        if (!u16(static_cast<std::size_t>(at) + 8, v)) return 1;
        break;
      }
      default:
        break;
    }
  }
  return 1;
}

// The picture turned as OpenCV's ExifTransform turns it for orientations 2-8 (flip codes:
// 1 about the vertical axis, 0 about the horizontal one, -1 both; 5-8 transposed first).
void apply_exif_orientation(int orientation, cv::Mat& img) {
  if (orientation < 2 || orientation > 8) return;
  if (orientation >= 5) cv::transpose(img, img);
  static const int flip_code[9] = {0, 0, 1, -1, 0, 0, 1, -1, 0};
  if (orientation == 5) return;
  cv::flip(img, img, flip_code[orientation]);
}

// The JPEG decoded into `img` (CV_8UC3, BGR) as OpenCV's JpegDecoder decodes it for
// IMREAD_COLOR (libjpeg-turbo's JCS_EXT_BGR, default DCT and upsampling), with libjpeg's
// first warning or error as `problem` (`img` then partly written).
Decoded jpeg_decode(const std::vector<unsigned char>& b, cv::Mat& img) {
  jpeg_decompress_struct cinfo;
  JpegQuiet q;
  cinfo.err = jpeg_std_error(&q.mgr);
  q.mgr.error_exit = jpeg_quiet_exit;
  q.mgr.emit_message = jpeg_quiet_message;
  q.mgr.output_message = jpeg_quiet_output;
  if (setjmp(q.jump)) {
    char msg[JMSG_LENGTH_MAX];
    q.mgr.format_message(reinterpret_cast<j_common_ptr>(&cinfo), msg);
    jpeg_destroy_decompress(&cinfo);
    return {msg, false};
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, b.data(), static_cast<unsigned long>(b.size()));
  jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_read_header(&cinfo, TRUE);
  // OpenCV loads the standard Huffman tables into a JPEG that has none (MJPEG frames).
  const bool no_tables = !cinfo.ac_huff_tbl_ptrs[0] && !cinfo.ac_huff_tbl_ptrs[1] && !cinfo.dc_huff_tbl_ptrs[0] && !cinfo.dc_huff_tbl_ptrs[1];
  // (robust22) An Exif orientation is applied here (decode_image), not by a second decode.
  const bool fallback = cinfo.num_components == 4 || no_tables;
  const int orientation = fallback ? 1 : jpeg_exif_orientation(cinfo);
  // (A CMYK JPEG as OpenCV asks for it, decoded here only as the check.)
  const bool cmyk = cinfo.num_components == 4;
  cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_BGR;
  cinfo.out_color_components = cmyk ? 4 : 3;
  jpeg_start_decompress(&cinfo);
  img.create(static_cast<int>(cinfo.output_height), static_cast<int>(cinfo.output_width), cmyk ? CV_8UC4 : CV_8UC3);
  JSAMPROW rows[16];
  while (cinfo.output_scanline < cinfo.output_height) {
    const JDIMENSION y = cinfo.output_scanline, n = std::min<JDIMENSION>(16, cinfo.output_height - y);
    for (JDIMENSION i = 0; i < n; ++i) rows[i] = img.ptr<uchar>(static_cast<int>(y + i));
    jpeg_read_scanlines(&cinfo, rows, n);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return {"", fallback, "", orientation};
}

struct PngQuiet {
  char error[256];
  char warning[256];  // libpng's first warning ("" when none)
};
[[noreturn]] void png_quiet_error(png_structp png, png_const_charp msg) {
  auto* q = static_cast<PngQuiet*>(png_get_error_ptr(png));
  std::snprintf(q->error, sizeof q->error, "%s", msg);
  png_longjmp(png, 1);
}
void png_quiet_warning(png_structp png, png_const_charp msg) {
  auto* q = static_cast<PngQuiet*>(png_get_error_ptr(png));
  if (!q->warning[0]) std::snprintf(q->warning, sizeof q->warning, "%s", msg);
}

// A PNG chunk named `type` before IEND.
bool png_has_chunk(const std::vector<unsigned char>& b, const char* type) {
  std::size_t i = 8;
  while (i + 8 <= b.size()) {
    if (std::equal(b.begin() + static_cast<std::ptrdiff_t>(i) + 4, b.begin() + static_cast<std::ptrdiff_t>(i) + 8, type)) return true;
    if (std::equal(b.begin() + static_cast<std::ptrdiff_t>(i) + 4, b.begin() + static_cast<std::ptrdiff_t>(i) + 8, "IEND")) return false;
    i += 12 + big_endian(b, i, 4);
  }
  return false;
}

// The PNG decoded into `img` (CV_8UC3, BGR) with the transforms OpenCV 4.6's PngDecoder sets
// for IMREAD_COLOR (16 bits stripped to 8, alpha stripped, palette to RGB, grey below 8 bits
// expanded, BGR order or grey to RGB), libpng's error as `problem`; a CRC error in any chunk
// is an error here (libpng's default only warns for ancillary chunks). Its first warning
// is `warning` (libjpeg's warnings are problems: corrupt data).
Decoded png_decode(const std::vector<unsigned char>& b, cv::Mat& img) {
  static thread_local PngQuiet q;  // written by the handlers, read after a longjmp
  q.error[0] = q.warning[0] = '\0';
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &q, png_quiet_error, png_quiet_warning);
  if (!png) return {"out of memory", false};
  png_infop info = png_create_info_struct(png);
  png_infop end = png_create_info_struct(png);
  if (!info || !end) {
    png_destroy_read_struct(&png, &info, &end);
    return {"out of memory", false};
  }
  static thread_local std::vector<png_bytep> rows;  // (not a local: resized after setjmp)
  struct Reader {
    const std::vector<unsigned char>* b;
    std::size_t at;
  } in{&b, 0};
  png_set_read_fn(png, &in, [](png_structp p, png_bytep to, png_size_t n) {
    auto* r = static_cast<Reader*>(png_get_io_ptr(p));
    if (r->b->size() - r->at < n) png_error(p, "Read Error: the data ends early");
    std::copy_n(r->b->begin() + static_cast<std::ptrdiff_t>(r->at), n, to);
    r->at += n;
  });
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, &end);
    return {q.error, false};
  }
  png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
  png_read_info(png, info);
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0;
  png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, nullptr, nullptr, nullptr);
  const bool fallback = png_has_chunk(b, "eXIf");
  if (bit_depth == 16) png_set_strip_16(png);
  png_set_strip_alpha(png);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if ((color_type & PNG_COLOR_MASK_COLOR) == 0 && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (color_type & PNG_COLOR_MASK_COLOR) png_set_bgr(png);
  else png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  img.create(static_cast<int>(height), static_cast<int>(width), CV_8UC3);
  rows.resize(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = img.ptr<uchar>(static_cast<int>(y));
  png_read_image(png, rows.data());
  png_read_end(png, end);
  png_destroy_read_struct(&png, &info, &end);
  return {"", fallback, q.warning};
}

}  // namespace

Result<cv::Mat> decode_image(const std::vector<unsigned char>& bytes, std::string* warning) {
  if (warning) warning->clear();
  if (bytes.empty()) return Error{"empty image file"};
  // Only the formats a camera frame comes in (what the frame directories and `calibrate
  // camera --frames` list: .png .jpg .bmp). cv::imdecode tries every decoder OpenCV was
  // built with on anything else: a 132-byte file from the fuzzer (tests/fuzz) reached its
  // DICOM reader (GDCM), whose failed assertion aborted `hexdice read` (robust20); its
  // JPEG 2000 and HDR readers print their own lines.
  if (!is_png(bytes) && !is_jpeg(bytes) && !is_bmp(bytes)) return Error{"not a PNG, JPEG or BMP image"};
  if (jpeg_cut_short(bytes)) return Error{"truncated JPEG (no end-of-image marker): the file was cut short"};
  if (png_cut_short(bytes)) return Error{"truncated PNG (no IEND chunk): the file was cut short"};
  if (const std::string p = bmp_problem(bytes); !p.empty()) return Error{p};
  if (std::uint64_t w = 0, h = 0; header_size(bytes, w, h) && (w == 0 || h == 0 || w * h > kMaxImagePixels))
    return Error{"the image header declares " + std::to_string(w) + " x " + std::to_string(h) + " pixels (" +
                 (w == 0 || h == 0 ? std::string("none") : "over " + std::to_string(kMaxImagePixels / 1000000) + " megapixels") +
                 "): a corrupt header or not a camera frame"};
  cv::Mat img;
  if (is_jpeg(bytes) || is_png(bytes)) {
    const Decoded d = is_jpeg(bytes) ? jpeg_decode(bytes, img) : png_decode(bytes, img);
    if (!d.problem.empty())
      return Error{is_jpeg(bytes) ? "corrupt JPEG (libjpeg: " + d.problem + "): part of the picture would be made up"
                                  : "corrupt PNG (libpng: " + d.problem + ")"};
    if (warning && !d.warning.empty()) *warning = "libpng: " + d.warning + " (a warning: the picture was read as it is)";
    if (!d.fallback) {
      apply_exif_orientation(d.orientation, img);
      return img;
    }
    img.release();
  }
  try {
    img = cv::imdecode(bytes, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    return Error{std::string("cannot decode image: ") + e.what()};
  }
  if (img.empty()) return Error{"cannot decode image (not a supported image, or corrupt)"};
  return img;
}

Result<cv::Mat> load_image(const std::string& path, std::string* warning) {
  if (warning) warning->clear();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open image " + path};
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{"cannot read image " + path};
  std::string w;
  auto img = decode_image(bytes, &w);
  if (!img) return Error{path + ": " + img.error()};
  if (warning && !w.empty()) *warning = path + ": " + w;
  return img;
}

Result<cv::Mat> load_image(const std::string& path, const WarningSink& warn) {
  std::string w;
  auto img = load_image(path, warn ? &w : nullptr);
  if (img && warn && !w.empty()) warn(w);
  return img;
}

bool has_colour(const cv::Mat& bgr) {
  if (bgr.type() != CV_8UC3 && bgr.type() != CV_8UC4) return false;
  const int step = bgr.channels();
  for (int y = 0; y < bgr.rows; ++y) {
    const uchar* p = bgr.ptr<uchar>(y);
    for (int x = 0; x < bgr.cols; ++x, p += step)
      if (p[0] != p[1] || p[1] != p[2]) return true;  // a camera frame: within its first pixels
  }
  return false;
}

std::string frame_unusable(const cv::Mat& frame) {
  if (frame.empty()) return "an empty frame (no pixels)";
  if (frame.depth() != CV_8U || (frame.channels() != 1 && frame.channels() != 3 && frame.channels() != 4))
    return "a frame of an unsupported pixel type (" + std::to_string(frame.channels()) + " channels of " +
           std::to_string(8 * frame.elemSize1()) + " bits; 8-bit colour needed)";
  if (frame.channels() == 1) return "a grey frame (one channel): the dice's colours cannot be read from it";
  if (!has_colour(frame)) return "a colourless frame (no pixel has any colour): the dice's colours cannot be read from it";
  return {};
}

Result<cv::Mat> load_colour_image(const std::string& path, std::string* warning) {
  auto img = load_image(path, warning);
  if (img && !has_colour(*img))
    return Error{path + ": a grey image (no pixel has any colour): the dice's colours cannot be read from it"};
  return img;
}

Result<CalibrationData> calibration_from_json_text(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{"calibration is not valid JSON"};
  CalibrationData c;
  try {
    if (j.contains("camera_matrix")) {
      auto k = j["camera_matrix"].get<std::vector<double>>();
      if (k.size() != 9) return Error{"calibration: camera_matrix needs 9 numbers"};
      CameraIntrinsics ci;
      ci.camera_matrix = cv::Matx33d(k.data());
      if (j.contains("dist_coeffs")) {
        auto d = j["dist_coeffs"].get<std::vector<double>>();
        if (!d.empty()) ci.dist_coeffs = cv::Mat(d, true).reshape(1, 1);
      }
      if (j.contains("image_size")) {
        auto s = j["image_size"].get<std::vector<int>>();
        if (s.size() == 2) ci.image_size = cv::Size(s[0], s[1]);
      }
      if (!(ci.camera_matrix(0, 0) > 0 && ci.camera_matrix(1, 1) > 0)) return Error{"calibration: focal length must be > 0"};
      c.camera = ci;
    }
    if (j.contains("colors"))
      for (const auto& s : j["colors"]) {
        auto v = s.at("bgr_rel").get<std::vector<float>>();
        if (v.size() != 3) return Error{"calibration: bgr_rel needs 3 numbers"};
        c.colors.push_back({s.at("name").get<std::string>(), cv::Vec3f(v[0], v[1], v[2])});
      }
  } catch (const std::exception& e) {
    return Error{std::string("calibration: ") + e.what()};
  }
  return c;
}

Result<SceneTruth> scene_truth_from_json(const nlohmann::json& j) {
  SceneTruth t;
  if (!j.is_object()) return Error{"label is not a JSON object"};
  try {
    if (j.contains("board_found")) t.board_found = j["board_found"].get<bool>();
    const nlohmann::json* list = nullptr;
    for (const char* key : {"cells", "dice", "units"})
      if (j.contains(key) && j[key].is_array()) {
        list = &j[key];
        break;
      }
    if (!list) return t;
    std::map<Hex, std::vector<TruthCell>> by_cell;
    for (const auto& d : *list) {
      // Rendered-scene labels: no cell without a sheet; dice out of view or under the
      // hand cannot be read and are not truth.
      if (!d.contains("q") || d["q"].is_null() || !d.contains("r") || d["r"].is_null()) continue;
      if (d.contains("in_view") && d["in_view"].is_boolean() && !d["in_view"].get<bool>()) continue;
      if (d.contains("occluded") && d["occluded"].is_boolean() && d["occluded"].get<bool>()) continue;
      TruthCell c;
      c.hex = {d.at("q").get<int>(), d.at("r").get<int>()};
      c.color = d.contains("color") ? d["color"].get<std::string>() : "";
      c.face = d.contains("face") ? d["face"].get<int>() : 0;
      c.guard = d.contains("guard") && d["guard"].get<bool>();
      if (d.contains("pip_lattice_hidden") && d["pip_lattice_hidden"].is_number_integer())
        c.pip_lattice_hidden = d["pip_lattice_hidden"].get<int>();
      by_cell[c.hex].push_back(c);
    }
    for (auto& [hex, v] : by_cell) {
      if (v.size() == 1) {
        t.cells.push_back(v[0]);
        continue;
      }
      // Several entries: the guard token entry marks the cell guarded; the other is the unit.
      TruthCell unit = v[0];
      bool guard = false;
      for (const auto& c : v) {
        if (c.guard) guard = true;
        else unit = c;
      }
      unit.guard = guard;
      t.cells.push_back(unit);
    }
  } catch (const std::exception& e) {
    return Error{std::string("label: ") + e.what()};
  }
  return t;
}

}  // namespace hexdice::vision
