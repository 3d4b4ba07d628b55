// The face network (vision/dice_cnn.h): its gradients against finite differences, that
// it learns rendered pip faces, a save/load round trip, and the shipped network on a
// fixed handful of real photo boxes (skipped where the shared data is absent).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include <unistd.h>

#include <opencv2/imgproc.hpp>

#include "tests/vision/face_synth.h"
#include "vision/dice_cnn.h"
#include "vision/dice_train.h"
#include "vision/reader_io.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;

constexpr CnnArch kTiny{4, 6, 6, 10, 7};
constexpr CnnArch kTiny40{4, 6, 6, 10, 7, 40};  // a 40 px patch: odd 5x5 maps before the dense layer

std::vector<float> random_input(unsigned seed, int patch = kCnnPatch) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.5f, 1.5f);
  std::vector<float> x(static_cast<std::size_t>(3 * patch * patch));
  for (float& v : x) v = u(g);
  return x;
}

// d loss / d p by central differences against the analytic gradient, for parameters
// spread over every layer (weights and biases). ReLU and max-pool kinks can make a
// rare difference wrong, so most (not all) must agree within 2%.
TEST(DiceCnn, GradientsMatchFiniteDifferences) {
  for (const CnnArch& arch : {kTiny, kTiny40}) {
  SCOPED_TRACE("patch " + std::to_string(arch.patch));
  DiceCnn net(arch, 7);
  // Non-zero biases so ReLUs are not all at their kink for zero-mean input.
  std::mt19937 g(3);
  std::uniform_real_distribution<float> u(-0.05f, 0.05f);
  for (float& v : net.params()) v += u(g);
  const auto x = random_input(11, arch.patch);
  const int cls = 4;
  std::vector<float> grad(net.num_params(), 0.0f);
  net.loss_and_grad(x.data(), cls, grad);
  auto loss = [&]() {
    std::array<float, 7> pr{};
    net.forward(x.data(), pr.data());
    return -std::log(static_cast<double>(pr[cls]));
  };
  const std::size_t n = net.num_params();
  int checked = 0, agree = 0;
  for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 120)) {
    const float keep = net.params()[i];
    const float h = 2e-3f;
    net.params()[i] = keep + h;
    const double lp = loss();
    net.params()[i] = keep - h;
    const double lm = loss();
    net.params()[i] = keep;
    const double num = (lp - lm) / (2.0 * h);
    const double ana = grad[i];
    ++checked;
    if (std::abs(num - ana) <= 0.02 * std::max(std::abs(num), std::abs(ana)) + 2e-4) ++agree;
  }
  EXPECT_GE(checked, 100);
  EXPECT_GE(agree, checked * 95 / 100) << agree << " of " << checked << " gradients agree";
  // And the gradient is not trivially zero.
  double norm = 0;
  for (float v : grad) norm += static_cast<double>(v) * v;
  EXPECT_GT(norm, 1e-6);
  }
}

cv::Mat synth_patch(int face, std::mt19937& g) {
  static const char* colours[] = {"red", "blue", "green", "yellow", "white", "black"};
  std::uniform_real_distribution<double> u(0, 1);
  testing::SynthFace s;
  s.face = face;
  s.colour = colours[g() % 6];
  s.face_px = 22 + 10 * u(g);
  s.angle_deg = 360 * u(g);
  s.off_x = 0.08 * (u(g) - 0.5);
  s.off_y = 0.08 * (u(g) - 0.5);
  s.noise = 3;
  s.shade = 0.7 + 0.3 * u(g);
  const cv::Mat crop = testing::synth_face_crop(s, &g);
  // The crop frames the face; the network's patch frames the face times kCnnPad.
  return cnn_patch(crop, cv::Point2f(24, 24), 48.0f / 1.05f);
}

// A tiny network trained here on rendered faces of the six colours reads held-out ones.
TEST(DiceCnn, LearnsRenderedFaces) {
  std::mt19937 g(5);
  std::vector<cv::Mat> train, test;
  std::vector<int> train_face, test_face;
  for (int i = 0; i < 240; ++i) {
    train_face.push_back(1 + i % 6);
    train.push_back(synth_patch(train_face.back(), g));
  }
  for (int i = 0; i < 120; ++i) {
    test_face.push_back(1 + i % 6);
    test.push_back(synth_patch(test_face.back(), g));
  }
  DiceCnn net(CnnArch{6, 8, 8, 16, 7}, 1);
  CnnAdam adam;
  std::vector<float> grad(net.num_params()), in(static_cast<std::size_t>(3 * kCnnPatch * kCnnPatch));
  std::vector<std::size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  for (int epoch = 0; epoch < 10; ++epoch) {
    std::shuffle(order.begin(), order.end(), g);
    for (std::size_t at = 0; at < order.size(); at += 16) {
      std::fill(grad.begin(), grad.end(), 0.0f);
      const std::size_t end = std::min(order.size(), at + 16);
      for (std::size_t k = at; k < end; ++k) {
        DiceCnn::normalise(train[order[k]], in.data());
        net.loss_and_grad(in.data(), train_face[order[k]], grad);
      }
      adam.update(net, grad, 1.0f / static_cast<float>(end - at), 0.004, 0.0);
    }
  }
  int ok = 0;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const auto s = net.scores_of_patch(test[i]);
    ok += static_cast<int>(std::max_element(s.begin() + 1, s.end()) - s.begin()) == test_face[i];
  }
  std::printf("rendered faces read right: %d of %zu\n", ok, test.size());
  EXPECT_GE(ok, 96);  // measured 104 of 120; chance is 20
}

