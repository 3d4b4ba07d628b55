// The sheet-free dice finder on a subset of the real labelled photos (shared data; the
// tests are skipped where that folder is absent), with the shipped model
// (data/dice_model.yml.gz, trained on all dev images). Floors sit a little
// below the measured figures (docs/dice.md) so a regression fails. Bad input: corrupt,
// truncated and empty images and a corrupt model give a clear error, no crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <span>

#include <unistd.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/dice.h"
#include "vision/dice_classifier.h"
#include "vision/dice_train.h"
#include "vision/reader_eval.h"
#include "vision/reader_io.h"

namespace hexdice::vision {
namespace {

namespace fs = std::filesystem;

fs::path real_dir() { return fs::path(HEXDICE_SHARED_DIR) / "data/real-dice"; }
std::string shipped_model() { return (fs::path(HEXDICE_SOURCE_DIR) / "data/dice_model.yml.gz").string(); }

TEST(DiceReal, ShippedModelLoads) {
  auto m = DiceClassifier::load(shipped_model());
  ASSERT_TRUE(m.ok()) << m.error();
}

// A regression floor, not a held-out figure: the shipped model has seen these images
// (held-out figures, even-trained model scored on odd: docs/dice.md). Measured on the
// first 30 odd images (all byler), round 8: recall 94.2%, precision 96.7%, face 82.1%;
// round 6: recall 92.9%, precision 95.3%, face 78.0%
// (round 5: 89.0%, 94.8%, 79.3%); round 4: recall 74.4%, precision 95.4%, face 78.3%
// (round 3: 77.7%, 94.9%, 72.5%; the face is the lattice pip count where a layout fits;
// the forest alone read 81.3% of these images it was trained on, 47% of held-out byler
// dice).
TEST(DiceReal, ShippedModelOnRealPhotos) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  DiceParams p;
  p.model_path = shipped_model();
  p.use_model = true;
  auto s = eval_real(real_dir().string(), "odd", 30, p, nullptr);
  ASSERT_TRUE(s.ok()) << s.error();
  std::printf("images %d labels %d detections %d matched %d face_ok %d\n", s->images, s->labels, s->detections,
              s->matched, s->face_ok);
  EXPECT_EQ(s->images, 30);
  EXPECT_GE(s->face_accuracy(), 0.75);
  EXPECT_GE(s->recall(), 0.86);
  EXPECT_GE(s->precision(), 0.92);
}

// Penlington's webcam photos show keyboard keys, laptop labels and the dice's side faces,
// which the forest let through with one or two trees' votes over not-a-die; a die now
// needs three trees more (DiceParams::min_margin 0.0625). Here the first 40 odd penlington
// photos (a CSV of their rows beside a link to the images) with the shipped model: fewer
// detections, at most one die fewer matched (measured: 160 -> 148 detections, 105 -> 104 of
// 105 dice matched; the shipped model has seen these photos, held-out figures: docs/dice.md).
// A labels.csv in a fresh temporary directory (images/ linked to the real photos) with the
// labels of the images of `split` that `take` accepts (called in order, once an image);
// the directory, for eval_real on just those photos. The caller removes it.
template <class Take>
fs::path subset_dir(const std::string& split, const std::string& tag, Take take) {
  auto images = load_real_images(real_dir().string(), split);
  EXPECT_TRUE(images.ok()) << images.error();
  const fs::path dir = fs::temp_directory_path() / ("hexdice_" + tag + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::create_symlink(real_dir() / "images", dir / "images");
  std::ofstream csv(dir / "labels.csv");
  csv << "image,x_min,y_min,x_max,y_max,face,color,box_kind\n";
  if (images.ok())
    for (const auto& im : *images) {
      if (!take(im)) continue;
      for (const auto& l : im.labels)
        csv << im.name << ',' << l.box.x << ',' << l.box.y << ',' << l.box.br().x << ',' << l.box.br().y << ',' << l.face << ','
            << (im.source == "penlington" ? "white" : "") << ',' << (l.top_face ? "top_face" : "die") << '\n';
    }
  return dir;
}

// eval_real on the even photos of `names` (a subset_dir tagged `tag`) with the shipped
// model and `p`.
Result<RealScore> score_even_photos(const std::set<std::string>& names, const std::string& tag, DiceParams p) {
  p.model_path = shipped_model();
  p.use_model = true;
  const fs::path dir = subset_dir("even", tag, [&](const RealImage& im) { return names.count(im.name) > 0; });
  auto r = eval_real((dir / "labels.csv").string(), "all", 0, p, nullptr);
  fs::remove_all(dir);
  return r;
}

// A rule's run `a` against the run without it `b` (score_even_photos): printed as `rule`,
// on `images` photos, at least `fewer` detections fewer, the same dice matched and read right.
void expect_fewer_same_dice(const std::string& rule, const Result<RealScore>& a, const Result<RealScore>& b, int images, int fewer) {
  ASSERT_TRUE(a.ok() && b.ok());
  std::printf("%s: %d detections, %d matched, %d right; off: %d, %d, %d (of %d dice)\n", rule.c_str(), a->detections, a->matched,
              a->face_ok, b->detections, b->matched, b->face_ok, a->labels);
  EXPECT_EQ(a->images, images);
  EXPECT_LE(a->detections, b->detections - fewer);
  EXPECT_EQ(a->matched, b->matched);
  EXPECT_EQ(a->face_ok, b->face_ok);
}

// Prints a rule's run `a` (at `value`) against the run without it `b` (score_even_photos).
void print_on_off(const char* rule, double value, const Result<RealScore>& a, const Result<RealScore>& b) {
  std::printf("%s %.2f: %d detections, %d matched, %d right; off: %d, %d, %d (of %d dice)\n", rule, value, a->detections, a->matched,
              a->face_ok, b->detections, b->matched, b->face_ok, a->labels);
}

TEST(DiceReal, FewVotesAreNoDie) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  int n = 0;
  const fs::path dir = subset_dir("odd", "pen", [&](const RealImage& im) { return im.source == "penlington" && n++ < 40; });
  DiceParams with, without;
  with.model_path = without.model_path = shipped_model();
  with.use_model = without.use_model = true;
  without.min_margin = 0;
  auto a = eval_real((dir / "labels.csv").string(), "all", 0, with, nullptr);
  auto b = eval_real((dir / "labels.csv").string(), "all", 0, without, nullptr);
  fs::remove_all(dir);
  ASSERT_TRUE(a.ok() && b.ok());
  std::printf("min_margin 0.0625: %d detections, %d matched; 0: %d, %d (of %d dice)\n", a->detections, a->matched, b->detections,
              b->matched, a->labels);
  EXPECT_EQ(a->images, 40);
  EXPECT_LT(a->detections, b->detections);
  EXPECT_GE(a->matched, b->matched - 1);
}

// docs/dice.md real round 29 (DiceParams::cnn_max_not_die 0.8, was 0.98): the finder's
// false detections the network calls not a die with 0.8..0.98 (a speck on byler's floor, the
// tray's corner; penlington's side faces of the labelled dice, a cable's ferrite) are
// dropped, and no labelled die read right is lost. Eight even photos where the even
// forest's run dropped such detections, scored with the shipped model at both thresholds.
TEST(DiceReal, DetectionsTheNetworkDoubtsAreNoDice) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"byler_IMG_20191208_112020.jpg", "byler_IMG_20191208_113004.jpg",
                                       "byler_IMG_20191208_111642.jpg", "penlington_train_five_24.jpg",
                                       "penlington_train_three_43.jpg", "penlington_train_two_41.jpg",
                                       "penlington_train_six_20.jpg", "penlington_train_two_48.jpg"};
  const fs::path dir = subset_dir("even", "notdie", [&](const RealImage& im) { return names.count(im.name) > 0; });
  DiceParams now, before;
  now.model_path = before.model_path = shipped_model();
  now.use_model = before.use_model = true;
  now.cnn_max_not_die = 0.8;
  before.cnn_max_not_die = 0.98;
  // ... with the body re-read's gate at each threshold, as when the two were one parameter
  // (real round 43 split it off as body_reread_max_not_die)
  now.body_reread_max_not_die = 0.8;
  before.body_reread_max_not_die = 0.98;
  // the gate alone, as measured in real round 29 (real round 31's final side-face pass drops
  // some of the same side faces at either threshold)
  now.final_side_face_radius = before.final_side_face_radius = 0;
  // ... and without real round 37's and 38's speck drops (min_body_share,
  // min_body_die_share), which take the speck on byler's floor at either threshold
  now.min_body_share = before.min_body_share = 0;
  now.min_body_die_share = before.min_body_die_share = 0;
  auto a = eval_real((dir / "labels.csv").string(), "all", 0, now, nullptr);
  auto b = eval_real((dir / "labels.csv").string(), "all", 0, before, nullptr);
  fs::remove_all(dir);
  ASSERT_TRUE(a.ok() && b.ok());
  std::printf("cnn_max_not_die 0.8: %d detections, %d matched, %d right; 0.98: %d, %d, %d (of %d dice)\n", a->detections,
              a->matched, a->face_ok, b->detections, b->matched, b->face_ok, a->labels);
  EXPECT_EQ(a->images, 8);
  EXPECT_LE(a->detections, b->detections - 4);
  // No die read right is lost. (The shipped forest, trained on these photos too, keeps one
  // matched detection the gate now drops, a die it read wrong: 55 -> 54 matched, 51 = 51 right.)
  EXPECT_EQ(a->face_ok, b->face_ok);
  EXPECT_GE(a->matched, b->matched - 1);
}

