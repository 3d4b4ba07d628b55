// `hexdice moves` / `hexdice apply` on Wizard Hex and Hexa Decimal positions: the
// position's "ruleset" key picks the game; illegal actions give one error line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct CliRun {
  int status = -1;
  std::string out, err;
};

CliRun run(const std::string& args) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice";
  const fs::path err = fs::temp_directory_path() / ("hexdice_cli_rulesets_" + std::to_string(::getpid()) + ".err");
  CliRun r;
  FILE* p = ::popen((bin.string() + " " + args + " 2>" + err.string()).c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream in(err);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fs::remove(err);
  return r;
}

std::string data(const std::string& name) { return std::string(HEXDICE_SOURCE_DIR) + "/data/positions/" + name; }

std::string write_tmp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("hexdice_cli_rulesets_" + std::to_string(::getpid()) + name);
  std::ofstream(p) << text;
  return p.string();
}

class CliRulesets : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(fs::path(HEXDICE_BIN_DIR) / "hexdice")) GTEST_SKIP() << "build the hexdice target first";
  }
};

TEST_F(CliRulesets, MovesListsWizardHexFirstTurn) {
  const CliRun r = run("moves " + data("wizardhex_across.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const Json moves = Json::parse(r.out);
  ASSERT_EQ(moves.size(), 9u);
  for (const auto& m : moves) EXPECT_EQ(m["type"], "expand");
}

TEST_F(CliRulesets, ApplyWizardHexGivesPositionAndOutcome) {
  const std::string act = write_tmp("a.json", R"({"type":"expand","element":"earth","to":[2,-1]})");
  const CliRun r = run("apply " + data("wizardhex_across.json") + " " + act);
  ASSERT_EQ(r.status, 0) << r.err;
  const Json out = Json::parse(r.out);
  EXPECT_EQ(out["position"]["ruleset"], "wizardhex");
  EXPECT_EQ(out["position"]["to_move"], "black");
  EXPECT_EQ(out["position"]["tokens"].size(), 1u);
  EXPECT_TRUE(out["outcome"]["winner"].is_null());
  fs::remove(act);
}

TEST_F(CliRulesets, IllegalActionIsOneLineNamingTheRule) {
  const std::string act = write_tmp("b.json", R"({"type":"expand","element":"earth","to":[0,0]})");
  const CliRun r = run("apply " + data("wizardhex_across.json") + " " + act);
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(r.out.empty()) << "no partial output";
  EXPECT_EQ(r.err.rfind("hexdice: illegal action: expand:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("section 5"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  fs::remove(act);
}

TEST_F(CliRulesets, HexaDecimalMovesAndApply) {
  const CliRun r = run("moves " + data("hexadecimal_standard.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const Json moves = Json::parse(r.out);
  EXPECT_EQ(moves.size(), 60u);
  const std::string act = write_tmp("c.json", moves[0].dump());
  const CliRun a = run("apply " + data("hexadecimal_standard.json") + " " + act);
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(Json::parse(a.out)["position"]["to_move"], "black");
  fs::remove(act);
}

TEST_F(CliRulesets, UnknownRulesetIsRejected) {
  const std::string pos = write_tmp("d.json", R"({"ruleset":"chess","players":[]})");
  const CliRun r = run("moves " + pos);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("unknown ruleset \"chess\""), std::string::npos) << r.err;
  fs::remove(pos);
}

}  // namespace
