// `hexdice moves` and `hexdice apply` as interfaces.md specifies them, including one
// clear error line and a non-zero exit for every kind of bad input.
#include <gtest/gtest.h>

#include <unistd.h>

#include "core/json_io.h"
#include "tests/companion/cli_runner.h"

namespace hexdice {
namespace {

using testing::line_count;
using testing::run_hexdice;
using testing::temp_file;

const std::string kPos = R"({"ruleset":"hexdice","radius":5,
 "players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red",
 "units":[{"q":0,"r":-4,"owner":"red","face":3},{"q":0,"r":-3,"owner":"red","face":1},
          {"q":0,"r":-1,"owner":"blue","face":2},{"q":2,"r":1,"owner":"blue","face":5}]})";

TEST(CliMoves, PrintsTheLegalActionsAsOneJsonArrayOneActionPerLine) {
  const auto r = run_hexdice("moves " + temp_file("moves.json", kPos));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json arr = Json::parse(r.out);
  ASSERT_TRUE(arr.is_array());
  auto pos = parse_position(kPos);
  ASSERT_TRUE(pos.ok());
  const auto legal = legal_actions(*pos);
  ASSERT_EQ(arr.size(), legal.size());
  for (std::size_t i = 0; i < legal.size(); ++i) EXPECT_EQ(arr[i], to_json(legal[i], pos->board()));
  EXPECT_EQ(line_count(r.out), static_cast<int>(legal.size()) + 2);
}

TEST(CliApply, PrintsNextPositionAndOutcome) {
  const auto r = run_hexdice("apply " + temp_file("apply.json", kPos) + " " +
                             temp_file("act.json", R"({"type":"move","unit":[0,-3],"to":[0,-1]})"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["outcome"]["combat"]["success"], true);
  EXPECT_EQ(j["outcome"]["removed"], Json::parse("[[0,-1]]"));
  EXPECT_TRUE(j["outcome"]["winner"].is_null());
  EXPECT_EQ(j["position"]["to_move"], "blue");
  EXPECT_TRUE(parse_position(j["position"].dump()).ok());
}

struct BadInput {
  const char* name;
  std::string position;
  std::string action;  // empty: run `moves`
  const char* needle;
};

void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, OneClearLineAndNonZeroExit) {
  const BadInput& c = GetParam();
  const std::string pos_file = temp_file(std::string(c.name) + "_pos.json", c.position);
  const std::string cmd = c.action.empty() ? "moves " + pos_file
                                           : "apply " + pos_file + " " + temp_file(std::string(c.name) + "_act.json", c.action);
  const auto r = run_hexdice(cmd);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
}

const std::string kPlayers = R"("players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red")";
INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadInput,
    ::testing::Values(
        BadInput{"MalformedPosition", "{\"players\":", "", "malformed JSON"},
        BadInput{"UnknownFace", "{" + kPlayers + R"(,"units":[{"q":0,"r":0,"owner":"red","face":9}]})", "", "unknown face 9"},
        BadInput{"OffMap", "{" + kPlayers + R"(,"units":[{"q":7,"r":0,"owner":"red","face":1}]})", "", "off the radius-5 map"},
        BadInput{"TwoUnitsOneCell",
                 "{" + kPlayers + R"(,"units":[{"q":0,"r":0,"owner":"red","face":1},{"q":0,"r":0,"owner":"blue","face":1}]})",
                 "", "two units on one cell"},
        BadInput{"MalformedAction", kPos, "{\"type\":", "malformed JSON"},
        BadInput{"WrongPlayer", kPos, R"({"type":"guard","unit":[2,1]})", "out of turn"},
        BadInput{"IllegalMove", kPos, R"({"type":"move","unit":[0,-3],"to":[1,-3]})", "rules.md section 4"},
        BadInput{"RerollWithoutFace", kPos, R"({"type":"reroll","unit":[0,-3]})", "rolled face"},
        BadInput{"ActionOffMap", kPos, R"({"type":"move","unit":[0,-3],"to":[0,-9]})", "off the map"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CliBadInput, MissingFileAndUsage) {
  auto r = run_hexdice("moves /nonexistent/position.json");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(line_count(r.err), 1);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
  r = run_hexdice("apply");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(r.err.empty());
}

}  // namespace
}  // namespace hexdice
