// The rendered demo game (data/demo) opened for a test that plays it through the referee:
// its frames, its typed commands, and a referee on a fresh database in a temporary
// directory (removed with the object). ok() is false, with a failed EXPECT, when a part did
// not open. Shared by the frame budget and the bad-frames tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "cli_runner.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"

namespace hexdice::referee {

struct DemoGame {
  std::unique_ptr<FrameSource> src;
  FrameCommands commands;
  std::unique_ptr<Referee> ref;
  std::filesystem::path dir;

  DemoGame(const std::string& group, const std::string& name) {
    const std::string demo = std::string(HEXDICE_SOURCE_DIR) + "/data/demo";
    auto s = open_source(demo + "/frames");
    auto start = parse_position(hexdice::testing::slurp(demo + "/start.json"));
    auto c = parse_frame_commands(hexdice::testing::slurp(demo + "/commands.txt"), "commands.txt");
    EXPECT_TRUE(s.ok() && start.ok() && c.ok());
    if (!s.ok() || !start.ok() || !c.ok()) return;
    dir = hexdice::testing::temp_dir(group, name);
    auto r = Referee::open((dir / "game.db").string(), *start);
    EXPECT_TRUE(r.ok());
    if (!r.ok()) return;
    src = std::move(*s);
    commands = std::move(*c);
    ref = std::move(*r);
  }
  DemoGame(const DemoGame&) = delete;
  DemoGame& operator=(const DemoGame&) = delete;
  ~DemoGame() {
    ref.reset();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }

  bool ok() const { return src && ref; }
  // Types the commands of frame `index` (commands.txt) into the referee.
  void type_commands(int index) {
    auto [lo, hi] = commands.equal_range(index);
    for (auto it = lo; it != hi; ++it) (void)ref->command(it->second);
  }
};

}  // namespace hexdice::referee
