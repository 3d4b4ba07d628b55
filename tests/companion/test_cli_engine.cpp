// The hint, selfplay and solo subcommands end to end: output format, exit status, the
// one-line error convention (interfaces.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct CliRun {
  int status = -1;
  std::string out;
};

// Runs the hexdice binary with arguments; stderr goes to a file read back into `err`.
CliRun hexdice(const std::string& args, std::string* err = nullptr) {
  const std::string bin = std::string(HEXDICE_BIN_DIR) + "/hexdice";
  // One file per process: ctest runs the tests of this binary in parallel processes.
  const std::string errfile =
      std::filesystem::temp_directory_path() / ("hexdice_cli_engine_err_" + std::to_string(getpid()) + ".txt");
  const std::string cmd = "cd '" + std::string(HEXDICE_SOURCE_DIR) + "' && '" + bin + "' " + args + " 2>'" + errfile + "'";
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (err) {
    FILE* f = fopen(errfile.c_str(), "r");
    err->clear();
    if (f) {
      while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) err->append(buf.data(), n);
      fclose(f);
    }
  }
  std::error_code ec;
  std::filesystem::remove(errfile, ec);
  return r;
}

class CliEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(std::string(HEXDICE_BIN_DIR) + "/hexdice"))
      GTEST_SKIP() << "build the hexdice binary first";
  }
};

TEST_F(CliEngine, HintPrintsTheActionAndAReason) {
  const CliRun r = hexdice("hint data/demo/position.json --ms 0 --depth 3");
  ASSERT_EQ(r.status, 0);
  const auto nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  const auto action = nlohmann::json::parse(r.out.substr(0, nl));
  EXPECT_EQ(action["type"], "move");
  EXPECT_EQ(action["unit"], nlohmann::json::array({0, -3}));
  EXPECT_EQ(action["to"], nlohmann::json::array({0, -1}));
  EXPECT_NE(r.out.find("wins now"), std::string::npos) << r.out;
  const CliRun j = hexdice("hint data/demo/position.json --ms 0 --depth 3 --json");
  ASSERT_EQ(j.status, 0);
  const auto obj = nlohmann::json::parse(j.out);
  EXPECT_EQ(obj["action"], action);
  EXPECT_GT(obj["score"].get<int>(), 900000);
}

TEST_F(CliEngine, SelfplayPrintsTheTally) {
  const CliRun r = hexdice("selfplay --games 2 --a greedy --b random --seed 3 --cap 60");
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("A wins "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("games=2"), std::string::npos) << r.out;
  EXPECT_EQ(hexdice("selfplay --games 2 --a greedy --b random --seed 3 --cap 60").out.substr(0, 80),
            r.out.substr(0, 80));
}

TEST_F(CliEngine, SoloPlaysAScenarioToTheEnd) {
  const CliRun r = hexdice("solo --scenario data/scenarios/01-first-steps.json --seed 4 --auto-player greedy");
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("Scenario: First Steps", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nResult: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" enemy: roll "), std::string::npos) << r.out;
}

TEST_F(CliEngine, BadInputIsOneLineAndNonZero) {
  std::string err;
  CliRun r = hexdice("hint /nonexistent/position.json", &err);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(err.rfind("hexdice: ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  r = hexdice("solo --scenario data/demo/position.json", &err);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(err.find("needs a \"name\""), std::string::npos) << err;
  r = hexdice("selfplay --a alphazero --b random", &err);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(err.find("alphazero"), std::string::npos) << err;
  EXPECT_TRUE(r.out.empty());
}

}  // namespace
