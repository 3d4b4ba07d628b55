// `hexdice read IMAGE [--calib FILE] [--layout board.json] [--params FILE] --json`,
// `hexdice dice IMAGE [--model FILE] --json`, `hexdice dice-train --real DIR --out FILE`, `hexdice eval --scenes DIR | --real DIR_OR_CSV`,
// `hexdice synth --out DIR` (the reader's synthetic labelled scenes).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <opencv2/imgcodecs.hpp>

#include "calibration/calibration.h"
#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "companion/cli/reader_options.h"
#include "vision/dice.h"
#include "vision/dice_cnn.h"
#include "vision/dice_train.h"
#include "vision/read.h"
#include "vision/reader_eval.h"
#include "vision/sheet.h"
#include "vision/reader_io.h"
#include "vision/reader_synth.h"

namespace hexdice::cli {

namespace {

struct ReadArgs {
  std::string image;
  ReaderOptions reader;
  bool json = false;
};

int run_read(const ReadArgs& a) {
  auto in = load_reader_inputs(a.reader);
  if (!in) return fail(in.error());
  auto img = load_picture(a.image);
  if (!img) return fail(img.error());
  if (!a.reader.calib.empty()) {
    // Stale or mismatched calibration: one warning line, and read anyway.
    std::string err;
    auto text = read_file(a.reader.calib, err);
    auto meta = text ? calibration::calibration_from_json_text(*text) : Result<vision::CalibrationData>(Error{err});
    std::string w = meta ? "" : meta.error();
    if (meta)
      for (const auto& i : calibration::check_calibration(*meta, img->size(), &in->layout).issues)
        if (i.kind != calibration::CheckIssue::NoMetadata) w += (w.empty() ? "" : "; ") + i.message;  // hand-written files are fine
    if (!w.empty()) std::cerr << "hexdice: warning: calibration " << a.reader.calib << ": " << w << '\n';
  }
  const auto obs = vision::read_board(*img, in->layout, in->calib_ptr(), in->params);
  if (a.json) {
    std::cout << vision::to_json(obs).dump() << '\n';
  } else {
    if (!obs.board_found) std::cout << "board not found: " << obs.why_not_found << '\n';
    for (const auto& c : obs.cells)
      std::cout << c.hex.q << "," << c.hex.r << " " << c.color << " " << c.face << (c.guard ? " guard" : "")
                << " " << c.confidence << '\n';
  }
  return kExitOk;
}

struct DiceArgs {
  std::string image, model, cnn;
  bool json = false, no_model = false, no_cnn = false, pip_face_candidates = false;
  double cnn_fuse = -1;
  int gap_candidates = -1;  // 1 on, 0 off, < 0 = DiceParams' default
  double small_die_reread = -1;  // < 0 = DiceParams' default
  double body_reread = -1;       // < 0 = DiceParams' default
  int reread_sides_before_gap = -1;  // 1 on, 0 off, < 0 = DiceParams' default
  int gap_residual_seeds = -1;  // 1 on, 0 off, < 0 = DiceParams' default
};

int run_dice(const DiceArgs& a) {
  auto img = load_picture(a.image);
  if (!img) return fail(img.error());
  vision::DiceParams params;
  params.model_path = a.model;
  params.use_model = !a.no_model;
  params.cnn_path = a.cnn;
  params.use_cnn = !a.no_cnn;
  params.pip_face_candidates = a.pip_face_candidates;
  if (a.gap_candidates >= 0) params.gap_candidates = a.gap_candidates > 0;
  if (a.small_die_reread >= 0) params.small_die_reread = a.small_die_reread;
  if (a.body_reread >= 0) params.body_reread = a.body_reread;
  if (a.reread_sides_before_gap >= 0) params.reread_sides_before_gap = a.reread_sides_before_gap > 0;
  if (a.gap_residual_seeds >= 0) params.gap_residual_seeds = a.gap_residual_seeds > 0;
  if (a.cnn_fuse >= 0) params.cnn_fuse_weight = a.cnn_fuse;
  auto found = vision::find_dice_checked(*img, params);
  if (!found) return fail(found.error());
  const auto& dice = *found;
  const bool json = a.json;
  if (json) {
    std::cout << vision::to_json(dice).dump() << '\n';
  } else {
    for (const auto& d : dice)
      std::cout << d.box.x << "," << d.box.y << "," << d.box.x + d.box.width << "," << d.box.y + d.box.height << " "
                << d.face << " " << d.color << " " << d.confidence << '\n';
  }
  return kExitOk;
}

struct SynthArgs {
  std::string out;
  int scenes = 10, dice = 20;
  unsigned seed = 1;
  double tilt = 0;
  int width = 1280, height = 720;
};

int run_synth(const SynthArgs& a) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(a.out, ec);
  if (ec) return fail("cannot create " + a.out + ": " + ec.message());
  const auto layout = vision::standard_sheet();
  for (int i = 0; i < a.scenes; ++i) {
    vision::SynthOptions o;
    o.seed = a.seed + static_cast<unsigned>(i);
    o.camera.size = {a.width, a.height};
    o.camera.tilt_deg = a.tilt;
    o.camera.yaw_deg = (i % 5) * 3.0 - 6.0;
    const auto dice = vision::random_dice(layout, a.dice, o.seed);
    const auto sc = vision::render_synth_scene(layout, dice, o);
    char name[64];
    std::snprintf(name, sizeof name, "scene_%04d", i);
    const std::string img = (fs::path(a.out) / (std::string(name) + ".jpg")).string();
    if (!cv::imwrite(img, sc.image, {cv::IMWRITE_JPEG_QUALITY, 92})) return fail("cannot write " + img);
    nlohmann::json j{{"board_found", true}, {"dice", nlohmann::json::array()}};
    for (const auto& d : dice)
      j["dice"].push_back({{"q", d.hex.q}, {"r", d.hex.r}, {"color", d.color}, {"face", d.face}, {"guard", d.guard}});
    std::ofstream(fs::path(a.out) / (std::string(name) + ".json")) << j.dump(1) << '\n';
  }
  std::cout << "wrote " << a.scenes << " scenes to " << a.out << '\n';
  return kExitOk;
}

}  // namespace

