#include "companion/cli/ruleset_dispatch.h"

#include <iostream>

#include "companion/cli/cli_util.h"
#include "core/ruleset.h"

namespace hexdice::cli {

namespace {

// The parsed position when it names another ruleset (or comes from stdin, which can be
// read only once: then every ruleset, Hex Dice included, goes through the registry).
// nullopt for a Hex Dice file or an unreadable one (the Hex Dice path reports as before).
// `error` is set when stdin held no valid JSON.
std::optional<Json> routed_position(const std::string& path, std::string& error) {
  std::string err;
  auto t = read_file(path, err);
  if (!t) {
    if (path == "-") error = err;
    return std::nullopt;
  }
  Json j = Json::parse(t->begin(), t->end(), nullptr, /*allow_exceptions=*/false);
  if (path == "-") {
    if (j.is_discarded()) error = path + ": position: malformed JSON";
    return j.is_discarded() ? std::nullopt : std::optional<Json>(j);
  }
  if (j.is_discarded() || !j.is_object() || ruleset_key(j) == "hexdice") return std::nullopt;
  return j;
}

}  // namespace

std::optional<int> dispatch_moves(const std::string& path) {
  std::string error;
  auto pos = routed_position(path, error);
  if (!error.empty()) return fail(error);
  if (!pos) return std::nullopt;
  auto rs = ruleset_for(*pos);
  if (!rs) return fail(path + ": " + rs.error());
  auto actions = (*rs)->legal_actions(*pos);
  if (!actions) return fail(path + ": " + actions.error());
  // Same layout as the Hex Dice path: one JSON array, one action per line.
  std::cout << "[";
  for (std::size_t i = 0; i < actions->size(); ++i) std::cout << (i ? ",\n " : "\n ") << (*actions)[i].dump();
  std::cout << (actions->empty() ? "]\n" : "\n]\n");
  return kExitOk;
}

std::optional<int> dispatch_apply(const std::string& pos_path, const std::string& action_path) {
  std::string error;
  auto pos = routed_position(pos_path, error);
  if (!error.empty()) return fail(error);
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
