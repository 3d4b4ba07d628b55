// The board reader: one image (+ layout, + optional calibration, + parameters) ->
// the Observation of interfaces.md: which cells hold a die, its colour and face, and
// whether a guard token stands beside it. A const function with no drawing; a video
// loop may pass a TrackerState so covered markers keep the last pose.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "core/hex.h"
#include "core/result.h"
#include "vision/calibration_data.h"
#include "vision/die_face.h"
#include "vision/register.h"
#include "vision/sheet.h"

namespace hexdice::vision {

// Every default is the value the reader uses; `hexdice read --params FILE` loads these
// (cv::FileStorage YAML/JSON, any subset of keys).
struct ReadParams {
  RegisterParams reg;
  FaceParams face;
  // Sampling of the rectified top-face plane (pixels per mm). 2.5 is about the native
  // resolution of a 720p frame showing the whole A3 sheet.
  double px_per_mm = 2.0;
  // A pixel is "not paper" when its BGR distance from the cell's own paper colour
  // (median of samples on the paper plane near the cell border) exceeds this.
  double paper_distance = 26.0;
  // A patch pixel whose paper point (top-plane mm - d) lies outside the sheet and whose colour
  // is within this BGR distance of the table's (sampled 4-16 mm beyond the sheet's nearest
  // edge) is the table, not foreground: a die at the sheet's edge is not looked for on the
  // table beyond it (docs/reader.md, exact10). 0 = off (the reading before).
  double table_distance = 40.0;
  // (exact13) The same for the sheet's margin round the grid: a patch pixel whose paper point
  // lies on the sheet but in no cell and whose colour is within this BGR distance of that
  // margin's paper (sampled round the cell beyond the grid) is the margin, not foreground,
  // when the margin's paper differs from the cell's own (a tinted outer cell); not on a cell
  // under the occluder (an arm's shade). 0 = off.
  double margin_distance = 26.0;
  // (exact13) A die found only with its shadow pixels and read too weakly
  // (shadow_unit_min_confidence) whose blob rings a hole of 0.6-1.4 top faces with one dark
  // pip at the hole's centre (within 0.15 of the face) is a white 1 on paper of its colour when
  // read there as a white 1 at this confidence or more (not under the occluder; read_face's
  // confidence for a lone pip is low: dev5 604's clear 1 read 0.33). 0 = off.
  double white_one_in_hole = 0.3;
  // (robust34) ... and such a die whose blob rings no hole but whose lone dark pip near the
  // top's place has a face round it of the paper's colour (white_one_lone_pip's test: a white
  // 1's top) is a white 1 when the face crop at that pip reads a white 1 at this confidence or
  // more (not under the occluder). In a dim, shaded frame a white 1's top is as grey as the
  // paper and its blob is its two dark sides, open towards the camera (harsh5 3407 (0,-5)).
  // 0 = off.
  double white_one_lone_pip_shadow = 0.3;
  // A die whose final reading's pips are of the other polarity than its colour's dice carry
  // (dark on black, red, green, blue; light on white, yellow) is hidden (unknown), not
  // reported (docs/reader.md, exact10). false = reported as before.
  bool polarity_check = true;
  // A grey die (no calibrated colours) whose lightness is within this of kGreySplit (0.77 of
  // the white) is named white or black by its final reading's pip polarity (dark pips: white),
  // not by lightness: a glared black top reaches ~0.79. 0 = lightness alone (the reading before).
  double grey_polarity_band = 0.04;
  // Printed grid lines are masked out of the foreground over this width (mm): the line
  // width plus the registration tolerance.
  double grid_line_mm = 2.0;
  // Shadows (and grey side faces) are pixels of the paper's chromaticity at this
  // fraction of its brightness; they are not die top faces.
  double shadow_min = 0.35;
  double shadow_max = 0.86;
  // A cell is looked at only when this fraction of the 8x8 mm square at its centre (top
  // plane) differs from the paper (a die top covers it, pips included).
  double occupied_core_fraction = 0.25;
  // ... or (white dice: their top is paper-coloured) this fraction of it is darker than
  // core_dark_ratio x the paper's luminance (pips). core_dark_fraction = 0: off.
  double core_dark_fraction = 0.04;
  double core_dark_ratio = 0.6;
  // (exact20) (For core_pip_reach_mm below.) ... or a light pip-sized blob: a channel brighter
  // than core_light_ratio x the paper's (a coloured die on paper of its own hue, a blue die on
  // the deep-blue base cell, has its top within paper_distance of the tint, but its white pips
  // are not; on the untinted paper, its ring's brightest quarter, nothing is that bright).
  // new1 1510 (0,4), rendered this round: a blue 3 there reported empty. 0 = off.
  double core_light_ratio = 1.25;
  // ... or (white dice whose pips miss that core: a 2, 3 or 4 standing off-centre) a dark,
  // round, pip-sized blob off the printed grid lies within this radius (mm, top plane) of
  // the cell centre. The full test then decides. 0 = off.
  double core_pip_reach_mm = 12.0;
  // Opening kernel (mm) that removes grid lines and printed text from that mask.
  double open_mm = 2.5;
  // A unit's top face: blob area between these fractions of the nominal 16x16 mm face.
  double unit_area_min = 0.45;
  double unit_area_max = 3.3;
  // ... and its centre within this distance (mm) of the cell centre.
  double unit_max_offset_mm = 10.0;
  // A unit found only when shadow-coloured pixels are kept (black and grey dice look like
  // shadow) is reported only when its face reading is at least this confident: grainy or
  // graded shadows on the paper (under a hand) otherwise read as dice.
  double shadow_unit_min_confidence = 0.2;
  // The top face's centre is looked for within this distance (mm, top plane) of the cell
  // centre: a 16 mm die inside a 29.4 mm cell is at most ~7 mm off it. 0 = anywhere.
  double max_face_offset_mm = 7.5;
  // Pixels of a neighbouring cell's paper colour (tinted unlike this cell's, so they pass
  // the "not paper" test) are left out of the body colour and the top mask.
  bool face_other_paper = true;
  // The face crop read by read_face covers this multiple of the 16 mm face side. Measured
  // 2026-12-01 (hexdice eval, fixtures / dev faces): 1.0 91.3% / 94.9%, 1.15 89.4% / 91.7%,
  // 1.3 84.8% / 88.0%: a wider crop lets the neighbour's sides and the print in.
  double face_crop_scale = 1.0;
  // White dice (top paper-coloured): the face centre is the centroid of the dark,
  // pip-sized blobs near the cell centre (darker than core_dark_ratio x paper) when they
  // look like one face, instead of the slid square.
  bool white_pip_locate = true;
  // (exact20) Those dark pips with the printed grid's band given back where it cuts one: the
  // band (grid_line_mm) marks where the print would be seen, but on a die's top the die hides
  // the print, and a pip the band crosses lost half its pixels and was left out (dev11 1207
  // (-1,-4): a white 5's pip). Dark band pixels within the band's width of a dark pixel off
  // it are the pip's. false = off (the band taken out, as before).
  bool pip_grid_restore = true;
  // (exact18) ... also when the body is not named white but two or more dark pips make one
  // face and under this fraction of that face (its pips left out) differs from the cell's
  // paper: a white top on a pale tinted cell, whose blob is its sides and shadow. 0 = off.
  double white_top_paper_fraction = 0.3;
  // (exact28) With no face of two or more: exactly one dark pip (those pips) within
  // max_face_offset_mm of the top's place, and under this fraction of the face round it
  // differing from the cell's paper, is a white 1's top. Used only for a reading hidden for its
  // pips' polarity (polarity_check): reported as a white 1 instead (dev17 1902 (-5,2): a white 1
  // on white paper whose blob was its shaded side and shadow; the side's two dark pips read as a
  // black 2 at 1.00). Measured on every development set: the white 1's top 0.01; the lone dark
  // pips elsewhere (dim frames, shadows, printed names) 0.76-1.00. 0 = off (hidden, as before).
  double white_one_lone_pip = 0.3;
  // (exact29) With no face of two or more among the dark pips: all of them but one, three or more,
  // making one standard layout (top_face_hypotheses on the pips less each one in turn) within
  // max_face_offset_mm of the top's place, is that face (then white_top_paper_fraction's test as
  // for any face): a face gathered with one dark spot that is not its pip (a side's pip, a
  // printed mark) fits no layout, and no part of it is tried (dev19 2102 (-1,-3): a white 5 on a
  // red-tinted cell, four dark pips, one of the 5's corners lost in the tint). false = off.
  bool white_top_drop_one = true;
  // (exact29) ... and a white reading of two or more dark pips none of which lies within this
  // distance (top-plane mm) of that lone pip is read as that white 1 too: its pips are not on the
  // top the lone pip marks (a side's pips read on a square off the top; dev17 1902 (-5,2)
  // re-rendered: its side's pips now read as a white 2 at 1.00, not hidden for polarity). A white
  // 2 or more whose other pips the dark-pip look missed has the lone pip among its own. 0 = off.
  double white_one_apart_mm = 3.0;
  // White and black dice (by body colour or first reading): read again centred on the round
  // pip-sized blobs of the die's polarity (dark pips; light ones, brighter than
  // pip_light_ratio x the paper, inside the die's region), side-face pips (second moment
  // along d under side_pip_squeeze x the one across it) left out; that reading is kept when
  // it counts as many pips as were found, at least this confident. 0 = off.
  double pip_look_confidence = 0.5;
  double pip_light_ratio = 0.6;
  double side_pip_squeeze = 0.25;
  // That look with the pips found at the camera's resolution on the top plane
  // (find_plane_pips, die_face.h: islands of the die's polarity, at 2x the camera's px/mm) and
  // grouped into standard layouts at the face's real size (top_face_hypotheses): the top
  // face's set (most pips, furthest against the parallax) is read there, and that reading
  // is kept, whatever the first one's confidence, when it counts as many pips, is at least
  // pip_look_confidence and names the die's colour (white for dark pips, black for light);
  // also tried for a blue body or reading (a white die's guard token taken for its body).
  // The patch look above is then skipped; false: only the patch look.
  bool fine_pip_look = true;
  // That look's one-pip layout (a white or black 1) must be at least as sure as the first
  // reading (one spot is a print mark, a shadow's edge or a glare spot as often as a pip),
  // unless the first reading's fitted pips are centred this far (mm) or more off its crop
  // (the crop took in a side face and read its pip: a glared black 1 read as a sure 2) and
  // the 1's pip is within half that offset of its own crop's centre (docs/reader.md "Exact
  // round 11"). 0 = off.
  double one_pip_off_centre_mm = 1.5;
  // A white or black die read below grey_other_below is also looked at in the other grey's
  // polarity (dark pips for a die named black, light for one named white), two pips or more,
  // with the same test (docs/reader.md "whiteblack3": a white die whose blob is its shadow).
  bool grey_other_polarity = true;
  // (exact15) The white/black dice's camera-resolution look (FINEPIP) replaces a first
  // reading at fine_keep_sure or more only with one at least as confident (or the first
  // reading's square off its own pips, one_pip_off_centre_mm): its layouts are tried most
  // pips first, and a dark spot beside the face (a printed line's corner, an arm's edge) with
  // the face's one pip made a 2 read at 0.84 over a white 1 read at 1.00 (dev7 818 (-2,5)).
  // On every set no reading at 0.9 or more was rightly replaced by a less sure one of more
  // pips. 0 = off.
  double fine_keep_sure = 0.95;
  // (exact20) A reading's pips are at the face's real size when the root-mean-square spread of
  // its pips round their centroid is face_scale_min..face_scale_max of its standard layout's at
  // the 16 mm face (the square is metric, on the top plane; each pip taken where the crop shows
  // it, the centroid of its contrast round the lattice's place, pip_layout_scale in read.cpp).
  // The 2248 readings of two pips or more reported right on the 17 sets, the 24 scenes rendered
  // this round and their JPEG 80 copies: 0.98-1.02 (mean 1.001) but two 2s at 1.14 and 1.17; a
  // part of a face read as a smaller face 0.70-0.71, a face pip with a side face's 0.5-0.65, a
  // blue 1 read as a 2 1.28. The band is far wider than the renders' spread: real dice may set
  // their pips a little nearer to or further from the centre than the renders' 0.27 of the side
  // (not measured here). Used by face_scale_gate and sure_face_scale_stands.
  double face_scale_min = 0.85;
  double face_scale_max = 1.2;
  // (exact20) Anywhere, a die whose final reading's pips (two or more) are not at the face's
  // real size is hidden (unknown, reason "size"), not reported. A face cut by a hand or an arm
  // leaves a part of its pips, which the lattice (any spacing 0.17-0.32 of the square) reads as
  // a smaller face: a 6's column of three as a 3, two corners of a 5 as a 2, a white 6's column
  // as a 3, each at 1.00 and 0.72 of the size (dev11 1202 (3,-4), 1205 (-1,4), (1,-2), under the
  // occluder); a square half off a face reads a face pip with a side face's as a 2 (0.63). On
  // the 17 sets no reading reported right is outside face_scale_min..max. false = off.
  bool face_scale_gate = true;
  // (exact20) A sure first reading (fine_keep_sure or more) of more pips than that look's
  // one-pip layout, at the face's real size, stands even when its pips sit
  // one_pip_off_centre_mm off its square (the exception below is for a face read with a side
  // face's pip, which is off-size): a lone pip of it read as a 1 at the same 1.00 replaced a
  // black 4 (new1 1503 (-3,4), rendered this round). false = off.
  bool sure_face_scale_stands = true;
  // (robust38) ... but only when the look, at that threshold, found at least this many pips on
  // the top plane: its disc holds the whole top, so one pip there alone says the first
  // reading's other pips are not on the top. A black 1 whose square slid onto its side face
  // read the top's pip with a side face's (or the lit bevel) as a 2 at the face's size, sure,
  // while the look saw the one pip and read a 1 at 1.00 there (gain1 2804 (3,0), gain2 2906
  // (-4,5), gain3 3104 (-4,1)). new1 1503's black 4 (the rule's case) had two pips found.
  // 0 = off (any count).
  int sure_face_stands_min_pips = 2;
  // (exact21) The patch's pip look (PIPLOOK: the dark or light pips found in the die's region,
  // read again centred on them) does not replace a first reading whose pips (two or more) are
  // at the face's real size (face_scale_min..max) with one whose pips are not: that look's blobs
  // were a part of the face (dev12 1319 (4,-1): a black 4 at 1.00, size 1.01, two of its light
  // pips read as a 2 at 1.00, size 0.71, then hidden by face_scale_gate). false = off.
  bool pip_look_scale_stands = true;
  // (exact17) When the reading of that look's square (cut at the blob's angle) does not pass,
  // the square turned to its pips' own layout (top_face_hypotheses' angle_deg; two pips or
  // more) is read again with the same test, if that turn is at least this many degrees off
  // the blob's; kept, with its angle, when it passes (dev8 906 (0,-1): a glared black 5 whose
  // blob was its dark sides, the square turned 18 degrees off the face, read at 0.30 with the
  // paper in its corners, at 0.55 turned). Only below fine_keep_sure: a sure first reading's
  // square lay on a face. 0 = off.
  double fine_pip_angle_deg = 5.0;
  // The turned square's reading also passes when two independent counts agree: the pips'
  // layout and that reading count the same, fine_pip_angle_agree_pips or more (a spot beside
  // a pip makes a 2), name the die's colour, and it is more confident than the first reading
  // (906's 5 turned reads 5 at 0.32-0.56 as the JPEG's quality goes 85-95, its dark bevel in
  // the square's rim; unturned 0.22-0.37). 0 = only the test above.
  int fine_pip_angle_agree_pips = 3;
  double grey_other_below = 0.9;
  // (robust37) ... and when that look's light pips (a die named white looked at as black),
  // brighter than pip_light_ratio x the paper, make no face, it looks again at light pips
  // brighter than grey_other_lifted_low x the paper, then grey_other_lifted_high: the camera's
  // gain (or a glare) lifts a black top to 0.6-0.8 of the paper white, over pip_light_ratio, so
  // the top and its pips are one light blob there; its pips stand out near the paper (gain3
  // 3100 (1,-1), 3104 (-3,-1), gain4 3519 (2,2): black 6 and 4s read white 2, hidden). In a
  // noisy frame only (noise_grey_level: the gain lifts the sensor's noise with the top). A step
  // at 0 (or not above the one before) is left out; both 0 = off.
  double grey_other_lifted_low = 0.7;
  double grey_other_lifted_high = 0.85;
  // (robust38) ... and in that look (a noisy frame, the light polarity) a lone light pip is a
  // face too when read_face centred on it reads a black 1 at least this confident: the gain
  // lifts a black 1's top to a grey with one light pip in its middle, which the look's two-pip
  // rule (a glare spot on a black top is one light spot) never read (gain3 3104 (-4,0),
  // (-3,3), 3107 (4,0): black 1s read white, hidden). 0 = off.
  double grey_other_lifted_one = 0.9;
  // ... and a cell with no unit blob at all is a white die when those blobs form one face
  // that read_face, centred on them, reads with as many pips, at least this confident,
  // on a white body (the die's top is paper-coloured, its sides shadow-coloured). 0 = off.
  double white_pip_unit_confidence = 0.5;
  // (exact27) ... and its top is seen round its pips: the mean, over the face's pip places
  // without the reading's pips, of their rings' share of the body's colour
  // (count_from_shown_places at the face's real size) is at least this. A pip on a side face lies
  // beyond the top's edge along the parallax and, with the top's own pip, can make a layout (dev19
  // 2106 (4,-5): a white 1 at the sheet's margin, no blob, its pip and a pip of its shaded side read
  // as a sure 2 centred 5.8 mm off: 0.73). Every right reading of this look on every set: 0.90 and
  // more (1s), 0.99 and more (2-6), harsh sets too. A refused layout's pips are a side's: they do
  // not count against a lone pip another threshold finds (2106's 1 is then read). A refused cell
  // with nothing read is hidden ("side"). 0 = off.
  double fine_unit_top_shown = 0.8;
  // (exact15) ... and when that face is a lone pip (a white 1) and the camera-resolution
  // look at this cell (find_plane_pips, the no-blob look before it) ran, its spot must be one
  // of that look's pips (any threshold it reached) within this many mm: a blurred dark spot of
  // the patch that is no pip at full resolution (where two fingers and a printed line meet,
  // dev7 806 (-4,2), read a white 1 at 0.92) is not taken. A true lone pip measured 0.1 mm
  // from its fine pip. 0 = off.
  double pip_unit_fine_mm = 1.5;
  // (robust22) ... and a face of two or more such spots is not taken where that look found
  // pips at one place only (all its thresholds together, within pip_unit_fine_mm): the other
  // spots are no pips at the camera's resolution. The cell is hidden (unknown). On small maps
  // a white 1's pip lies on the printed lines (the fine look leaves it to this look) and a
  // printed mark beside it made a 2 (robust22's radius 8 and 9 hand renders: two white 1s
  // read as 2s). false: the test before.
  bool pip_unit_fine_one_place = true;
  // (robust22) The camera-resolution pip looks that may move a reading (FINEPIP, COLPIP) skip a
  // layout with a pip nearer another cell's centre than its own (on the top plane): a die's
  // pips lie over its own cell. Moot on radius 5-6 A3 maps (a die's pips stay well inside its
  // cell); on small maps a neighbour's pip and a 1's made a sure 2 (robust22's packed radius-9
  // renders: a yellow and a white 1). false: the test before.
  bool pip_look_own_cell = true;
  // (exact37) ... and a layout with a pip on the guard token taken out of the unit's blob (the
  // token's mask, its pip's hole filled): a token's one light pip stands 6-10 mm from a die's
  // pip, a 2's diagonal at the face's size. harsh4 2707 (5,-5): a red 1 read at 0.84 beside its
  // token (taken out, TOKENIN), the coloured pip look's layout of the token's pip and the 1's read
  // a red 2 at 0.66 there and replaced it. false: the test before.
  bool pip_look_off_token = true;
  // (exact15) When no threshold of that camera-resolution look finds a face, the pips of all
  // its thresholds together (one per place: within fine_unit_pool_mm) are looked at as one
  // set; a layout of two or more pips that no single threshold had is read as above (a white 2
  // whose one pip was found only at the looser threshold and the other only at the stricter,
  // dev7 819 (-3,-1), was reported empty). 0 = off.
  double fine_unit_pool_mm = 1.0;
  // (exact19) That camera-resolution look also on a cell under the occluder mask (an arm's
  // shade): a white top there is as dark as the shaded paper round it, so it makes no blob and
  // only its dark pips show. Taken as a white die when a layout of two or more dark pips reads
  // that many pips at this confidence or more on a body as bright as the cell's own shaded
  // paper (occluded_white_ratio), unsaturated (occluded_saturation): the shade gate's white
  // die. dev10 1100 (-5,3): a white 6 in an arm's shadow, hidden for "no blob". 0 = off (the
  // no-blob looks not under the occluder, as before).
  double occluded_pip_unit_confidence = 0.9;
  // A face read with confidence below retry_confidence is read again with the square at
  // the top mask's centre and moved by retry_shift_mm along the die's axes; the most
  // confident reading is kept. retry_confidence = 0: off. 0.3 since read_face fits the
  // pip lattice: its weakest readings (the component counter's fallback) give 0.3, and at
  // 0.5 a third of the synthetic bench's dice were read six times (BM_Read 38.5 ms at 720p,
  // 18.8 ms at 0.3; fixtures face 91.3% -> 91.1%, dev scenes 94.9% -> 96.2%).
  double retry_confidence = 0.3;
  double retry_shift_mm = 1.0;
  // When the pips read_face fitted are centred recentre_min_mm or more off the crop's
  // centre, the face is read again centred on them (at most recentre_steps times, within
  // max_face_offset_mm of the cell centre); kept when its pips are better centred and it
  // is at least 0.7 x as confident. 0 = off, the default: at 1.5 it read 3 more faces of
  // 487 on the fixtures, 1 more of 435 on dev2, none on dev, and cost ~1.2 ms of BM_Read
  // at 720p (~6%; docs/reader.md).
  double recentre_min_mm = 0.0;
  int recentre_steps = 1;
  // (exact19) ... but a weak reading (under weak_recentre_below: at most the component
  // counter's 0.3, hidden beside a hand) whose fitted pips are centred weak_recentre_min_mm to
  // weak_recentre_max_mm off its square is read again centred on them, once, and kept when it
  // counts the same pips, more confidently, its pips better centred (dev10 1100 (1,-1): a glared
  // green 6, 1.1 mm off, 0.30 -> 0.68). Only the same count: a move of 5 mm read a covered die's
  // remnant as a sure 1 (dev8 917 (1,-3), dev10 1118 (-2,5)). weak_recentre_below = 0: off.
  double weak_recentre_below = 0.31;
  double weak_recentre_min_mm = 1.0;
  double weak_recentre_max_mm = 2.5;
  // ... a face of this many pips or more (any two spots, an arm's grain under the occluder, make
  // a 2; such 2s on empty cells read again there came out surer, 0.30 -> 0.50).
  int weak_recentre_min_pips = 3;
  // (exact21) ... and a face of 1 off the occluder mask: its one pip is the whole layout, so a
  // square weak_recentre_min_mm..max_mm off it (its far edge on the paper or a token beyond the
  // top's rim) is read again centred on it, with the same test (the same count, more sure,
  // better centred). dev12 1305 (-3,-1): a red 1 beside its token, the pip 1.9 mm off, read 1
  // at 0.30 (hidden as weak); centred 1 at 1.00. Not under the occluder: a covered face's
  // remnant is often a lone pip. The reading centred on the one pip must be sure (fine_keep_sure):
  // an empty cell's grey blob read 1 at 0.30 came out 1 at 0.50 there (new1 1527 (3,0)). false = off.
  bool weak_recentre_one = true;
  // (speed22) The retries (retry_confidence's squares, weak_recentre's) keep a reading only
  // when it is more confident than the best so far: read with FaceReader::read_above, which
  // skips the component counter when its capped fallback could not get above that. The kept
  // readings are the same; fewer component reads (ReadProfile::component_reads). false = off.
  bool retry_read_above = true;
  // Top-face pixels are within this BGR distance of the die's body colour.
  double body_distance = 55.0;
  // Coloured dice (the first reading's body, from the crop, names a colour): when the
  // square covers under colour_cover_min of the die's pixels of that colour (pips filled),
  // it is slid again over them and read; kept when it covers >= colour_cover_gain more,
  // reads the same colour and is >= colour_cover_confidence. 0 = off.
  double colour_cover_min = 0.75;
  double colour_cover_gain = 0.1;
  double colour_cover_confidence = 0.5;
  double colour_cover_min_after = 0.65;
  double colour_cover_lum = 0.7;
  // A coloured die's reading below this confidence is read again from the crop with only
  // its pips' polarity left (light pips on red, green and blue dice: every pixel darker than
  // the body set to the body; dark pips on yellow: every lighter one); the more confident
  // reading is kept. The dark rim and side faces of a pale, glared top outshone its pale
  // pips (docs/reader.md, colour3). 0 = off.
  double pip_polarity_below = 0.9;
  // A coloured die read below this confidence, or whose square covers under
  // colour_cover_min of its lit top colour, is looked at with its pips at the camera's
  // resolution (find_plane_pips with its colour's polarity: light on red, green, blue, dark
  // on yellow; thresholds between the crop's body and the paper), grouped into standard
  // layouts at the face's real size (most pips first); the face is read centred on such a
  // layout and kept when it counts as many pips, is >= pip_look_confidence, names the same
  // colour and has more pips than the first reading (two or more) or is more confident.
  // The square's angle comes from a top mask that a pip at the rim notches: it sat 2-4 mm
  // off the face and cut a row of pips (docs/reader.md "Exact round 11"). 0 = off.
  double coloured_pip_look_below = 0.9;
  // That look also in a frame with a hand or an arm in view (where every cell is near_hand
  // by default, hand_near_mm); never on a cell under the hand (the one-polarity re-read,
  // pip_polarity_below, is not done there: a partly covered die's lit remnant read as a sure
  // 1; this look needs a whole standard layout of pips and a reading that agrees with it).
  // false: not with a hand in view.
  bool coloured_pip_look_near_hand = true;
  // (exact17) That look also on a cell under the occluder mask (a hand or arm over or beside
  // it: the occluder gate then decides whether the reading is reported), where only a layout
  // of this many pips or more may replace the reading (a part-covered face's remnant makes
  // layouts of one or two; an agreeing layout does not raise the reading's confidence there).
  // dev8 916 (0,-1): a green 3 beside an arm, its top mask half the top, read 2 at 1.00; its
  // three pips found on the top plane read 3 at 1.00. 0 = never under the occluder (as before).
  int coloured_pip_look_occluded_pips = 3;
  // That look needs light pips to stand out of the body: on red, green and blue dice it is
  // made only when the crop's body luminance (b + 2g + r) is under this fraction of the
  // cell's paper. It was 0.85 (exact11); a pale blue top under glare measured 0.853 of its
  // paper, its white pips still plain to the eye (docs/reader.md "Exact round 12").
  double coloured_pip_look_body_max = 0.92;
  // When that look finds a standard layout of two or more pips of the first reading's
  // count where the square already is (the first reading stands), two independent counts
  // agree: an unsure first reading (the lattice tied with a layout of fewer pips at a
  // smaller spacing, and the component counter's 0.3 took over) is raised to this
  // confidence. 0 = off (the reading keeps its own confidence).
  double coloured_pip_agree_confidence = 0.5;
  // (exact18) A layout of fewer pips than the face (glare on the others: a pale top's third
  // pip too faint to be found) whose reading, centred on it, counts more pips than the layout
  // at this confidence or more and names the same colour, replaces an unsure first reading
  // (under coloured_pip_look_below): the layout gives where the face is, the sure reading
  // there how many pips. dev9 1004 (-1,4): a glared green 3, two pips found, the square 1.7 mm
  // off read 2 at 0.31 (hidden); read at the layout's centre: 3 at 0.98. Not under the
  // occluder. 0 = off (the reading must count as many as the layout, as before).
  double coloured_pip_more_sure = 0.95;
  // (exact27) A guard token is a blue cube with one pip on top: a first reading of a blue 1 in a
  // cell where the coloured pip look finds a standard layout of two or more light pips, read
  // there surely (at this confidence or more) as that count on a grey body (a black die), is
  // that die with its token beside it (one die a cell): the layout's reading replaces the
  // token's. dev19 2100 (-4,3): a glared black 6 beside its token, the token's blob taken for the
  // unit and read blue 1 (hidden, cut); the layout look found the 6 12.8 mm off at 1.00, named
  // black, and was refused for naming another colour. 0 = off (the same colour needed, as before).
  double token_one_other_die = 0.9;
  // (exact43) ... or of up to this many pips: the token's pip and one of the die's, read together
  // on a square between them (dev15 1702 (0,4): a black 3 read blue 2 at 1.00). 1 = the blue 1 alone.
  int token_other_die_max_face = 2;
  // (robust38) ... and in a noisy frame, a first reading of any colour under
  // coloured_pip_look_below, where that look finds a standard layout of three or more light
  // pips read there as that count at this confidence or more on a grey body (black, its pips
  // light), is that black die: the gain lifts a black top to a grey the cell's tint colours
  // (gain1 2801 (-2,-3): a black 6 on a red home cell named red, read red 3 at 0.30, hidden;
  // the red look found the 6 and read it at 1.00, named black, and was refused for naming
  // another colour). 0 = off.
  double coloured_pip_grey_confidence = 0.95;
  // A cell's paper is the brightest quarter of samples round its border; a glared yellow
  // top there is brighter than the paper and was taken for it (its top then "paper", the
  // square slid onto its shadow). For the per-cell look (not under or beside a hand), the
  // samples more saturated than the median sample and further than this in chromaticity
  // ((b, g, r) / (b + g + r)) from it are left out when that moves the estimate by more
  // than this. 0 = off.
  double paper_chroma_tolerance = 0.04;
  // Colours are named against the light on the die (misread4, docs/reader.md). The light
  // on a cell is its paper against the lit paper of its tint (the upper quartile of the
  // papers of the cells printed in that tint, not under a hand), times the white. A cell
  // darker than colour_shade_below x the white (an arm's or a finger's shade) names its
  // die's colours against its own light, when that light's chromaticity ((b, g, r) / sum)
  // is within colour_shade_chroma of the white's (a shade keeps the light's colour; a ring
  // of skin or sleeve does not). 0 = off.
  double colour_shade_below = 0.9;
  // (exact20) ... also on a cell under the occluder mask (an arm's shade), where only that
  // light's brightness is taken (the white scaled to it, its colour the white's): the shade's
  // own cast is not the die top's light (the paper in an arm's shadow went blue, the white die
  // on it did not). A white die there is then white, not black, and its dark pips are looked
  // for (dev11 1216 (3,-3): a white 1 at 0.52 of the white, 0.84 of its shaded paper, read as
  // a black 2 and hidden; dev10 1100 (-2,1): a white 5 with its token, named blue). false =
  // not under the occluder (the sheet's light there, as before).
  bool colour_shade_occluded = true;
  // The white patch is checked against the sheet's light (the lit paper of the untinted
  // cells): darker than colour_white_check x it or further than colour_shade_chroma in
  // chromaticity (under an arm, in its shade), colours are named against that light
  // instead. 0 = off.
  double colour_white_check = 0.85;
  double colour_shade_chroma = 0.05;
  // A guard token: a second blob of this nominal side (mm), area within
  // guard_area_min..2.5 of it, named blue.
  double guard_side_mm = 10.0;
  // Guard pixels are blue with at least this saturation ((max - min) / max of the
  // white-balanced colour; a glared token's top measured ~0.25) and not of the paper colour
  // of the cell whose print they show (a tinted base cell's pale blue, seen across the
  // cell border, is print, not a token). The blob's centre, taken back along
  // the parallax, is within guard_max_offset_mm of the cell centre (a guard stands
  // 6.5-10 mm from it; a neighbour's die or token across the cell border is further).
  double guard_min_saturation = 0.2;
  bool guard_print_test = true;  // false: any blue pixel counts (the test before)
  // A pixel of its cell's paper chromaticity (within this of it, (b, g, r) / (b + g + r)) and
  // shadow_min..1.05 of the paper's brightness is print too: the paper of a deep-tinted base
  // cell in a little less light than its estimate (the brightest quarter of the ring) is
  // 0.9 of it, over paper_distance away in BGR, and was taken for a token's blue (fixture 005
  // (0,4): the token joined that tint, 3.25 guard faces, over the 2.5 cap; round 13's 607
  // (0,4): a false guard of shaded tint). A token's deep-blue sides are far from any print's
  // chromaticity. The same tolerance as the shadow mask's; 0 = off (the test before).
  double guard_print_chroma = 0.04;
  // Blue pixels on the grid lines drawn on the top plane count too, and the blue mask is
  // closed before its components are taken (a line or a pip cut a token in two pieces, each
  // under guard_area_min). false: the test before.
  bool guard_on_grid = true;
  double guard_area_min = 0.2;
  double guard_max_offset_mm = 12.0;
  // (exact47) A 16 mm die and a 10 mm token share a cell only side by side, the die off the
  // centre and the token on the other side. A blob beyond guard_max_offset_mm of the centre also
  // stands as a token when it is within it of the centre moved away from the die by this many times
  // the die's offset (its top centre less the cell centre). dev8 903 (0,4) (a green 1 7.0 mm off
  // the centre, the token's far part at 12.005 mm) and dev17 1907 (3,-4) (a blue 3 5.4 mm off, its
  // token and sides at 12.02 mm): guards missed. At 0.5 they stand 8.5 and 9.4 mm from the moved
  // centre; the blobs a plain 14 mm bar let in (a neighbour's blue side, the tint's band; the dice
  // 1.2-4.2 mm off) stand 12.9 mm or more from it. 0 = off (the cell centre only).
  double guard_room_shift = 0.5;
  // (robust22) ... and the blob's centre, taken back along the parallax, lies in the die's own
  // cell (no other cell's centre is nearer). Moot where a cell's inscribed radius is over
  // guard_max_offset_mm (hexes of 13.9 mm and more: radius 5 and 6 on A3); on smaller maps a die
  // in the next cell is within guard_max_offset_mm and its blue top was read as a guard
  // (robust22's packed radius-8 renders: 5 false guards in 103 dice). false: the test before.
  bool guard_in_own_cell = true;
  // A token's blob is solid: its largest inscribed disc is at least guard_core_ratio x the
  // side of a square of the blob's area (a square: 1; a token's top with a lit side beside
  // it, 10 x 18 mm: 0.74; true tokens on the 105 scenes, partly hidden ones too: >= 0.64).
  // A die's cast shadow on a blue-tinted cell with the cell's border line beside it, closed
  // into one blob of a token's area, is a band (dev4 516: 0.56; docs/reader.md "Exact round
  // 12"). 0 = off.
  double guard_core_ratio = 0.6;
  // (exact38) ... the bar for a blob the over-cap look below (guard_core_open) opened out of a
  // larger one: its pixels deep blue and opened with a disc of half the token's side, so no thin
  // band of print or shadow is left in it, but a token joined to its cell's deep-tinted print or
  // to a blue die's side keeps a stub of it (dev17 1904 (0,4): 0.58; dev4n 507 (-1,3): 0.57).
  // Every opened blob on the 67 scored sets is a token (5: 0.57-0.83); any bar from 0 to 0.57
  // reads them alike: 0.5 is under both stubs with room. 0 = off (the opened blob is held to
  // guard_core_ratio, as before exact38); with guard_core_ratio 0 no blob has a core test.
  double guard_opened_core_ratio = 0.5;
  // (exact32) ... measured with the blob's holes of under guard_core_hole guard faces filled: a
  // token's top has its pip at its centre, a hole in its blob where the close does not shut it
  // (a noisy frame's pale token, gain3 3100 (0,3): 1.00 faces, its pip and the noise round it a
  // hole of ~0.08, core 0.50 with it, its guard missed). A band round a die encloses the die (a
  // unit face is 2.56 guard faces): no hole that small. 0 = off (the holes kept).
  double guard_core_hole = 0.15;
  // (exact27) A blue blob over the 2.5 guard-face cap may be the token joined to what is not a
  // token: the band of its cell's deep-tinted print round a white die (dev17 1904 (0,4), dev6 717
  // (0,4): 2.6-2.8 guard faces, the die's lit top taken for the cell's paper so the print passed
  // the print test) or a blue die's side (dev4n 507 (-1,3): 2.70). A token is a die's deep blue
  // and a solid 10 mm square; the print is pale, the bands thin. Such a blob's pixels of at least
  // guard_core_saturation (saturated_blue, against the sheet's light), closed, then opened with a
  // disc of guard_core_open x the token's side, are tested again as blobs (area, offset, own cell,
  // core). Over-cap blobs on the dev sets: tinted print round white dice without a token
  // (dev5 603 (0,4), scenes_round20 604 (0,4)) 0.26-0.41 saturation at their 10th-90th
  // percentiles, nothing of it left; the tokens' upper quarter 0.47-0.73 (717's glared top 0.39
  // at its 75th). guard_core_open 0 = off (the test before); guard_core_saturation 0 = every pixel
  // of the blob (opening alone: 603's and 604's print then passed as guards).
  double guard_core_open = 0.5;
  double guard_core_saturation = 0.38;
  // (exact32) In a noisy frame (noise_grey_level and noise_white_level both passed: a webcam's
  // raised gain) a blob of under guard_part_area guard faces is a token only when it is deep blue
  // in the mean (its mean colour against the sheet's light, the GUARD debug line's `sat`, at
  // guard_part_saturation or more). There the pale tinted print and its shadow pass the per-pixel
  // test (saturation >= guard_min_saturation, off the print by more than guard_print_chroma)
  // pixel by pixel, and a patch of them closes into a blob of a token's part. In the 55 noisy
  // frames of the scored renders such blobs (under 0.5 faces, passing every other test) measured
  // 0.22-0.41 in the mean (8 blobs; 5 were false guards: gain1 2803 (0,4), gain2 2918 (-2,5),
  // gain3 3102 (-1,4), (-1,5), 3107 (0,4)), a part-hidden token's lit top 0.57 and 0.65 (gain4
  // 3519 (-3,-1), dev5 605 (4,-3)). Only small blobs: a whole token in a noisy frame may be paler
  // (gain3 3101 (0,0): 0.58 faces, 0.35); only noisy frames: a glared token's top in a clean one
  // (dev14 1616 (0,1), 0.25 faces) measured 0.33. guard_part_area 0 = off. Set on 8 rendered
  // blobs only (false 0.22-0.41, true 0.57-0.65): a real token part-hidden or glared in a noisy
  // frame could measure under 0.45 and go unseen; the rule does not yet check that the print
  // under the blob is the blue-tinted kind that causes the false blobs (review, session 31).
  // (exact42) 0.6, was 0.5: gain3 3102 (-1,5), a false guard of the tinted print at 0.54 faces,
  // 0.22 saturated, was just over the bar. A whole token in the noisy frames of the scored sets
  // measures 0.77-0.80 faces at 0.34-0.40 (gain1 2806 (-5,0), gain2 2907 (5,-2), gain3 3107
  // (-3,1), gain4 3505 (1,-3), 3519 (3,0): lost at a bar of 0.8), no blob lies between 0.54 and 0.77.
  double guard_part_area = 0.6;
  double guard_part_saturation = 0.45;
  // (exact43) A token beside another die (a neighbour's blue die) makes one blob with it, too far
  // from the cell's centre or too large to pass (dev18 2004 (0,-4)). After the cell loop, a
  // reported die whose guard look found no token has the other dice's footprints (their top
  // squares at guard_other_feet x the face's side, swept along their d, as its own is at 1.08)
  // taken out of its blue mask, the mask opened again, and its blobs tested by the plain bars
  // (size, offset, own cell, core; not the opened-blob retry for a blob over the size cap).
  // The footprints are those the cell loop's square reads placed: a die reported on an early
  // path (the fine unit, the lone pip, the white 1 in a hole) leaves none, a die hidden later
  // keeps its own. 0 = off.
  double guard_other_feet = 1.08;
  // A unit blob under this many nominal 16x16 mm faces (after the parallax erosion) in
  // deep blue is a guard token (beside a white or black die that barely differs from the
  // paper or its shadow): it is taken out and the unit looked for again. Fixture blobs:
  // tokens 0.50-0.75, dice 0.8-1.9. 0 = off.
  double guard_like_area = 0.78;
  // A unit blob under guard_like_area unit faces read as blue is looked at as a white or
  // black die's guard token (the camera-resolution pip look, fine_pip_look) even when its
  // reading is sure: a 10 mm token's one light pip reads as a sure blue 1, and a blob that
  // small is a token's size, not a die's. The die is then only taken when its own pips read
  // there on a white/black body (docs/reader.md "Exact round 11"). false: only an unsure
  // blue reading is (the test before).
  bool token_look_small_blob = true;
  // (exact20) That look (only the token said so) needs the body round the face it found to be
  // of the die's colour; a grey body there is named by the look's pip polarity (dark pips: a
  // white die; name_color's pip_polarity), not by its lightness: a white top in an arm's shade
  // is 0.74 of its cell's light, black by lightness (dev6n 718 (2,-3): a white 3 with its
  // token, read as the token's blue 2). A blue body stays blue. false = by lightness.
  bool token_look_polarity = true;
  // A unit blob of at least this many unit faces may be a die with its guard token joined
  // to it (beside it, touching on the top plane): when the blob's deep-blue pixels (as the
  // guard test's, saturation >= guard_min_saturation, named blue) make one component of a
  // token's size (guard_area_min guard faces .. guard_like_area unit faces) and the rest
  // of the blob is a unit's size or more, that component is the token: taken out, the
  // unit looked for again (restored when none is found). A blue die with its blue token
  // is one blue component of a die's size: left alone. dev4 505: a red 3 read as its
  // token's blue 1 (docs/reader.md "Exact round 12"). 0 = off.
  // (exact25) 1.1, was 1.3: a die seen small and steep (a 1280 px frame, tilt 30) with its token
  // against its side measured 1.29 (dev17 1907 (2,-1): a green 4, its guard missed: the token
  // inside the unit's blob, out of the guard search). The token-sized blue part and the
  // coloured rest of a unit's size decide; 1.0 changed no other die on the dev sets.
  double token_in_blob_area = 1.1;
  // With no unit blob, a deep-blue foreground component of a token's size standing in the
  // cell is the token (a white die found by its pips then has its guard; docs/reader.md
  // "whiteblack3"). false: only a unit-sized blue blob is taken for a token.
  bool guard_alone = true;
  // (exact47) A token taken out of a blob under guard_like_area unit faces is not the guard of the
  // white or black die then found with no blob of its own (its pips: the fine and patch pip looks,
  // a white 1 in a hole) when the blob's mean colour is its cell's paper in shade: shadow_min..1.05
  // of the paper's brightness and within this of its chromaticity (the largest of the three
  // channels' shares' differences; the guard look's print test, guard_print_chroma, on the mean).
  // dev5 616 (-1,4): a white 4 in an arm's shade on a blue-tinted cell, the shaded print round it a
  // deep-blue 0.72-unit blob 0.005 off its paper's chromaticity, reported as its guard. The true
  // tokens taken out so on the 86 sets measured 0.045-0.069 (docs/reader.md "Exact round 47").
  // 0 = off (any such token is the guard, the test before).
  double token_small_blob_print_chroma = 0.02;
  // Hand rejection (0 = off, the default): when the non-paper, non-shadow pixels of a
  // cell outside the unit's footprint (top face swept to its base) exceed this many
  // nominal 16x16 mm faces, the cell is taken as covered by a hand and not reported.
  // Off because on the rendered fixtures hand-covered cells measured 1.0-2.0 and real
  // dice up to 1.3: at 1.0 it cost 7 points of recall and removed few false positives.
  double hand_rest_area = 0.0;
  // Hands and arms over the sheet: the sheet is rectified once at hand_px_per_mm; skin
  // pixels (relative to the paper's own colour: red > green > blue, chroma above
  // hand_chroma, hue hand_hue_min..hand_hue_max degrees, whatever the shading; no die
  // colour and no printed tint has that hue) that form a region of more than
  // hand_min_area_mm2 holding a disc of hand_core_mm (a palm or a forearm; a die with its
  // sides and shadow never holds one) are a hand. A cell whose die's top face would be
  // seen through it (more than hand_cover_fraction of its 16 mm square, the hand grown by
  // hand_margin_mm) is not reported and is listed in Observation::hidden; elsewhere the
  // hand's pixels are not foreground. hand_min_area_mm2 = 0 turns it off.
  double hand_min_area_mm2 = 3000.0;
  double hand_core_mm = 26.0;
  double hand_cover_fraction = 0.3;
  double hand_chroma = 0.10;
  double hand_hue_min = 12.0;
  double hand_hue_max = 40.0;
  double hand_margin_mm = 2.0;
  // Cells under a hand, from the print: a cell with at most hand_max_edges of its six
  // printed edges seen (a grid line darker by grid_line_contrast than the paper beside
  // it) is covered: not reported, listed in Observation::hidden. -1 = off.
  int hand_max_edges = 1;
  // A cell failing that test is looked at again with the grid line searched across
  // +-edge_slack_mm of where the pose puts it (registration from two markers far away
  // misplaces the print by a few px), an edge seen when edge_slack_hits of its five
  // points find the line within 1 mm of each other. 0 = off (the single +-1 mm look).
  double edge_slack_mm = 10.0;
  int edge_slack_hits = 3;
  // Refit the pose to the printed grid when at least grid_refine_min_cells cells in the
  // frame miss their grid where the pose puts it but show it, on one shift, within
  // edge_slack_mm (read.cpp, "The print where the pose puts it"). The second look above
  // is made only on a refitted pose. false = off.
  bool grid_refine = true;
  int grid_refine_min_cells = 3;
  // (exact13) The refit also when the median shift of every cell in view whose edges agree
  // on one (5 of 6) is at least this (mm), the search having run: the cells failing the
  // first look are then mostly under dice, with no edges to measure, while the print round
  // them says the pose is off (dev5 607: two markers at one side, shifts 0-7.5 mm). 0 = off
  // (only the failing cells' median, >= 1.5 mm, as before).
  double grid_refine_all_shift_mm = 1.5;
  // The refit is kept when 80% of the grid's point pairs fit it and at least this many of
  // the markers' corners (within 4 px). Was 8 (two markers' worth); 7 since exact13: with
  // two markers in view one corner found 4 px off is what misled the pose (dev5 607), and
  // the refit that the grid agrees with puts it back.
  int grid_refine_min_corners = 7;
  // Whatever hides the sheet, from the print (sleeves, arms of any skin tone, an arm's
  // shadow; docs/reader.md "Hands and arms"): the frame on the paper plane against the
  // expected print of the sheet (rendered from the layout; a cell whose tint differs
  // from the drawing while its six printed edges are seen keeps its measured tint). A
  // pixel differs when darker than occluder_dark x the print (relative to the paper's
  // white) or its chromaticity is more than occluder_chroma from the print's. The parts
  // of that mask holding a disc of occluder_core_mm (an arm is ~60-80 mm wide, a palm
  // ~80 mm; a die with its sides and shadow at most ~16 x 27 mm, neighbouring dice leave
  // paper between them), over occluder_min_area_mm2 in all, grown by hand_margin_mm, are
  // covered like the skin mask's hand. occluder_core_mm = 0: off.
  double occluder_core_mm = 40.0;
  double occluder_min_area_mm2 = 3000.0;
  double occluder_dark = 0.72;
  double occluder_chroma = 0.03;
  // ... and the soft edge of such a shadow: paper darker than occluder_penumbra x its
  // print (averaged over 5 mm: the grain of an area light's half-shadow), connected to
  // the covered part and within occluder_penumbra_mm of it. occluder_penumbra = 0: off.
  double occluder_penumbra = 0.88;
  double occluder_penumbra_mm = 60.0;
  // (speed30) The distance maps that are only compared with a threshold (the occluder's core,
  // the opening round it and the penumbra's reach; the skin mask's hand core) made as erosions
  // and dilations by the 5x5 chamfer ball on rows of bits (chamfer5_threshold, mask_ops.h):
  // the same masks, no distance map. false: OpenCV's distanceTransform, as before.
  bool chamfer_bits = true;
  // A cell is also covered when more than this fraction of a 5x5 grid over its own paper
  // (+-10.5 mm round the centre, the paper plane) lies under a hand, an arm or its
  // shadow: its paper reference (and so every later test) is not the paper's.
  double hand_paper_cover_fraction = 0.3;
  // A cell covered by the skin or occluder mask (not by the printed-edge test: nothing of
  // the print seen there) is read all the same: most such cells with a die are in an arm's
  // shadow, the die plainly visible. Its die is reported only when the face reads with at
  // least occluded_min_confidence and the body, relative to the cell's own paper, is darker
  // than occluded_dark_ratio (a black die's albedo; a shadow keeps the paper's: shadow_min
  // is 0.35) or more saturated than occluded_saturation and not of skin's hue (a coloured
  // die; 0.25, was 0.4: a shadowed paper keeps its own paper's chromaticity, ~0, while a
  // green die in an arm's shade under warm light measured 0.30). Else the cell stays hidden (a white die in shadow looks like the shadowed paper;
  // an arm over the die makes its blob too large for a unit). occluded_min_confidence = 0:
  // always hidden (the behaviour before).
  // (exact42) 0.45, was 0.6 (occupancy round 2's bar, set against the component counter's
  // guesses capped at 0.30): a clean body's lattice reading at 0.47-0.57 was right in all six
  // hidden cases of the 75 scored sets (gain2 2917 (-2,-1) red 5 0.56, harsh5 3404 (-4,1) black
  // 4 0.52, gain4 3519 (-5,3) black 3 0.47 and their fixture copies); the highest wrong or false
  // reading under the gate's other tests measured 0.38 (gain2 2901 (1,4) green 1 for a 4,
  // scenes 015 (-1,-1), a false blue 2 at 0.36).
  double occluded_min_confidence = 0.45;
  double occluded_dark_ratio = 0.36;
  double occluded_saturation = 0.25;
  // (exact44) ... but a body darker than occluded_dark_ratio is not clean when it is both of
  // skin's hue (skin_hued) and saturated against its cell's paper by this much or more: a
  // dark-skinned fingertip over an empty cell is dark too (harsh2 2516 (-4,5): lum 0.35 of its
  // paper, sat 0.26, skin's hue, read a false red 1 at 0.73 under the hand). A black die is grey
  // against its paper (dev18 2005 (2,-2), a black 5 at 1.00: lum 0.15, sat 0.06, yet of skin's
  // hue against the cell's light; the dark skin-hued bodies of the fixture sets measured
  // 0.21-0.33). 0 = off (any dark body clean, as before).
  double occluded_dark_skin_saturation = 0.15;
  // ... or, a white or pale die in the shade: its body at least occluded_white_ratio x its
  // cell's own (shaded) paper, grey or pale, two or more dark pips (a black die's are light)
  // read with at least occluded_white_min_confidence; a grey body is then named white (it
  // looks grey or black against the lit sheet's white). The shaded paper's own grain read
  // at most 0.78 with two or more pips on the own renders, 1.0 as a one. 0 = off.
  double occluded_white_min_confidence = 0.9;
  double occluded_white_ratio = 0.75;
  // (exact20) ... that ratio against the light right beside the die when it is darker than the
  // cell's paper estimate (the median paper-coloured sample on a ring of this radius, mm, round
  // the die's base, on the paper plane, light_beside in read.cpp). The estimate is its cell's
  // ring's brightest quarter, under an arm's half-shadow the ring's lit side: dev6n 718 (2,-3), a
  // white 3 in the shade, was 0.72 of it and 0.94 of the paper beside it. 0 = against the
  // paper estimate alone (the test before).
  double occluded_light_beside_mm = 13.0;
  // (exact15) ... and not when the camera-resolution look for dark pips (the fine pip look)
  // found two or more dark pips near the cell at some threshold but no standard layout
  // among them at any threshold it reached: the pips seen are not the face that was read (a
  // white 6 under an arm, one row of three pips seen, read a 3 at 1.00 by the square laid
  // over the cut top; the row's pitch is a 6's side, not a 3's diagonal). false = off.
  bool occluded_white_fine_layout = true;
  // (exact15) A white 1 too (one pip, not two or more), when the camera-resolution look for
  // dark pips found that one pip as the face there (a layout of one, its reading standing or
  // agreeing at full resolution): the shaded paper's grain read as a 1 was no pip at full
  // resolution on every set (the three dice read 1.0 as a 1 in a shade and hidden on the
  // fixtures, dev4-dev7 were true white 1s: round 12's 516 (-1,-3) twice, dev7 818 (-4,1)).
  // false = off (two pips or more, as before).
  bool occluded_white_one_fine = true;
  // (exact20) ... and, whatever its colour, only when the reading's pips (two or more) are at
  // the face's real size (face_scale_gate, below; its hidden reason says so).
  // (exact14) A body is "of skin's hue" (no die, above) only when saturated relative to its
  // cell's paper by at least this ((max - min) / max): a hue is no measure of a grey. A
  // white die in an arm's shade under a cool key light on warmer paper measured sat 0.03
  // and a warm hue (dev6 719 (2,-4), a white 6 read at 1.00, hidden); skin there is
  // 0.15-0.35. 0 = off (the hue test at any saturation, as before).
  double occluded_skin_min_saturation = 0.1;
  // (exact20) That hue and saturation against the light on the cell (its paper with its print's
  // tint divided out: the paper over its tint's lit paper, times the white), not against the
  // tinted paper: a grey die on a blue-tinted cell is orange against that paper, "skin" (dev7n
  // 819 (-2,5), 818 (-2,5), dev5n 616 (-1,4): white dice in an arm's shade hidden so). The
  // other tests (lum, occluded_saturation) stay against the paper. false = against the paper.
  bool occluded_skin_untinted = true;
  // (exact22) Under the occluder, a face not read beyond doubt (below occluded_min_confidence, or a
  // pale body below occluded_white_min_confidence) whose body passes the gate's other tests (a
  // clean body, or a pale one in the shade with dark pips, no skin hue, its pips at a face's size)
  // is reported when the pip places its face shows allow one count, the count read: the face's
  // 3x3 grid of places laid at its real size on the reading's pips, a place shown when a ring
  // round it is of the body's colour, a shown place clearly a pip or clearly none; every standard
  // layout agreeing with the shown places has that count, and at least occluded_shown_min_pips
  // of its pips are shown (count_from_shown_places in read.cpp). A hand over a 6's corner pip
  // cannot make it a 5 when the 6's middle row shows no pip (dev11 1205 (1,-2): a white 6 in the
  // arm's shade read at 0.83, 5 pips and 3 empty places shown). On the 21 sets, new1 and the JPEG
  // copies no reading with two shown pips or more got a count that was not its die's. false = off.
  bool occluded_shown_places = true;
  int occluded_shown_min_pips = 2;
  // (exact22) A weak reading beside a hand or an arm (below hand_near_min_confidence, hidden
  // "weak") is reported when its count is the one its shown pip places allow (the test above,
  // occluded_shown_min_pips or more shown pips): the component counter's readings (capped at
  // 0.3) of a part-covered yellow 4 and green 5 (dev4n 517 (-2,-3), fixture 005 (-5,1)), each
  // passed by the occluder gate's look above. false = off.
  bool weak_shown_places = true;
  // (exact40) ... or when it is at or below the component counter's cap (FaceParams::
  // fallback_below: the counter's guess or a weak lattice reading) and its pip places stand
  // clear of its empty ones: robust34's guess
  // gate (faint_places_clear with guess_clear_min_pip and guess_clear_min_shown) at this ratio,
  // on a face the frame's edge does not cut. 0 = off.
  double weak_guess_clear_ratio = 0.3;
  // (exact23, exact22's third fix re-done) On maps whose hexes are at least this size (mm,
  // centre to corner; the radius 5 and 6 A3 maps, 17 and 14.4 mm), a cell the printed-edge
  // test takes for covered (hand_max_edges or fewer of its six edges seen) is read all the same
  // under the occluder gate (reported only beyond doubt, as a cell under the skin or occluder
  // mask), not hidden unread: a die and its token at the sheet's far side hide their own
  // cell's edges from a low camera (dev12 1307 (-4,-1)), a hand in front of a cell hides its
  // near edges and not the die's top (dev13 1416 (-4,3)). Smaller cells are the small-cell
  // rules' (small_cell_lone_edges_hex_mm): there a die hides its own cell's edges anyway.
  // 0 = off (such cells hidden "edges", the rule before). It was off from the merge of session
  // 22 to round 48: on the then held-out dev15 it turned one hidden part-covered die into a wrong
  // face (1716 (0,-3), a red 1 between two fingers read red 2 at 0.92; face 100 -> 99.4%). On by
  // default since edges48 (docs/reader.md "Edges round 48"): today that reading (red 2 at 0.86)
  // is hidden by the gate's size test (face_scale_gate), and over every non-held set scored it
  // reads six dice right (dev13 1416 (-4,3) green 3, gain3 3119 (-4,1) blue 4, their fixture
  // copies, scenes_round15 819 (2,-4), scenes_round36_robust36 3417 (-1,1)) and loses none.
  double edges_read_occluded_hex_mm = 13.0;
  // (exact25) ... and with no hand in the frame (the skin and occluder masks both empty; the skin
  // mask alone missed the hands of fixture 026 and dev6 717, where this read two part-covered
  // dice as red and kept them hidden only by the gate), on maps of standard cells
  // (hexes of 13 mm and more), such a cell is read under the occluder gate
  // whatever edges_read_occluded_hex_mm says: with no hand, what hides a cell's printed edges is
  // dice, its own with its token and its neighbours, seen from a low camera (dev17 1907 (-3,0): a
  // green 3 with its token between three dice at tilt 30, hidden "edges"). The die that rule
  // misread (dev15 1716 (0,-3)) lay between two fingers. false = off. (Since edges48, whose
  // edges_read_occluded_hex_mm 13 reads every such cell of hexes of 13 mm and more, hand or not,
  // this acts only with that rule off or set above 13.)
  bool edges_read_no_hand = true;
  // (exact23) The camera-resolution look gives a lone pip where the printed lines would be
  // seen to the patch look (where lines meet, a dark round spot reads as a white 1). It keeps
  // it when the print is not seen there: the darkest sample of a ring round the spot
  // (lone_pip_print_ring_mm) on the lines' band is at least this fraction of the ring's
  // median off the band (a die's top over the lines hides them: dev14 1605 (3,-5), a white 1
  // at the sheet's edge, reported empty). 0 = off (every such pip given up, as before).
  double lone_pip_print_seen = 0.9;
  double lone_pip_print_ring_mm = 2.5;
  // (exact24) Under the occluder gate, a coloured reading (not white or black) is reported only
  // when pixels of its colour (named as the die's, against the cell's white) cover at least this
  // fraction of its final 16 mm square: a die's top is its colour but for its pips. A square
  // slid onto a finger beside a blue guard token read a "blue 2" from two glints on a black
  // die's side (dev15 1718 (-1,1): the square 0.13 blue, the rest skin and black). Coloured dice
  // reported right under the gate on the dev sets: 0.47 (a glared yellow 6) and up. 0 = off.
  double occluded_colour_cover_min = 0.3;
  // (robust45) Under the occluder gate, a coloured reading (not white or black) of two or more pips
  // whose body fails the clean-body test (saturated under occluded_saturation against its paper, or
  // of skin's hue) is reported all the same when it is sure: read at occluded_colour_sure_confidence
  // or more, its pips at the face's real size (the gate's off_size test: with face_scale_gate on,
  // its default, else not checked), its body not exact44's dark finger (dark_skin), its cell not under the skin mask
  // (the hand stands clear of it: only the occluder mask, an arm's shade or the grown hand's margin,
  // covers it), and pixels of its colour (against the cell's white, as occluded_colour_cover_min
  // measures them) cover at least occluded_colour_sure_cover of its final 16 mm square. A glared or
  // pale coloured top is as grey as its paper: harshR42p 17010 (-1,-3), a yellow 2 read at 1.00,
  // body 1.02 of its paper, sat 0.06, skin's hue, colour 0.92 of its square; harshR44 19009 (0,4), a
  // blue 5 read at 1.00, sat 0.18, colour 0.97: both hidden "occluder". Of the hidden coloured
  // readings of two or more pips at 0.45 or more under the gate on the 81 scored sets and harshR42p-R44
  // (HEXDICE_READ_DEBUG's OCCL lines against the labels), the others at the face's size cover 0.81
  // or less of their square with their colour (an empty cell's skin, a black 1's glints read blue);
  // the empty cells' readings that cover 0.9 or more are at 0.50-0.65 and off the face's size.
  // 0 = off (such bodies hidden, as before).
  double occluded_colour_sure_cover = 0.9;
  double occluded_colour_sure_confidence = 0.9;
  // (exact46) Under the occluder gate, a coloured reading (not white or black) whose body is clean
  // (the gate's test), not of skin's hue and saturated at least occluded_colour_full_saturation
  // against its paper, and whose colour covers at least occluded_colour_full_cover of its final
  // 16 mm square (as occluded_colour_cover_min measures it), is reported from
  // occluded_colour_full_confidence up, under occluded_min_confidence; not off the face's size
  // where the gate measures it (face_scale_gate; a 1 has no size to measure, so both 1s below
  // pass on colour alone).
  // Two green 1s were hidden at 0.42-0.44, each its board's only fault: dev9 1016 (2,0), sat 0.66,
  // colour 0.88 of its square; gain2 2905 (2,-4), sat 0.50, colour 0.95. Of the clean coloured
  // readings under the gate at 0.31-0.45 on the 83 scored sets (HEXDICE_READ_DEBUG's OCCL lines
  // against the labels, docs/reader.md "Exact round 46"), the false ones at 0.39-0.44 are paler or
  // cover less: dev12 1316 (0,-4), a shadow on a red-tinted cell read a red 1 at 0.44, sat 0.26,
  // colour 0.90 (hidden later, "polarity"); scenes_round33_exact33 2905 (1,0), a red 1 at 0.40, sat
  // 0.27, colour 0.79; small_cells_r9b 101 (-7,1), a green 2 at 0.39, sat 0.54, colour 0.36. The
  // wrong ones deep and covered enough are at 0.33 and under and off the face's size.
  // occluded_colour_full_confidence 0 = off.
  double occluded_colour_full_cover = 0.85;
  double occluded_colour_full_saturation = 0.45;
  double occluded_colour_full_confidence = 0.40;
  // (exact24) The shown-places look (occluded_shown_places, weak_shown_places) takes a count from
  // one shown pip (below occluded_shown_min_pips) when the reading has two pips or more (its grid
  // laid on them), the die is coloured (a white die's paper beside it passes for its body, so a
  // place off the face could count as shown and empty; a pale die in the shade reads "black" there) and at least this many of the nine places
  // are shown. dev15 1718 (-1,5): a yellow 2 with one corner under a finger, places ?..?..?.o:
  // only a 2 fits (6 places shown). 0 = off.
  int occluded_shown_one_pip_min_shown = 6;
  // (exact30) Under the occluder gate, a coloured reading (not white or black: a white die's paper
  // passes for its body) whose pips are not at the face's real size (face_scale_gate: a 6's column
  // of three read as a 3 at 0.71, a 4's side of two as a 2) is reported when its pips, laid on the
  // face's grid at the real size in every 3x3 window that holds them all (the face's centre may
  // be under the hand), allow one count together, from occluded_shown_min_pips or more shown pips
  // (count_from_any_placement in read.cpp): that count is reported, not the reading's. dev17
  // 1905 (3,-1): a blue 6 with one column under a finger read a sure 3 at 0.72; its column of
  // three pips, the next column's places clean, fit only a 6. false = off (hidden "occluder").
  bool occluded_shown_any_place = true;
  // (exact31) ... and a window is a place the face may be only when no node outside it shows the
  // body's colour (occluded_shown_any_place): the face ends 0.85 pitch beyond the window's outer
  // nodes, so a node a pitch or more beyond them lies off that window's face, and a shown node
  // there (its ring of the body's colour, a pip or none) says the face reaches it. A 4's side of
  // two pips with the face's clean side shown allows only the window that keeps that side on the
  // face: dev18 2019 (-2,-1), dev4n 517 (-2,-3): yellow 4s, one side under a finger, read a sure
  // 2 at 0.70; nodes ??o.?/??..?/??o.?: the window with the face's centre under the finger
  // (counts 4, 5, 6) leaves the shown column beside the pips off its face: only a 4 stays.
  // false = every window holding the pips counts (exact30).
  bool occluded_any_place_on_face = true;
  // (exact36) ... and in that look a node holding one of the reading's own pips is shown when at
  // least this share of its ring is of the body's colour (other nodes: 0.75, as before): the pip
  // was found there as a round blob at the face's size, and the ring round a pip near the top's
  // edge or beside the hand reaches past the top. dev19 2118 (-2,-2): a red 4, its left column
  // under a sleeve, read a sure 2 at 0.71 (one side); the side's top pip's ring 0.62 (its
  // contrast 1.49, the other pip's 1.13), so only one pip was shown and a 2 or a 4 fitted. 0 = off.
  double occluded_own_pip_ring = 0.5;
  // (exact35) Under the occluder a reading whose body is of skin's hue (the gate's skin test) read
  // the hand over the die, its square slid onto the skin: the die's body is taken again without
  // the skin-hued pixels (hand_mask's pixel test, grown by 1 mm), and when that is of a die's
  // colour (not white or black, not of skin's hue) the square is located on it and the face read
  // there; that reading replaces the skin's when it is of that colour, and the gate judges it as
  // any other (the skin's reading was hidden for its hue). dev14 1618 (-2,2): a yellow 3 under a
  // finger read "red 2" of the finger at 0.10; off the skin a yellow 2 at 1.00 at 0.5 of a face's
  // size, whose two pips laid at the real size (occluded_shown_any_place) allow only a 3.
  // Forced to stand by its shown places alone (the first version) it hid a red 5 read right at
  // 1.00 (scenes_round23 1416 (1,3)): the places' ring test failed round its clear pips. false = off.
  bool occluded_off_skin = true;
  // (exact24) Under the occluder gate a white 1 in the shade (occluded_white_one_fine) is reported
  // only when its top surrounds its pip: the four pip places beside the pip along the face's axes
  // (the face's 3x3 grid centred on it, at the face's real size) all show the body's colour. A 2
  // whose other pip the dark-pip look missed has its one pip at a corner and the top ends a place
  // beyond it (dev6 717 (3,-2): a white 2 in the shade read a sure 1, places ....o..??; 716
  // (3,-2) a part-covered white 4, ...~o.??.). All eight places (tried) lost right 1s whose
  // corner places' rings were 0.66-0.72 body. false = off.
  bool occluded_white_one_surrounded = true;
  // (exact26) A reading of a 1, of any colour, is reported only when its top is seen round its
  // pip: the eight pip places round it (the face's 3x3 grid at its real size, as
  // count_from_shown_places lays it, with the reading's pip polarity or its colour's dice's) have
  // on average at least this fraction of their rings of the body's colour; else the cell is hidden
  // ("cut"). A die half or more under a hand or an arm, its top's centre hidden (the renderer's
  // label: occluded), reads as a sure 1 from a spot at the skin's edge, with or without the
  // occluder mask over it: dev18 2017 (-1,-4), a red die 0.55 covered, rings 0.53 0.72 0.59 /
  // 0.69 0.25 / 0.19 0.00 0.00 (mean 0.37); scenes_round21 1319 (2,-3), a yellow die 0.53
  // covered, every ring 0.22 or less (0.10); dev8 917 (1,-3), a yellow 3 0.69 covered, no mask
  // over it (0.10). The right 1s on the standard sets: 0.64 and more (a black 1 in an arm's shade,
  // its rings split by the shade's grain; dev8 900 (1,-4), a blue 1 a fifth covered, one corner's
  // ring 0.19, mean 0.76), but dev12 1317 (3,1), a red 1 half under an arm, 0.30, hidden (its
  // corners not shown: a 3 or a 5 fits as well); in the harsh sets (blur, dim light) 0.51 and more. Tried and not kept: every ring at least 0.2 (lost 900 (1,-4)); the four
  // places beside the pip shown, as occluded_white_one_surrounded (lost six right 1s). 0 = off.
  double one_top_shown = 0.5;
  // (robust47) ... unless its cell is off the skin mask, its top round its pip is at least one_top_clear_min, its pip stands out of the top
  // one_top_clear_min_pip or more and every one of its eight empty places (count_from_shown_places' grid, shown or not, as faint_places_clear
  // measures them) at most this x its pip: the top is there, its rings failing the body's-colour test on a dark, grainy or shaded top's
  // single pixels. Right 1s so hidden on the scored sets (top 0.44-0.49): gain1 2801 (3,0) black, gain3 3119 (1,-2) blue, harsh24 2417
  // (5,0) red, harshR44 19005 (-5,0) red; their empty places 0.05-0.16 x their pip; the wrong 1s at top 0.40-0.50 0.86 x or more
  // (gain4 3507 (-5,1), a red 4's corner pip: pip 0.24, empty 0.22). Under the skin mask the places do not part them (dev15 1719 (3,-4),
  // a yellow 5 four places under the hand read 1: top 0.39, empty 0.05 x its pip; a hand over a yellow top is as light as the top). The
  // ONETOP lines over the 85 scored sets and harshR42p-R46: docs/reader.md "Robustness round 47". 0 = off.
  double one_top_clear_ratio = 0.25;
  double one_top_clear_min = 0.4;
  double one_top_clear_min_pip = 0.3;
  // (exact25) The guard test's print test (guard_print_test, guard_print_chroma) also takes a pixel
  // of the lit paper of its cell's tint (the upper quartile of the papers of the cells printed in
  // that tint, three or more in view) for print: a cell's own paper estimate (the brightest
  // quarter of a ring inside its border) is a white die's lit top where the die covers most of the
  // ring, and the deep-tinted base cell's blue round the die then passed for a token's, joined
  // to the token into a blob over the 2.5 cap (dev17 1904 (0,4), dev6 717 (0,4): white dice whose
  // guard was missed). false = off (the cell's own paper only). Off by default since session 24:
  // on the held-out dev16 (totals only) it cost one right guard (guard 143 -> 142/144, nothing
  // else changed), so what it fixes on dev17 and dev6 does not carry to unseen scenes.
  bool guard_print_tint = false;
  // (exact25) Under the occluder gate a black die's reading is reported when the camera-resolution
  // look (fine_pip_look) found its face in light pips, at least this many, in a standard layout
  // and the square read there agreed (the same count, the die's colour), its body unsaturated, not
  // of skin's hue and darker than occluded_black_fine_lum x its cell's paper: a black top lit
  // grey (0.50 of the paper in dev17 1916 (-3,3), a black 6 in an arm's half-shadow, read right
  // at 1.00 and hidden: over occluded_dark_ratio). Light pips in a standard layout of several
  // are no shadow's or skin's. 0 = off.
  int occluded_black_fine_min_pips = 4;
  double occluded_black_fine_lum = 0.75;
  // A die read in a cell whose centre is within hand_near_mm of a hand, an arm or its
  // shadow is reported only when its face reads with at least hand_near_min_confidence;
  // weaker, the cell is hidden (unknown): the grain of a half-shadow and reflections off
  // the skin read as weak grey dice (0.31: above the 0.3 cap of the component counter's
  // fallback, so a die only that fallback supports is not trusted there). 0: off.
  // Default 1000 (the whole sheet; it was 30): with an arm in view, weak readings are not
  // trusted anywhere. Its shadow need not touch it (a lamp behind the arm casts it a hand's
  // breadth away) and a soft one is too faint for the occluder mask; most false dice of hand
  // scenes were such readings at <= 0.3 (the component counter's cap).
  double hand_near_mm = 1000.0;
  double hand_near_min_confidence = 0.31;
  // Anywhere (an arm in view or not), a reading below min_die_confidence (no standard pip
  // layout fits the face: an unreadable face is 0.05) is hidden (unknown), not reported: a
  // die is a top face with pips, and such blobs were the paper of tinted cells under a
  // light gradient. The weakest true die on the fixtures and own renders read 0.156.
  // 0 = off (reported, the behaviour before).
  double min_die_confidence = 0.1;
  // (exact18) A die read white below this confidence is hidden (unknown), not reported, when
  // the camera-resolution dark-pip look (fine_pip_look) was made on its cell and found not one
  // dark pip at any threshold: the pips the reading counts are not there. dev9 1004 (-1,3):
  // an empty cell under glare, its paper estimated from the glared border, the rest of it
  // "not paper", its printed name read as a white 2 at 0.19. 0 = off.
  // (exact26) 0.5 -> 1.01: at any confidence (above 1: every such reading). A white die's pips
  // are dark; a white reading of the printed marks of an empty cell can be surer than 0.5: dev18
  // 2005 (1,-1), an empty cell beside the sheet's shaded edge, its printed name read as a white 1
  // at 0.63; scenes_harsh 2407 (-1,-1), a white 1 at 0.65; both reported, each its board's one
  // error. On every set no right white die lacks a dark pip in that look, and every white reading
  // that does (the two above, dev17 1918 (1,2) at 0.60, dev9 1016 (3,-1) at 0.59, and the weaker
  // ones) is on an empty cell.
  double white_no_pip_below = 1.01;
  // (robust46) ... unless a dark-pip look at this x the reading's own top (its body's luminance,
  // not the paper's; and 0.05 either side of it, read.cpp's kBodyPipRatioStep) finds a standard
  // layout of the reading's count at the face's real size near the cell centre. In a blurred frame
  // a white die's pips never get as dark as core_dark_ratio x the paper (harshR45 20010: three
  // right white dice at 0.92-1.00, their pips 0.26-0.31 under their top), and a white top on a
  // tinted cell in shade is far lighter than its paper (20001 (0,-4): a white 6 at 1.00, its pips
  // 0.51 under its top, the paper's thresholds below them). harshR45: 3 of its 4 right "nopip"
  // dice read; the 83 scored sets byte-identical; the empty cells' readings the rule hid (20001
  // (-3,1), 20010 (2,-4), (2,-2)) show no layout at those thresholds. 0 = off.
  double white_no_pip_body_ratio = 0.8;
  // (robust23) Under the occluder, a white die "in the shade" (occluded_white_min_confidence) is
  // not reported when that same dark-pip look found not one dark pip at any threshold, however
  // sure the reading: hand8 scene_103 (-3,-1), a fingertip's shade over an empty small cell, its
  // printed marks read as a white 2 at 0.91 (the fine look: 0 pips). false = off.
  bool occluded_white_no_pip = true;
  // (exact18) Colours are named from the body relative to the white; a body channel at or
  // above this level (0..255) is clipped by the sensor, so when two or more are, each is taken
  // as bright as the brightest of them relative to the white. dev9 1005 (-2,3): a yellow top
  // in strong light, 171 251 252 against a cool white 150 157 176: hue 82 deg (green) plainly,
  // 60 (yellow) with its clipped red and green equal. 0 = off.
  double colour_clip_level = 250;
  double grid_line_contrast = 0.06;
  // (robust33) In a blurred frame (blur_edge_mm) a cell failing the printed-edge test
  // (hand_max_edges) is looked at again with the grid line darker by this much only: the blur
  // (and a low-resolution stream scaled up) spreads the 0.4 mm line and takes its contrast, and
  // a die's cell in a defocused 640 px stream showed 1 of its 6 edges (harsh4 2705 (-5,4), harsh5
  // 3417 (0,1), harshR32 7217 (3,0): read right at 0.04). At 0.03 a blue 3 under a hand's edge
  // was read 2 (7217 (0,4)). Not in a frame that is noisy as well (noise_grey_level): a webcam's
  // long exposure and raised gain in a dim room give both, and there a hand's edge passed the
  // lower bar (scenes_round26 2616 (0,-4) lost its cover). 0 (or grid_line_contrast or more) = off.
  double blur_grid_line_contrast = 0.04;
  double hand_px_per_mm = 1.0;
  // A cell is in view when its die's top face (16 mm square + 2 mm, top plane) and its
  // paper centre are inside the image, this margin (px) from the edge. Cells out of view
  // are not read and are listed in Observation::hidden (a partial view: board_found stays
  // true). Fewer than min_visible_fraction of the cells in view (or none) ->
  // board_found = false. Before issue 3's partial views this was 0.98.
  double edge_margin_px = 4.0;
  // ... and its top face's square of +-in_view_top_mm round the cell centre (the 16 mm face
  // and 0.5 mm) inside it too (10 before branch occupancy3: a die whose face was whole in
  // the frame, its sides cut by the frame's edge, was hidden).
  double in_view_top_mm = 8.5;
  // (exact34) A cell at the frame's edge whose square of +-in_view_top_mm round its centre is not
  // wholly inside the frame, but whose centre is (on the top plane and on the paper, edge_margin_px
  // from the edge), is read all the same. A die stands anywhere in its cell: the square round the
  // cell's centre can cross the frame's edge while the die's pips are in view, on the cell's inner
  // side (dev5 607 (-5,5), a black 2; fixture 027 (-5,5), a black 6; dev7 807 (3,1), a white 4:
  // each its board's one fault, hidden "view"). Its die is reported when the face found has all its
  // pip places inside the frame (the square of +-in_view_face_mm round the face's own centre, along
  // its own sides: the nine places lie 0.27 x 16 mm from the centre, their pips 0.09 x 16 mm round,
  // 5.76 mm; beyond that a face holds no pip), or else when the places inside the frame allow only
  // the count read (shown_count_agrees, a place whose ring reaches past the edge not shown: 607's
  // o..?..?.o fits only a 2). A face whose cut places could hold a pip stays hidden "view" (half a
  // 5 shows a 3). Such cells take no printed-edge cover test and give no paper to their tint's lit
  // paper. 0 = off (such cells hidden unread, as before).
  double in_view_face_mm = 6.0;
  double min_visible_fraction = 0.0;
  // For callers that cannot act on a view with a cell covered (the live referee: a hand
  // in view means nothing is committed, docs/referee.md): when true, read_board returns
  // as soon as a stage finds a cell in view covered (the printed-edge test, then the skin
  // mask), with `cells` empty and `hidden` holding at least that cell (not necessarily
  // all the covered ones). Cells out of the frame do not stop it. Not saved or loaded:
  // it is the caller's choice, not a tuning of the reader. Default false (a full read).
  bool stop_when_covered = false;
  // (robust21) On maps whose hexes are smaller than this (mm, centre to corner; radius 7 and
  // up on A3: 12.5 mm and less), a 16 mm die covers most of its cell's paper ring, and the
  // cell's "paper" was the die (radius 9: 38% of visible dice read). There each cell's paper
  // is the per-channel median of its own ring's and those of its neighbours of the same
  // printed tint (read.cpp, small_cell_papers). 0 = off. Radius 5 and 6 maps on A3 (17 and
  // 14.4 mm) read as before.
  double small_cell_paper_hex_mm = 13.0;
  // (robust23) ... but the sheet's paper that the hand and occluder masks judge darkness against
  // (the median of the cells' papers) is taken from the cells' own rings: an arm's shadow over
  // the middle rows of a small map (the widest) gave the cells along its edges their shaded
  // neighbours' paper, the shaded cells became the median, the shadow was paper and no occluder
  // was found (OccluderCache's synthetic radius-8 band: 0 cells under the occluder). false = the
  // median of the small-cell papers (robust21).
  bool small_cell_paper_own_median = true;
  // (robust21) On such maps (hexes below this, mm) a cell failing the printed-edge test
  // (hand_max_edges) none of whose neighbours in view fails it is read, not hidden: a die
  // there hides its own cell's six edges (read.cpp, lone_edgeless_cells). 0 = off.
  double small_cell_lone_edges_hex_mm = 13.0;
  // (robust23) ... and a group of up to this many neighbouring cells failing it, none of the
  // group's other neighbours in view failing it: two dice side by side on a small map hide each
  // other's edges (the shared edge and the sides reaching over the next), so neither was a lone
  // edgeless cell (robust22: 8 of 169 packed dice hidden). A hand or an arm hides a larger
  // patch; a fingertip's cells are still judged by the skin and occluder masks. 1 = lone cells
  // only (the rule before).
  int small_cell_edgeless_group = 2;
  // (robust24) A blurred frame (defocus, motion, a low-resolution stream scaled up): when the
  // edges of the sheet's markers are spread over this many mm of paper or more
  // (marker_edge_blur_mm: the median step height / steepest slope across their outer edges, on
  // the more blurred of a marker's two edge directions), a reading below
  // blur_min_confidence is hidden (unknown), not reported: where the lattice cannot tell
  // the layout, the component counter's guess (capped at 0.3) counts pips that blur merged or
  // lost (harsh renders: red 6 read 2, 3 read 1) and reads a die's long hard shadow as a 1 or a 2.
  // The 144 dev scenes (dev4n-dev15) measure 0.58-1.62 mm (median 1.00); the harsh renders
  // 1.20-2.79. 0 = off.
  double blur_edge_mm = 2.0;
  double blur_min_confidence = 0.31;
  // (robust25) In such a frame a face the lattice finds too faint (its weakest pip under
  // FaceParams::lattice_min_response, 8) is looked at again with this bar, and read when the
  // component counter reads the same count (FaceParams::lattice_agreed_min_response): a dim,
  // blurred frame's pips stand out less than the sharp frames' the bar was set on. 0 = off.
  // (robust30) 4, was 5: the faint faces both readers agree on at 4-5 in blurred and dim harsh
  // frames are right (scenes_harsh 2404 blue 5, scenes_round26 2616 green 2, harsh5 3401 green 4,
  // harsh4 2705 blue 1, harsh2 2504 blue 6) but for two that blur_faint_empty_ratio hides.
  double blur_agreed_min_response = 4.0;
  // (robust30) ... and in a blurred or dim frame a reading the lattice makes only below
  // blur_faint_below (at the agreed look's lower bar, not at blur_faint_below nor at its own full
  // bar FaceParams::lattice_min_response: 8 = every reading of that look) is hidden (reason "blur",
  // or "dim"/"noise") unless its pip places stand clear of its empty ones: the weakest contrast on
  // its pips' places above zero and the strongest on the places without pips at most
  // blur_faint_empty_ratio of it (read.cpp, faint_places_clear). At bar 4 without it: harsh2 2504
  // (-4,1) a green 5 read 4 (its lost centre pip 0.09 against corners 0.12-0.14) and harsh4 2705
  // (5,-2) an empty cell in a bottle's shadow read black 1 (its "pip" -0.07); at the 5-8 bars main
  // already read harsh4 2706 (0,-4), an empty cell, as a red 2 at 0.76 (pips 0.11, an empty place
  // 0.12) and harsh5 3417 (-5,5) a blue 1 as a 2 at 0.39 (0.00 vs 0.07). The right readings of that
  // look measure at most 0.19 of their weakest pip. 0 = off (the agreed look's readings all stand).
  double blur_faint_below = 8.0;
  double blur_faint_empty_ratio = 0.5;
  // (robust34) In a blurred, dim or noisy frame a reading at or below the component counter's cap
  // (FaceParams::fallback_below: the counter's guess, or a weak lattice reading) is no longer
  // hidden for its confidence alone (blur_min_confidence, dim_min_confidence) when its pip places
  // stand clear of its empty ones (faint_places_clear at this ratio: the weakest contrast on its
  // pip places above guess_clear_min_pip, the strongest on the places without pips at most this
  // share of it). Not on a face the frame's edge cuts (in_view_face_mm). 0 = off.
  double guess_clear_ratio = 0.3;
  // ... and its weakest pip place's contrast is above this (a pale print or a shade read as
  // pips measures 0.04-0.06), and this many of its nine places or more show its top (the ring
  // round each of the body's colour: a blurred die in a shade with none shown read a green 6 as 3).
  double guess_clear_min_pip = 0.08;
  int guess_clear_min_shown = 3;
  // (robust31) In a blurred frame a reading the lattice could not make sure of (below
  // blur_min_confidence: the counter's guesses, hidden "blur") is read again on its square
  // deblurred: blur_deblur_iterations Richardson-Lucy steps (deblur_crop) with a Gaussian kernel of
  // blur_deblur_sigma_scale x the frame's blur at the markers (marker_edge_blur_mm; a Gaussian
  // edge's step over its steepest slope is sqrt(2 pi) = 2.5 sigma). The lattice's reading there at
  // its own full bar replaces it when at least blur_deblur_min_confidence. 0 iterations = off.
  int blur_deblur_iterations = 20;
  double blur_deblur_sigma_scale = 0.4;
  double blur_deblur_min_confidence = 0.4;
  // ... and such a reading is not put to blur_faint_empty_ratio's gate (made at the lattice's
  // full bar on the deblurred square; the gate reads the plain one again, where its faint face
  // reads only at the lower bar: scenes_round26 2616 (4,0) a green 5 read 5 at 0.92 was hidden).
  bool blur_deblur_past_faint = true;
  // (robust35) A 2 whose pips' size (pip_layout_scale) is side_pair_scale_min..max of a 2's is
  // two corners of a 4, 5 or 6 one side apart (1/sqrt 2 = 0.71 of the diagonal's distance; the
  // faces read so, hidden "size" by face_scale_gate, measured 0.69-0.72): the square moved across
  // the pair by half its length, either way, is read again, and a 4-6 there at least
  // side_pair_min_confidence, at the face's real size, with a pip on each of the pair's, replaces
  // it. A straight 3 of that size is a 6's column: its two ends are the pair, and the new reading
  // must have a pip on each of its three. Only below face_scale_min (a face at its real size is
  // not moved whatever the band). 0 = off.
  double side_pair_min_confidence = 0.5;
  double side_pair_scale_min = 0.66;
  double side_pair_scale_max = 0.76;
  // (robust36) In a blurred, dim or noisy frame a face of 1-4 whose pips were read but one or more
  // of a larger face's were lost to the blur or the noise (harsh renders: red 3s read 1 or 2 with
  // their corner pips at 0.5-0.95 of the centre's contrast, a blue and a green 5 read 1, a red 6
  // read 2): laid on the reading's 3x3 pip places (count_from_shown_places), a larger standard
  // layout holding the reading's pips is read instead when each place it adds contrasts with the
  // body at least faint_pip_fill_ratio of the reading's weakest pip (itself at least
  // faint_pip_fill_min_pip), and every place outside it at most faint_pip_fill_empty of the
  // weakest added one (the largest such face). The gates after it run on the new reading. 0 = off.
  double faint_pip_fill_ratio = 0.4;
  double faint_pip_fill_empty = 0.5;
  double faint_pip_fill_min_pip = 0.15;
  // (review of session 35) Only a reading below this confidence is looked at: a sure reading
  // has lost no pip (the filled readings on the rendered sets were at 0.30-0.72).
  double faint_pip_fill_max_confidence = 0.9;
  // (robust26) A dim frame (a dim room, a short exposure): the sensor's noise is a larger share
  // of a pip's contrast, and the weak readings are guesses (harsh renders at exposure x0.37:
  // a green 6 read 1 at 0.35; standard scenes darkened to x0.4 with noise: a green 3 read 4
  // at 0.23, a white 1 read black 4 by the component counter's fallback at 0.30). When the
  // sheet's white reference (white_reference; luminance (B + 2G + R) / 4, 0..255) is darker
  // than dim_white_level, a reading below dim_min_confidence is hidden (unknown), not
  // reported, unless two readers read its count on its square: the lattice (its faint faces
  // at blur_agreed_min_response's bar, as in a blurred frame) and the component counter, the
  // reading above the fallback's cap (FaceParams::fallback_below: that is the counter's own
  // guess). The standard renders' white is 133 or more. 0 (either) = off.
  double dim_white_level = 100.0;
  double dim_min_confidence = 0.36;
  // (robust27) A noisy frame: a webcam in a dim room raises its gain instead, and gives a frame
  // that is not dark but noisy (the sensor's noise amplified with the light); dim_white_level
  // does not see it. patch_noise measures the noise relative to the level on the sheet's two
  // blank patches; when the grey patch's (mid-grey: never clipped) is at least noise_grey_level
  // and the white patch's at least noise_white_level (both: a hand's or a shadow's edge over one
  // patch is no noise), the dim rule's test applies (a reading below dim_min_confidence hidden,
  // reason "noise", unless the lattice and the component counter both read its count). Dim
  // harsh renders measure 0.025-0.09 (grey) and 0.02-0.07 (white); copies of the standard
  // scenes at exposure x0.4 with the dim room's noise and a x2.5 gain 0.076-0.21 and 0.026-0.09
  // (there main reported 22% false dice, most of them at the counter's 0.30); the standard
  // renders (fixtures, dev4n-dev19) 0.02 or less on the grey patch in 95% of frames; both
  // levels passed only by dev5 605 and dev15 1717 (grainy hand-preset renders; no reading of
  // theirs changes). Every dim harsh render so called is also under dim_white_level.
  // 0 (either) = off.
  double noise_grey_level = 0.05;
  double noise_white_level = 0.02;
  // (session 26) In a frame that is noisy but not dark (a webcam that raised its gain) a 1 is a
  // single spot, and a speck of the noise makes one: a 1 there is reported only at this
  // confidence or more (else hidden, reason "noise"). On gain renders and copies
  // (scene_gen.py --gain; robust27's gain copies of the fixtures, dev4n, dev17, dev18) the 1s read
  // below 0.8 were 22 false or wrong and 4 right (0.40-0.74), those at 0.8 or more 1 wrong and the
  // rest right (most at 1.0). Dark noisy frames keep the dim rule alone (there this hid right
  // 1s: scenes_round26). 0 = off (so is dim_min_confidence 0).
  double noise_one_min_confidence = 0.8;
  // (exact39) ... unless its pip stands out of its top at least noise_one_sure_contrast times the
  // grey patch's noise (the contrast noise_pip_contrast measures) and the eight places round it
  // stand clear of it (faint_places_clear at noise_one_clear_ratio: the strongest of them at most
  // that share of the pip's contrast). A speck of the noise stands about as far out as the noise
  // does (false 1s of the gain renders: 3.8 x or less), a die's pip many times further (harsh2
  // 2506's black, red and green 1 at 0.63-0.80: 5.0-8.6 x, places 0.15-0.19; gain2 2903's red 1 at
  // 0.72: 15.5 x, 0.06); a 6 read as a 1 from one of its pips has pips on its "empty" places
  // (scenes_round31_robust31 3416 (-1,-1): 5.7 x, 0.92). noise_one_sure_contrast 0 = off (every
  // unsure 1 hidden, as before); noise_one_clear_ratio 0 = the places not looked at.
  double noise_one_sure_contrast = 4.5;
  double noise_one_clear_ratio = 0.3;
  // (robust48) ... and a 1 of a dark or deep colour (red, green, blue or black: not white nor
  // yellow, the light bodies the paper's speckle passes for) needs its pip only this many times the
  // grey patch's noise (with its places clear at noise_one_clear_ratio, as above). The noise's
  // specks read as 1s on such a body (the speckle of a tinted cell named red or blue) stand out
  // 0.85 x or less on most scored sets (gain3, scenes_round27c, 32_exact32, 41_exact41), 2.13-2.91 x
  // on gain1 2803/2804, the white ones up to 3.2 x (empty paper); right coloured and black 1s
  // hidden "noise" measured 2.41 (gain3
  // 3105 (3,2), a green 1 at 0.80) and 3.11 (scenes_round42_robust42 3100 (-2,1), a black 1 at 0.35),
  // places 0.19 and 0.10. Its top must be seen round it: guess_clear_min_shown (3) of its nine places
  // or more show the body's colour (gain1 2803 (0,-4), a red-tinted empty cell read as a red 1 at
  // 2.91 x with clear places, shows 1; the right ones 5-8). Used only when below
  // noise_one_sure_contrast. (exact48) Such a 1 is exempt from the dim frame's agreement test
  // (dim_min_confidence) too: the component counter counts the noise's specks round its pip
  // (scenes_round42_robust42 3100 (-2,1), a black 1 at 0.35, counter 5). Light-pip colours only
  // (black, red, green, blue: die_pip_polarity 1); a white or yellow 1 gets neither the lower bar
  // nor the exemption, whatever its contrast. 0 = off.
  double noise_one_colour_contrast = 2.0;
  // (robust28) In a frame that is noisy (noise_grey_level, noise_white_level) but not dark
  // (dim_white_level), a die is reported only when its pips stand out of its top more than the
  // noise does: the lower median over the reading's pips (a 2's weaker pip) of their contrast with
  // the body (a disc of 0.6 pip radii round each pip against the body's luminance, in the pips'
  // polarity, over the body's luminance) at least this many times the grey patch's noise
  // (patch_noise); else hidden, reason "noise". The speckle of a tinted cell read as a die, its
  // "pips" specks of the noise, measures about the noise or less: on fresh --gain renders and gain
  // copies of the fixtures, dev17 and dev18, the false dice 0.48 or less but 1s (those up to 0.68
  // are under noise_one_min_confidence), the right readings 0.63 or more (green dice the faintest:
  // the gain clips their green and their pips' alike). Dark noisy frames keep the dim rule alone (a
  // right blue 2 there with a pip at no contrast). 0 = off (so is dim_min_confidence 0).
  double noise_pip_contrast = 0.55;
  // (exact45) In any frame a black reading whose pips stand out of its top less than this (the
  // same measure: the lower median of its pips' contrast in a black die's pip polarity, light pips,
  // over the body's luminance) is no die: its "pips" are no lighter than its top, a shadow on an
  // empty cell read by its dark spots (harsh4 2702 (0,-1): a black 2 at 0.41, contrast -0.23;
  // 2718 (2,-3): a black 2 at 0.78, -0.69). Over the 58 fixture and 23 non-held rendered sets
  // (every reading's PIPCONTRAST debug line, before the later gates, joined with the labels) the
  // right black readings measured 0.20 or more (gain3 3107 (0,3), a black 2 at 1.00); under 0.1
  // were 236 readings on empty cells, 6 of other dice's colours and 6 black dice read wrong (most
  // hidden by other gates already). Hidden, reason "blackpips" (its own: polarity_check's is
  // "polarity"). The contrast is the first reading's: a face the occluder gate counts again is
  // not measured again. 0 = off.
  double black_pip_contrast_min = 0.1;
  // (exact41) ... and not when one of its pip places, on the grid count_from_shown_places lays on
  // its pips (at the face's real size), stands out of its top less than this (the place's contrast
  // in its colour's pip polarity over the body's luminance, as faint_places_clear measures it):
  // no pip there, the reading's pips not a face's layout (hidden, reason "noise"). gain3 3105
  // (-3,0): two specks of an empty tinted cell's grain read a yellow 2 at 0.39, 0.98 x the grey
  // patch's noise (over noise_pip_contrast), its weaker pip's place 0.01. The right readings of
  // the noisy gain frames: 0.10 and more. Not on a face the frame's edge cuts. 0 = off.
  double noise_pip_place_min = 0.05;
  // (robust44) In a blurred, dim or noisy frame a white reading (dark pips on the lightest top) is
  // not reported when an empty place of its face (the grid count_from_shown_places lays on its pips
  // at the face's real size, as faint_places_clear measures it) stands out of its top more than
  // this x its weakest pip place: a dark spot where the face read has no pip is a pip the reading
  // lost or the top's edge, and the count is not the die's (hidden, reason "blur", "dim" or
  // "noise" as the frame). harshR43 18006 (4,-1), a white 1 in a dark noisy frame read 2 at 0.65
  // (weakest pip 0.49, an empty place 0.66); 18010 (-4,0), a white 2 read 1 at 0.94 (0.43, 0.86).
  // On the 56 fixture sets no right white reading has an empty place over its weakest pip (7 of other
  // colours do: harsh5 3417 (0,1) a blue 4 at 1.44, gain2 2917 (-2,-1) a red 5 at 1.13, gain4 3519
  // (-5,3) a black 3 at 1.24: white only); on 18 non-held rendered sets it hides nothing. 0 = off.
  // Unlike the other noise rules it is not turned off by dim_min_confidence 0: a noisy frame
  // counts even then (only this value's 0 turns it off).
  double white_empty_over_pip = 1.0;
  // (exact33) In a noisy frame (noise_grey_level, noise_white_level) the rings round a 1's pip
  // places in its shown-top test (one_top_shown, by count_from_shown_places: a place is shown when 0.75 of its
  // ring's 32 samples are of the body's colour, each within 0.04 of the body's chromaticity and
  // 0.8-1.25 of its luminance) are sampled on the face crop's box mean over (2k+1)^2 crop pixels,
  // k this (2: 5x5, 1.7 mm on the 16 mm face; the inner ring is 1.35 pip radii out, so the mean
  // reaches 0.9 pip radii from a place's centre). The sensor's noise, raised by the gain, throws
  // single pixels of a die's top off its colour: gain2 2905 (0,0), a green 1 read at 1.00 in full
  // view, measured 0.34 of its top round its pip (one_top_shown 0.5: hidden "cut"), 0.43 at k = 1,
  // 0.54 at k = 2 (reported); gain4 3518 (4,-2), a green 1: 0.48, 0.62, 0.71; gain1 2801 (3,0), a
  // black 1 in a darker frame: 0.20, 0.36, 0.46 (still hidden). The occluder gate's looks at the
  // places keep single pixels, so a hand's edge is not averaged into a body-coloured ring. Taken
  // as 0..8. 0 = off.
  int noise_ring_average = 2;
  // (robust39) The noise where a patch does not measure it: a patch out of the frame measures 0
  // (gain2 2907: the sheet's bottom band below the frame), and a white patch whose median
  // luminance is noise_clipped_level or more (0..255) was clipped by the gain and shows no noise
  // (gain1 2805: white at 251, 0.010; its cells' paper at 239, 0.034). Then patch_noise is measured
  // on the cells' paper (cells_paper_noise: a square of +-noise_cells_half_mm round each cell's
  // centre, inside its hex; the median over the cells, most of them empty, a cell clipped flat
  // counted at noise 0) and stands for the white patch's measure when larger (both white paper),
  // and times noise_paper_to_grey for the grey patch's (the noise is the sensor's, a like amount
  // on a patch of about half the level: on the gain renders whose patches are both in view the
  // grey measured 1.6-2.1 times the white). Not taken when the paper is clipped too (gain1 2802).
  // 0 (noise_cells_half_mm) = off.
  double noise_cells_half_mm = 9.0;
  double noise_clipped_level = 245.0;
  double noise_paper_to_grey = 1.9;
  // (robust40) The camera-resolution pip look (fine_pip_look): a set of this many pips (at least
  // 3) to 7 within a face's reach that fits no standard layout is tried without each one of its
  // pips in turn, the best-fitting remainder a face when it fits (top_face_hypotheses'
  // drop_min_pips). A speck of the gain's noise or a glint on a black top beside a face's pips
  // kept them from their layout, and a lone pip of the face was read as a 1 (gain3 3118 (0,-3): a
  // black 4 read 1 at 1.00, hidden "cut"). The reading at the remainder's centre must still agree
  // (the look's own test). From 4: three pips less one are a 2 (any 3 or a 4 short of a pip), and
  // that 2's look moved which 1 was read (dev6 716 (3,-2), a part-covered white 4: a white 1 at
  // 1.00 reported where one at 0.99 was hidden). In a noisy frame only (the frame's `noisy`, as
  // the other noise rules): elsewhere it moved no reading and cost 1.66 M instructions on the
  // 1080p bench frame's cluttered pip sets. 0 = off.
  int pip_look_drop_min_pips = 4;
  // (robust41) ... and a set of 3-5 pips that fits no layout but fits the layout of one pip more
  // with one of its pips missing, within this mean distance (face units, the 0.06 any face's
  // pips fit within), is that face, centred where the whole layout's centre is
  // (top_face_hypotheses' missing_pip_fit; the look's own test at that centre as for any face).
  // The gain lifts a black top towards the paper, and its light pips with it, so that one of
  // them falls under the look's threshold or into the top's noise (gain3 3107 (3,2): a black 5,
  // four pips found at 0.90 of the paper, read 4 at 0.98 and hidden "size"; read 5 at 0.99 at
  // the whole 5's centre); a white die's dark pip lost in a noisy frame the same (gain4 3518
  // (3,0) a white 5, harsh5 3416 (-1,-1) a white 6). The fine look's two counts that agree
  // (fine_pip_angle_agree_pips) do not take such a face: its count is not its pips' own (taken,
  // they read dev10 1100 (-2,1) and scenes_round15 806 (-1,1) right, but moved a hidden black 4's
  // reading to a 2 in scenes_harsh 2406 (-3,0)). In a noisy frame only (the frame's `noisy`),
  // the fine pip look and the other grey's look (both its polarities: harsh5 3416's 6 is read in
  // its dark-pip pass at the first threshold; grey_other_lifted_* is the light pass's ladder). 0 = off.
  double pip_look_missing_pip_fit = 0.06;
  // (robust42) A black face of this many pips or more that the fine pip look or the other grey's
  // look found on the top plane (light pips in a layout), whose square does not read it plainly,
  // is read again from the square's crop with its light pips only (one_pip_polarity +1: every
  // pixel darker than the plain reading's body set to the body), named with light pips; that
  // reading passes the same test as any. A glared black top (lifted to 0.7-0.96 of the paper)
  // differs from its light pips less than from its own black rim and sides at the crop's edge,
  // which the plain reading took for the pips (gain2 2907 (1,3): a black 6's five pips found,
  // read 0 at 0.00 plainly, 6 at 0.98 with light pips only). Not a lone pip (1): one light spot
  // read with its light alone is always sure (a 1 at 1.00), so the rule would only pass every
  // lone spot, not read it better (with 1: gain4 3519 (2,2), a black 4 read right, became a
  // 1 at its first threshold's lone pip). 0 = off.
  int pip_look_light_only_min_pips = 2;
  // (robust43) A coloured die's layout of this many pips or more that the coloured pip look found on
  // the top plane, whose square read at its centre does not count it (a blurred or dim top, the
  // lattice's pips too faint: harsh2 2504 (-2,-3), a blue 5's five pips found in a layout, read 0
  // at 0.00 there), is looked at in its nine places: the square turned to the layout, each place's
  // centre contrast with the body in the pips' polarity (look_at_place). When
  // coloured_layout_places_shown of the nine places or more show the body round them (the crop
  // lies on the face) and the layout's weakest place contrasts at least
  // coloured_layout_places_ratio times as much as the strongest other place (a 5 or a 6 whose
  // other pips are faint is no 4: those places contrast too), the die is read as the layout's
  // count at coloured_pip_agree_confidence (two counts agree: the pips found on the plane, their
  // places in the crop). Not for layouts of three or fewer: on the gain sets' tinted empty cells
  // the coloured look finds layouts of two and three specks in clear places (weakest 0.02-0.08,
  // as a real blue 3's 0.07). Not under the occluder. 0 = off.
  int coloured_layout_places_min_pips = 4;
  double coloured_layout_places_ratio = 2.0;
  int coloured_layout_places_shown = 6;