// docs/dice.md real round 43 (DiceParams::cnn_max_not_die 0.6, was 0.8; the body re-read's
// gate, body_reread_max_not_die, stays 0.8): penlington's keyboard keys, laptop labels, cables
// and side faces the network calls not a die with 0.6..0.8 are dropped, and no labelled die
// is lost or read otherwise. Five even photos where the even forest's run dropped such
// detections, scored with the shipped model at both thresholds (measured: 21 -> 14
// detections, 11 = 11 matched and right, of 12 dice).
TEST(DiceReal, DetectionsTheNetworkDoubtsLessAreNoDiceEither) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"penlington_train_dice_31.jpg", "penlington_train_five_15.jpg",
                                       "penlington_train_four_18.jpg", "penlington_train_six_7.jpg",
                                       "penlington_train_three_30.jpg"};
  DiceParams before;
  before.cnn_max_not_die = 0.8;
  ASSERT_EQ(DiceParams{}.body_reread_max_not_die, before.cnn_max_not_die);  // the re-read's gate is where it was
  const auto a = score_even_photos(names, "notdie06", DiceParams{}), b = score_even_photos(names, "notdie08", before);
  expect_fewer_same_dice("cnn_max_not_die 0.6", a, b, 5, 7);
}

// ... and the body re-read keeps its gate (DiceParams::body_reread_max_not_die 0.8): byler
// 100300's purple 1, whose own square the network calls not a die with 0.6..0.8, is read
// again on its body, where the network is sure of it. With the gate tied to the lower drop
// (0.6, as the one threshold was) it is not re-read and is lost (measured with the shipped
// model: 6 of 6 dice found and read right; tied, 5).
TEST(DiceReal, ADieTheNetworkDoubtsOnItsSquareIsStillReadOnItsBody) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"byler_IMG_20191209_100300.jpg"};
  DiceParams tied;
  tied.body_reread_max_not_die = tied.cnn_max_not_die;
  ASSERT_LT(tied.cnn_max_not_die, DiceParams{}.body_reread_max_not_die);
  const auto a = score_even_photos(names, "gate08", DiceParams{}), b = score_even_photos(names, "gate06", tied);
  ASSERT_TRUE(a.ok() && b.ok());
  std::printf("body_reread_max_not_die %.2f: %d detections, %d matched, %d right; tied to cnn_max_not_die: %d, %d, %d (of %d dice)\n",
              DiceParams{}.body_reread_max_not_die, a->detections, a->matched, a->face_ok, b->detections, b->matched, b->face_ok,
              a->labels);
  EXPECT_EQ(a->labels, 6);
  EXPECT_EQ(a->face_ok, 6);
  EXPECT_EQ(b->face_ok, 5);
  EXPECT_EQ(a->detections, 6);
}

