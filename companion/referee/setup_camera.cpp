#include "companion/referee/setup_camera.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <sstream>

#include "vision/sheet.h"
#include "vision/reader_io.h"
#include "vision/register.h"

namespace hexdice::referee {

namespace {

std::string faces_text(const std::vector<int>& faces) {
  std::string s;
  for (int f : faces) s += (s.empty() ? "" : " ") + std::to_string(f);
  return s.empty() ? "none" : s;
}

std::string others_text(const std::map<std::string, int>& others) {
  std::string s;
  for (const auto& [c, n] : others) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + c;
  return s;
}

// a - b as multisets (both sorted copies).
std::vector<int> minus(std::vector<int> a, std::vector<int> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<int> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  std::string s;
  while (in >> s) w.push_back(s);
  return w;
}

Result<int> parse_face(const std::string& s) {
  if (s.size() != 1 || s[0] < '1' || s[0] > '6') return Error{"setup: \"" + s + "\" is not a face 1-6"};
  return s[0] - '0';
}

}  // namespace

DiceOfColor dice_of_color(const std::vector<vision::DieDetection>& dice, const std::string& color,
                          double min_confidence) {
  std::vector<const vision::DieDetection*> mine;
  DiceOfColor out;
  for (const auto& d : dice) {
    if (d.color != color) {
      ++out.others[d.color];
      continue;
    }
    if (d.confidence < min_confidence || d.face < 1 || d.face > 6) ++out.unsure;
    else mine.push_back(&d);
  }
  // Reading order: rows of about a die's height, left to right.
  std::sort(mine.begin(), mine.end(), [](const vision::DieDetection* a, const vision::DieDetection* b) {
    const int row = std::max(a->box.height, b->box.height);
    if (std::abs(a->box.y - b->box.y) > row / 2) return a->box.y < b->box.y;
    return a->box.x < b->box.x;
  });
  for (const auto* d : mine) out.faces.push_back(d->face);
  return out;
}

std::vector<vision::DieDetection> off_sheet(const std::vector<vision::DieDetection>& dice, const vision::SheetPose& pose,
                                            const vision::SheetLayout& layout) {
  if (!pose.found) return dice;
  const cv::Matx33d to_mm = pose.top_to_image.inv();
  std::vector<vision::DieDetection> out;
  for (const auto& d : dice) {
    const cv::Point2d c = vision::apply_h(to_mm, cv::Point2d(d.box.x + d.box.width / 2.0, d.box.y + d.box.height / 2.0));
    const bool on = c.x >= 0 && c.y >= 0 && c.x <= layout.width_mm && c.y <= layout.height_mm;
    if (!on) out.push_back(d);
  }
  return out;
}

Result<CameraSetup> CameraSetup::create(const SetupConfig& config, SetupCameraParams params) {
  auto s = GameSetup::create(config);
  if (!s) return Error{s.error()};
  CameraSetup c;
  c.setup_ = std::move(*s);
  c.params_ = std::move(params);
  c.layout_ = vision::standard_sheet();
  return c;
}

Result<int> CameraSetup::player_index(const std::string& id) const {
  const auto& players = setup_.config().players;
  for (std::size_t i = 0; i < players.size(); ++i)
    if (players[i].id == id) return static_cast<int>(i);
  return Error{"setup: \"" + id + "\" is not a player of this game"};
}

std::string CameraSetup::prompt() const {
  const auto& players = setup_.config().players;
  std::string who;
  for (int p : setup_.waiting_for()) who += (who.empty() ? "" : ", ") + players[static_cast<std::size_t>(p)].id;
  switch (setup_.phase()) {
    case SetupPhase::Roll: return "army roll: " + who + " to roll all their dice (show them to the camera or type them)";
    case SetupPhase::Reroll:
      return "reroll: " + who + " may reroll up to " + std::to_string(reroll_allowance(setup_.config().dice_per_player)) +
             " dice once (show the army again, or type \"reroll PLAYER none\")";
    case SetupPhase::Deploy: return "deployment: " + who + " to place their dice in their zones";
    case SetupPhase::FirstPlayer: return "first player: " + who + " roll one die each (highest starts)";
    case SetupPhase::Done: break;
  }
  return "setup done: " + players[static_cast<std::size_t>(setup_.first_player())].id + " moves first";
}

Result<std::vector<SetupEvent>> CameraSetup::apply_all(const std::vector<SetupEvent>& events) {
  GameSetup trial = setup_;
  for (const SetupEvent& e : events)
    if (Status st = trial.apply(e); !st) return Error{st.error()};
  setup_ = std::move(trial);
  return events;
}

Result<std::vector<SetupEvent>> CameraSetup::roll_from_dice(const std::string& player,
                                                             const std::vector<vision::DieDetection>& dice) {
  auto p = player_index(player);
  if (!p) return Error{p.error()};
  const DiceOfColor seen = dice_of_color(dice, player, params_.min_confidence);
  const int want = setup_.config().dice_per_player;
  if (seen.unsure > 0)
    return Error{"setup: " + std::to_string(seen.unsure) + " " + player + " dice could not be read for sure (read: " +
                 faces_text(seen.faces) + "); turn them to the camera or type \"roll " + player + " F1 F2 ...\""};
  if (static_cast<int>(seen.faces.size()) != want)
    return Error{"setup: the camera sees " + std::to_string(seen.faces.size()) + " " + player + " dice (" +
                 faces_text(seen.faces) + "), the army is " + std::to_string(want) +
                 (seen.others.empty() ? std::string() : "; also seen: " + others_text(seen.others)) +
                 "; show all of them or type \"roll " + player + " F1 F2 ...\""};
  return apply_all({SetupEvent::roll(player, seen.faces)});
}

Result<std::vector<SetupEvent>> CameraSetup::reroll_from_dice(const std::string& player,
                                                               const std::vector<vision::DieDetection>& dice) {
  auto p = player_index(player);
  if (!p) return Error{p.error()};
  const DiceOfColor seen = dice_of_color(dice, player, params_.min_confidence);
  const std::vector<int>& army = setup_.army(*p);
  if (seen.unsure > 0)
    return Error{"setup: " + std::to_string(seen.unsure) + " " + player +
                 " dice could not be read for sure; turn them to the camera or type \"reroll " + player +
                 " F.. to F..\""};
  if (seen.faces.size() != army.size())
    return Error{"setup: after the reroll the camera sees " + std::to_string(seen.faces.size()) + " " + player +
                 " dice (" + faces_text(seen.faces) + "), the army has " + std::to_string(army.size()) +
                 "; show the whole army or type \"reroll " + player + " F.. to F..\""};
  // The dice that changed: a die rerolled to its old face leaves no trace and needs none.
  const std::vector<int> from = minus(army, seen.faces);
  const std::vector<int> to = minus(seen.faces, army);
  return apply_all({SetupEvent::reroll(player, from, to)});
}

Result<std::vector<SetupEvent>> CameraSetup::deploy_from_observation(const vision::Observation& obs) {
  if (!obs.board_found) return Error{"setup: the sheet is not in view (" + obs.why_not_found + ")"};
  // Cells the camera cannot see (a hand, the map partly out of frame) are unknown: the
  // deployment is checked on the whole map only.
  if (!obs.hidden.empty())
    return Error{"setup: " + std::to_string(obs.hidden.size()) +
                 " cells of the map are not in view (a hand over them, or the map partly out of frame)"};
  const Position& board = setup_.board();
  std::vector<SetupEvent> events;
  std::vector<std::string> problems;
  for (const auto& c : obs.cells) {
    auto p = player_index(c.color);
    const std::string cell = board.board().contains(c.hex) ? board.board().name(c.hex) : "(off the map)";
    if (!p) {
      problems.push_back(cell + ": a " + c.color + " die belongs to no player");
      continue;
    }
    if (c.confidence < params_.min_confidence) {
      problems.push_back(cell + ": the " + c.color + " die's face is unsure; type \"place " + c.color + " FACE " + cell +
                         "\"");
      continue;
    }
    const Piece* now = board.at(c.hex);
    if (now && !now->empty()) {
      if (now->owner != *p || now->face != c.face)
        problems.push_back(cell + ": deployed as " + board.player(now->owner).id + " " + std::to_string(now->face) +
                           ", the camera sees " + c.color + " " + std::to_string(c.face));
      continue;
    }
    events.push_back(SetupEvent::place(c.color, c.face, c.hex));
  }
  if (!problems.empty()) {
    std::string s;
    for (const auto& x : problems) s += (s.empty() ? "" : "; ") + x;
    return Error{"setup: " + s};
  }
  return apply_all(events);
}

Result<std::vector<SetupEvent>> CameraSetup::first_roll_from_dice(const std::vector<vision::DieDetection>& dice) {
  const auto& players = setup_.config().players;
  std::vector<SetupEvent> events;
  for (int p : setup_.waiting_for()) {
    const std::string& id = players[static_cast<std::size_t>(p)].id;
    const DiceOfColor seen = dice_of_color(dice, id, params_.min_confidence);
    if (seen.unsure > 0 || seen.faces.size() != 1)
      return Error{"setup: for the first-player roll the camera needs one " + id + " die, it sees " +
                   std::to_string(seen.faces.size() + static_cast<std::size_t>(seen.unsure)) + " (" +
                   faces_text(seen.faces) + (seen.unsure ? ", some unsure" : "") + "); or type \"first " + id + " FACE\""};
    events.push_back(SetupEvent::first_roll(id, seen.faces.front()));
  }
  return apply_all(events);
}

Result<std::vector<SetupEvent>> CameraSetup::roll_from_image(const std::string& player, const cv::Mat& bgr) {
  return roll_from_dice(player, vision::find_dice(bgr, params_.dice));
}
Result<std::vector<SetupEvent>> CameraSetup::reroll_from_image(const std::string& player, const cv::Mat& bgr) {
  return reroll_from_dice(player, vision::find_dice(bgr, params_.dice));
}
Result<std::vector<SetupEvent>> CameraSetup::deploy_from_image(const cv::Mat& bgr) {
  return deploy_from_observation(vision::read_board(bgr, layout_));
}
Result<std::vector<SetupEvent>> CameraSetup::first_roll_from_image(const cv::Mat& bgr) {
  return first_roll_from_dice(vision::find_dice(bgr, params_.dice));
}

Result<std::vector<SetupEvent>> CameraSetup::see(const cv::Mat& image, const vision::Observation& obs) {
  const auto& players = setup_.config().players;
  const SetupPhase phase = setup_.phase();
  if (phase == SetupPhase::Done) return std::vector<SetupEvent>{};
  auto deployment_begun = [&] {
    if (!obs.board_found) return false;
    for (const auto& c : obs.cells)
      if (player_index(c.color).ok()) return true;
    return false;
  };
  if (phase == SetupPhase::Deploy || (phase == SetupPhase::Reroll && deployment_begun())) {
    if (phase == SetupPhase::Reroll) {
      // Dice on the map: the players still to reroll keep their army. All or nothing with
      // the deployment that follows.
      CameraSetup trial = *this;
      std::vector<SetupEvent> events;
      for (int p : setup_.waiting_for()) events.push_back(SetupEvent::decline(players[static_cast<std::size_t>(p)].id));
      auto d = trial.apply_all(events);
      if (!d) return Error{d.error()};
      auto placed = trial.deploy_from_observation(obs);
      if (!placed) return Error{placed.error()};
      events.insert(events.end(), placed->begin(), placed->end());
      *this = std::move(trial);
      return events;
    }
    if (!obs.board_found) return std::vector<SetupEvent>{};  // the sheet is not in view: nothing to read
    return deploy_from_observation(obs);
  }
  if (image.empty()) return std::vector<SetupEvent>{};  // dice off the sheet need a picture
  const std::vector<vision::DieDetection> dice = off_sheet(vision::find_dice(image, params_.dice), obs.pose, layout_);
  if (phase == SetupPhase::FirstPlayer) {
    bool any = false;
    for (int p : setup_.waiting_for())
      any = any || !dice_of_color(dice, players[static_cast<std::size_t>(p)].id, params_.min_confidence).faces.empty();
    if (!any) return std::vector<SetupEvent>{};  // no contender's die off the sheet yet
    return first_roll_from_dice(dice);
  }
  std::vector<SetupEvent> applied;
  std::vector<std::string> refused;
  for (int p : setup_.waiting_for()) {
    const std::string& id = players[static_cast<std::size_t>(p)].id;
    const DiceOfColor seen = dice_of_color(dice, id, params_.min_confidence);
    if (seen.faces.empty() && seen.unsure == 0) continue;  // this player's dice are not in view
    if (phase == SetupPhase::Reroll && seen.unsure == 0 && seen.faces.size() == setup_.army(p).size() &&
        minus(setup_.army(p), seen.faces).empty())
      continue;  // the army as it was: no reroll (yet); declining is typed or starting the deployment
    auto r = phase == SetupPhase::Roll ? roll_from_dice(id, dice) : reroll_from_dice(id, dice);
    if (r) applied.insert(applied.end(), r->begin(), r->end());
    else refused.push_back(r.error());
  }
  if (applied.empty() && !refused.empty()) {
    std::string s;
    for (const auto& x : refused) s += (s.empty() ? "" : "; ") + x;
    return Error{s};
  }
  return applied;
}

Result<std::vector<SetupEvent>> CameraSetup::command(const std::string& line) {
  const auto w = words(line);
  if (w.empty()) return std::vector<SetupEvent>{};
  const std::string& verb = w[0];
  const bool image = w.size() >= 2 && w.back().size() > 1 && w.back()[0] == '@';
  cv::Mat img;
  if (image) {
    auto m = vision::load_image(w.back().substr(1));
    if (!m) return Error{m.error()};
    img = std::move(*m);
  }
  auto faces_from = [](const std::vector<std::string>& ws, std::size_t a, std::size_t b) -> Result<std::vector<int>> {
    std::vector<int> out;
    for (std::size_t i = a; i < b; ++i) {
      auto f = parse_face(ws[i]);
      if (!f) return Error{f.error()};
      out.push_back(*f);
    }
    return out;
  };
  if (verb == "roll") {
    if (w.size() < 3) return Error{"usage: roll PLAYER F1 F2 ... | roll PLAYER @IMAGE"};
    if (image) return roll_from_image(w[1], img);
    auto f = faces_from(w, 2, w.size());
    if (!f) return Error{f.error()};
    return apply_all({SetupEvent::roll(w[1], *f)});
  }
  if (verb == "reroll") {
    if (w.size() < 3) return Error{"usage: reroll PLAYER F.. to F.. | reroll PLAYER none | reroll PLAYER @IMAGE"};
    if (image) return reroll_from_image(w[1], img);
    if (w.size() == 3 && w[2] == "none") return apply_all({SetupEvent::decline(w[1])});
    const auto to_at = std::find(w.begin() + 2, w.end(), "to");
    if (to_at == w.end()) return Error{"usage: reroll PLAYER F.. to F.. (the old faces, then their new faces)"};
    const auto k = static_cast<std::size_t>(to_at - w.begin());
    auto from = faces_from(w, 2, k);
    if (!from) return Error{from.error()};
    auto to = faces_from(w, k + 1, w.size());
    if (!to) return Error{to.error()};
    return apply_all({SetupEvent::reroll(w[1], *from, *to)});
  }
  if (verb == "place") {
    if (w.size() != 4) return Error{"usage: place PLAYER FACE CELL"};
    auto f = parse_face(w[2]);
    if (!f) return Error{f.error()};
    auto h = setup_.board().board().parse_name(w[3]);
    if (!h) return Error{"setup: \"" + w[3] + "\" is not a cell of this map (e.g. f2)"};
    return apply_all({SetupEvent::place(w[1], *f, *h)});
  }
  if (verb == "deploy") {
    if (!image) return Error{"usage: deploy @IMAGE (or place PLAYER FACE CELL per die)"};
    return deploy_from_image(img);
  }
  if (verb == "first") {
    if (image) return first_roll_from_image(img);
    if (w.size() != 3) return Error{"usage: first PLAYER FACE | first @IMAGE"};
    auto f = parse_face(w[2]);
    if (!f) return Error{f.error()};
    return apply_all({SetupEvent::first_roll(w[1], *f)});
  }
  return Error{"setup: unknown command \"" + verb + "\" (roll, reroll, place, deploy, first)"};
}

}  // namespace hexdice::referee
