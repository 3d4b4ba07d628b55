// interfaces.md: Position / Action / Outcome JSON, and every bad-input error.
#include <gtest/gtest.h>

#include "tests/core/test_util.h"

namespace hexdice {
namespace {

const char* kPos = R"({"ruleset":"hexdice","radius":5,
  "players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red",
  "units":[{"q":0,"r":-4,"owner":"red","face":3,"tokens":0,"guard":false},
           {"q":0,"r":2,"owner":"blue","face":5,"tokens":2,"guard":true}],
  "house_rules":{"archer_star_free_path":true,"ranged_needs_clear_line":false,"merge_sum":false}})";

TEST(InterfacesJson, PositionRoundTrip) {
  auto p = parse_position(kPos);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->unit_count(0), 1);
  EXPECT_EQ(p->at(Hex{0, 2})->tokens, 2);
  EXPECT_TRUE(p->at(Hex{0, 2})->guard);
  auto again = position_from_json(to_json(*p));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE(*again == *p);
}

TEST(InterfacesJson, MissingHouseRulesTakeDefaults) {
  auto p = parse_position(R"({"players":[{"id":"a","corner":"N"},{"id":"b","corner":"S"}],"to_move":"b",
    "house_rules":{"merge_sum":true}})");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->radius(), 5);
  EXPECT_TRUE(p->rules().archer_star_free_path);
  EXPECT_FALSE(p->rules().ranged_needs_clear_line);
  EXPECT_TRUE(p->rules().merge_sum);
  EXPECT_EQ(p->to_move(), 1);
}

struct BadCase {
  const char* name;
  const char* json;
  const char* needle;
};
class InterfacesJsonBadPosition : public ::testing::TestWithParam<BadCase> {};
TEST_P(InterfacesJsonBadPosition, OneClearError) {
  auto p = parse_position(GetParam().json);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find(GetParam().needle), std::string::npos) << p.error();
  EXPECT_EQ(p.error().find('\n'), std::string::npos);
}
#define PLAYERS R"("players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red")"
INSTANTIATE_TEST_SUITE_P(
    Cases, InterfacesJsonBadPosition,
    ::testing::Values(
        BadCase{"Malformed", "{\"players\": [", "malformed JSON"},
        BadCase{"NotObject", "[1,2]", "expected a JSON object"},
        BadCase{"UnknownFace", "{" PLAYERS R"(,"units":[{"q":0,"r":0,"owner":"red","face":7}]})", "unknown face 7"},
        BadCase{"OffMap", "{" PLAYERS R"(,"units":[{"q":0,"r":6,"owner":"red","face":1}]})", "off the radius-5 map"},
        BadCase{"TwoUnitsOneCell", "{" PLAYERS R"(,"units":[{"q":0,"r":0,"owner":"red","face":1},{"q":0,"r":0,"owner":"blue","face":2}]})",
                "two units on one cell"},
        BadCase{"UnknownOwner", "{" PLAYERS R"(,"units":[{"q":0,"r":0,"owner":"pink","face":1}]})", "unknown owner"},
        BadCase{"BadCorner", R"({"players":[{"id":"red","corner":"X"},{"id":"blue","corner":"S"}],"to_move":"red"})", "unknown corner"},
        BadCase{"BadToMove", R"({"players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"pink"})", "not a listed player"},
        BadCase{"BadRadius", "{\"radius\":40," PLAYERS "}", "out of range"},
        BadCase{"TooManyTokens", "{" PLAYERS R"(,"units":[{"q":0,"r":0,"owner":"red","face":1,"tokens":9}]})", "tokens"},
        BadCase{"WrongRuleset", R"({"ruleset":"chess"})", "ruleset"},
        BadCase{"OnePlayer", R"({"players":[{"id":"red","corner":"N"}],"to_move":"red"})", "2, 3, 4 or 6 players"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(InterfacesJson, ActionsRoundTripThroughLegalList) {
  auto p = parse_position(kPos);
  ASSERT_TRUE(p.ok());
  for (const Action& a : legal_actions(*p)) {
    auto back = action_from_json(to_json(a, p->board()), *p);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, a);
  }
}

TEST(InterfacesJson, ActionErrors) {
  auto p = parse_position(kPos);
  ASSERT_TRUE(p.ok());
  EXPECT_NE(parse_action("{", *p).error().find("malformed"), std::string::npos);
  EXPECT_NE(parse_action(R"({"type":"fly","unit":[0,-4]})", *p).error().find("unknown type"), std::string::npos);
  EXPECT_NE(parse_action(R"({"type":"move","unit":[0,-4]})", *p).error().find("needs \"to\""), std::string::npos);
  EXPECT_NE(parse_action(R"({"type":"move","unit":[0,-4],"to":[9,9]})", *p).error().find("off the map"), std::string::npos);
  EXPECT_NE(parse_action(R"({"type":"reroll","unit":[0,-4],"face":0})", *p).error().find("unknown face"), std::string::npos);
  EXPECT_NE(parse_action(R"({"type":"guard","unit":"f2"})", *p).error().find("[q, r]"), std::string::npos);
}

TEST(InterfacesJson, ApplyOutcomeShape) {
  auto p = parse_position(kPos);
  ASSERT_TRUE(p.ok());
  auto a = parse_action(R"({"type":"move","unit":[0,-4],"to":[1,-2]})", *p);
  ASSERT_TRUE(a.ok());
  auto r = apply(*p, *a);
  ASSERT_TRUE(r.ok()) << r.error();
  Json o = to_json(r->outcome, *p);
  EXPECT_TRUE(o["combat"].is_null());
  EXPECT_TRUE(o["removed"].empty());
  EXPECT_TRUE(o["winner"].is_null());
  EXPECT_EQ(to_json(r->position)["to_move"], "blue");
}

}  // namespace
}  // namespace hexdice