// docs/dice.md real round 31 (DiceParams::final_side_face_radius 1.05): a penlington die seen
// at an angle shows its top face and a side face beside it. one_face_per_cube measures
// "beside" in the photo's median face of every read candidate, and a webcam photo's clutter
// (keyboard legends, labels, lone-pip reads: small faces the network drops later) pulls that
// median under the dice's faces, so side faces 0.8..1.05 dice from their top face stayed
// detections. The same rule again among the dice the output reports (after the network's
// not-a-die drop) drops them (the even forest's run: 24 false detections of 1146 on even).
// Nine of those even photos, scored with the shipped model (trained on these photos too, it
// rejects most of the side faces itself) with the rule and without (0): fewer detections,
// the same dice matched and read right (measured: 32 -> 29 detections, 26 = 26 matched and
// right).
TEST(DiceReal, SideFaceBesideItsTopFaceIsNoSecondDie) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"penlington_train_four_34.jpg", "penlington_train_six_16.jpg",
                                       "penlington_train_six_19.jpg",  "penlington_train_three_12.jpg",
                                       "penlington_train_three_23.jpg", "penlington_valid_valid_34.jpg",
                                       "penlington_valid_valid_76.jpg", "penlington_train_two_36.jpg",
                                       "penlington_train_three_14.jpg"};
  auto score = [&](const DiceParams& p) { return score_even_photos(names, "sideface", p); };
  DiceParams off;
  off.final_side_face_radius = 0;
  const auto a = score(DiceParams{}), b = score(off);
  expect_fewer_same_dice("final_side_face_radius 1.05", a, b, 9, 3);
}

// docs/dice.md real round 42 (DiceParams::upper_face_pip): penlington six_7's 6 and, 39 px
// below it, its side face towards the camera read "1" (pips 0.67 of the 6's, but responding a
// little more strongly). one_face_per_cube kept the stronger pips, so the 6 was lost and the
// side face reported. The upper face is the top when the lower one's pips are under 0.8 x
// its. With the shipped model (its first pass drops the 6): off, the 6 missed and a false
// detection; on, the 6 found and read 6, one detection fewer.
TEST(DiceReal, TheSideFaceBelowADieDoesNotTakeItsPlace) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"penlington_train_six_7.jpg"};
  DiceParams off;
  off.upper_face_pip = 0;
  const auto a = score_even_photos(names, "upper_face", DiceParams{}), b = score_even_photos(names, "upper_face_off", off);
  ASSERT_TRUE(a.ok() && b.ok());
  print_on_off("upper_face_pip", DiceParams{}.upper_face_pip, a, b);
  EXPECT_EQ(a->labels, 1);
  EXPECT_EQ(a->matched, 1);
  EXPECT_EQ(a->face_ok, 1);
  EXPECT_EQ(b->face_ok, 0);
  EXPECT_LE(a->detections, b->detections);
}

// docs/dice.md real round 46 (DiceParams::min_read_face): byler 111847's red 1 read "2" from
// two white glints beside its pip (the square's face a third of the die, the lone pip 1.8 x
// the glints); the finder moved the die onto that small "face", where the network saw no 1.
// The photo with the shipped model, with the rule and without (0): the same dice matched,
// the 1 read right.
TEST(DiceReal, GlintsBesideALonePipAreNoFace) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"byler_IMG_20191208_111847.jpg"};
  DiceParams off;
  off.min_read_face = 0;
  const auto a = score_even_photos(names, "min_read_face", DiceParams{}), b = score_even_photos(names, "min_read_face_off", off);
  ASSERT_TRUE(a.ok() && b.ok());
  print_on_off("min_read_face", DiceParams{}.min_read_face, a, b);
  EXPECT_EQ(a->matched, b->matched);
  EXPECT_EQ(a->face_ok, b->face_ok + 1);
  EXPECT_LE(a->detections, b->detections);
}

// docs/dice.md real round 37 (DiceParams::min_body_share): byler's table has specks of dirt
// that the finder read as a white 1 or 2 in photo after photo (the speck its pip), at the
// same places (about 110,335 and 180,430). Their boxes are the plain table round one dark
// dot: almost no foreground, where a die's body fills its box. Four even photos with such a
// speck, scored with the shipped model with the rule and without (0): each speck gone, the
// same dice matched and read right (measured: 52 -> 48 detections, 48 = 48 matched, 45 = 45
// right, of 52 dice).
TEST(DiceReal, ASpeckOnThePlainTableIsNoDie) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"byler_IMG_20191208_112116.jpg", "byler_IMG_20191208_111228.jpg",
                                       "byler_IMG_20191208_112251.jpg", "byler_IMG_20191208_111339.jpg"};
  auto score = [&](const DiceParams& p) { return score_even_photos(names, "speck", p); };
  // the rule alone: real round 38's min_body_die_share, which also takes a speck in a box a
  // little smaller than the photo's median die, off in both runs
  DiceParams on;
  on.min_body_die_share = 0;
  // ... and real43's not-a-die drop at 0.6, which takes two of the specks too: at 0.8, as
  // measured (with it: 48 against 50)
  on.cnn_max_not_die = 0.8;
  DiceParams off = on;
  off.min_body_share = 0;
  const auto a = score(on), b = score(off);
  expect_fewer_same_dice("min_body_share " + std::to_string(DiceParams{}.min_body_share), a, b, 4, 4);
}

// docs/dice.md real round 38 (DiceParams::min_body_die_share): the same specks seen in a box
// of 10-14 px (112239, 112300) have 6-9% foreground, over min_body_share; against the area of
// the photo's median die their dot is 1-2%. The two even photos with the shipped model, with
// the rule and without (0): the specks gone, the same dice matched and read right.
TEST(DiceReal, ASpeckInASmallBoxIsNoDie) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"byler_IMG_20191208_112239.jpg", "byler_IMG_20191208_112300.jpg"};
  auto score = [&](const DiceParams& p) { return score_even_photos(names, "small_speck", p); };
  DiceParams off;
  off.min_body_die_share = 0;
  const auto a = score(DiceParams{}), b = score(off);
  expect_fewer_same_dice("min_body_die_share " + std::to_string(DiceParams{}.min_body_die_share), a, b, 2, 2);
}

