// The ruleset registry and the sample start positions under data/positions/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/ruleset.h"

namespace hexdice {
namespace {

namespace fs = std::filesystem;

TEST(RulesetData, SampleStartPositionsAreCanonicalStarts) {
  const fs::path dir = fs::path(HEXDICE_SOURCE_DIR) / "data" / "positions";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string stem = entry.path().stem().string();
    const auto us = stem.find('_');
    if (entry.path().extension() != ".json" || us == std::string::npos) continue;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto j = parse_json(text, "position");
    ASSERT_TRUE(j.ok()) << entry.path();
    auto rs = ruleset_for(*j);
    ASSERT_TRUE(rs.ok()) << rs.error();
    EXPECT_EQ((*rs)->name(), stem.substr(0, us));
    auto norm = (*rs)->normalize(*j);
    ASSERT_TRUE(norm.ok()) << norm.error();
    EXPECT_EQ(*norm, *j) << entry.path() << " is not in canonical form";
    auto start = (*rs)->start_position(stem.substr(us + 1));
    ASSERT_TRUE(start.ok()) << start.error();
    EXPECT_EQ(*start, *j) << entry.path() << " differs from start_position";
    auto over = (*rs)->game_over(*j);
    ASSERT_TRUE(over.ok());
    EXPECT_FALSE(*over);
    ++files;
  }
  EXPECT_EQ(files, 7);
}

class Dummy final : public Ruleset {
 public:
  std::string_view name() const override { return "dummy"; }
  Result<Json> start_position(std::string_view) const override { return Json{{"ruleset", "dummy"}}; }
  Result<Json> normalize(const Json& p) const override { return p; }
  Result<Json> legal_actions(const Json&) const override { return Json::array(); }
  Result<AppliedJson> apply(const Json&, const Json&) const override { return Error{"no actions in dummy"}; }
  Result<Json> winner(const Json&) const override { return Json(nullptr); }
  Result<bool> game_over(const Json&) const override { return true; }
  std::string cell_name(const Json&, Hex) const override { return ""; }
  Result<std::vector<Hex>> cells(const Json&) const override { return std::vector<Hex>{}; }
  std::string describe(const Json&, const Json&) const override { return "?"; }
};

TEST(RulesetRegistry, CellsAndDescriptions) {
  struct Case {
    const char* ruleset;
    const char* variant;
    std::size_t cells;
    Json action;
    const char* text;
  };
  const std::vector<Case> cases = {
      {"hexdice", "", 91, Json{{"type", "guard"}, {"unit", Json::array({0, -4})}}, nullptr},
      {"wizardhex", "across", 19, Json{{"type", "expand"}, {"element", "fire"}, {"to", Json::array({2, -1})}},
       "expand fire e2"},
      {"hexadecimal", "standard", 90, Json{{"type", "move"}, {"from", Json::array({-2, 0})}, {"to", Json::array({-1, -1})}},
       "Prince d4-e4"},
      {"hexadecimal", "standard", 90,
       Json{{"type", "wizard"}, {"wizard", Json::array({-3, -1})}, {"from", Json::array({-4, 0})}, {"to", Json::array({-2, -2})}},
       "Wizard c2 leaps Prince b2 onto d2"},
  };
  for (const auto& c : cases) {
    const Ruleset* rs = find_ruleset(c.ruleset);
    ASSERT_NE(rs, nullptr);
    auto pos = rs->start_position(c.variant);
    ASSERT_TRUE(pos.ok()) << pos.error();
    auto cells = rs->cells(*pos);
    ASSERT_TRUE(cells.ok());
    EXPECT_EQ(cells->size(), c.cells) << c.ruleset;
    if (c.text) EXPECT_EQ(rs->describe(*pos, c.action), c.text) << c.ruleset;
  }
  // Hex Dice describes through its own API.
  const Json demo = Json::parse(R"({"ruleset":"hexdice","players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],
    "to_move":"red","units":[{"q":0,"r":-4,"owner":"red","face":3}]})");
  EXPECT_EQ(find_ruleset("hexdice")->describe(demo, Json{{"type", "guard"}, {"unit", Json::array({0, -4})}}).rfind("Knight f2", 0), 0u);
  EXPECT_EQ(find_ruleset("wizardhex")->describe(Json::object(), Json::object()), "?");
}

TEST(RulesetRegistry, RegisteringAGameTouchesNoOther) {
  const auto before = ruleset_names();
  register_ruleset(std::make_shared<Dummy>());
  auto rs = ruleset_for(Json{{"ruleset", "dummy"}});
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ((*rs)->name(), "dummy");
  EXPECT_EQ(ruleset_names().size(), before.size() + 1);
  EXPECT_NE(find_ruleset("hexdice"), nullptr);
  EXPECT_FALSE(ruleset_for(Json{{"ruleset", 3}}).ok()) << "a non-string key";
}

}  // namespace
}  // namespace hexdice
