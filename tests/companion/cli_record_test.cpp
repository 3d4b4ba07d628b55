// `hexdice history` and `hexdice record export|import|sample`, run as a user would.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/game_record.h"

namespace hexdice {
namespace {

struct CmdRun {
  int code = -1;
  std::string out, err;
};

struct TempDirs {
  std::vector<std::string> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
  }
};
TempDirs g_temp_dirs;

std::string tmp_dir() {
  static std::atomic<int> n{0};
  std::string d = ::testing::TempDir() + "hexdice_cli_record_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
  ::mkdir(d.c_str(), 0755);
  g_temp_dirs.dirs.push_back(d);
  return d;
}

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

CmdRun hexdice(const std::string& dir, const std::string& args) {
  const std::string out = dir + "/out.txt", err = dir + "/err.txt";
  const std::string cmd = std::string(HEXDICE_BIN_DIR) + "/hexdice " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  CmdRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

TEST(CliRecord, SampleHistoryJsonExportImport) {
  const std::string d = tmp_dir();
  const std::string db = d + "/games.db";
  CmdRun s = hexdice(d, "record sample --db " + db + " --seed 3");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.out, "1\n");

  CmdRun list = hexdice(d, "history --db " + db);
  ASSERT_EQ(list.code, 0) << list.err;
  ASSERT_EQ(lines(list.out).size(), 1u);
  EXPECT_EQ(list.out.rfind("1  ", 0), 0u) << list.out;

  // --json: the setup, then each accepted action (Action format) with its outcome.
  CmdRun js = hexdice(d, "history --db " + db + " 1 --json");
  ASSERT_EQ(js.code, 0) << js.err;
  const auto jl = lines(js.out);
  ASSERT_GE(jl.size(), 2u);
  const Json setup = Json::parse(jl[0]);
  EXPECT_EQ(setup["kind"], "setup");
  auto pos = position_from_json(setup["start"]);
  ASSERT_TRUE(pos.ok()) << pos.error();
  Position p = *pos;
  for (std::size_t i = 1; i < jl.size(); ++i) {
    const Json line = Json::parse(jl[i]);
    ASSERT_EQ(line["kind"], "action");
    EXPECT_EQ(line["ply"], static_cast<int>(i));
    auto a = action_from_json(line["action"], p);
    ASSERT_TRUE(a.ok()) << a.error();
    auto applied = apply(p, *a);
    ASSERT_TRUE(applied.ok()) << "line " << i << ": " << applied.error();
    EXPECT_EQ(line["outcome"], to_json(applied->outcome, p)) << "line " << i;
    p = applied->position;
  }
  EXPECT_TRUE(p.game_over() || !Json::parse(jl[0])["result"].is_null());

  // The text record: history GAME == record export; import gives the same record back.
  CmdRun text = hexdice(d, "history --db " + db + " 1");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("\n1. "), std::string::npos);
  CmdRun exp = hexdice(d, "record export --db " + db + " 1 --out " + d + "/g1.txt");
  ASSERT_EQ(exp.code, 0) << exp.err;
  EXPECT_EQ(slurp(d + "/g1.txt"), text.out);
  CmdRun imp = hexdice(d, "record import --db " + db + " " + d + "/g1.txt");
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_EQ(imp.out, "2\n");
  CmdRun again = hexdice(d, "history --db " + db + " 2");
  ASSERT_EQ(again.code, 0);
  EXPECT_EQ(again.out, text.out);
}

TEST(CliRecord, BadInputGivesOneLineAndWritesNothing) {
  const std::string d = tmp_dir();
  const std::string db = d + "/games.db";
  ASSERT_EQ(hexdice(d, "record sample --db " + db + " --seed 4 --max-plies 10").code, 0);
  {
    std::ofstream f(d + "/bad.txt");
    f << "[Players \"red:N blue:S\"]\n[Dice \"7\"]\n";
  }
  {
    std::ofstream f(d + "/junk.db", std::ios::binary);
    f << std::string(5000, '\x7f');
  }
  struct Case {
    std::string args, error;
  };
  const Case cases[] = {
      {"history --db " + d + "/missing.db", "no game database at"},
      {"history --db " + d + "/junk.db", "is not a hexdice game database"},
      {"history --db " + db + " 7", "no game 7"},
      {"history --db " + db + " seven", "GAME must be a game number"},
      {"record import --db " + db + " " + d + "/bad.txt", "rules.md section 2"},
      {"record import --db " + db + " " + d + "/nothing.txt", "cannot read"},
      {"record sample --db " + db + " --players 5", "--players must be 2, 3, 4 or 6"},
      // (robust18) SQLite takes "" for a temporary database and ":memory:" for one in memory:
      // a game recorded there would be gone at exit.
      {"record sample --db '' --seed 1 --max-plies 4", "needs a file name"},
      {"record sample --db :memory: --seed 1 --max-plies 4", "needs a file name"},
      {"history --db ''", "needs a file name"},
  };
  for (const auto& c : cases) {
    CmdRun r = hexdice(d, c.args);
    EXPECT_EQ(r.code, 1) << c.args;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
  }
  CmdRun list = hexdice(d, "history --db " + db);
  EXPECT_EQ(lines(list.out).size(), 1u) << "a failed import must not leave a game behind";
}

}  // namespace
}  // namespace hexdice