TEST(DiceCnn, SaveLoadRoundTrip) {
  DiceCnn net(kTiny, 9);
  const fs::path path = fs::temp_directory_path() / ("dice_cnn_" + std::to_string(::getpid()) + ".yml.gz");
  ASSERT_TRUE(net.save(path.string()).ok());
  auto back = DiceCnn::load(path.string());
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ((*back)->arch(), kTiny);
  std::mt19937 g(2);
  for (int face = 1; face <= 6; ++face) {
    const cv::Mat p = synth_patch(face, g);
    const cv::Mat keep = p.clone();
    EXPECT_EQ(net.scores_of_patch(p, 8), (*back)->scores_of_patch(p, 8));
    EXPECT_EQ(cv::norm(p, keep, cv::NORM_INF), 0.0);  // the views do not touch the caller's patch
  }
  // A corrupt file is an error, not a crash.
  const fs::path bad = fs::temp_directory_path() / ("dice_cnn_bad_" + std::to_string(::getpid()) + ".yml");
  {
    std::ofstream(bad) << "%YAML:1.0\nformat: hexdice_dice_cnn_1\npatch: 32\nc1: 4\nc2: 6\nc3: 6\nhidden: 10\nclasses: 7\n";
  }
  EXPECT_FALSE(DiceCnn::load(bad.string()).ok());
  // Another patch side is saved and loaded with the network; it cuts its own patch.
  DiceCnn net40(kTiny40, 9);
  const fs::path path40 = fs::temp_directory_path() / ("dice_cnn40_" + std::to_string(::getpid()) + ".yml.gz");
  ASSERT_TRUE(net40.save(path40.string()).ok());
  auto back40 = DiceCnn::load(path40.string());
  ASSERT_TRUE(back40.ok()) << back40.error();
  EXPECT_EQ((*back40)->arch(), kTiny40);
  cv::Mat img(120, 120, CV_8UC3, cv::Scalar(40, 90, 200));
  cv::circle(img, cv::Point(52, 64), 6, cv::Scalar(235, 235, 235), cv::FILLED);
  EXPECT_EQ(net40.scores(img, cv::Point2f(60, 60), 40), (*back40)->scores(img, cv::Point2f(60, 60), 40));
  // Float16 weights: smaller, the same network to the rounding.
  const fs::path half = fs::temp_directory_path() / ("dice_cnn40h_" + std::to_string(::getpid()) + ".yml.gz");
  ASSERT_TRUE(net40.save(half.string(), true).ok());
  auto back_half = DiceCnn::load(half.string());
  ASSERT_TRUE(back_half.ok()) << back_half.error();
  const auto s32 = net40.scores(img, cv::Point2f(60, 60), 40), s16 = (*back_half)->scores(img, cv::Point2f(60, 60), 40);
  EXPECT_NE((*back_half)->params(), net40.params());  // rounded
  for (int c = 0; c < 7; ++c) EXPECT_NEAR(s16[static_cast<std::size_t>(c)], s32[static_cast<std::size_t>(c)], 2e-3) << c;
  EXPECT_LT(fs::file_size(half), fs::file_size(path40));
  fs::remove(half);
  fs::remove(path40);
  fs::remove(path);
  fs::remove(bad);
}

