// ReadParams::stop_when_covered (the live referee's frame budget, docs/referee.md): a read
// that stops once a cell in view is covered. It must stop only where a full read finds a
// covered cell, report nothing it did not read, and leave every other read unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "vision/read.h"
#include "vision/read_profile.h"
#include "vision/reader_io.h"
#include "tests/vision/fixture_labels.h"
#include "vision/reader_synth.h"
#include "tests/bench/bench_frame.h"

namespace hexdice::vision {
namespace {

TEST(ReaderBudget, StopWhenCoveredOnlyWhereAFullReadFindsACoveredCell) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  const SheetLayout layout = standard_sheet();
  ReadParams stop;
  stop.stop_when_covered = true;
  int scenes = 0, stopped = 0;
  for (const auto& [path, j] : scene_labels(dir)) {
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    ++scenes;
    const Observation full = read_board(*img, layout);
    ReadProfile prof;
    set_read_profile(&prof);
    const Observation fast = read_board(*img, layout, nullptr, stop);
    set_read_profile(nullptr);
    EXPECT_EQ(fast.board_found, full.board_found) << path;
    // Cells off the frame (a partial view) do not stop it; cells covered in view do.
    std::size_t off_frame = 0;
    {
      const double m = 4.0;
      for (const Hex& h : full.hidden) {
        const Point c = layout.cell_centre(h);
        const cv::Point2d p = apply_h(full.pose.paper_to_image, {c.x, c.y});
        off_frame += !(p.x >= m && p.y >= m && p.x < img->cols - m && p.y < img->rows - m);
      }
    }
    const std::set<std::pair<int, int>> full_hidden = [&] {
      std::set<std::pair<int, int>> s;
      for (const Hex& h : full.hidden) s.insert({h.q, h.r});
      return s;
    }();
    // Stopped: nothing read, and less reported than a full read (which may itself find no
    // die at all when an arm hides every cell in view, scene_035).
    const bool was_stopped = prof.face_calls == 0 && fast.cells.empty() &&
                             (!full.cells.empty() || fast.hidden.size() < full.hidden.size());
    if (was_stopped) {
      ++stopped;
      // What it hid, a full read hid too; and a full read found a covered cell in view.
      for (const Hex& h : fast.hidden) EXPECT_TRUE(full_hidden.count({h.q, h.r})) << path;
      EXPECT_GT(fast.hidden.size(), 0u);
      EXPECT_GT(full.hidden.size(), off_frame) << path;
    } else {
      // Not stopped: the very same observation.
      EXPECT_EQ(to_json(fast).dump(), to_json(full).dump()) << path;
    }
    if (full.board_found && full.hidden.size() == off_frame)
      EXPECT_EQ(to_json(fast).dump(), to_json(full).dump()) << "stopped without a covered cell: " << path;
  }
  EXPECT_GE(scenes, 40);
  EXPECT_GE(stopped, 6);  // the hand scenes
}

// A partial view (the map partly off the frame, nothing over it) is read in full.
TEST(ReaderBudget, PartialViewWithoutAHandIsReadInFull) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.shift_mm = {0, 130};  // the bottom part: top markers and cells out of frame
  o.camera.fill = 1.6;
  const SynthScene sc = render_synth_scene(layout, random_dice(layout, 30, 7), o);
  const Observation full = read_board(sc.image, layout);
  ASSERT_TRUE(full.board_found);
  ASSERT_FALSE(full.hidden.empty());  // cells off the frame
  ASSERT_FALSE(full.cells.empty());
  ReadParams stop;
  stop.stop_when_covered = true;
  EXPECT_EQ(to_json(read_board(sc.image, layout, nullptr, stop)).dump(), to_json(full).dump());
}

}  // namespace
}  // namespace hexdice::vision

