#include "companion/cli/ruleset_dispatch.h"

#include <iostream>

#include "companion/cli/cli_util.h"
#include "core/ruleset.h"

namespace hexdice::cli {

namespace {

// The parsed position when it names another ruleset; nullopt for Hex Dice or unreadable
// input (which the Hex Dice path then reports as before).
std::optional<Json> other_ruleset_position(const std::string& path, std::string& text) {
  std::string err;
  auto t = read_file(path, err);
  if (!t) return std::nullopt;
  Json j = Json::parse(t->begin(), t->end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || ruleset_key(j) == "hexdice") return std::nullopt;
  text = std::move(*t);
  return j;
}

}  // namespace

std::optional<int> dispatch_moves(const std::string& path) {
  if (path == "-") return std::nullopt;  // stdin can be read once: Hex Dice only
  std::string text;
  auto pos = other_ruleset_position(path, text);
  if (!pos) return std::nullopt;
  auto rs = ruleset_for(*pos);
  if (!rs) return fail(path + ": " + rs.error());
  auto actions = (*rs)->legal_actions(*pos);
  if (!actions) return fail(path + ": " + actions.error());
  std::cout << "[";
  for (std::size_t i = 0; i < actions->size(); ++i) std::cout << (i ? ",\n " : "\n ") << (*actions)[i].dump();
  std::cout << (actions->empty() ? "]\n" : "\n]\n");
  return kExitOk;
}

std::optional<int> dispatch_apply(const std::string& pos_path, const std::string& action_path) {
  if (pos_path == "-") return std::nullopt;
  std::string text;
  auto pos = other_ruleset_position(pos_path, text);
  if (!pos) return std::nullopt;
  auto rs = ruleset_for(*pos);
  if (!rs) return fail(pos_path + ": " + rs.error());
  std::string err;
  auto atext = read_file(action_path, err);
  if (!atext) return fail(err);
  auto action = parse_json(*atext, "action");
  if (!action) return fail(action_path + ": " + action.error());
  auto applied = (*rs)->apply(*pos, *action);
  if (!applied) return fail(applied.error());
  Json out{{"position", applied->position}, {"outcome", applied->outcome}};
  std::cout << out.dump(2) << '\n';
  return kExitOk;
}

}  // namespace hexdice::cli