// Dice touching in a cluster: a wide candidate (a blob of several dice, or the largest of a
// place's three sizes) that the forest accepts used to suppress every die within 0.6 of its
// side before any was read (the first suppression scaled by the larger side), and stayed
// that wide when it read one face of the cluster. Now the first suppression is scaled by
// the smaller side, a read candidate much wider than its face (DiceParams::
// max_side_over_face) becomes that face, and one wider than 2.2 x the photo's median face
// (max_side_over_median) is dropped. Byler photos of the even split where this was
// seen (crops in docs/dice.md, round 10), shipped model: a labelled die is found when a
// detection's centre lies in its box and the detection is at most twice its side; no
// detection is wider than 2.5 x the median labelled die.
TEST(DiceReal, AWideCandidateDoesNotSwallowTheClusterItLiesOn) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  auto all = load_real_images(real_dir().string(), "even");
  ASSERT_TRUE(all.ok()) << all.error();
  const std::set<std::string> names{"byler_IMG_20191208_111642.jpg", "byler_IMG_20191208_112353.jpg",
                                    "byler_IMG_20191208_112419.jpg", "byler_IMG_20191208_112447.jpg",
                                    "byler_IMG_20191209_095508.jpg", "byler_IMG_20191209_095609.jpg",
                                    "byler_IMG_20191209_095849.jpg", "byler_IMG_20191209_100051.jpg",
                                    "byler_IMG_20191209_100112.jpg"};
  DiceParams now, before;
  now.model_path = before.model_path = shipped_model();
  now.use_model = before.use_model = true;
  before.pre_nms_smaller = false;
  before.max_side_over_face = 0;
  before.max_side_over_median = 0;
  // real28's gap margin (-0.3) finds in the "before" run the cluster dice these rules recover
  // (81 = 81): both runs at the main path's margin, this test is the wide-candidate rules'.
  now.gap_min_margin = before.gap_min_margin = 0.0625;
  int images = 0, labels = 0, found_now = 0, found_before = 0, wide_now = 0, wide_before = 0;
  for (const auto& im : *all) {
    if (!names.count(im.name)) continue;
    ++images;
    const cv::Mat img = cv::imread(im.path);
    ASSERT_FALSE(img.empty()) << im.path;
    std::vector<int> sides;
    for (const auto& l : im.labels) sides.push_back(std::max(l.box.width, l.box.height));
    std::nth_element(sides.begin(), sides.begin() + static_cast<long>(sides.size() / 2), sides.end());
    const int median = sides[sides.size() / 2];
    labels += static_cast<int>(im.labels.size());
    for (const bool is_now : {true, false}) {
      const auto dets = find_dice(img, is_now ? now : before);
      int& found = is_now ? found_now : found_before;
      int& wide = is_now ? wide_now : wide_before;
      for (const auto& d : dets) wide += d.box.width > 2.5 * median;
      for (const auto& l : im.labels) {
        bool hit = false;
        for (const auto& d : dets) {
          const cv::Point c(d.box.x + d.box.width / 2, d.box.y + d.box.height / 2);
          hit = hit || (l.box.contains(c) && d.box.width <= 2 * std::max(l.box.width, l.box.height));
        }
        found += hit;
      }
    }
  }
  std::printf("%d images, %d dice: found %d (before %d), detections wider than 2.5 dice %d (before %d)\n", images, labels,
              found_now, found_before, wide_now, wide_before);
  EXPECT_EQ(images, static_cast<int>(names.size()));
  EXPECT_GT(found_now, found_before);
  EXPECT_LE(wide_now, wide_before);
  // With the median rule on, no detection is wider than 2.5 dice (measured 0 vs 4).
  DiceParams median = now;
  median.max_side_over_median = 2.2;
  int wide_median = 0;
  for (const auto& im : *all) {
    if (!names.count(im.name)) continue;
    int s = 0;
    for (const auto& l : im.labels) s = std::max(s, std::max(l.box.width, l.box.height));
    for (const auto& d : find_dice(cv::imread(im.path), median)) wide_median += d.box.width > 2.5 * s;
  }
  EXPECT_EQ(wide_median, 0);
}

// A dark die on a pale floor is a pip-like blob: a wide candidate round it read it as a
// "1", two or three dice in a row as a "2" or "3" (pips 20..34 px where the photo's dice
// have 3..7 px pips), and that box, several dice wide, read the wrong face and suppressed
// the dice under it (round 16: 9 of the 31 byler dice misread or missed on even-val).
// DiceParams::max_pip_over_median: a read whose pips are over 3x the photo's median pip is
// of dice, not of a die; the candidate is dropped and the next one of its place read. The
// byler photos of the even split where this was seen, shipped model: more labelled dice
// found (a detection's centre in the box, at most twice its side), and no detection wider
// than 2.5 x the photo's largest labelled die.
TEST(DiceReal, DiceInARowAreNoPips) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  auto all = load_real_images(real_dir().string(), "even");
  ASSERT_TRUE(all.ok()) << all.error();
  const std::set<std::string> names{"byler_IMG_20191208_111718.jpg", "byler_IMG_20191208_112419.jpg",
                                    "byler_IMG_20191209_095421.jpg", "byler_IMG_20191209_095849.jpg",
                                    "byler_IMG_20191209_100051.jpg", "byler_IMG_20191208_112447.jpg",
                                    "byler_IMG_20191209_095617.jpg", "byler_IMG_20191209_095859.jpg"};
  DiceParams now, before;
  now.model_path = before.model_path = shipped_model();
  now.use_model = before.use_model = true;
  before.max_pip_over_median = 0;
  int images = 0, labels = 0, found_now = 0, found_before = 0, wide_now = 0, wide_before = 0;
  for (const auto& im : *all) {
    if (!names.count(im.name)) continue;
    ++images;
    const cv::Mat img = cv::imread(im.path);
    ASSERT_FALSE(img.empty()) << im.path;
    int largest = 0;
    for (const auto& l : im.labels) largest = std::max(largest, std::max(l.box.width, l.box.height));
    labels += static_cast<int>(im.labels.size());
    for (const bool is_now : {true, false}) {
      const auto dets = find_dice(img, is_now ? now : before);
      int& found = is_now ? found_now : found_before;
      int& wide = is_now ? wide_now : wide_before;
      for (const auto& d : dets) wide += d.box.width > 2.5 * largest;
      for (const auto& l : im.labels) {
        bool hit = false;
        for (const auto& d : dets) {
          const cv::Point c(d.box.x + d.box.width / 2, d.box.y + d.box.height / 2);
          hit = hit || (l.box.contains(c) && d.box.width <= 2 * std::max(l.box.width, l.box.height));
        }
        found += hit;
      }
    }
  }
  std::printf("%d images, %d dice: found %d (before %d), detections wider than 2.5 dice %d (before %d)\n", images, labels,
              found_now, found_before, wide_now, wide_before);
  EXPECT_EQ(images, static_cast<int>(names.size()));
  EXPECT_GT(found_now, found_before);
  EXPECT_GT(wide_before, 0);
  EXPECT_EQ(wide_now, 0);
}

