// Every `hexdice` subcommand registers itself with the CLI11 app here; main.cpp
// calls each register function. One file per subcommand.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace hexdice::cli {

// The subcommand's body runs after parsing; its return value is the exit code.
using Runner = std::function<int()>;
struct Registry {
  std::vector<std::pair<CLI::App*, Runner>> commands;
  void add(CLI::App* sub, Runner run) { commands.emplace_back(sub, std::move(run)); }
};

void register_rules_commands(CLI::App& app, Registry& reg);  // moves, apply
void register_record_commands(CLI::App& app, Registry& reg);  // history, record export|import|sample
void register_board_commands(CLI::App& app, Registry& reg);  // board
void register_referee_commands(CLI::App& app, Registry& reg);  // referee
void register_engine_commands(CLI::App& app, Registry& reg);  // hint, selfplay, solo
void register_reader_commands(CLI::App& app, Registry& reg);  // read, dice, eval, synth
void register_board_read_commands(CLI::App& app, Registry& reg);  // board-read (Wizard Hex position from a photo)
void register_calibrate_commands(CLI::App& app, Registry& reg);  // calibrate camera|colors|check

}  // namespace hexdice::cli
