// The companion's History panel and board with games of every ruleset in the database
// (issue 7): a Wizard Hex game logged from the command line is listed beside Hex Dice and
// Hexa Decimal games and replays on the Wizard Hex board; `--game wizardhex --db F`
// resumes the unfinished game and logs the move confirmed on the board.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "companion/record/record_db.h"
#include "companion/record/ruleset_game.h"
#include "core/ruleset.h"
#include "tests/companion/cli_runner.h"
#include "tests/companion/window_test.h"

namespace hexdice {
namespace {

namespace fs = std::filesystem;

using hexdice::testing::on_path;
using hexdice::testing::Xvfb;

using hexdice::testing::read_dump;
using hexdice::testing::has;
using hexdice::testing::any_starts;

// `n` plies of first legal actions from a Wizard Hex start preset, as JSON lines.
std::string wizardhex_lines(const std::string& preset, int n, Json* end = nullptr) {
  const Ruleset& rs = *find_ruleset("wizardhex");
  Json pos = *rs.start_position(preset);
  std::string out;
  for (int i = 0; i < n; ++i) {
    const Json a = (*rs.legal_actions(pos))[static_cast<std::size_t>(i) * 3 % rs.legal_actions(pos)->size()];
    out += a.dump() + "\n";
    pos = rs.apply(pos, a)->position;
  }
  if (end) *end = pos;
  return out;
}

TEST(CompanionGuiRulesets, HistoryListsEveryRulesetAndReplaysAWizardHexGameThenLogsAMoveOnIt) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  if (!on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
  const fs::path dir = fs::temp_directory_path() / ("hexdice_gui_rulesets_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "games.sqlite").string();
  // 1: Wizard Hex, 4 moves, then black resigns; 2: Hex Dice; 3: Hexa Decimal; 4: Wizard Hex, unfinished.
  std::ofstream(dir / "w1.jsonl") << wizardhex_lines("across", 4) << "\"resign\"\n";
  ASSERT_EQ(testing::run_hexdice("record play --db " + db + " --ruleset wizardhex --variant across " + (dir / "w1.jsonl").string()).out, "1\n");
  ASSERT_EQ(testing::run_hexdice("record sample --db " + db + " --seed 3 --max-plies 6").out, "2\n");
  std::ofstream(dir / "h.jsonl") << (*find_ruleset("hexadecimal")->legal_actions(*find_ruleset("hexadecimal")->start_position("")))[0].dump() << "\n";
  ASSERT_EQ(testing::run_hexdice("record play --db " + db + " --ruleset hexadecimal " + (dir / "h.jsonl").string()).out, "3\n");
  Json live;
  std::ofstream(dir / "w4.jsonl") << wizardhex_lines("across", 3, &live);
  ASSERT_EQ(testing::run_hexdice("record play --db " + db + " --ruleset wizardhex --variant across " + (dir / "w4.jsonl").string()).out, "4\n");

  Xvfb x;
  ASSERT_TRUE(x.start()) << "Xvfb did not start";
  const std::string base = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() + " --db " +
                           db + " --no-live --frames 3 ";
  // --history opens the first logged game: the finished Wizard Hex game, at its start, to replay.
  ASSERT_EQ(std::system((base + "--history --screenshot " + (dir / "hist.png").string() + " --dump-ui " +
                         (dir / "hist.json").string() + " 2>" + (dir / "err1.txt").string()).c_str()), 0)
      << testing::slurp(dir / "err1.txt");
  EXPECT_FALSE(cv::imread((dir / "hist.png").string()).empty());
  auto w = read_dump(dir / "hist.json");
  const auto& hist = w["History"];
  EXPECT_TRUE(any_starts(hist, "Wizard Hex record: 4 moves, game 1 of the database, green won (resignation)"))
      << (hist.empty() ? "" : hist[0]);
  EXPECT_TRUE(has(hist, "4 games"));
  EXPECT_TRUE(has(hist, "1 wizardhex green won (resignation)"));
  EXPECT_TRUE(any_starts(hist, "2 hexdice "));
  EXPECT_TRUE(has(hist, "3 hexadecimal unfinished"));
  EXPECT_TRUE(has(hist, "4 wizardhex unfinished"));
  EXPECT_TRUE(has(hist, "replay at move 0"));
  EXPECT_TRUE(any_starts(hist, "1. expand ")) << "the moves of the record";
  EXPECT_TRUE(any_starts(hist, "4. "));
  const auto& board = w["Board"];
  ASSERT_FALSE(board.empty());
  EXPECT_EQ(board[0].rfind("Wizard Hex (replay): ", 0), 0u) << board[0];

  // --game wizardhex resumes game 4 and a click on a lit space + confirm logs the move.
  const Ruleset& rs = *find_ruleset("wizardhex");
  const Json acts = *rs.legal_actions(live);
  Json expand;
  for (const auto& a : acts)
    if (a["type"] == "expand") { expand = a; break; }
  ASSERT_FALSE(expand.is_null());
  const std::string cell = rs.cell_name(live, Hex{expand["to"][0].get<int>(), expand["to"][1].get<int>()});
  ASSERT_EQ(std::system((base + "--game wizardhex --click " + cell + " --click confirm --dump-ui " + (dir / "play.json").string() +
                         " 2>" + (dir / "err2.txt").string()).c_str()), 0)
      << testing::slurp(dir / "err2.txt");
  w = read_dump(dir / "play.json");
  EXPECT_TRUE(any_starts(w["History"], "Wizard Hex record: 4 moves, game 4 of the database")) << w["History"][0];
  auto opened = record::RecordDb::open(db, {true, record::Durability::Full, 2000});
  ASSERT_TRUE(opened.ok());
  auto rec = record::load_ruleset_game(**opened, 4);
  ASSERT_TRUE(rec.ok()) << rec.error();
  ASSERT_EQ(rec->ply(), 4);
  EXPECT_EQ(rec->line[3].action["to"], expand["to"]);
  EXPECT_EQ(rec->line[2].position, live);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hexdice