// Round 20 of docs/dice.md: 16 of the even split's 33 missed byler dice had no candidate
// centred on them at about their size, only pip groups and fragments a quarter to two
// thirds of the die wide and off its centre, which the forest rightly rejects.
// DiceParams::pip_face_candidates (round 21) reads each candidate place's neighbourhood with
// the lattice pip reader and proposes a die centred on the face it finds. Five of those
// dice (three 2s, one of them the green 2 of 112353, its red 3, a 6), labelled boxes: none
// has a centred, die-sized candidate without it (centre within 0.15 of the die's side, side
// 0.7..1.3 of it); each has a face-centred one (source 3) with it.
TEST(DiceReal, FaceCentredCandidatesOnDiceSeenOnlyAsPipFragments) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  struct Die {
    const char* image;
    cv::Rect box;
  };
  const Die dice[] = {{"byler_IMG_20191208_112251.jpg", {430, 325, 34, 33}},
                      {"byler_IMG_20191208_112332.jpg", {298, 251, 32, 29}},
                      {"byler_IMG_20191208_112353.jpg", {263, 364, 31, 35}},
                      {"byler_IMG_20191208_112353.jpg", {226, 345, 36, 31}},
                      {"byler_IMG_20191209_100714.jpg", {417, 229, 34, 30}}};
  DiceParams before, now;
  now.pip_face_candidates = true;
  int centred_before = 0, centred_now = 0, face_centred = 0;
  for (const auto& d : dice) {
    const cv::Mat img = cv::imread((real_dir() / "images" / d.image).string());
    ASSERT_FALSE(img.empty()) << d.image;
    double scale = 1;
    const cv::Mat work = dice_work_image(img, now, scale);
    const cv::Point2f c(static_cast<float>((d.box.x + d.box.width / 2.0) * scale),
                        static_cast<float>((d.box.y + d.box.height / 2.0) * scale));
    const float side = static_cast<float>(std::max(d.box.width, d.box.height) * scale);
    for (const bool is_now : {false, true}) {
      bool centred = false, from_face = false;
      for (const auto& k : dice_candidates(work, is_now ? now : before))
        if (cv::norm(k.centre - c) < 0.15f * side && k.side > 0.7f * side && k.side < 1.3f * side) {
          centred = true;
          from_face = from_face || k.source == 3;
        }
      (is_now ? centred_now : centred_before) += centred;
      if (is_now) face_centred += from_face;
    }
  }
  EXPECT_EQ(centred_before, 0);
  EXPECT_EQ(centred_now, 5);
  EXPECT_EQ(face_centred, 5);
}

// The face of the detection centred within half a die of labelled box b, 0 when none is.
int found_at(const std::vector<DieDetection>& ds, const cv::Rect& b) {
  const cv::Point2f c(b.x + b.width / 2.0f, b.y + b.height / 2.0f);
  for (const auto& d : ds)
    if (cv::norm(cv::Point2f(d.box.x + d.box.width / 2.0f, d.box.y + d.box.height / 2.0f) - c) <
        0.5f * static_cast<float>(std::max({b.width, b.height, d.box.width, d.box.height})))
      return d.face;
  return 0;
}

// A labelled die of a photo under images/.
struct LabelledDie {
  const char* image;
  cv::Rect box;
  int face;
};

// A re-read's A/B on each die's photo: `on` reads the labelled face at its box, `off` reads
// `off_face` there, and both find the same number of dice (the re-read adds and drops none).
void expect_read_again(std::span<const LabelledDie> dice, const DiceParams& on, const DiceParams& off, int off_face) {
  for (const auto& d : dice) {
    const cv::Mat img = cv::imread((real_dir() / "images" / d.image).string());
    ASSERT_FALSE(img.empty()) << d.image;
    const auto a = find_dice_checked(img, on), b = find_dice_checked(img, off);
    ASSERT_TRUE(a.ok() && b.ok()) << d.image;
    EXPECT_EQ(found_at(*a, d.box), d.face) << d.image;
    EXPECT_EQ(found_at(*b, d.box), off_face) << d.image;
    EXPECT_EQ(a->size(), b->size()) << d.image;
  }
}

// The finder run on each die's photo with `on` and with `off`: how many labelled dice `on`
// reads right, how many `off` finds at all, and how many of `off`'s detections `on` keeps
// (same box and face; only its main path's detections when main_path_only), with, per photo,
// how many detections `on` adds.
struct FoundAB {
  int right_on = 0, found_off = 0, kept = 0, n_off = 0;
  std::vector<long> added;  // per photo: on's detections minus off's
};
FoundAB find_ab(std::initializer_list<LabelledDie> dice, const DiceParams& on, const DiceParams& off, bool main_path_only) {
  FoundAB r;
  for (const auto& d : dice) {
    const cv::Mat img = cv::imread((real_dir() / "images" / d.image).string());
    EXPECT_FALSE(img.empty()) << d.image;
    const auto a = find_dice_checked(img, on), b = find_dice_checked(img, off);
    EXPECT_TRUE(a.ok() && b.ok()) << d.image;
    if (img.empty() || !a.ok() || !b.ok()) continue;
    r.right_on += found_at(*a, d.box) == d.face;
    r.found_off += found_at(*b, d.box) != 0;
    for (const auto& x : *b) {
      ++r.n_off;
      for (const auto& y : *a) r.kept += (!main_path_only || !y.from_gap) && y.box == x.box && y.face == x.face;
    }
    r.added.push_back(static_cast<long>(a->size()) - static_cast<long>(b->size()));
  }
  return r;
}

