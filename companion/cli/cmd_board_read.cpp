// `hexdice board-read INPUT --ruleset wizardhex [--layout board.json] [--base POSITION.json]
//  [--calib FILE] [--params FILE]`: the position a photo of a game board shows. INPUT is an
// image (read with the board reader, vision/read.h) or an observation JSON (*.json, e.g.
// from `hexdice read --json`). The camera sees only the tokens; the Wizards, the player to
// move and the flags come from --base (default: the `across` start). Prints the position
// JSON; a misread (a face 4-6, a colour of no element, a die off the board) is one error
// line naming the space and exit 1.
#include <iostream>
#include <memory>

#include "companion/cli/cli_util.h"
#include "companion/cli/reader_options.h"
#include "companion/cli/commands.h"
#include "core/ruleset.h"
#include "core/wizardhex/wizardhex.h"
#include "vision/read.h"
#include "vision/sheet.h"
#include "vision/reader_io.h"

namespace hexdice::cli {

namespace {

struct BoardReadArgs {
  std::string input, ruleset = "wizardhex", layout, base, calib, params;
};

Result<Json> observation_of(const BoardReadArgs& a) {
  std::string err;
  if (a.input.size() > 5 && a.input.substr(a.input.size() - 5) == ".json") {
    auto text = read_file(a.input, err);
    if (!text) return Error{err};
    return parse_json(*text, a.input);
  }
  if (a.layout.empty()) return Error{"board-read needs --layout board.json (from `hexdice board --ruleset wizardhex`)"};
  auto ltext = read_file(a.layout, err);
  if (!ltext) return Error{err};
  auto layout = vision::sheet_from_json_text(*ltext);
  if (!layout) return Error{a.layout + ": " + layout.error()};
  if (layout->radius != wizardhex::kRadius)
    return Error{a.layout + ": radius " + std::to_string(layout->radius) + " is not the Wizard Hex board (radius 2)"};
  vision::ReadParams params;
  if (!a.params.empty()) {
    auto p = vision::ReadParams::load(a.params);
    if (!p) return Error{p.error()};
    params = *p;
  }
  vision::CalibrationData calib;
  if (!a.calib.empty()) {
    auto text = read_file(a.calib, err);
    if (!text) return Error{err};
    auto c = vision::calibration_from_json_text(*text);
    if (!c) return Error{a.calib + ": " + c.error()};
    calib = *c;
  }
  auto img = load_picture(a.input);
  if (!img) return Error{img.error()};
  return vision::to_json(vision::read_board(*img, *layout, &calib, params));
}

int run_board_read(const BoardReadArgs& a) {
  if (a.ruleset != "wizardhex") return fail("board-read: only --ruleset wizardhex is played with dice");
  Json base_json;
  if (a.base.empty()) {
    auto start = find_ruleset("wizardhex")->start_position("across");
    if (!start) return fail(start.error());
    base_json = *start;
  } else {
    std::string err;
    auto text = read_file(a.base, err);
    if (!text) return fail(err);
    auto j = parse_json(*text, a.base);
    if (!j) return fail(j.error());
    base_json = *j;
  }
  auto base = wizardhex::state_from_json(base_json);
  if (!base) return fail((a.base.empty() ? std::string("base") : a.base) + ": " + base.error());
  auto obs = observation_of(a);
  if (!obs) return fail(obs.error());
  auto pos = wizardhex::position_from_observation(*base, *obs);
  if (!pos) return fail(pos.error());
  std::cout << wizardhex::to_json(*pos).dump() << '\n';
  return kExitOk;
}

}  // namespace

void register_board_read_commands(CLI::App& app, Registry& reg) {
  auto a = std::make_shared<BoardReadArgs>();
  auto* sub = app.add_subcommand("board-read", "The position a photo (or observation JSON) of a Wizard Hex board shows");
  sub->add_option("INPUT", a->input, "image, or observation JSON (*.json)")->required();
  sub->add_option("--ruleset", a->ruleset, "the game on the board: wizardhex (the only dice game besides hexdice)");
  sub->add_option("--layout", a->layout, "board.json of `hexdice board --ruleset wizardhex`");
  sub->add_option("--base", a->base, "position giving the Wizards, turn and flags (default: the across start)");
  sub->add_option("--calib", a->calib, "calibration JSON (camera intrinsics, colour samples)");
  sub->add_option("--params", a->params, "reader parameters (cv::FileStorage YAML/JSON)");
  reg.add(sub, [a] { return run_board_read(*a); });
}

}  // namespace hexdice::cli
