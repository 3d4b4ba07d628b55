// Runs the built `hexdice` with ARGS (a shell command line's arguments), its stdout dropped and
// its stderr returned in ERR; returns std::system's status. For the tests of what the command
// line says on bad input (one `hexdice:` line, non-zero exit).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

inline int run_cli(const std::string& args, std::string& err) {
  namespace fs = std::filesystem;
  const fs::path errf = fs::temp_directory_path() / ("hexdice_cli_err_" + std::to_string(::getpid()) + ".txt");
  const std::string cmd = std::string(HEXDICE_BIN_DIR) + "/hexdice " + args + " >/dev/null 2>" + errf.string();
  const int rc = std::system(cmd.c_str());
  std::ifstream in(errf);
  err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fs::remove(errf);
  return rc;
}