// Round 22 of docs/dice.md: DiceParams::gap_candidates. After the suppression, the places
// left without a die are read for pip layouts, and a face-centred square the forest accepts,
// of the photo's die and pip size, on no kept die and not beside one (a side face), that
// the network calls a die, is added. Three byler dice the finder misses without it (a 6 and
// two 2s, among round 21's dice seen only as pip fragments) are found with it and read right,
// and every detection of the main path is kept as it was.
TEST(DiceReal, GapCandidatesFindMissedDiceAndKeepTheOthers) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  DiceParams on, off;
  on.model_path = off.model_path = shipped_model();
  on.use_model = off.use_model = true;
  on.gap_candidates = true;
  off.gap_candidates = false;
  on.gap_residual_seeds = false;  // round 22's seeds only (round 23's find one more die in 111718)
  on.small_die_reread = off.small_die_reread = 0;  // round 27's re-read takes the median side after the gap stage
  on.body_reread = off.body_reread = 0;  // so does round 28's
  // the main path's dice, unchanged: every one of them is in the gap run, same box and face
  const FoundAB r = find_ab({{"byler_IMG_20191208_111718.jpg", {342, 361, 33, 45}, 6},
                             {"byler_IMG_20191208_112251.jpg", {430, 325, 34, 33}, 2},
                             {"byler_IMG_20191209_100714.jpg", {417, 229, 34, 30}, 2}},
                            on, off, /*main_path_only=*/true);
  EXPECT_EQ(r.added, (std::vector<long>{1, 1, 1}));
  EXPECT_EQ(r.found_off, 0);
  EXPECT_EQ(r.right_on, 3);
  EXPECT_EQ(r.kept, r.n_off);
}

// ... and a layout on a side face of a kept die (penlington's white dice seen at an angle
// show two faces) is no second die: without the side-face rule the gap candidates add
// detections beside kept dice on these photos, with it none.
TEST(DiceReal, GapCandidateBesideAKeptDieIsItsSideFace) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const char* images[] = {"penlington_valid_valid_17.jpg", "penlington_valid_valid_56.jpg"};
  DiceParams rule, none;
  rule.model_path = none.model_path = shipped_model();
  rule.use_model = none.use_model = true;
  none.gap_side_face_radius = 0;
  // the gap stage's rule alone (real round 31's final side-face pass drops these too)
  rule.final_side_face_radius = none.final_side_face_radius = 0;
  int gap_rule = 0, gap_none = 0;
  for (const char* name : images) {
    const cv::Mat img = cv::imread((real_dir() / "images" / name).string());
    ASSERT_FALSE(img.empty()) << name;
    const auto a = find_dice_checked(img, rule), b = find_dice_checked(img, none);
    ASSERT_TRUE(a.ok() && b.ok());
    for (const auto& d : *a) gap_rule += d.from_gap;
    for (const auto& d : *b) gap_none += d.from_gap;
  }
  EXPECT_EQ(gap_none, 3);  // 2 at the main path's forest margin; real28's -0.3 lets one more through
  EXPECT_EQ(gap_rule, 0);
}

// Round 23: in a cluster the dice the main path misses are often no candidate place of
// their own (the cluster is one foreground blob, their pips are not found by the top-hat),
// so round 22's gap stage had no seed on them. Seeds in the foreground the kept dice leave
// (gap_residual_seeds) find them; every die found without them is kept, same box and face.
TEST(DiceReal, ResidualSeedsFindDiceInClusters) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  DiceParams on, off;
  on.model_path = off.model_path = shipped_model();
  on.use_model = off.use_model = true;
  on.gap_residual_seeds = true;
  off.gap_residual_seeds = false;
  on.small_die_reread = off.small_die_reread = 0;  // round 27's re-read takes the median side after the gap stage
  on.body_reread = off.body_reread = 0;  // so does round 28's
  const FoundAB r = find_ab({{"byler_IMG_20191208_111642.jpg", {324, 374, 34, 34}, 6},
                             {"byler_IMG_20191208_111718.jpg", {276, 294, 42, 42}, 5}},
                            on, off, /*main_path_only=*/false);
  EXPECT_EQ(r.found_off, 0);
  EXPECT_EQ(r.right_on, 2);
  EXPECT_EQ(r.kept, r.n_off);
}

// ... but only in the blobs of a kept die the network is sure of: on penlington's webcam
// photos a sticker's print or a keyboard key is a false detection the network is less sure
// of, and the foreground beside it reads more "dice" (text read as a row of pips).
TEST(DiceReal, ResidualSeedsOnlyBesideDiceTheNetworkIsSureOf) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const char* images[] = {"penlington_train_five_35.jpg", "penlington_train_six_38.jpg", "penlington_train_six_54.jpg",
                          "penlington_train_six_56.jpg", "penlington_train_two_43.jpg", "penlington_train_six_7.jpg"};
  DiceParams sure, any;
  sure.model_path = any.model_path = shipped_model();
  sure.use_model = any.use_model = true;
  sure.gap_residual_seeds = any.gap_residual_seeds = true;
  any.gap_residual_sure_die = 1;
  DiceParams none = sure;
  none.gap_residual_seeds = false;
  int gap_sure = 0, gap_any = 0, gap_none = 0;
  for (const char* name : images) {
    const cv::Mat img = cv::imread((real_dir() / "images" / name).string());
    ASSERT_FALSE(img.empty()) << name;
    const auto a = find_dice_checked(img, sure), b = find_dice_checked(img, any), c = find_dice_checked(img, none);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    for (const auto& d : *a) gap_sure += d.from_gap;
    for (const auto& d : *b) gap_any += d.from_gap;
    for (const auto& d : *c) gap_none += d.from_gap;
  }
  EXPECT_GT(gap_any, gap_none);
  EXPECT_EQ(gap_sure, gap_none);
}