// "A,B,C" loads an ensemble: its scores are the mean of its networks' (each cutting its own
// patch side), and a list of one file is that network.
TEST(DiceCnn, EnsembleAveragesItsNetworks) {
  const std::string tag = std::to_string(::getpid());
  const fs::path a = fs::temp_directory_path() / ("dice_cnn_ea_" + tag + ".yml.gz");
  const fs::path b = fs::temp_directory_path() / ("dice_cnn_eb_" + tag + ".yml.gz");
  const fs::path c = fs::temp_directory_path() / ("dice_cnn_ec_" + tag + ".yml.gz");
  DiceCnn na(kTiny, 3), nb(kTiny40, 4), nc(kTiny, 5);
  ASSERT_TRUE(na.save(a.string()).ok());
  ASSERT_TRUE(nb.save(b.string()).ok());
  ASSERT_TRUE(nc.save(c.string()).ok());
  auto ens = DiceCnn::load(a.string() + "," + b.string() + "," + c.string());
  ASSERT_TRUE(ens.ok()) << ens.error();
  EXPECT_EQ((*ens)->members().size(), 2u);
  cv::Mat img(120, 120, CV_8UC3, cv::Scalar(40, 90, 200));
  cv::circle(img, cv::Point(52, 64), 6, cv::Scalar(235, 235, 235), cv::FILLED);
  const cv::Point2f at(60, 60);
  const auto sa = na.scores(img, at, 40), sb = nb.scores(img, at, 40), sc = nc.scores(img, at, 40);
  const auto se = (*ens)->scores(img, at, 40);
  double diff = 0;
  for (std::size_t k = 0; k < 7; ++k) {
    EXPECT_NEAR(se[k], (sa[k] + sb[k] + sc[k]) / 3.0f, 1e-6) << k;
    diff += std::abs(se[k] - sa[k]);
  }
  EXPECT_GT(diff, 1e-4);  // not just the first network
  EXPECT_FALSE(DiceCnn::load(a.string() + ",/nonexistent/net.yml.gz").ok());
  // Saved as one file (float16) and loaded back: the same ensemble to the rounding.
  const fs::path e = fs::temp_directory_path() / ("dice_cnn_ee_" + tag + ".yml.gz");
  ASSERT_TRUE((*ens)->save(e.string(), true).ok());
  auto back = DiceCnn::load(e.string());
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ((*back)->members().size(), 2u);
  EXPECT_EQ((*back)->members()[0]->arch(), kTiny40);
  const auto sback = (*back)->scores(img, at, 40);
  for (std::size_t k = 0; k < 7; ++k) EXPECT_NEAR(sback[k], se[k], 2e-3) << k;
  fs::remove(e);
  fs::remove(a);
  fs::remove(b);
  fs::remove(c);
}

fs::path real_dir() { return fs::path(HEXDICE_SHARED_DIR) / "data/real-dice"; }

// A regression floor on the shipped network (trained on three quarters of the even split:
// these odd boxes, the first 62, all byler, are held out; docs/dice.md rounds 11, 14).
// dice-train --cnn --source-weight (DiceCnnTrainArgs::source_weight): off, every source's
// die is seen `copies` (x hard_weight) times an epoch; "byler=3", a byler die 3x as often,
// the other sources and the negatives as before; malformed lists are errors.
TEST(DiceCnn, SourceWeightRepeatsThatSourcesDice) {
  DiceCnnTrainArgs a;
  a.copies = 2;
  a.hard_weight = 2;
  auto rep = [&](const std::string& src, int cls, bool hard) {
    auto r = cnn_sample_repeats(a, src, cls, hard);
    EXPECT_TRUE(r.ok()) << r.error();
    return r.ok() ? *r : -1;
  };
  // Off.
  EXPECT_EQ(rep("byler", 4, false), 2);
  EXPECT_EQ(rep("penlington", 4, false), 2);
  EXPECT_EQ(rep("byler", 4, true), 4);
  EXPECT_EQ(rep("byler", 0, false), 1);
  const int off = rep("byler", 4, false);
  // On.
  a.source_weight = "byler=3";
  EXPECT_EQ(rep("byler", 4, false), 6);
  EXPECT_NE(rep("byler", 4, false), off);
  EXPECT_EQ(rep("byler", 4, true), 12);
  EXPECT_EQ(rep("penlington", 4, false), 2);
  EXPECT_EQ(rep("byler", 0, false), 1);  // negatives stay once
  a.source_weight = "penlington=2,byler=3";
  EXPECT_EQ(rep("penlington", 1, false), 4);
  EXPECT_EQ(rep("byler", 1, false), 6);
  for (const char* bad : {"byler", "byler=0", "=2", "byler=x", "byler=2x", "byler=2,"}) {
    a.source_weight = bad;
    EXPECT_FALSE(cnn_sample_repeats(a, "byler", 1, false).ok()) << bad;
  }
}

TEST(DiceCnn, ShippedNetworkOnRealBoxes) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  auto net = DiceCnn::load((fs::path(HEXDICE_SOURCE_DIR) / "data/dice_cnn.yml.gz").string());
  ASSERT_TRUE(net.ok()) << net.error();
  auto images = load_real_images(real_dir().string(), "odd");
  ASSERT_TRUE(images.ok()) << images.error();
  int n = 0, ok = 0;
  for (const auto& im : *images) {
    if (n >= 60) break;
    auto img = load_image(im.path);
    ASSERT_TRUE(img.ok()) << img.error();
    for (const auto& l : im.labels) {
      const cv::Point2f c(static_cast<float>(l.box.x + l.box.width / 2.0), static_cast<float>(l.box.y + l.box.height / 2.0));
      const float side = static_cast<float>(std::max(l.box.width, l.box.height)) * (l.top_face ? kCnnTopFaceScale : 1.0f);
      const auto s = (*net)->scores(*img, c, side);
      ok += static_cast<int>(std::max_element(s.begin() + 1, s.end()) - s.begin()) == l.face;
      ++n;
    }
  }
  std::printf("real boxes read right: %d of %d\n", ok, n);
  EXPECT_GE(n, 60);
  // Measured 46 of 62 (round 14's network, 40 px; round 11's: 42). The shipped network
  // is trained on the even split's fit part only, so these are held out.
  EXPECT_GE(ok, 40);
}

}  // namespace
}  // namespace hexdice::vision
