// Dice anywhere in an image, no sheet needed (the army roll in a tray, loose dice on a
// table): per die a box in image pixels, the face, its colour.
// 1. Candidates (dice_candidates): die bodies against a coarse-median background model
//    (touching dice split by distance-transform peaks) plus clusters of pip-like blobs
//    (dark and bright, black-hat / top-hat) grouped at a few linking distances.
// 2. Each candidate's grey patch goes through the learned classifier (dice_classifier.h:
//    not-a-die or face 1..6); dice are kept by score, non-maximum suppressed by centre.
// Without a model file it falls back to counting pips (die_face.h) on the body blobs.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "core/result.h"
#include "vision/dice_pips.h"
#include "vision/die_face.h"

namespace hexdice::vision {

struct DiceParams {
  FaceParams face;
  // Images are analysed with the long side scaled to this many pixels (boxes are
  // reported in the original pixels).
  int work_side = 640;
  // Background: median of the image shrunk by this factor (a die is much smaller).
  int bg_shrink = 16;
  int bg_median = 5;
  // Second background pass (dense clusters), for the path without a model only: a
  // normalised blur of the pixels the first pass left as background, sigma this fraction
  // of the long side. 0 = off. (The model path keeps one pass: on the even split its
  // byler candidate recall fell from 93.9% to 91.6% with it; the rendered army roll
  // needs it: the floor between close dice is foreground against the first pass.)
  double bg_refine = 0.04;
  // Foreground: BGR distance from the background above this.
  double fg_distance = 42.0;
  // Die side limits as fractions of the working image's long side.
  double min_side = 0.025;
  double max_side = 0.2;
  // Holes in the foreground (pips, a face the background model half takes for floor) are
  // filled up to this fraction of a max_side square; larger ones (the floor of a dice
  // tray ringed by its rim) stay background.
  double max_hole = 0.5;
  // Candidates also at the local maxima of the foreground's distance transform (dice that
  // touch each other or a tray's rim merge into one blob); one per this fraction of the
  // larger side. 0 = off.
  double distance_peaks = 0.45;
  // The upright face crop is the die blob's rotated rectangle times this (side faces out).
  double face_shrink = 0.9;
  // Keep dice whose face reading confidence is at least this (0 = keep all).
  double min_confidence = 0.0;
  // Learned classifier: model file ("" = default_dice_model_path()). Off by default for
  // callers of the library (the referee's setup, the overlay's activation roll): on clean
  // dice the pip counter reads what the classifier (trained on the real photos) misses.
  // `hexdice dice` and `hexdice eval --real` turn it on (docs/dice.md).
  std::string model_path;
  bool use_model = false;
  // Pip-like blobs: black-hat/top-hat with a disc this many pixels wide, kept above
  // this grey-level contrast, area in [pip_min_area, pip_max_area] working pixels.
  int pip_hat_size = 17;
  double pip_contrast = 22.0;
  int pip_min_area = 3;
  int pip_max_area = 260;
  // Pips of one face are linked when closer than these multiples of the pip diameter.
  std::vector<double> pip_links{2.6, 4.6};
  // Face-centred candidates (source 3; docs/dice.md round 21): every candidate place
  // above is also read by the lattice pip reader on a square pip_face_window x its side,
  // and a layout of at least pip_face_min_face pips whose pips are at least
  // pip_face_min_pip and whose face (face_size) is at least pip_face_min_side of the long
  // side proposes a die centred on the face, pip_face_scale x the face's size (a byler
  // label, the whole die, is ~1.3 faces), unless a candidate is already centred within
  // pip_face_gap x that size at 0.75..1.33 of it. For the dice whose candidates are all
  // pip fragments off their centre. Off by default: a forest must be trained with them
  // (`dice-train --pip-face-candidates`), and on `even` / even-val they found more dice
  // (recall +9..15 of 1021) but read fewer of the matched right, for +1..2 end to end,
  // more false detections and ~10x the candidate time (round 21).
  bool pip_face_candidates = false;
  double pip_face_window = 1.8;
  double pip_face_scale = 1.3;
  int pip_face_min_face = 2;
  double pip_face_min_pip = 0.004;
  double pip_face_min_side = 0.025;
  double pip_face_gap = 0.15;
  double pip_face_repeat = 0.15;  // a place whose window's centre is within this x an earlier window's side (of about its size) is not read again
  // Gap candidates (docs/dice.md round 22; with the model and the network only): after the
  // suppression and one_face_per_cube, the candidate places on no kept die are read for pip
  // layouts as above (pip_face_window, pip_face_scale, pip_face_min_*); a layout's
  // face-centred square (at the three sizes, the best forest margin) is a die when the
  // forest's margin beats gap_min_margin, its read lies on no kept die, its side and pip
  // diameter are within gap_min/max_side and gap_min/max_pip of the photo's kept dice's
  // medians, it is not within gap_side_face_radius x their median face of a kept die (a
  // side face), and the network calls it not a die with a probability below
  // gap_max_not_die. The dice kept before are not changed (even: +4 dice found, +3 read
  // right, +2 false detections of 1177). Cost: 64..225 seed squares read on a byler photo
  // (the main path reads 13..23), the largest time left to cut (round 22).
  bool gap_candidates = true;
  // The forest's margin a gap square must beat: -0.3 since docs/dice.md real28 (was the main
  // path's 0.0625). The network's not-a-die gate and the size gates do the work: on even,
  // -0.2 .. -1 find the same dice, and the gap dice the forest doubted (margins -0.3..0.05)
  // were dice in clusters read right; with reread_sides_before_gap nothing else moves.
  double gap_min_margin = -0.3;
  double gap_max_not_die = 0.01;
  double gap_min_side = 0.55, gap_max_side = 1.5;  // x the median side of the kept dice that read a layout
  double gap_min_pip = 0.6, gap_max_pip = 1.5;     // x their median pip diameter
  double gap_side_face_radius = 1.05;  // a gap die this close (x the median face) to a kept die is its side face
  // ... seeds also in the foreground the kept dice leave (docs/dice.md round 23): the
  // foreground minus each kept die's square (x gap_residual_clear), at its points at least
  // gap_residual_depth x the median side from its edge, one per gap_residual_spacing x it,
  // each a seed of side gap_residual_side x it (read on pip_face_window x that).
  bool gap_residual_seeds = true;
  bool gap_residual_connected = true;  // only in the foreground blobs a kept die lies in
  double gap_residual_sure_die = 0.01;  // ... of a kept die the network calls not a die below this (>= 1: any kept die)
  double gap_residual_clear = 1.0;
  double gap_residual_depth = 0.3;
  double gap_residual_spacing = 0.5;
  double gap_residual_side = 0.75;
  double gap_seed_repeat = 0.15;  // pip_face_repeat of the gap stage's seed windows (cost)
  bool gap_seed_on_fg = false;  // gap seeds only on the foreground (within 0.15 x the median side; cost)
  // A kept die whose square is narrower than small_die_reread x the photo's median side of
  // the kept dice that read a layout is read again (the lattice reader, then the network)
  // on a square of that median side about its centre: the dice of one photo are of one
  // size, and such a square is a candidate round part of a face (one or two pips of a
  // four, five or six, a marbling spot beside a pip), whose read and whose network crop
  // see only that part. The re-read is taken when it reads a layout and its face centre
  // is on no other kept die. 0 = off. (docs/dice.md round 27.)
  double small_die_reread = 0.7;
  // Each kept die is read again on its body (with the network only): the deepest point of
  // the foreground (its distance to the background) within body_reread_window x the median
  // side above of the die's centre, when at least body_reread x that side deep (a die-sized
  // body; white dice on a pale floor are often not foreground), centres a square of the
  // median side that read_one reads. The finder's square of a die is often off its body (on
  // one pip of a face, half on a neighbour, on a side face's pips), where the labelled box,
  // the whole die, reads those dice right; the re-read replaces the die when it reads a
  // layout, its face centre is on no other kept die, and the network is surer of the fused
  // face (fuse_face) on the new square than on the die's own. A deepest point on the
  // window's edge (the slope of a neighbour) is no body; a die dropped below anyway (the
  // network's cnn_max_not_die, cut by the photo's edge) is not re-read. 0 = off.
  // (docs/dice.md round 28.)
  double body_reread = 0.3;
  double body_reread_window = 0.5;
  // ... a die the network calls not a die with at least this probability on its own square
  // is not read again on its body (the gap dice: gap_max_not_die). It was cnn_max_not_die
  // itself (a die dropped below anyway was not re-read); its own, since real round 43:
  // with the output's drop lower than the re-read's gate, a die whose square lies off its
  // body, which the network doubts there, is still read on its body, and the network's word
  // on that square decides. >= 1: every die re-read.
  double body_reread_max_not_die = 0.8;
  // The two re-reads above take the photo's median die side of the dice kept before the
  // gap stage (true), not of those with the gap dice (false, rounds 27/28): a gap die found
  // or not then does not move the square every other die is read again on.
  bool reread_sides_before_gap = true;
  // A candidate is a die when the classifier's best face score beats the not-a-die score
  // by more than this margin (scores are fractions of the trees voting, -1..1 apart; 40
  // trees: steps of 0.025, so thresholds sit between steps). 0.0625: at least three trees
  // more than not-a-die. Tuned on the even split halved (a model trained on one half, the
  // margins of the other, so the true dice's margins are those of unseen photos): 1 vote
  // -> 3 drops penlington's false detections (keyboard keys, labels, side faces) 190 -> 159
  // and byler's 31 -> 21 for one die of 471 lost; 2 votes: 169 and 24, one lost; 4: 143
  // and 18, 3 lost.
  double min_margin = 0.0625;
  // Non-maximum suppression: a die suppresses candidates whose centre is within this
  // fraction of the larger of the two sides.
  double nms_radius = 0.6;
  // One die, one detection: detections whose centres lie within this fraction of the
  // image's typical face side (median of the detections' pip-lattice sizes) are faces of
  // one cube (a top face and a side face seen at an angle); the one with the strongest
  // pips (seen square on) is kept. 0 = off.
  double side_face_radius = 1.05;
  // ... and again, with the network, among the dice the output reports (after its
  // not-a-die drop, the gap dice and the re-reads): detections closer than this x their
  // median face are one cube's top and side faces, the stronger pips kept. The first pass
  // takes its median over every read candidate, where a webcam photo's clutter (keyboard
  // legends, labels: small faces, most dropped by the network) pulls it under the dice's
  // faces and leaves the side faces beside them (docs/dice.md, real round 31). 0 = off.
  double final_side_face_radius = 1.05;
  // ... and, in that final pass, further out below a die: a camera looking at the dice from
  // the front sees a die's side face on its own side of the top face (below it in the
  // photo, more down than sideways), foreshortened, so with smaller pips. A detection whose
  // centre lies below another's within below_side_face_radius x the median face, whose pip
  // diameter is under below_side_face_pip x the other's and whose pips respond less, is that die's side face,
  // unless the two read the same number or opposite ones (summing to 7), which no die's top
  // and side show (docs/dice.md, real round 32). 0 = off; off too when
  // final_side_face_radius is 0 or without the network (it runs in that final pass). It acts
  // wherever find_dice runs with the network: `hexdice dice`, the referee's setup rolls and
  // the overlay's live loop. below_side_face_pip was 0.75 (real round 32); 0.8 (real round
  // 41, with below_side_face_own) takes penlington three_30's "2" (pips 0.76 of its 3's) and
  // loses no die on either split; 0.85 loses byler 111304's 4 on `even`.
  double below_side_face_radius = 1.3;
  double below_side_face_pip = 0.8;
  // ... but the skip of a same-or-opposite pair trusts the side face's reading, and a
  // foreshortened side face is often misread (penlington's staged photos: a "2" below a 2,
  // a "3" below a 4). Two dice of one set showing the same number, or 2/5, 3/4, have pips
  // of one size (a camera in front sees the lower die nearer, its pips no smaller), so
  // such a pair is still one die's top and side face when the lower one's pip diameter is
  // under below_side_face_pair_pip x the upper one's (the other tests above holding too).
  // A pair with a "1" keeps the skip (a 1's pip is often larger than a 6's). 0 = off (every
  // same-or-opposite pair skipped, as real round 32's mend). docs/dice.md real round 36.
  double below_side_face_pair_pip = 0.6;
  // ... and the reach below a die is at least below_side_face_own x that die's own face
  // (face_size: 5.5 x a 1's pip, 3.7 x a lattice's spacing): the median face is that of
  // every shown detection, and a webcam photo's side faces and clutter the network keeps
  // (small faces) pull it under the dice's, so a 1's side face 0.7 x its face below it lay
  // beyond 1.3 x the median (penlington dice_31: 30 px below, reach 27). byler's dice
  // touching lie about 1.0 x their face apart (111751's 3 below a 1: 0.997, lost at 1.0).
  // 0 = off (the median's reach alone). docs/dice.md real round 41.
  double below_side_face_own = 0.8;
  // In one_face_per_cube (the first pass, side_face_radius, and the final one,
  // final_side_face_radius), of two faces of one cube one below the other, the upper one is
  // the top face when the lower one's pip diameter is under upper_face_pip x the upper's,
  // however strongly the lower one's pips respond: a side face towards the camera is
  // foreshortened (smaller pips) but, lit from the front, may respond more than the top
  // face's (penlington six_7: a "1" 39 px below a 6, pips 0.67 of the 6's, strength 442
  // against 438, took the 6's place, in the first pass with the shipped forest, in the final
  // one with the even forest). 0 = off (the stronger pips win). docs/dice.md real round 42.
  double upper_face_pip = 0.8;
  // Hybrid: a kept die whose pips read_face (die_face.h) counts with at least this
  // confidence reports that count; otherwise the classifier's face (> 1 = never).
  double pip_override_confidence = 1.1;
  // Lattice pip reader (dice_pips.h) on each kept die: the region read is the die's
  // square times pip_region_pad; when a standard layout fits, its count is the face.
  PipParams pips;
  bool use_pips = true;
  double pip_region_pad = 1.1;
  // find_dice also reads each candidate on a square this much wider (1 = off) and keeps
  // that reading when it finds more pips round the same centre.
  double pip_grow = 1.8;
  // ... and, when the own square reads a lone pip, measures the colour channel and the
  // top-face mask of that wider square from the own square's body colour (PipRead::body)
  // where the median of the wider square's middle lies more than wide_read_body_shift grey
  // levels from it: that middle is 1.6x wider than the die's own, so on a small die it
  // holds the table too, and the median of a blue die and a white table (44 levels from
  // the blue) matches neither, the top-face mask shrinks to a sliver beside the pip, the
  // die's own pip falls to edge_margin and a side face's two small pips read a "2" that
  // replaces the 1 (byler 095336, docs/dice.md real round 45). For every own read (not
  // only a lone pip) it moved dice both ways on both halves (even 960 -> 958, odd 940 ->
  // 943). 0 = off (the wider square's own median).
  double wide_read_body_shift = 20;
  // The finder's reads of a candidate (its own square and the wider one): a face of 2..6
  // pips narrower than min_read_face x the candidate's side beside a lone pip of its pip kind
  // PipParams::min_face_lone_pip x as wide is that lone pip (PipParams::min_face, set per
  // square; PipParams::min_face_same_kind): two white glints beside a red 1's pip read "2"
  // (byler 111847), a purple 1's side-face pips "3" (100237). Forest trained on even: even
  // 961 -> 964/1021, odd 942 -> 943/1017, no die lost; docs/dice.md real rounds 46, 47. 0 = off.
  double min_read_face = 0.35;
  // A candidate read as a lone pip is read again on a square lone_pip_grow x its pip
  // diameter; when a face of more pips holding that pip is found there, the candidate is
  // that face (a pip of a five is no "1"). 0 = off.
  double lone_pip_grow = 10.0;
  // Not for a candidate other than a pip cluster (a blob, a distance peak or a pip face) whose lone pip lies within this
  // fraction of its side of its centre: that is a "1" (0 = re-read those too).
  double lone_pip_centred = 0.2;
  // ... and a candidate other than a pip cluster (a blob, a distance peak or a pip face) with a pip of its read within
  // lone_pip_centred x its side of its centre, whose read face is centred further than
  // centred_pip_is_one x its side from its centre, reads that pip alone, a "1"
  // (centred_pip_read): a die's face centre lay within 0.22 of its body's side of the
  // body's centre on `even` (the side faces move the body), and a face holding a pip at the
  // body's centre but centred further out (0.30..0.33) paired the die's one pip with a
  // neighbouring die's pip (a "2" across two dice, whose face centre between them let the
  // suppression drop the die under its neighbour). 0 = off, the default: at 0.28 `even`
  // gained one die (956 -> 957/1021) and `odd` lost one (937 -> 936/1017), docs/dice.md
  // real round 33.
  double centred_pip_is_one = 0;
  // First suppression before reading (speed): accepted candidates are read highest margin
  // first, and one whose centre lies within pre_nms_radius x the larger side of one
  // already taken is not read (0 = read every accepted candidate, ~5x slower).
  double pre_nms_radius = 0.6;
  // ... that radius scaled by the smaller of the two sides (true) or the larger (false):
  // with the larger, one wide candidate (a blob of touching dice) kept first suppressed
  // every die within 0.6 of its side before any was read.
  bool pre_nms_smaller = true;
  // ... and a taken candidate more than pre_nms_wide x wider than the next one does not
  // suppress it before reading: a pip cluster or blob several dice wide (a photo's red pips
  // of smoky dice merge into one "pip" square) centred on a die took its place, its read
  // moved onto a neighbour's face and the final suppression dropped it there, so the die
  // under it was never read (the sizes of one place, three_sizes, are at most 2x apart).
  // Both are read; the final suppression, which sees the reads, chooses. 0 = off. At 2.5
  // (2.1 the same) `even` 956 -> 957/1021 end to end (byler 095849's 1), the check `odd`
  // 937 -> 938/1017 (docs/dice.md real round 35).
  double pre_nms_wide = 2.5;
  // After reading, a candidate wider than this x the face it reads (face_size: 3.7 x the
  // lattice spacing, a lone pip 5.5 x its diameter) moves onto the face and takes this x
  // its size (0 = off).
  double max_side_over_face = 1.6;
  // ... and a candidate wider than this x the median face (the larger of face_size and
  // 5.5 pip diameters) of the candidates that read a layout is dropped (0 = off). Off:
  // 2.2 cost penlington (odd, even model) 7 dice of 418 and 37 faces (its small side-face
  // and lone-pip reads pull the median down, docs/dice.md round 10).
  double max_side_over_median = 0;
  // A read whose pip diameter is more than this x the median pip diameter of the photo's
  // layout reads (at least three) is no die's face: its "pips" are whole dice (a dark die
  // on a pale floor is a pip-like blob; a square several dice wide reads one as a "1", two
  // or three in a row as a "2" or "3", and that box suppresses the dice under it). Such a
  // read is not taken from the wider squares (pip_grow, lone_pip_grow), and a candidate
  // whose own square reads one is dropped before the first suppression, so the next
  // candidate of its place is read instead (0 = off). docs/dice.md round 16.
  double max_pip_over_median = 3.0;
  // The median is over the reads left after the suppression, at least three, whose pips are
  // at least this fraction of the working image's long side (2.6 px at 640: smaller "pips"
  // are glints, pip fragments and keyboard legends, the false detections of a webcam photo,
  // which outnumber its dice and pulled the median under its dice's pips).
  double pip_reference_min = 0.004;
  // Without a model: a lattice read is a die when its face centre lies within
  // lattice_centre x the candidate side of the candidate's centre and the face (3.7 x
  // lattice spacing) spans lattice_size_min..max x the candidate side.
  double lattice_centre = 0.25;
  double lattice_size_min = 0.5;
  double lattice_size_max = 1.6;
  // ... the face's size being the larger of that and lattice_pip_size x the pip diameter
  // (0 = the lattice only).
  double lattice_pip_size = 4.5;
  // A detection whose box lies more than this fraction of its side outside the image is
  // dropped: a die cut by the photo's edge (>= 1 = keep all).
  double max_box_outside = 0.25;
  // Classifier scores averaged over this many quarter turns of the patch (1..4; its ring
  // features are already about rotation-invariant: 1 reads the same, 4x cheaper).
  int model_turns = 1;
  // Face network (dice_cnn.h), with the model only (use_model): the colour patch of each
  // kept die is read by it, and where its best face's probability is at least
  // cnn_min_prob that face is reported (> 1 = never). File "" = default_dice_cnn_path();
  // a missing default file leaves the network out. Views: dihedral views averaged (1..8).
  // Never by default: on the even split's held-out quarter no threshold read more faces
  // than the pips + forest (matched dice 88.5% at best, as without; docs/dice.md round 11);
  // the network's word is weighed by the fusion below instead.
  std::string cnn_path;
  bool use_cnn = true;
  double cnn_min_prob = 2.0;
  int cnn_views = 1;
  // ... and a kept die the network calls not a die with at least this probability is
  // dropped (> 1 = never). 0.98, chosen on the even split's held-out quarter: 20 of 61
  // false detections dropped for 2 of 235 dice (round 11's network; round 14's, shipped,
  // drops fewer: odd precision 82.7% -> 81.6%, recall 96.6% -> 96.7%).
  // 0.8 since real round 29, by round 14's rule (the lowest threshold that drops no matched
  // die), now on the whole even split with the current finder (even forest): 43 of its 190
  // false detections dropped (floor specks, the tray's corner, penlington's side faces and
  // cables), no die lost, no face changed; 0.5 drops 74 and loses one die.
  // 0.6 since real round 43, by the same rule, once the body re-read got its own gate
  // (body_reread_max_not_die 0.8): at 0.6 with the gate tied to it, byler 100300's purple 1
  // (its own square doubted, its body square sure) was no longer re-read and was lost. Even
  // split (even forest): 11 of 89 false detections dropped (penlington's keyboard keys,
  // labels, cables, side faces), no die lost, no face changed; the odd check 14 of 115.
  double cnn_max_not_die = 0.6;
  // ... and a kept die whose box is almost all background is dropped: a speck of dirt on a
  // plain table reads as a 1 or a 2 (its lone dark dot the pip), and its box is the table
  // round it. A die's body differs from the median background (its colour, or its edges and
  // shading), so most of its box is foreground; a speck's box is foreground only at the dot.
  // The share is the fraction of the box's pixels farther than fg_distance from the median
  // background (the finder's own foreground test). 0 = off. 0.06, tuned on the even split
  // (even forest): every detection under 0.114 there is false (specks, and penlington's
  // cable ends and laptop edges), the lowest matched die a white 1 on white at 0.123 (its
  // body is the table's colour: only its pip is foreground), so half that. docs/dice.md
  // real round 37.
  double min_body_share = 0.06;
  // ... and a kept die smaller than the photo's dice whose foreground is a small part of a
  // die of the photo's size is a speck too: its box's share times (side / m)^2, m the median
  // side of the dice min_body_share kept, is the foreground over the area of the photo's
  // median die; under min_body_die_share (and side < m) the die is dropped. A speck of 10-14
  // px on byler's table (the dot 6-9% of its small box, over min_body_share) is 1-2% of a
  // die there. 0 = off. 0.03, tuned on the even split (even forest): every detection under
  // 0.129 there is false, the specks at 0.012-0.013, so a quarter of the lowest matched die;
  // the odd check's lowest matched die is at 0.056. docs/dice.md real round 38.
  double min_body_die_share = 0.03;
  // ... and its probabilities fused with the pip reader's evidence (with the network,
  // when cnn_min_prob does not hand it the face): face = argmax over f of
  //   log(max(s_f / s_max, cnn_fuse_floor)) + cnn_fuse_weight x log(p_f),
  // s_f the pip reader's best layout score of f pips (PipRead::face_score; the faces nested
  // in the face read scaled by PipParams::nested_score; a read 2, 4 or 6's 1 off its own pips,
  // PipParams::lone_pip_off_face), p_f the
  // network's probability of face f. A face the pips found no layout for needs the
  // network 1 / floor^(1/w) times surer; with no layout at all, the network's face.
  // 0 = off (the pips, else the forest, as without the network). 1, chosen on the even
  // split's held-out quarter with the shipped network (matched dice 207 at 0, main's 208,
  // -> 213/232; the plateau 0.5..2); odd split, checked once: 899 -> 903/983 (docs/dice.md round 14).
  double cnn_fuse_weight = 1.0;
  double cnn_fuse_floor = 1e-3;
  // The network reads a kept die's square times this (the finder's square frames the top
  // face; a labelled byler box, which the network learnt from, the whole die).
  double cnn_finder_scale = 1.0;
};

// The face of the fusion above (DiceParams::cnn_fuse_weight): `pip_scores` as
// PipRead::face_score, `cnn` the network's class probabilities; `base_face` when the
// weight is 0.
int fuse_face(const std::array<float, 7>& pip_scores, const std::array<float, 7>& cnn, int base_face, double weight,
              double floor);

class DiceClassifier;

// One die's face read at a known place: the lattice pip count and the classifier.
struct DieRead {
  int face = 0;        // the reported face: the pip count when a layout fits, else the model's
  int pip_face = 0;    // lattice pip reader, 0 = no layout fits
  int model_face = 0;  // classifier's best face (0 without a model)
  float model_margin = 0;
  int cnn_face = 0;     // face network's best face 1..6 (0 without it)
  float cnn_prob = 0;   // ... its probability
  int base_face = 0;    // the face without the network (pips, else the classifier)
  std::array<float, 7> cnn_scores{};  // the network's class probabilities (zero without it)
  PipRead pips;
};
class DiceCnn;

// The learned models `params` asks for: the classifier (use_model) and, with it, the face
// network (use_cnn); a file left "" is the shipped one, which may be missing (null). An
// error only when a file named in `params` cannot be loaded.
struct DiceModels {
  std::shared_ptr<const DiceClassifier> model;
  std::shared_ptr<const DiceCnn> cnn;
};
Result<DiceModels> load_dice_models(const DiceParams& params);

// `region` in pixels of `bgr` (and of `gray`, its grey version); `model` and `cnn` may be
// null. The network reads a square of the region's side times cnn_side_scale.
DieRead read_die(const cv::Mat& bgr, const cv::Mat& gray, const cv::Rect2f& region, const DiceClassifier* model,
                 const DiceParams& params = {}, const DiceCnn* cnn = nullptr, float cnn_side_scale = 1.0f);

// One place that may hold a die, in working-image pixels (long side = work_side).
struct DieCandidate {
  cv::Point2f centre;
  float side = 0;  // estimated top-face side
  int source = 0;  // 0 = body blob, 1 = pip cluster, 2 = distance-transform peak, 3 = pip face
};

// The working image (long side scaled to work_side) and its scale from the input.
cv::Mat dice_work_image(const cv::Mat& image_bgr, const DiceParams& params, double& scale);
std::vector<DieCandidate> dice_candidates(const cv::Mat& work_bgr, const DiceParams& params = {});

// A face found in the image (working pixels) with its pip reading, for
// one_face_per_cube.
struct FaceSpot {
  cv::Point2f centre;
  float side = 0;
  int face = 0;
  PipRead pips;
  float margin = 0;
};
// The face's side from its pips (3.7 x lattice spacing; a lone pip: 5.5 x its
// diameter), else `side`.
float face_size(const FaceSpot& f);
// The median of the spots' face_size (0 for none): one_face_per_cube's typical face.
float median_face(const std::vector<FaceSpot>& spots);
// Which spots to keep so that one die gives one detection (DiceParams::side_face_radius;
// of two such spots one below the other with pips under DiceParams::upper_face_pip x the
// upper one's, the lower one is the side face, whichever pips respond more).
std::vector<bool> one_face_per_cube(const std::vector<FaceSpot>& spots, const DiceParams& params = {});
// Which spots to keep when a spot below another (DiceParams::below_side_face_radius, its
// pips under below_side_face_pip x the other's) is that die's side face; `keep` as
// one_face_per_cube returns it (a spot it dropped drops nothing).
std::vector<bool> below_side_faces(const std::vector<FaceSpot>& spots, std::vector<bool> keep, const DiceParams& params = {});
// Which of the output's dice (their sides and body shares, DiceParams::min_body_share) to
// keep when one smaller than their median side has a foreground under min_body_die_share
// of a die of that side: a speck in a small box (all kept when the rule is off).
std::vector<bool> small_specks_kept(const std::vector<float>& sides, const std::vector<double>& shares,
                                    const DiceParams& params = {});
// The read of body candidate `c` (DiceParams::centred_pip_is_one): `read` itself, or, when
// a pip of it lies within lone_pip_centred x c's side of c's centre and its face is centred
// further than centred_pip_is_one x that side from it, that pip alone (a "1" there, its
// score the read's best; the other faces' scores 0). A pip cluster (source 1) is no body.
PipRead centred_pip_read(const PipRead& read, const DieCandidate& c, const DiceParams& params = {});
// Whether candidate `taken`, read first, keeps candidate `c` from being read (the first
// suppression: DiceParams::pre_nms_radius, pre_nms_smaller, pre_nms_wide).
bool pre_nms_suppresses(const DieCandidate& taken, const DieCandidate& c, const DiceParams& params = {});

struct DieDetection {
  cv::Rect box;  // image pixels
  int face = 0;  // 1..6
  std::string color;
  double confidence = 0;
  // With the face network: its best face and probability, its not-a-die probability, and
  // the face the finder reads without it (scorers weigh the network with these).
  int cnn_face = 0;
  float cnn_prob = 0, cnn_not_die = 0;
  int base_face = 0;
  // ... and, for scorers that fuse the two (fuse_face), the pip reader's layout scores
  // of the die's read and the network's class probabilities (zero without it).
  std::array<float, 7> pip_scores{}, cnn_scores{};
  bool from_gap = false;  // found by the gap candidates (DiceParams::gap_candidates)
};

std::vector<DieDetection> find_dice(const cv::Mat& image_bgr, const DiceParams& params = {});
// As find_dice, but an error when the model file is asked for and cannot be loaded.
Result<std::vector<DieDetection>> find_dice_checked(const cv::Mat& image_bgr, const DiceParams& params = {});

// interfaces.md: [{"x0","y0","x1","y1","face","color","confidence"}].
nlohmann::json to_json(const std::vector<DieDetection>& dice);

}  // namespace hexdice::vision