namespace hexdice::vision {
namespace {

// The bench's frame (BM_Read/1280): 20 dice at 25 degrees tilt, seed 11.
cv::Mat bench_like_frame(const SheetLayout& layout) {
  SynthOptions o;
  o.camera.size = {1280, 720};
  o.camera.tilt_deg = 25;
  o.seed = 11;
  return render_synth_scene(layout, random_dice(layout, 20, 11), o).image;
}

// ReadProfile::cell_detail (the per-cell stage split by pass, BM_ReadCellStages): off by
// default (no pass time), on it splits cells_ms (the passes add up to it: the same clock
// reads, read_face's time out of each) and the read is the same.
TEST(ReaderBudget, CellStagePassesAddUpToTheCellStage) {
  const SheetLayout layout = standard_sheet();
  const cv::Mat img = bench_like_frame(layout);
  const std::string plain = to_json(read_board(img, layout)).dump();
  auto passes = [](const ReadProfile& p) {
    return std::vector<double>{p.cell_patch_ms, p.cell_unit_ms, p.cell_white_ms, p.cell_locate_ms, p.cell_first_ms,
                               p.cell_other_ms, p.cell_fine_ms, p.cell_cover_ms, p.cell_retry_ms, p.cell_guard_ms};
  };
  ReadProfile off;
  set_read_profile(&off);
  EXPECT_EQ(to_json(read_board(img, layout)).dump(), plain);
  set_read_profile(nullptr);
  for (double v : passes(off)) EXPECT_EQ(v, 0.0);
  EXPECT_GT(off.cells_ms, 0.0);
  ReadProfile on;
  on.cell_detail = true;
  set_read_profile(&on);
  EXPECT_EQ(to_json(read_board(img, layout)).dump(), plain);
  set_read_profile(nullptr);
  double sum = 0;
  for (double v : passes(on)) {
    EXPECT_GE(v, 0.0);
    sum += v;
  }
  EXPECT_GT(on.cell_patch_ms, 0.0);
  EXPECT_GT(on.cell_locate_ms, 0.0);  // dice were located
  EXPECT_GT(on.face_calls, 0);
  EXPECT_NEAR(sum, on.cells_ms, 0.05 * on.cells_ms + 0.3) << "passes " << sum << " ms, cells_ms " << on.cells_ms;
}

// (speed28) set_read_mark: a mark at each boundary of the read's work (read_once's
// HEXDICE_READ_SPLIT counts instructions per part with it). On the bench frame: the frame's
// part first, every cell's patch pass once (91 cells), every reported die's guard pass, the
// read's end last, only the known parts' names, and the same observation as without marks.
namespace {
std::vector<std::tuple<std::string, int, int>>& marks_seen() {
  static std::vector<std::tuple<std::string, int, int>> m;
  return m;
}
}  // namespace
TEST(ReaderBudget, ReadMarksEndEachPartOfTheRead) {
  const SheetLayout layout = standard_sheet();
  const cv::Mat img = bench_like_frame(layout);
  const Observation plain = read_board(img, layout);
  ASSERT_GE(plain.cells.size(), 15u);
  marks_seen().clear();
  EXPECT_EQ(set_read_mark([](const char* part, int q, int r) { marks_seen().emplace_back(part, q, r); }), nullptr);
  const Observation marked = read_board(img, layout);
  EXPECT_NE(set_read_mark(nullptr), nullptr);
  EXPECT_EQ(to_json(marked).dump(), to_json(plain).dump());
  const auto& m = marks_seen();
  ASSERT_GE(m.size(), 3u);
  EXPECT_EQ(std::get<0>(m.front()), "frame");
  EXPECT_EQ(std::get<0>(m.back()), "after");
  const std::set<std::string> known{"frame", "after", "cell_patch_ms", "cell_unit_ms", "cell_white_ms", "cell_locate_ms", "cell_first_ms",
                                    "cell_other_ms", "cell_fine_ms", "cell_cover_ms", "cell_retry_ms", "cell_guard_ms"};
  std::set<std::pair<int, int>> patched, guarded;
  for (const auto& [part, q, r] : m) {
    EXPECT_TRUE(known.count(part)) << part;
    if (part == "cell_patch_ms") EXPECT_TRUE(patched.insert({q, r}).second) << q << "," << r << " patched twice";
    if (part == "cell_guard_ms") guarded.insert({q, r});
  }
  EXPECT_EQ(patched.size(), layout.cells.size());
  for (const CellObservation& c : plain.cells) EXPECT_TRUE(guarded.count({c.hex.q, c.hex.r})) << c.hex.q << "," << c.hex.r;
  // No mark set: none made.
  marks_seen().clear();
  read_board(img, layout);
  EXPECT_TRUE(marks_seen().empty());
}

// (speed22) ReadParams::retry_read_above: the retries read each square with
// FaceReader::read_above (a square must beat the best reading so far), which does not run the
// component counter when its capped fallback could not. The switch must leave every
// observation unchanged and read fewer component crops: on the bench frame (its weak die
// (-5,3) reads five retry squares at 0.30) and on the scenes fixtures.
TEST(ReaderBudget, RetryReadAboveReadsFewerComponentCropsForTheSameObservations) {
  const SheetLayout layout = standard_sheet();
  ReadParams off;
  off.retry_read_above = false;
  const ReadParams on;
  ASSERT_TRUE(on.retry_read_above);  // the default
  std::vector<cv::Mat> images{bench::render_bench_frame(layout, 1920, 1080).image};
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  for (const auto& [path, j] : scene_labels(dir)) {
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    images.push_back(*img);
  }
  int fewer = 0, more = 0;
  long reads_on = 0, reads_off = 0;
  for (std::size_t i = 0; i < images.size(); ++i) {
    ReadProfile p_on, p_off;
    set_read_profile(&p_on);
    const std::string a = to_json(read_board(images[i], layout, nullptr, on)).dump();
    set_read_profile(&p_off);
    const std::string b = to_json(read_board(images[i], layout, nullptr, off)).dump();
    set_read_profile(nullptr);
    EXPECT_EQ(a, b) << "image " << i;
    fewer += p_on.component_reads < p_off.component_reads;
    more += p_on.component_reads > p_off.component_reads;
    reads_on += p_on.component_reads, reads_off += p_off.component_reads;
    if (i == 0) EXPECT_LE(p_on.component_reads + 8, p_off.component_reads) << "the bench frame";
  }
  EXPECT_EQ(more, 0);
  EXPECT_GT(fewer, 3);
  EXPECT_GT(reads_off, 0);
  std::printf("component reads: %ld with retry_read_above, %ld without, %zu images\n", reads_on, reads_off, images.size());
}

}  // namespace
}  // namespace hexdice::vision
