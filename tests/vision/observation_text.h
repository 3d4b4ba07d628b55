// Everything a read says as one string, for tests that compare two reads: the observation's
// JSON contract and, after it, why each hidden cell was hidden (not part of the JSON).
#pragma once

#include <string>

#include "vision/read.h"

namespace hexdice::vision {

inline std::string describe(const Observation& o) {
  std::string s = to_json(o).dump();
  for (const auto& [h, why] : o.hidden_why) s += "\n" + std::to_string(h.q) + "," + std::to_string(h.r) + " " + why;
  return s;
}

}  // namespace hexdice::vision
