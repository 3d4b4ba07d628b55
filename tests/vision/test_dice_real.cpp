// The sheet-free dice finder on a subset of the real labelled photos (shared data; the
// test is skipped where that folder is absent). Floors sit below the figures measured
// on this subset (first 60 images of the odd split: face 59.4%, recall 61.3%,
// precision 72.3%) so a regression fails; they are far from the 97% target.
#include <gtest/gtest.h>

#include <filesystem>

#include "vision/reader_eval.h"

namespace hexdice::vision {
namespace {

TEST(DiceReal, FaceAccuracyAndDetectionOnRealPhotos) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SHARED_DIR) / "data/real-dice";
  if (!std::filesystem::exists(dir / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << dir;
  auto s = eval_real(dir.string(), "odd", 60, DiceParams{}, nullptr);
  ASSERT_TRUE(s.ok()) << s.error();
  std::printf("images %d labels %d detections %d matched %d face_ok %d\n", s->images, s->labels, s->detections,
              s->matched, s->face_ok);
  EXPECT_EQ(s->images, 60);
  EXPECT_GE(s->face_accuracy(), 0.55);
  EXPECT_GE(s->recall(), 0.56);
  EXPECT_GE(s->precision(), 0.66);
}

TEST(DiceReal, EvalRejectsMissingCsv) {
  EXPECT_FALSE(eval_real("/nonexistent/labels.csv", "all", 0, DiceParams{}, nullptr).ok());
}

}  // namespace
}  // namespace hexdice::vision
