// The label files of a directory of rendered scenes (tests/render/scene_gen.py; the
// committed ones are data/fixtures/scenes), parsed, for the tests that read each scene
// themselves rather than through eval_scenes. Files that do not parse as a JSON object are
// left out, as before in each test's own loop.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace hexdice::vision {

struct SceneLabel {
  std::filesystem::path path;  // the label file
  nlohmann::json label;
};

inline std::vector<SceneLabel> scene_labels(const std::filesystem::path& dir) {
  std::vector<SceneLabel> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_object()) out.push_back({e.path(), std::move(j)});
  }
  std::sort(out.begin(), out.end(), [](const SceneLabel& a, const SceneLabel& b) { return a.path < b.path; });
  return out;
}

}  // namespace hexdice::vision
