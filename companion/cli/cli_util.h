// Helpers shared by the hexdice subcommands: reading input files, the one-line
// error convention (interfaces.md: one clear line on stderr, non-zero exit).
#pragma once

#include <optional>
#include <string>

namespace hexdice::cli {

// Exit codes: 0 ok, 1 bad input or failed operation, 2 usage.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

// Reads a whole file ("-" = stdin). nullopt and `error` set on failure.
std::optional<std::string> read_file(const std::string& path, std::string& error);
// Prints "hexdice: <message>" on stderr and returns kExitBadInput.
int fail(const std::string& message);

}  // namespace hexdice::cli