// Round 27 (DiceParams::small_die_reread): a kept die whose square is much narrower than
// the photo's dice is a candidate round part of a face (one pip of a four, read as a "1");
// read again on a square of the photo's median die side about its centre it reads the whole
// face. Two byler fours read 1 without the re-read, 4 with it; no detection is added or lost.
TEST(DiceReal, SmallDieIsReadAgainAtThePhotosDieSize) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  DiceParams on, off;
  on.model_path = off.model_path = shipped_model();
  on.use_model = off.use_model = true;
  on.small_die_reread = 0.7;
  off.small_die_reread = 0;
  // The hue channel (round 27's second change) reads 112251's blue four right on its part
  // square too, so both runs go without it: this test is the re-read's alone.
  on.pips.hue_channel_min_body = off.pips.hue_channel_min_body = 0;
  // The median over every kept die, as when the re-read came (real28's median before the gap
  // stage is 112251's without its gap die, where the re-read square reads that four 1).
  on.reread_sides_before_gap = off.reread_sides_before_gap = false;
  // Real round 37's speck drop (min_body_share) takes 112251's floor speck when the re-read
  // has squared it to the photo's die size (share 0.012 there) and keeps it without the
  // re-read (10 dice against 11): the re-read's count of dice is measured without it (and
  // without real round 38's, min_body_die_share, which takes the speck's small square).
  on.min_body_share = off.min_body_share = 0;
  on.min_body_die_share = off.min_body_die_share = 0;
  const LabelledDie dice[] = {{"byler_IMG_20191208_111411.jpg", {315, 113, 37, 45}, 4},
                              {"byler_IMG_20191208_112251.jpg", {300, 118, 27, 30}, 4}};
  expect_read_again(dice, on, off, 1);
}

// Round 28 (DiceParams::body_reread): the finder's square of a die is often off its body
// (112020's black three: half on the blue die below it, read 2; 100300's purple one: on
// its pip and a glint beside it, read 2; penlington dice_45's close white one: the whole
// die with a side face's pip, read 2). Read again on a square of the photo's die side at
// the deepest point of the foreground near it, where the network is surer, each reads its
// face; no detection is added or lost.
TEST(DiceReal, DieIsReadAgainOnItsBody) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  DiceParams on, off;
  on.model_path = off.model_path = shipped_model();
  on.use_model = off.use_model = true;
  on.body_reread = 0.3;
  off.body_reread = 0;
  // real40's pip-shape rule also reads penlington dice_45's 1 (a round top pip and a side
  // face's dash below it were a 2): off for both, so the A/B is the re-read's alone.
  on.pips.max_pip_shape_spread = off.pips.max_pip_shape_spread = 0;
  // real43's drop at 0.6 takes 100300's 1 without the re-read (its own square, off its body,
  // the network calls not a die with 0.6..0.8): the drop at its value before, so the A/B
  // stays the re-read's alone.
  on.cnn_max_not_die = off.cnn_max_not_die = 0.8;
  // real45's wider read on the own square's body (wide_read_body_shift) reads dice_45's 1
  // too (its wider square read the 2): off for both, as the two rules above.
  on.wide_read_body_shift = off.wide_read_body_shift = 0;
  const LabelledDie dice[] = {{"byler_IMG_20191208_112020.jpg", {242, 212, 45, 42}, 3},
                              {"byler_IMG_20191209_100300.jpg", {344, 276, 46, 49}, 1},
                              {"penlington_train_dice_45.jpg", {201, 231, 17, 18}, 1}};
  expect_read_again(dice, on, off, 2);
}

// docs/dice.md real28 (DiceParams::reread_sides_before_gap): the two re-reads take the
// photo's median die side of the dice kept before the gap stage, so a gap die found or not
// moves no other die. With the re-reads on (the defaults) and the gap stage on / off, every
// main-path detection keeps its box and face; with the median taken after the gap stage
// (rounds 27/28) the gap dice move it, and main-path dice are read again on other squares.
TEST(DiceReal, GapDiceDoNotMoveTheReReads) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  auto kept_of = [](bool before_gap) {
    DiceParams on, off;
    on.model_path = off.model_path = shipped_model();
    on.use_model = off.use_model = true;
    on.gap_candidates = true;
    off.gap_candidates = false;
    on.reread_sides_before_gap = off.reread_sides_before_gap = before_gap;
    const FoundAB r = find_ab({{"byler_IMG_20191208_111642.jpg", {324, 374, 34, 34}, 6},
                               {"byler_IMG_20191208_111718.jpg", {276, 294, 42, 42}, 5},
                               {"byler_IMG_20191208_112353.jpg", {263, 364, 31, 35}, 3}},
                              on, off, /*main_path_only=*/true);
    return r.n_off - r.kept;  // main-path detections moved or re-read by the gap dice
  };
  EXPECT_EQ(kept_of(true), 0);
  EXPECT_GT(kept_of(false), 0);
}

// docs/dice.md real28 (DiceParams::gap_min_margin -0.3, was 0.0625): dice in a cluster that
// only the gap stage reaches have face-centred squares the forest doubts (margins just
// under the main path's 0.0625); the network's not-a-die gate and the size gates keep them
// from being clutter. 112353's red 3, a 2 of 112332's cluster and a 4 of 111304's are found
// and read right with the lower margin and missed with the main path's; nothing the main
// margin found is lost.
TEST(DiceReal, GapSquaresTheForestDoubtsAreDiceInClusters) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  DiceParams on, off;
  on.model_path = off.model_path = shipped_model();
  on.use_model = off.use_model = true;
  on.gap_min_margin = -0.3;
  off.gap_min_margin = 0.0625;
  const FoundAB r = find_ab({{"byler_IMG_20191208_112353.jpg", {263, 364, 31, 35}, 3},
                             {"byler_IMG_20191208_112332.jpg", {198, 328, 29, 31}, 2},
                             {"byler_IMG_20191208_111304.jpg", {284, 244, 39, 39}, 4}},
                            on, off, /*main_path_only=*/false);
  EXPECT_EQ(r.found_off, 0);
  EXPECT_EQ(r.right_on, 3);
  EXPECT_EQ(r.kept, r.n_off);  // every detection of the main margin's run kept, same box and face
}

