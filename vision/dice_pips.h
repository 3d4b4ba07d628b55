// Reading a die's upward face by counting its pips on a fitted lattice (issue 3, real
// photos). Used by the sheet-free dice finder (dice.h) on each die it keeps, and by
// `hexdice eval --real --oracle` on the labelled boxes.
//
// Method (read_pips):
// 1. The region (a square around the die or its top face) is resampled to a canonical
//    patch (PipParams::canon pixels) and searched for blobs with the scale-normalised
//    Laplacian of Gaussian over a range of scales (a cascade of blurs), both polarities
//    (dark pips on a light body and light pips on a dark one), as 3-D (x, y, scale)
//    maxima; for a BGR image also bright blobs of the distance from the body colour (the
//    colour-opponent channel) and of the chroma (max - min of B, G, R: saturated pips,
//    not grey glints), on a dark body also bright blobs of the brightest channel (max of
//    B, G, R: red pips dim on grey), and only blobs on the top face (the body-colour
//    region round the middle) are kept.
// 2. For each polarity and each of the strongest few blobs as a reference, the blobs of
//    about the reference's size (PipParams::size_ratio) and at least a fraction of its
//    strength (min_rel_response) are the pip candidates.
// 3. Every subset of 1..6 candidates is tested against the standard layouts under an
//    affine map (the top face seen obliquely is a parallelogram): all layouts are
//    point-symmetric about the face centre, so pips pair up through their centroid (odd
//    counts: one pip at the centre); 4/5: the two corner pairs span a plausible
//    parallelogram whose sides are within 0.6..1/0.6 of each other and at least 60
//    degrees apart; 6: the middle pair is half way between the corner pairs. The lattice
//    spacing must suit the pip size.
// 4. A subset is rejected when another candidate of the same size and polarity lies on
//    its face (inside the fitted lattice square): one pip of a six is not a "1", the four
//    corners of a five are not a "4". Of the subsets left, the one with the largest
//    total response, discounted by its fit error, wins. No fit: face 0.
// Const functions, deterministic.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

