// `hexdice moves` / `hexdice apply` for the rulesets other than Hex Dice: the position's
// "ruleset" key picks the game from the core registry (core/ruleset.h). Returns nullopt
// when the position is a Hex Dice file (key "hexdice" or absent), so the caller runs its own
// path. A position on stdin ("-") is read once, so it always goes through the registry.
#pragma once

#include <optional>
#include <string>

namespace hexdice::cli {

std::optional<int> dispatch_moves(const std::string& position_path);
std::optional<int> dispatch_apply(const std::string& position_path, const std::string& action_path);

}  // namespace hexdice::cli
