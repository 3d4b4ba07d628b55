// Sync: explain the difference between the last committed position and what the camera
// now sees as one legal action of the player whose turn it is (issue 4, "Sync").
//
// The table shows units (colour = owner, face, guard token) but not reduction tokens,
// so positions are compared through their visible view. Pure: no OpenCV, no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/rules.h"

namespace hexdice {

// What the camera saw on one cell (the observation JSON of interfaces.md, owner resolved).
struct SeenUnit {
  Hex hex;
  int owner = -1;  // player index; -1 = a colour that belongs to no player
  int face = 0;
  bool guard = false;
  double confidence = 1.0;
};

struct SeenBoard {
  std::vector<SeenUnit> units;
};

// The visible view of a position: what a camera would report.
SeenBoard visible(const Position& pos);

// Cells where the two views differ (by owner, face or guard), with a short reason each.
struct CellDiff {
  Hex hex;
  std::string what;  // e.g. "red Knight appeared", "face 3 -> 5"
};
std::vector<CellDiff> diff(const Position& pos, const SeenBoard& seen);

enum class SyncKind {
  NoChange,      // the table matches the committed position
  Explained,     // exactly one legal action of the player to move explains it
  Ambiguous,     // several different actions explain it (should not happen; kept for safety)
  WrongPlayer,   // a legal action of another player explains it
  TwoActions,    // two actions by the player to move explain it (a second action in one turn)
  Unexplained,   // nothing legal explains it
};

struct Candidate {
  Action action;
  int player = -1;        // who would have acted
  int mismatches = 0;     // cells where its result differs from what is seen
  std::string text;       // human description
};

struct SyncResult {
  SyncKind kind = SyncKind::NoChange;
  std::optional<Action> action;       // when Explained (a reroll carries the seen face)
  std::vector<CellDiff> changes;      // what differs from the committed position
  std::vector<Candidate> nearest;     // when not Explained: the closest legal explanations
  std::string message;                // one human line for the log / alert
};

struct SyncOptions {
  int max_nearest = 3;
  // Cells seen with lower confidence do not count as evidence of a change.
  double min_confidence = 0.0;
};

SyncResult explain(const Position& committed, const SeenBoard& seen, const SyncOptions& opt = {});

// True when an action leaves no trace on the table a camera can see (a failed attack
// whose attacker had no guard token, a reroll to the same face): it must be declared.
bool leaves_no_trace(const Position& before, const Action& a);

}  // namespace hexdice