// docs/dice.md real round 30 (PipParams::nested_score 0.5): the pip scores of the faces
// whose layout lies inside the face the pips read (a 4 in a 6, a 2 in a 3 or a 4) no longer
// pass for evidence of those faces in the fusion with the face network. Every labelled die
// of three even photos (095849's smoky dice with red pips among them) read at its box as
// `eval --real` does (shipped forest and network): with the rule 111339's 4, 112116's 6 and
// 095849's 3 and 4 are read right, read as a nested face without it, and no die read right
// without the rule is read wrong with it.
TEST(DiceReal, AFaceIsNotReadAsALayoutNestedInIt) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  const std::set<std::string> names = {"byler_IMG_20191208_111339.jpg", "byler_IMG_20191208_112116.jpg",
                                       "byler_IMG_20191209_095849.jpg"};
  auto images = load_real_images(real_dir().string(), "even");
  ASSERT_TRUE(images.ok()) << images.error();
  DiceParams now, off;
  now.model_path = off.model_path = shipped_model();
  now.use_model = off.use_model = true;
  off.pips.nested_score = 1.0;  // `now` keeps the default, 0.5
  const auto models = load_dice_models(now);
  ASSERT_TRUE(models.ok() && models->model && models->cnn) << (models.ok() ? "no network" : models.error());
  const std::set<std::pair<std::string, int>> gained_expected = {
      {"byler_IMG_20191208_111339.jpg", 120}, {"byler_IMG_20191208_112116.jpg", 401},
      {"byler_IMG_20191209_095849.jpg", 382}, {"byler_IMG_20191209_095849.jpg", 429}};
  int dice = 0, right_now = 0, right_off = 0, lost = 0;
  std::set<std::pair<std::string, int>> gained;
  for (const auto& im : *images) {
    if (!names.count(im.name)) continue;
    const cv::Mat img = cv::imread(im.path);
    ASSERT_FALSE(img.empty()) << im.name;
    double sc = 1;
    const cv::Mat work = dice_work_image(img, now, sc);
    cv::Mat gray;
    cv::cvtColor(work, gray, cv::COLOR_BGR2GRAY);
    for (const auto& l : im.labels) {
      const float side = static_cast<float>(std::max(l.box.width, l.box.height) * sc);
      const cv::Point2f c(static_cast<float>((l.box.x + l.box.width / 2.0) * sc), static_cast<float>((l.box.y + l.box.height / 2.0) * sc));
      const cv::Rect2f sq(c.x - side / 2, c.y - side / 2, side, side);
      const DieRead a = read_die(work, gray, sq, models->model.get(), now, models->cnn.get());
      const DieRead b = read_die(work, gray, sq, models->model.get(), off, models->cnn.get());
      EXPECT_EQ(a.pip_face, b.pip_face) << im.name << ' ' << l.box;  // the pips read the same face
      ++dice;
      right_now += a.face == l.face;
      right_off += b.face == l.face;
      lost += b.face == l.face && a.face != l.face;
      if (a.face == l.face && b.face != l.face) gained.insert({im.name, l.box.x});
    }
  }
  std::printf("nested_score 0.5: %d right; 1: %d (of %d dice at their labelled boxes)\n", right_now, right_off, dice);
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(gained, gained_expected);
}

TEST(DiceReal, SplitsArePartitionOfLabels) {
  if (!fs::exists(real_dir() / "labels.csv")) GTEST_SKIP() << "no real-dice data at " << real_dir();
  auto all = load_real_images(real_dir().string(), "all");
  auto even = load_real_images(real_dir().string(), "even");
  auto odd = load_real_images(real_dir().string(), "odd");
  ASSERT_TRUE(all.ok() && even.ok() && odd.ok());
  EXPECT_EQ(all->size(), even->size() + odd->size());
  EXPECT_NE((*even)[0].name, (*odd)[0].name);
  EXPECT_FALSE(load_real_images(real_dir().string(), "thirds").ok());
}

TEST(DiceReal, EvalRejectsMissingCsv) {
  EXPECT_FALSE(eval_real("/nonexistent/labels.csv", "all", 0, DiceParams{}, nullptr).ok());
}

TEST(DiceReal, MalformedCsvIsAnError) {
  const fs::path dir = fs::temp_directory_path() / "hexdice_dice_badcsv";
  fs::create_directories(dir);
  std::ofstream(dir / "labels.csv") << "image,x_min,y_min,x_max,y_max,face,color,box_kind\na.jpg,1,2,x,4,3,,die\n";
  auto r = load_real_images(dir.string(), "all");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("malformed"), std::string::npos);
}

TEST(DiceBadInput, CorruptTruncatedAndEmptyImages) {
  // Truncated JPEG: the first half of a real encoded image.
  cv::Mat img(200, 200, CV_8UC3, cv::Scalar(200, 200, 200));
  std::vector<unsigned char> bytes;
  ASSERT_TRUE(cv::imencode(".jpg", img, bytes));
  std::vector<unsigned char> half(bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 3));
  auto t = decode_image(half);
  if (t.ok()) {
    // libjpeg may return a partly grey image; the finder must still not crash.
    EXPECT_NO_THROW(find_dice(*t));
  }
  std::vector<unsigned char> garbage(1000, 0x5a);
  EXPECT_FALSE(decode_image(garbage).ok());
  EXPECT_TRUE(find_dice(cv::Mat()).empty());
  EXPECT_TRUE(find_dice(cv::Mat(5, 5, CV_8UC3, cv::Scalar(0, 0, 0))).empty());
  EXPECT_TRUE(find_dice(cv::Mat(100, 100, CV_32FC1, cv::Scalar(0))).empty());
}

TEST(DiceBadInput, CorruptModelIsAClearError) {
  const fs::path p = fs::temp_directory_path() / "hexdice_bad_model.yml";
  std::ofstream(p) << "%YAML:1.0\nnot_a_model: 3\n";
  auto m = DiceClassifier::load(p.string());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().find("model"), std::string::npos);
  DiceParams dp;
  dp.model_path = "/nonexistent/model.yml.gz";
  dp.use_model = true;
  auto r = find_dice_checked(cv::Mat(100, 100, CV_8UC3, cv::Scalar(90, 90, 90)), dp);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("not found"), std::string::npos);
}

TEST(DiceBadInput, CommandLineErrors) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice";
  if (!fs::exists(bin)) GTEST_SKIP() << "no hexdice binary";
  const fs::path bad = fs::temp_directory_path() / "hexdice_dice_corrupt.jpg";
  std::ofstream(bad, std::ios::binary) << "\xff\xd8\xff\xe0 this is not a jpeg";
  const std::string cmd = bin.string() + " dice " + bad.string() + " --json 2>" +
                          (fs::temp_directory_path() / "hexdice_dice_err.txt").string() + " >/dev/null";
  const int rc = std::system(cmd.c_str());
  EXPECT_NE(rc, 0);
  std::ifstream err(fs::temp_directory_path() / "hexdice_dice_err.txt");
  const std::string text{std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>()};
  EXPECT_EQ(text.rfind("hexdice: ", 0), 0u) << text;
}

}  // namespace
}  // namespace hexdice::vision