void register_reader_commands(CLI::App& app, Registry& reg) {
  auto ra = std::make_shared<ReadArgs>();
  auto* read = app.add_subcommand("read", "Read the dice on the printed map in one image (observation)");
  read->add_option("IMAGE", ra->image, "image file")->required();
  add_reader_options(read, ra->reader);
  read->add_flag("--json", ra->json, "print the observation JSON");
  reg.add(read, [ra] { return run_read(*ra); });

  auto da = std::make_shared<DiceArgs>();
  auto* dice = app.add_subcommand("dice", "Find dice anywhere in an image (no map needed)");
  dice->add_option("IMAGE", da->image, "image file")->required();
  dice->add_flag("--json", da->json, "print JSON");
  dice->add_option("--model", da->model, "dice classifier model (default: data/dice_model.yml.gz of the build)");
  dice->add_flag("--no-model", da->no_model, "count pips only (no learned classifier)");
  dice->add_option("--cnn", da->cnn, "face network (default: data/dice_cnn.yml.gz of the build, if present)");
  dice->add_flag("--no-cnn", da->no_cnn, "without the face network");
  dice->add_flag("--pip-face-candidates", da->pip_face_candidates,
                 "also candidates centred on pip layouts' faces (DiceParams::pip_face_candidates; a forest trained with them)");
  dice->add_option("--gap-candidates", da->gap_candidates,
                   "1 / 0: DiceParams::gap_candidates (face-centred candidates in the places left without a die; docs/dice.md round 22)");
  dice->add_option("--gap-residual-seeds", da->gap_residual_seeds,
                   "1 / 0: DiceParams::gap_residual_seeds (gap seeds in the foreground the kept dice leave; docs/dice.md round 23)");
  dice->add_option("--small-die-reread", da->small_die_reread,
                   "DiceParams::small_die_reread (a kept die narrower than this x the photo's median die is read again on a square of that size; 0 = off)");
  dice->add_option("--body-reread", da->body_reread,
                   "DiceParams::body_reread (each die read again on its body, a foreground at least this x the photo's die side deep; taken when the network is surer there; 0 = off)");
  dice->add_option("--reread-sides-before-gap", da->reread_sides_before_gap,
                   "1 / 0: DiceParams::reread_sides_before_gap (the re-reads' median die side of the dice kept before the gap stage)");
  dice->add_option("--cnn-fuse", da->cnn_fuse, "weight of the face network fused with the pip scores (0 = off; default DiceParams)");
  reg.add(dice, [da] { return run_dice(*da); });

  auto ta = std::make_shared<vision::DiceTrainArgs>();
  auto* dt = app.add_subcommand("dice-train", "Train the dice classifier on the real labelled photos");
  dt->add_option("--real", ta->real, "real-dice directory (with labels.csv) or the CSV itself")->required();
  dt->add_option("--split", ta->split, "train on: all | even | odd");
  dt->add_option("--out", ta->out, "model file to write (.yml.gz)")->required();
  dt->add_option("--trees", ta->trees, "trees of the random forest");
  dt->add_option("--depth", ta->max_depth, "maximum tree depth");
  dt->add_option("--seed", ta->seed, "random seed (augmentation, negatives, weights)");
  dt->add_flag("--pip-face-candidates", ta->params.pip_face_candidates,
              "DiceParams::pip_face_candidates: also train on candidates centred on pip layouts' faces (docs/dice.md round 21)");
  auto ca = std::make_shared<vision::DiceCnnTrainArgs>();
  auto cnn = std::make_shared<bool>(false);
  dt->add_flag("--cnn", *cnn, "train the face network (dice_cnn.h) instead of the forest");
  dt->add_option("--epochs", ca->epochs, "--cnn: passes over the training dice");
  dt->add_option("--lr", ca->lr, "--cnn: Adam step (cosine-decayed)");
  dt->add_option("--batch", ca->batch, "--cnn: minibatch size");
  dt->add_option("--copies", ca->copies, "--cnn: augmented copies of each die per epoch");
  dt->add_option("--negatives", ca->negatives_per_image, "--cnn: not-a-die candidates per image");
  dt->add_option("--val-split", ca->val_split, "--cnn: report face accuracy on these images per epoch (e.g. even-val)");
  dt->add_option("--detector-model", ca->detector_model, "--cnn: also train on the finder's boxes (find_dice with this forest)");
  dt->add_option("--c1", ca->arch.c1, "--cnn: channels of conv layer 1");
  dt->add_option("--c2", ca->arch.c2, "--cnn: channels of conv layer 2");
  dt->add_option("--c3", ca->arch.c3, "--cnn: channels of conv layer 3");
  dt->add_option("--hidden", ca->arch.hidden, "--cnn: hidden dense units");
  dt->add_option("--patch", ca->arch.patch, "--cnn: input patch side in pixels (a multiple of 8, 16..96)");
  dt->add_flag("--half", ca->half, "--cnn: write the weights as float16 (half the file)");
  dt->add_option("--init", ca->init, "--cnn: start from this network's weights (its architecture)");
  auto merge = std::make_shared<std::string>();
  dt->add_option("--merge", *merge, "--cnn: no training: write the networks \"A,B,...\" as one ensemble file (--out, --half)");
  dt->add_option("--hard-weight", ca->hard_weight, "--cnn: finder boxes the finder read wrong are seen this many times as often");
  dt->add_option("--source-weight", ca->source_weight, "--cnn: \"SOURCE=N,...\": that source's dice seen N times as often (e.g. byler=2)");
  dt->add_flag("--strong-aug", ca->strong_aug, "--cnn: stronger augmentation (scale, shift, colour jitter, blur, synthetic glints)");
  reg.add(dt, [ta, ca, cnn, merge] {
    if (*cnn && !merge->empty()) {
      auto net = vision::DiceCnn::load(*merge);
      if (!net) return fail(net.error());
      if (auto st = (*net)->save(ta->out, ca->half); !st) return fail(st.error());
      std::cout << "wrote " << ta->out << ": " << (*net)->members().size() + 1 << " networks\n";
      return kExitOk;
    }
    if (*cnn) {
      ca->real = ta->real;
      ca->split = ta->split;
      ca->out = ta->out;
      ca->seed = ta->seed;
      auto r = vision::train_dice_cnn(*ca, &std::cout);
      if (!r) return fail(r.error());
      std::cout << "trained the face network on " << r->images << " images: " << r->positives << " labelled, "
                << r->detector_positives << " finder and " << r->negatives << " negative patches, training accuracy "
                << r->train_accuracy;
      if (r->val_face_accuracy >= 0) std::cout << ", val face " << r->val_face_accuracy << " (best " << r->best_val << " at epoch " << r->best_epoch << ")";
      std::cout << "; wrote " << ca->out << '\n';
      return kExitOk;
    }
    auto r = vision::train_dice_model(*ta, &std::cout);
    if (!r) return fail(r.error());
    std::cout << "trained on " << r->images << " images: " << r->positives << " positive and " << r->negatives
              << " negative patches, training accuracy " << r->train_accuracy << "; wrote " << ta->out << '\n';
    return kExitOk;
  });

  auto ea = std::make_shared<vision::EvalArgs>();
  auto* ev = app.add_subcommand("eval", "Score the reader on labelled scenes or on the real dice photos");
  ev->add_option("--scenes", ea->scenes_dir, "directory of images with label JSON beside each");
  ev->add_option("--real", ea->real, "real-dice directory (with labels.csv) or the CSV itself");
  ev->add_option("--split", ea->split, "real photos: all | even | odd (by row order of images)");
  ev->add_option("--limit", ea->limit, "at most this many images");
  ev->add_flag("--verbose", ea->verbose, "one line per mistake");
  ev->add_option("--params", ea->params_file, "--scenes: reader parameters (cv::FileStorage YAML/JSON, any subset)");
  ev->add_option("--model", ea->model, "--real: dice classifier model (default: the shipped one)");
  ev->add_flag("--no-model", ea->no_model, "--real: count pips only (no learned classifier)");
  ev->add_option("--cnn", ea->cnn, "--real: face network (default: the shipped one, if present)");
  ev->add_flag("--no-cnn", ea->no_cnn, "--real: without the face network");
  ev->add_option("--cnn-min-prob", ea->cnn_min_prob, "--real: the network's face where its probability is at least this");
  ev->add_option("--cnn-max-not-die", ea->cnn_max_not_die, "--real: drop detections the network calls not a die with this probability");
  ev->add_option("--cnn-fuse", ea->cnn_fuse_weight, "--real: weight of the network's probabilities fused with the pip scores (0 = off)");
  ev->add_option("--cnn-fuse-floor", ea->cnn_fuse_floor, "--real: floor of a face's relative pip score in the fusion");
  ev->add_option("--cnn-views", ea->cnn_views, "--real: dihedral views of the die the network's scores average (1..8)");
  ev->add_option("--cnn-finder-scale", ea->cnn_finder_scale, "--real: the network reads a found die's square times this");
  ev->add_option("--max-pip-over-median", ea->max_pip_over_median, "--real: DiceParams::max_pip_over_median (0 = off)");
  ev->add_option("--pip-reference-min", ea->pip_reference_min, "--real: DiceParams::pip_reference_min");
  ev->add_option("--value-channel-max-body", ea->value_channel_max_body,
                 "--real: PipParams::value_channel_max_body (pips also on max(B, G, R) below this body level; 0 = off)");
  ev->add_option("--chroma-weight", ea->chroma_weight, "--real: PipParams::chroma_weight (chroma pips' LoG responses times this)");
  ev->add_option("--chroma-min-excess", ea->chroma_min_excess,
                 "--real: PipParams::chroma_min_excess (a chroma pip's chroma over the body's, grey levels)");
  ev->add_flag("--pip-face-candidates", ea->pip_face_candidates,
               "--real: DiceParams::pip_face_candidates (also candidates centred on pip layouts' faces; train the forest with them too)");
  ev->add_option("--gap-candidates", ea->gap_candidates, "--real: DiceParams::gap_candidates (1 on, 0 off; face-centred candidates in the gaps after suppression)");
  ev->add_option("--gap-min-margin", ea->gap_min_margin, "--real: DiceParams::gap_min_margin");
  ev->add_option("--gap-max-not-die", ea->gap_max_not_die, "--real: DiceParams::gap_max_not_die");
  ev->add_option("--gap-side-face-radius", ea->gap_side_face_radius, "--real: DiceParams::gap_side_face_radius");
  ev->add_option("--final-side-face-radius", ea->final_side_face_radius, "--real: DiceParams::final_side_face_radius (0 = off)");
  ev->add_option("--below-side-face-radius", ea->below_side_face_radius, "--real: DiceParams::below_side_face_radius (0 = off)");
  ev->add_option("--below-side-face-pip", ea->below_side_face_pip, "--real: DiceParams::below_side_face_pip");
  ev->add_option("--below-side-face-pair-pip", ea->below_side_face_pair_pip,
                 "--real: DiceParams::below_side_face_pair_pip (a same-or-opposite pair is one die when the lower pips are under this x the upper; 0 = off)");
  ev->add_option("--below-side-face-own", ea->below_side_face_own,
                 "--real: DiceParams::below_side_face_own (the reach below a die is at least this x its own face; 0 = off)");
  ev->add_option("--upper-face-pip", ea->upper_face_pip,
                 "--real: DiceParams::upper_face_pip (of one cube's two faces, the upper is the top when the lower's pips are under this x its; 0 = off)");
  ev->add_option("--centred-pip-is-one", ea->centred_pip_is_one, "--real: DiceParams::centred_pip_is_one (0 = off)");
  ev->add_option("--pre-nms-wide", ea->pre_nms_wide, "--real: DiceParams::pre_nms_wide (0 = off)");
  ev->add_option("--wide-read-body-shift", ea->wide_read_body_shift, "--real: DiceParams::wide_read_body_shift (0 = off)");
  ev->add_option("--min-read-face", ea->min_read_face, "--real: DiceParams::min_read_face (0 = off)")->check(CLI::Range(0.0, 1.0));
  ev->add_option("--min-face-same-kind", ea->min_face_same_kind, "--real: PipParams::min_face_same_kind (0 = off, 1 = on)")
      ->check(CLI::IsMember({0, 1}));
  ev->add_option("--lone-pip-off-face", ea->lone_pip_off_face,
                 "--real: PipParams::lone_pip_off_face (a 2, 4 or 6's own pip alone scores no 1; 0 = off, 1 = on)")
      ->check(CLI::IsMember({0, 1}));
  ev->add_option("--min-body-share", ea->min_body_share,
                 "--real: DiceParams::min_body_share (a kept die whose box has less foreground than this share is a speck; 0 = off)");
  ev->add_option("--min-body-die-share", ea->min_body_die_share,
                 "--real: DiceParams::min_body_die_share (a kept die smaller than the photo's dice whose foreground is less than this "
                 "share of the photo's median die is a speck; 0 = off)");
  ev->add_option("--gap-residual-seeds", ea->gap_residual_seeds,
                 "--real: DiceParams::gap_residual_seeds (1 on, 0 off; gap seeds in the foreground the kept dice leave)");
  ev->add_option("--gap-residual-clear", ea->gap_residual_clear, "--real: DiceParams::gap_residual_clear");
  ev->add_option("--gap-residual-depth", ea->gap_residual_depth, "--real: DiceParams::gap_residual_depth");
  ev->add_option("--gap-residual-spacing", ea->gap_residual_spacing, "--real: DiceParams::gap_residual_spacing");
  ev->add_option("--gap-residual-side", ea->gap_residual_side, "--real: DiceParams::gap_residual_side");
  ev->add_option("--gap-residual-connected", ea->gap_residual_connected, "--real: DiceParams::gap_residual_connected (1 on, 0 off)");
  ev->add_option("--gap-residual-sure-die", ea->gap_residual_sure_die, "--real: DiceParams::gap_residual_sure_die");
  ev->add_option("--gap-seed-repeat", ea->gap_seed_repeat, "--real: DiceParams::gap_seed_repeat (a gap seed window this near an earlier one, x its side, is not read)");
  ev->add_option("--gap-seed-on-fg", ea->gap_seed_on_fg, "--real: DiceParams::gap_seed_on_fg (1 on, 0 off: gap seeds on the foreground only)");
  ev->add_option("--six-missing-pair", ea->six_missing_pair,
                 "--real: PipParams::six_missing_pair (a four with pips where a six's other pair would be keeps the six in the fusion; 0 = off)");
  ev->add_option("--small-die-reread", ea->small_die_reread,
                 "--real: DiceParams::small_die_reread (a kept die narrower than this x the photo's median die is read again on a square of that size; 0 = off)");
  ev->add_option("--body-reread-max-not-die", ea->body_reread_max_not_die,
                 "--real: DiceParams::body_reread_max_not_die (a die the network calls not a die with this probability is not read again on its body)");
  ev->add_option("--body-reread", ea->body_reread,
                 "--real: DiceParams::body_reread (each die read again on its body, a foreground at least this x the photo's die side deep; taken when the network is surer there; 0 = off)");
  ev->add_option("--body-reread-window", ea->body_reread_window,
                 "--real: DiceParams::body_reread_window (the body's centre is looked for within this x the photo's die side of the die's centre)");
  ev->add_option("--reread-sides-before-gap", ea->reread_sides_before_gap,
                 "--real: 1 / 0: DiceParams::reread_sides_before_gap (the re-reads' median die side of the dice kept before the gap stage)");
  ev->add_option("--hue-channel-min-body", ea->hue_channel_min_body,
                 "--real: PipParams::hue_channel_min_body (light pips also off the body's hue on a coloured body; 0 = off)");
  ev->add_option("--pip-shape-spread", ea->pip_shape_spread,
                 "--real: PipParams::max_pip_shape_spread (a pair of dark pips, the more elongated more than this x the other, "
                 "below it and squashed vertically, is no 2; 0 = off)");
  ev->add_option("--dash-max-tilt", ea->dash_max_tilt,
                 "--real: PipParams::dash_max_tilt (degrees between a dash's sharpest curvature and the vertical)");
  ev->add_option("--round-pip-max-elong", ea->round_pip_max_elong,
                 "--real: PipParams::round_pip_max_elong (the pair's other pip is round: elongation at most this)");
  ev->add_flag("--oracle-only", ea->oracle_only, "--real: only read faces at the labelled boxes (no detection)");
  ev->add_flag("--faces", ea->faces, "--scenes: score the face/colour reading alone at the labelled dice (crops cut as read does, perturbed)");
  ev->add_option("--face-reader", ea->face_reader, "--faces: lattice (default) | components (the counting reader)");
  ev->add_option("--dump-faces", ea->dump_faces, "--faces: write wrongly read crops (PNG) into this directory");
  reg.add(ev, [ea] {
    if (ea->scenes_dir.empty() == ea->real.empty()) return fail("eval needs exactly one of --scenes DIR or --real DIR_OR_CSV");
    if (ea->faces && ea->scenes_dir.empty()) return fail("eval --faces needs --scenes DIR");
    // A picture's decoder warning: one line, as the other subcommands print it (load_picture).
    auto r = vision::run_eval(*ea, std::cout, print_warning);
    if (!r) return fail(r.error());
    return kExitOk;
  });

  auto sa = std::make_shared<SynthArgs>();
  auto* sy = app.add_subcommand("synth", "Write synthetic labelled scenes of the sheet (reader tests)");
  sy->add_option("--out", sa->out, "output directory")->required();
  sy->add_option("--scenes", sa->scenes, "number of scenes");
  sy->add_option("--dice", sa->dice, "dice per scene");
  sy->add_option("--seed", sa->seed, "first seed");
  sy->add_option("--tilt", sa->tilt, "camera tilt from vertical, degrees");
  sy->add_option("--width", sa->width, "image width");
  sy->add_option("--height", sa->height, "image height");
  reg.add(sy, [sa] { return run_synth(*sa); });
}

}  // namespace hexdice::cli
