// LatestFrameGrabber (companion/referee/latest_frame.h): a live source never waits on the
// reader; the reader always gets the newest frame, and what it missed is counted as dropped.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "companion/referee/latest_frame.h"

namespace hexdice::referee {
namespace {

// A camera that delivers `n` frames `gap_ms` apart, whatever the reader does.
class FakeCamera : public FrameSource {
 public:
  FakeCamera(int n, int gap_ms) : n_(n), gap_ms_(gap_ms) {}
  bool live() const override { return true; }
  bool next(Frame& f) override {
    if (i_ >= n_) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms_));
    f.index = i_++;
    f.image = cv::Mat(4, 4, CV_8UC3, cv::Scalar::all(f.index));
    return true;
  }

 private:
  int n_, gap_ms_, i_ = 0;
};

TEST(LatestFrame, SlowReaderGetsTheNewestFramesAndTheRestAreDropped) {
  FakeCamera cam(40, 2);
  LatestFrameGrabber g(cam);
  std::vector<int> read;
  Frame f;
  while (g.next(f)) {
    read.push_back(f.index);
    EXPECT_EQ(f.image.at<cv::Vec3b>(0, 0)[0], f.index);  // the frame's own picture
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // a reader slower than the camera
  }
  ASSERT_FALSE(read.empty());
  for (std::size_t i = 1; i < read.size(); ++i) EXPECT_LT(read[i - 1], read[i]) << "frames out of order";
  EXPECT_EQ(read.back(), 39) << "the last frame delivered is the last one read";
  EXPECT_EQ(g.grabbed(), 40);
  EXPECT_EQ(g.dropped() + static_cast<int>(read.size()), 40);
  EXPECT_GT(g.dropped(), 0);
}

TEST(LatestFrame, FastReaderDropsNothing) {
  FakeCamera cam(20, 40);
  LatestFrameGrabber g(cam);
  int n = 0;
  Frame f;
  while (g.next(f)) EXPECT_EQ(f.index, n++);
  EXPECT_EQ(n, 20);
  EXPECT_EQ(g.dropped(), 0);
}

}  // namespace
}  // namespace hexdice::referee