  Status save(const std::string& path) const;
  static Result<ReadParams> load(const std::string& path);
};

struct CellObservation {
  Hex hex;
  std::string color;
  int face = 0;
  bool guard = false;
  double confidence = 0;
};

struct Observation {
  bool board_found = false;
  std::vector<CellObservation> cells;  // occupied cells only, in layout order
  SheetPose pose;                      // diagnostics (not in the JSON contract)
  std::string why_not_found;           // diagnostics when board_found is false
  // Cells not read: under a hand, or out of the frame (a partial view). Unknown, not empty;
  // in the observation JSON as "hidden": [[q, r], ...] when there are any.
  std::vector<Hex> hidden;
  // Diagnostics (not in the JSON contract): why each hidden cell was hidden, one line
  // starting with a one-word class ("view", "edges", "occluder", "weak", "noface").
  std::map<Hex, std::string> hidden_why;
};

// (robust24) How blurred the frame is at the sheet's markers, in mm of paper: across each
// outer edge of each marker used by the pose (black square, white quiet zone beyond), five
// profiles 2 mm either side averaged, its step height over its steepest slope (a step blurred by
// a Gaussian of sigma s measures 2.5 s); the median over the markers of each of the two edge
// directions, the larger of the two (motion blurs one direction). 0 when no edge could be
// measured (markers too small, under 0.5 px per mm, or without contrast).
double marker_edge_blur_mm(const cv::Mat& grey, const SheetPose& pose, double marker_size_mm);
// (robust32) One measured edge of a marker (marker_edge_spreads): its direction index (0/1: the
// marker's two edge directions), its outward normal in the image (unit), its step height over
// its steepest slope (image px) and the marker's px per mm. marker_edge_blur_mm is their median
// per direction in mm, the larger of the two.
struct MarkerEdgeSpread {
  int axis = 0;
  cv::Point2d normal;
  double spread_px = 0;
  double px_per_mm = 0;
};
std::vector<MarkerEdgeSpread> marker_edge_spreads(const cv::Mat& grey, const SheetPose& pose, double marker_size_mm);
// (robust32) The frame's blur as a line and a disc (image px, in the units of a marker edge's
// spread: a Gaussian of sigma s spreads 2.5 s): `dir` the direction the frame's gradients are
// weakest in over `region` (an image polygon: the map), i.e. the blur's; `aniso` how much weaker
// ((l1 - l2) / (l1 + l2) of the gradients' structure tensor); along_px and base_px the least
// squares fit of every marker edge's spread^2 = base^2 + along^2 (dir . normal)^2; `spread` the
// variance of (dir . normal)^2 over the edges (near 0: a blur at 45 degrees to the markers'
// edges, where along and base cannot be told apart).
struct FrameBlur {
  cv::Point2d dir{1, 0};
  double aniso = 0, along_px = 0, base_px = 0, spread = 0;
};
FrameBlur frame_blur_ellipse(const cv::Mat& grey, const std::vector<MarkerEdgeSpread>& edges, const std::vector<cv::Point2d>& region);
// (robust31) A face crop deblurred: `iterations` Richardson-Lucy steps with a Gaussian kernel of
// sigma_px (crop pixels), each channel; the crop as it is for iterations <= 0 or sigma_px <= 0.
cv::Mat deblur_crop(const cv::Mat& crop_bgr, double sigma_px, int iterations);

// (robust27) The frame's pixel noise on one of the sheet's blank patches (`patch`: the layout's
// white_patch or grey_patch, paper mm; inset by inset_mm; hp: paper mm -> image), relative to its
// level: the robust spread (1.4826 x the median absolute deviation) of each pixel's luminance
// from its 5x5 neighbourhood's mean, over the patch's median luminance. A dim room seen by a
// webcam that raises its gain gives a frame that is not dark but noisy: the sensor's noise is a
// larger share of the light, whatever the gain made of the level. 0 when the patch is not in the
// frame (under 16 px a side) or darker than 8 of 255.
// The patch's median luminance in *level_out when given (0 when not measured).
double patch_noise(const cv::Mat& grey, const std::array<Point, 2>& patch, const cv::Matx33d& hp, double inset_mm = 4.0,
                   double* level_out = nullptr);
// (robust39) The same noise on the cells' paper: patch_noise over a square of +-half_mm round each
// cell's centre (those in the frame), the median over the cells; their median level in *level_out.
double cells_paper_noise(const cv::Mat& grey, const SheetLayout& layout, const cv::Matx33d& hp, double half_mm,
                         double* level_out = nullptr);

// Pixel helpers the reader and colour calibration share (so both take the same white
// reference): the per-channel median of BGR samples ({0,0,0} when empty), and the pixel
// nearest p (false outside the image).
cv::Vec3f median_bgr(const std::vector<cv::Vec3b>& v);
bool sample(const cv::Mat& img, cv::Point2d p, cv::Vec3b& out);
// A cell's paper from the samples round it (cell_paper): median_bgr of the brightest quarter,
// the samples sorted by luminance b + 2g + r (std::sort: ties in the order it leaves them) and
// the last n - 3n/4 taken. brightest_quarter_ref is the code it replaced (speed43: the same
// values, checked bit for bit by a test).
cv::Vec3f brightest_quarter(const std::vector<cv::Vec3b>& s);
cv::Vec3f brightest_quarter_ref(std::vector<cv::Vec3b> s);
// The reader's white reference on a registered frame (hp: paper mm -> image): the median
// of the layout's white patch, or the median paper of the cells when the patch is darker
// than 0.8 of it (covered, shadowed); each cell's own paper colour in `cell_papers`.
// die_free_papers (with chroma_tolerance > 0): each cell's paper again without the ring's
// samples of a die's lit, saturated top when they moved it off the paper's chromaticity
// (ReadParams::paper_chroma_tolerance).
cv::Vec3f white_reference(const cv::Mat& image, const SheetLayout& layout, const cv::Matx33d& hp,
                          std::vector<cv::Vec3f>* cell_papers = nullptr, std::vector<cv::Vec3f>* die_free_papers = nullptr,
                          double chroma_tolerance = 0);

// The face crop read_face reads, as read_board cuts it (and the face harness, face_eval.h):
// a `canon` px square covering `side_mm` of the top-face plane (`top_to_image`: top-plane
// mm -> image pixels), centred at `centre_mm` and turned by `angle_deg` (page axes), cut
// from the camera image in one homography (crop pixel -> top-plane mm -> image).
inline constexpr int kFaceCropPx = 48;
cv::Mat cut_face_crop(const cv::Mat& image, const cv::Matx33d& top_to_image, cv::Point2d centre_mm, double angle_deg,
                      double side_mm = 16.0, int canon = kFaceCropPx);
// Whether cv::distanceTransform(mask, DIST_L2, DIST_MASK_5) may exceed r somewhere (false:
// it cannot; the hand and occluder masks' "no core" exit, read.cpp).
bool chamfer_core_possible(const cv::Mat& mask, double r);
// Its square's half side k: a pixel further than r from every zero has no zero within k in x
// and y (k < 1: no such bound).
int chamfer_core_half_side(double r);

Observation read_board(const cv::Mat& image_bgr, const SheetLayout& layout,
                       const CalibrationData* calib = nullptr, const ReadParams& params = {},
                       TrackerState* tracker = nullptr);

// interfaces.md observation JSON: {"board_found", "cells": [{q, r, color, face, guard, confidence}]}.
nlohmann::json to_json(const Observation& obs);

}  // namespace hexdice::vision
