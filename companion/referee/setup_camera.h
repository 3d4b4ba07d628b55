// Setup by camera (issue 4): the setup phase of rules.md section 3, fed by what the camera
// sees, with typed entry as the fallback for every step. core/setup.h (GameSetup) holds the
// state machine and checks every rule; this layer only turns images into its events.
//
//   army roll     the player's dice in a tray or loose on the table (vision::find_dice):
//                 the dice of the player's colour (a player's id is its colour) -> roll
//   reroll        the army after the reroll, all dice in view: the faces that changed (the
//                 multiset difference with the army) -> reroll, counted against the
//                 allowance floor(dice / 3) by GameSetup; nothing changed = declined
//   deployment    the sheet (vision::read_board observation): every die of a player on a
//                 cell not yet deployed -> place, each checked against the player's zone
//   first player  the contenders' dice, one of each contender's colour -> first_roll each
//
// A step that cannot be read with confidence (a die of the colour read below
// `min_confidence`, the wrong number of dice) changes nothing and says what it saw and
// what to type instead. Each step is all or nothing.
//
// Commands (one line; `@IMAGE` reads that image instead of typed faces):
//   roll PLAYER F1 F2 ... | roll PLAYER @IMAGE
//   reroll PLAYER F.. to F.. | reroll PLAYER none | reroll PLAYER @IMAGE
//   place PLAYER FACE CELL            (cell name, e.g. f2)
//   deploy @IMAGE                     (an image of the sheet)
//   first PLAYER FACE | first @IMAGE
#pragma once

#include <map>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "core/result.h"
#include "core/setup.h"
#include "vision/dice.h"
#include "vision/read.h"
#include "vision/sheet.h"

namespace hexdice::referee {

struct SetupCameraParams {
  vision::DiceParams dice;        // find_dice parameters (its own documented defaults)
  // A die of a player's colour read with a face confidence below this makes the step ask
  // for typed entry rather than guess.
  double min_confidence = 0.3;
};

// The dice of one colour among detections, in reading order (left to right, top to bottom).
struct DiceOfColor {
  std::vector<int> faces;
  int unsure = 0;                      // of that colour, read below min_confidence
  std::map<std::string, int> others;   // dice of other colours, by colour
};
DiceOfColor dice_of_color(const std::vector<vision::DieDetection>& dice, const std::string& color,
                          double min_confidence);
// The detections whose centre is off the sheet (the paper seen through `pose`, its top-face
// plane); all of them when the pose was not found.
std::vector<vision::DieDetection> off_sheet(const std::vector<vision::DieDetection>& dice, const vision::SheetPose& pose,
                                            const vision::SheetLayout& layout);

class CameraSetup {
 public:
  static Result<CameraSetup> create(const SetupConfig& config, SetupCameraParams params = {});

  const GameSetup& setup() const { return setup_; }
  // What the setup waits for now, as a line for the players.
  std::string prompt() const;

  // Camera steps from detections (find_dice) or an observation (read_board). Each returns
  // the events it applied, or an Error and changes nothing.
  Result<std::vector<SetupEvent>> roll_from_dice(const std::string& player, const std::vector<vision::DieDetection>& dice);
  Result<std::vector<SetupEvent>> reroll_from_dice(const std::string& player, const std::vector<vision::DieDetection>& dice);
  Result<std::vector<SetupEvent>> deploy_from_observation(const vision::Observation& obs);
  Result<std::vector<SetupEvent>> first_roll_from_dice(const std::vector<vision::DieDetection>& dice);
  // The same from an image (find_dice / read_board with the standard sheet unless a layout is set).
  Result<std::vector<SetupEvent>> roll_from_image(const std::string& player, const cv::Mat& bgr);
  Result<std::vector<SetupEvent>> reroll_from_image(const std::string& player, const cv::Mat& bgr);
  Result<std::vector<SetupEvent>> deploy_from_image(const cv::Mat& bgr);
  Result<std::vector<SetupEvent>> first_roll_from_image(const cv::Mat& bgr);
  void set_layout(vision::SheetLayout layout) { layout_ = std::move(layout); }

  // One command line (see the top of this file); `@IMAGE` paths are read from disk.
  Result<std::vector<SetupEvent>> command(const std::string& line);

  // Replays an event already accepted (resuming a setup logged in the game record).
  Status replay(const SetupEvent& e) { return setup_.apply(e); }

  // The live loop's step (Referee): one still view of the table after something moved,
  // read for the current phase. `image` may be empty (an observation source: only the
  // deployment can be read then); `obs` is the board reader's view of the same frame.
  //   Roll         every player still to roll whose colour shows exactly the army's dice count
  //   Reroll       every player still to reroll whose army now reads differently (the changed
  //                dice are the reroll); dice of any player on the map = the deployment has
  //                begun: the players still to reroll keep their army (declined), then Deploy
  //   Deploy       deploy_from_observation (new dice on the map, checked against the zones)
  //   FirstPlayer  one die of each contender's colour
  // Dice on the sheet (inside the paper, when the reader found it) are not rolled dice and
  // are left out of Roll/Reroll/FirstPlayer. Returns the events applied (possibly none:
  // nothing new to read) or an Error saying what was seen and what to type; on error
  // nothing changes.
  Result<std::vector<SetupEvent>> see(const cv::Mat& image, const vision::Observation& obs);

 private:
  Result<std::vector<SetupEvent>> apply_all(const std::vector<SetupEvent>& events);
  Result<int> player_index(const std::string& id) const;

  GameSetup setup_;
  SetupCameraParams params_;
  vision::SheetLayout layout_;
};

}  // namespace hexdice::referee