namespace hexdice::vision {

struct PipParams {
  // Canonical patch side in pixels (the region is resampled to it).
  int canon = 64;
  // Blob scales: LoG sigma from min_sigma to max_sigma_frac x canon, ratio sigma_step.
  double min_sigma = 1.3;
  double max_sigma_frac = 0.2;
  double sigma_step = 1.18;
  // Blobs whose centre is further than this fraction of canon from the patch centre
  // are ignored.
  double search_radius = 0.4;
  // Pip candidates: sigma within this ratio of the reference blob, response at least
  // this fraction of it.
  double size_ratio = 1.45;
  double min_rel_response = 0.3;
  // At most this many candidates per reference (subsets enumerated: 2^n).
  int max_candidates = 10;
  // Strongest blobs tried as the reference, per polarity.
  int references = 3;
  // Layout fit error (pair/centre residuals over the lattice spacing) above which a
  // subset is no layout.
  double max_fit = 0.3;
  // Lattice spacing (centre to edge pip) over pip diameter must lie in this range
  // (standard dice: 0.27 / 0.18 = 1.5).
  double min_spacing = 0.8;
  double max_spacing = 3.2;
  // A stray candidate at lattice coordinates (|x|,|y| both) below this rejects a layout.
  double face_extent = 1.55;
  // Ring test: on a ring at `ring` x the blob radius, the contrast to the blob centre must
  // keep the pip's sign: second lowest of 16 samples >= ring_min x their median.
  double ring = 1.4;
  double ring_min = 0.3;
  // Face centre prior: the score is cut by centre_weight x (offset - centre_free), offset =
  // distance of the pips' centroid from the region centre over the region side.
  double centre_free = 0.08;
  double centre_weight = 3.0;
  bool mean_score = false;
  // Score factor of a 2-pip layout. The score sums the pips' responses, so a lone "1"
  // with a weak blob near it (a side face's pip a few pixels inside a dark die's outline,
  // a glint, a marbling spot) read as a "2"; a pair must now outscore the lone pip by
  // 1 / two_weight. 1 = off. (Even split, oracle boxes, byler: 1 -> 84.0%, 0.9 -> 85.0%,
  // 0.75 -> 85.3%, 0.6 -> 85.3% with more true 2s lost.)
  double two_weight = 0.75;
  // Colour-opponent channel (BGR input): pips are also searched, bright, on each pixel's
  // distance from the body colour (the median colour of the middle of the region, over
  // sqrt(3) so a grey step reads as on the grey patch): red pips on a black body, yellow
  // on green, pips on a marbled body show there when grey hardly separates them.
  bool colour_channel = true;
  // Chroma channel (BGR input, with colour_channel): pips are also searched, bright, on
  // each pixel's chroma (max - min of B, G, R). Red pips on a dark, smoky or blue-marbled
  // die are weak on grey, and the distance from the body colour finds the white glint
  // arcs and marbling beside them as strongly; chroma finds the saturated pips and not
  // the grey glints. (Even split, oracle boxes, byler: off 538/618, on 546/618;
  // penlington 400/403 both; R - max(G, B) instead: 547, red only.)
  bool chroma_channel = true;
  // ... a chroma blob is a pip only when its chroma (lightly smoothed) exceeds the body's
  // (the median of the middle of the region) by this much: the colour fringes JPEG leaves
  // round the black pips of a white die are faint chroma blobs, which made a "4" of a
  // penlington "3" with a side face's pips. (Even split, end to end with the even-trained
  // forest: 0 886/1021 (penlington 380), 30 898 (390, as without the channel), 45 893;
  // oracle byler 546 / 546 / 541.)
  double chroma_min_excess = 30.0;
  // ... and a chroma blob's LoG response is multiplied by chroma_weight before the layouts
  // are scored. The kinds' raw responses are not of one scale: a red pip's excess chroma
  // over a smoky body (50..70) is less than a white glint's grey contrast (60..270), so a
  // glint with a pip or a marbling spot ("2", "3", "4" on grey) outscored the red pips'
  // true layout on chroma. 1 = raw. (Round 19 of docs/dice.md, end to end with the even
  // forest and the network: even 920 / 924 / 926 / 928 / 925 of 1021 at 1 / 1.5 / 2 /
  // 2.5 / 3, no die lost at 2; even-val 217 / 217 / 217 / 219 / 216 of 246, labelled boxes
  // 223 -> 224 at 2; from 3 a red "2" reads as a lone chroma "1"; penlington unchanged.)
  double chroma_weight = 2.0;
  // Top face (colour channel on): the region within top_face_distance of the body colour
  // covering the middle of the region, closed with a disc of top_face_close x canon (the
  // pips), its convex hull grown by top_face_grow x canon. Blobs outside it (side faces,
  // neighbours, the background) are no pips of this face. 0 = off.
  double top_face_distance = 20.0;
  double top_face_close = 0.1;
  double top_face_grow = 0.0;
  // A pip of the top face lies well inside the body-colour region: a blob whose centre is
  // closer than edge_margin x its diameter to that region's edge is a pip of a side face
  // seen at the die's outline (a dark die's sides are of its top's colour, so the region
  // is the whole die), a glint on an edge or a corner. 0 = off.
  double edge_margin = 0.55;
  // Faces of 4, 5 and 6 pips fix the lattice: its two sides must be within this ratio
  // and |cos| of their angle at most max_side_cos (a square face seen at most so
  // obliquely). Four pips of the top face and two of a side face are no "6".
  double min_side_ratio = 0.6;
  double max_side_cos = 0.5;
  // Absolute floor on the normalised LoG response (grey levels).
  double min_response = 6.0;
  // The pips of one face are of one colour: a subset of 2..6 whose pips' colours (BGR at
  // their centres, lightly smoothed; the per-channel range over sqrt 3) spread more than
  // this many grey levels is no face. A red "1" on a dark die with a white glint or the
  // white marbling beside it, a white pip and a dark fleck of a translucent die. 0 = off.
  // (Even split, oracle boxes, byler: off 85.3%, 30 85.0%, 45 86.4%, 50 86.6%, 60 86.4%,
  // 70 86.6%, 90 85.9%; penlington 99.3% from 40 up.)
  double max_colour_spread = 60.0;
  // ... and a "2" is no round pip with a dash below it: a pair of dark pips, one round (its
  // elongation at most round_pip_max_elong), the other more than max_pip_shape_spread times
  // as elongated, lying below it (larger y) and squashed about vertically (its sharpest
  // curvature within dash_max_tilt degrees of the vertical), is no 2. A pip's elongation
  // is the ratio of the principal curvatures (Hessian eigenvalues) of the patch blurred at
  // the pip's scale: 1 for a disc, about the ratio of its axes for an ellipse. A camera
  // looking down at a slant sees the side face towards it below the top face, its pips
  // foreshortened vertically into dashes (penlington's white "1" read "2" with such a
  // dash). Byler's top-down photos have elongated blobs (marbling, glints, a dark die's
  // outline) in any direction and place, rarely beside a round one. 0 = off. (docs/dice.md
  // real rounds 39 and 40: 1.3 and 30 set on the even split; round_pip_max_elong came
  // from a byler loss seen on odd, 100216, whose "round" pip measured 2.1-2.5.)
  double max_pip_shape_spread = 1.3;
  double dash_max_tilt = 30.0;
  double round_pip_max_elong = 1.5;
  // A pip is a small part of its face: a blob wider than max_pip_frac x the side of the
  // top-face region (the square root of its area) is no pip: the whole body of a dark
  // die against a light table, or the three pips of a "3" on a dark die merged into one
  // blob at a coarse scale, read as a lone "1". 0 = off. (Even split, oracle boxes,
  // byler: off 86.4%, 0.4 / 0.5 / 0.6 86.7% (3 read as 1: 5 -> 2); penlington 99.3% all.)
  double max_pip_frac = 0.5;
  // A "4" whose pips are at least this many of the pips of a "6" read in another pip kind
  // (grey dark / grey light / colour channel) is that six: red pips on a smoky or dark
  // translucent die are light on grey, where two of them (the middle pair, or the row at
  // the face's edge, where the translucent body's colour changes) respond too weakly, so
  // grey reads a 2x2 block of the six, while the colour channel finds all six but scores
  // below the grey four. 0 = off. (Even split, oracle boxes, byler: 6 read as 4 10 -> 8,
  // 86.7% -> 87.1%, 2 and 3 the same, 4 alone 86.9%; penlington 99.3% unchanged.)
  int six_shared_pips = 3;
  // A "4" that is two rows of a six whose third row was lost (a six whose columns are set
  // closer than standard: its 2x2 blocks are about 0.6..0.8 as wide as long, so they pass
  // min_side_ratio; the third row's pips lie at the top face's edge, where a translucent or
  // smoky body changes colour, or respond too weakly in the kind that read the four): for a
  // four clearly longer than wide (lattice c +- f +- e, |f| < six_missing_aspect |e|), when
  // blobs of the face (any kind of the four's polarity, left by the top-face filters, of
  // 0.5..2x its pip diameter) lie within six_missing_pair x that diameter of both pips of
  // the next row along f (c + 3f +- e, or c - 3f +- e), face_score[6] is raised to the
  // four's score: the pips no longer rule the six out, and the face network decides between
  // the two (DiceParams::cnn_fuse_weight). The face read is not changed. 0 = off. (Round
  // 24 of docs/dice.md; the middle pair of a six's corners, c +- e, tried too: it made
  // true fours sixes.)
  double six_missing_pair = 0.5;
  double six_missing_aspect = 0.85;
  // Brightest channel (BGR input, with colour_channel): on a die whose body is dark (the
  // median of max(B, G, R) over the middle of the region below this), light pips are also
  // searched on max(B, G, R), as a fifth pip kind (the top-face filters apply). The red
  // pips of the smoky and dark byler dice are dim on grey (luma weighs red by 0.3: a red
  // pip of (R, G, B) = (120, 30, 35) is 17 grey levels over a (40, 40, 45) body, 75 in R),
  // and the chroma channel, at JPEG's half resolution, merges the pips of a 5 or a 6 into
  // one blob or drops them at the ring test. A white body (penlington, the white byler
  // dice) is far above any limit tried: those dice read as without it. 0 = off, the
  // default: it reads more of the byler dice right at their labelled boxes, but not more
  // end to end (round 18 of docs/dice.md; even split with the even forest, end to end:
  // off 920/1021, 80 920, 100 921, 130 922, 160 921; labelled boxes, byler: 552, 556, 557,
  // 558, 557 of 618; penlington 392 / 402 in all; odd, 130: end to end 907 -> 906 / 1017,
  // labelled byler boxes 525 -> 528 / 599).
  double value_channel_max_body = 0.0;
  // Hue channel (BGR input, with colour_channel): on a die whose body is coloured (the
  // opponent chroma (R - G, (R + G) / 2 - B) of the middle of the region at least this
  // long), light pips are also searched on each pixel's chroma off the body's hue (its
  // opponent chroma less the part along the body's, halved), as a sixth pip kind, its
  // responses times chroma_weight. The red pips of a blue-marbled die are dark on grey like
  // the blue, while its light marbling is the pips' size and brighter: the grey and
  // body-distance channels read the marbling's spots; on this channel the marbling (the
  // body's hue, paler) is dark and the red pips bright. 0 = off. (Round 27 of docs/dice.md.)
  double hue_channel_min_body = 10.0;
  // Nested layouts: the standard layouts of some faces lie inside others' (a 2 and a 4 in a
  // 6, a 1, 2, 3 and 4 in a 5, a 2 in a 4, a 1 and 2 in a 3), so a face read with k pips also scores
  // every such sub-layout of its own pips about (subset / k) of its score: a clear six's
  // four scores 0.67 of the six by construction, not as evidence of a four, and the fusion
  // with the face network (DiceParams::cnn_fuse_weight), which takes face_score as the
  // pips' likelihood, handed a six that the network gave 0.17 (against 0.41 for 4) to the
  // four. The scores of the faces nested in the face read are multiplied by nested_score;
  // the face read and the other faces' scores are kept. 1 = off. (Real round 30 of
  // docs/dice.md: even split, labelled boxes, byler 562 -> 566/618, no die lost.)
  double nested_score = 0.5;
  // A face read of 2..6 pips whose face (3.7 x its lattice spacing) is narrower than
  // min_face x the square read, while the square's best lone-pip layout has a pip at least
  // min_face_lone_pip x as wide, is that lone pip, a "1" (the two faces' scores swapped):
  // the small "pips" are glints or specks beside a 1's pip (byler 111847's red 1 read "2"
  // from two white glints of 4 px beside its 7.4 px pip). The finder sets min_face per
  // square from the candidate's side (DiceParams::min_read_face); 0 = off, the default.
  double min_face = 0.0;
  double min_face_lone_pip = 1.5;
  // ... and only when that lone pip is of the face's pip kind (the same channel and
  // polarity: byler 111847's glints and pip are both light on grey). A chroma blob of the
  // body's own colour beside a true face is no pip of it: byler 095717's green 2 (light pips
  // 5.3 px, a face 0.34 of its side) has a 10.2 px chroma blob beside it that read a 1
  // without this, and moved the photo's median die side enough to flip its 4 to a 2
  // (docs/dice.md real round 47). false = real round 46's rule.
  bool min_face_same_kind = true;
  // The "1" score of a face read of 2, 4 or 6 pips (the faces without a centre pip) is the
  // best lone-pip layout that is none of that face's pips (within half its pip diameter):
  // each pip of a 2 alone fits the lone-pip layout (its partner lies beyond face_extent of
  // it), so a clear 2 scored a "1" at about half its own score, and the fusion with the face
  // network (DiceParams::cnn_fuse_weight), which doubts the 2 on byler's small dice, read it
  // 1 (byler 111642's blue 2, 095805's purple 2; with the rule 095805 is read right, 111642
  // not yet). A pip of a 2, 4 or 6 is a corner pip, no die's only pip; a lone pip elsewhere
  // in the square (a 1's pip beside glints read "2") still scores the 1. false = off (the best lone pip anywhere, as before). (Real round 48
  // of docs/dice.md: even split, even forest, 964 -> 965/1021 end to end, no die lost.)
  bool lone_pip_off_face = true;
};

struct PipRead {
  int face = 0;                    // 1..6, 0 = no layout fits
  double fit = 1;                  // fit error (lattice spacing units)
  double strength = 0;             // mean pip response (grey levels)
  bool dark_pips = true;           // polarity
  float pip_diameter = 0;          // image pixels
  cv::Point2f centre{0, 0};        // face centre (pip centroid), image pixels
  float spacing = 0;               // lattice spacing, image pixels
  std::vector<cv::Point2f> pips;   // image pixels
  // The best score of a layout of each pip count (face_score[k], k = 1..6; 0 = no subset
  // of k candidates fits; [0] unused): the reader's evidence for every face, which the
  // face network's probabilities are fused with (DiceParams::cnn_fuse_weight). The face
  // read has the largest (the six rule gives the "6" at least the "4"'s score); the faces
  // nested in it are then scaled by PipParams::nested_score. For a read 2, 4 or 6 the 1's is
  // the best lone pip off the face's own pips (PipParams::lone_pip_off_face; 0: none off them).
  std::array<float, 7> face_score{};
  // The body colour (BGR) the colour channel and the top-face mask measured pips against:
  // the median colour of the middle of the square, or the body_colour given; none on a
  // grey image or with the colour channel off.
  std::optional<cv::Vec3f> body;
};

// Reads the face whose pips lie in `region` (image pixels; any size, it is squared
// about its centre) of a grey (CV_8U) or BGR image.
// The colour channel and the top-face mask measure pips against the body colour, the median
// colour of the square's middle; `body_colour` (another read's PipRead::body) replaces it when
// the two lie more than `body_shift` apart (grey levels, as the colour channel measures; 0 =
// never): a square much wider than its die, whose middle holds the table too
// (DiceParams::wide_read_body_shift).
PipRead read_pips(const cv::Mat& image, const cv::Rect2f& region, const PipParams& params = {},
                  const std::optional<cv::Vec3f>& body_colour = std::nullopt, double body_shift = 0);

}  // namespace hexdice::vision
