// Hex Dice behind the Ruleset interface: a thin adapter over core/rules.h and
// core/json_io.h (which stay the reference API for Hex Dice itself).
#pragma once

#include <memory>

#include "core/ruleset.h"

namespace hexdice {

std::shared_ptr<const Ruleset> make_hexdice_ruleset();

}  // namespace hexdice
