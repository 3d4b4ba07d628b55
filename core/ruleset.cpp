#include "core/ruleset.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "core/hexadecimal/hexadecimal.h"
#include "core/ruleset_hexdice.h"
#include "core/wizardhex/wizardhex.h"

namespace hexdice {

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Ruleset>, std::less<>> by_name;
};

Registry& registry() {
  static Registry* reg = [] {
    auto* r = new Registry;
    // The built-in games: one line each.
    for (auto rs : {make_hexdice_ruleset(), wizardhex::make_ruleset(), hexadecimal::make_ruleset()})
      r->by_name[std::string(rs->name())] = rs;
    return r;
  }();
  return *reg;
}

}  // namespace

Result<std::string> Ruleset::end_reason(const Json& position) const {
  auto over = game_over(position);
  if (!over) return Error{over.error()};
  if (!*over) return std::string();
  if (position.contains("reason") && position["reason"].is_string() && !position["reason"].get<std::string>().empty())
    return position["reason"].get<std::string>();
  auto w = winner(position);
  if (!w) return Error{w.error()};
  return std::string(w->is_null() ? "draw" : "win");
}

std::string Ruleset::to_move(const Json& position) const {
  if (position.is_object() && position.contains("to_move") && position["to_move"].is_string())
    return position["to_move"].get<std::string>();
  return {};
}

std::string ruleset_key(const Json& position) {
  if (!position.is_object() || !position.contains("ruleset")) return "hexdice";
  if (!position["ruleset"].is_string()) return "";
  return position["ruleset"].get<std::string>();
}

const Ruleset* find_ruleset(std::string_view name) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  auto it = reg.by_name.find(name);
  return it == reg.by_name.end() ? nullptr : it->second.get();
}

std::vector<std::string> ruleset_names() {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  std::vector<std::string> names;
  for (const auto& [n, rs] : reg.by_name) names.push_back(n);
  return names;
}

Result<const Ruleset*> ruleset_for(const Json& position) {
  if (!position.is_object()) return Error{"position: expected a JSON object"};
  const std::string key = ruleset_key(position);
  if (key.empty()) return Error{"position: \"ruleset\" must be a string"};
  if (const Ruleset* rs = find_ruleset(key)) return rs;
  std::string known;
  for (const auto& n : ruleset_names()) known += (known.empty() ? "" : ", ") + n;
  return Error{"position: unknown ruleset \"" + key + "\" (known: " + known + ")"};
}

void register_ruleset(std::shared_ptr<const Ruleset> ruleset) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  reg.by_name[std::string(ruleset->name())] = std::move(ruleset);
}

Result<Json> parse_json(std::string_view text, std::string_view what) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{std::string(what) + ": malformed JSON"};
  return j;
}

}  // namespace hexdice
