#include "companion/cli/cli_util.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace hexdice::cli {

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  return s;
}

int fail(const std::string& message) {
  // One line, whatever the message holds: a library's text (OpenCV's ends in a newline) is
  // folded, and trailing blanks dropped.
  std::string line = message;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::cerr << "hexdice: " << line << '\n';
  return kExitBadInput;
}

}  // namespace hexdice::cli
