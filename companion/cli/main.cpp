// hexdice: one binary, subcommands (interfaces.md "Command line").
#include <iostream>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"hexdice: the Hex Dice referee, rules engine and game record"};
  app.require_subcommand(1);
  hexdice::cli::Registry reg;
  hexdice::cli::register_rules_commands(app, reg);
  hexdice::cli::register_record_commands(app, reg);
  hexdice::cli::register_board_commands(app, reg);
  hexdice::cli::register_referee_commands(app, reg);
  hexdice::cli::register_engine_commands(app, reg);
  hexdice::cli::register_reader_commands(app, reg);
  hexdice::cli::register_board_read_commands(app, reg);
  hexdice::cli::register_calibrate_commands(app, reg);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "hexdice: " << e.what() << " (see hexdice --help)\n";
    return hexdice::cli::kExitUsage;
  }
  try {
    for (auto& [sub, run] : reg.commands)
      if (sub->parsed()) return run();
  } catch (const std::exception& e) {
    return hexdice::cli::fail(e.what());
  }
  return hexdice::cli::kExitUsage;
}
