// `hexdice moves POSITION.json` and `hexdice apply POSITION.json ACTION.json`.
#include <iostream>
#include <memory>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "companion/cli/ruleset_dispatch.h"
#include "core/json_io.h"

namespace hexdice::cli {

namespace {

Result<Position> load_position(const std::string& path) {
  std::string err;
  auto text = read_file(path, err);
  if (!text) return Error{err};
  auto pos = parse_position(*text);
  if (!pos) return Error{path + ": " + pos.error()};
  return pos;
}

int run_moves(const std::string& path) {
  if (auto other = dispatch_moves(path)) return *other;  // Wizard Hex, Hexa Decimal, ...
  auto pos = load_position(path);
  if (!pos) return fail(pos.error());
  std::vector<Action> actions;
  legal_actions(*pos, actions);
  // One JSON array, one action per line: valid JSON and easy to grep.
  std::cout << "[";
  for (std::size_t i = 0; i < actions.size(); ++i)
    std::cout << (i ? ",\n " : "\n ") << to_json(actions[i], pos->board()).dump();
  std::cout << (actions.empty() ? "]\n" : "\n]\n");
  return kExitOk;
}

int run_apply(const std::string& pos_path, const std::string& action_path) {
  if (auto other = dispatch_apply(pos_path, action_path)) return *other;
  auto pos = load_position(pos_path);
  if (!pos) return fail(pos.error());
  std::string err;
  auto text = read_file(action_path, err);
  if (!text) return fail(err);
  auto action = parse_action(*text, *pos);
  if (!action) return fail(action_path + ": " + action.error());
  auto applied = apply(*pos, *action);
  if (!applied) return fail(applied.error());
  Json out{{"position", to_json(applied->position)}, {"outcome", to_json(applied->outcome, *pos)}};
  std::cout << out.dump(2) << '\n';
  return kExitOk;
}

}  // namespace

void register_rules_commands(CLI::App& app, Registry& reg) {
  auto moves_pos = std::make_shared<std::string>();
  auto* moves = app.add_subcommand("moves", "List the legal actions of a position (JSON array)");
  moves->add_option("POSITION", *moves_pos, "position JSON file (- for stdin)")->required();
  reg.add(moves, [moves_pos] { return run_moves(*moves_pos); });

  auto apply_pos = std::make_shared<std::string>();
  auto apply_act = std::make_shared<std::string>();
  auto* ap = app.add_subcommand("apply", "Apply an action: the next position and the outcome (JSON)");
  ap->add_option("POSITION", *apply_pos, "position JSON file")->required();
  ap->add_option("ACTION", *apply_act, "action JSON file")->required();
  reg.add(ap, [apply_pos, apply_act] { return run_apply(*apply_pos, *apply_act); });
}

}  // namespace hexdice::cli
