#include "core/ruleset_hexdice.h"

#include "core/json_io.h"
#include "core/rules.h"

namespace hexdice {

namespace {

class HexDiceRuleset final : public Ruleset {
 public:
  std::string_view name() const override { return "hexdice"; }

  Result<Json> start_position(std::string_view variant) const override {
    if (!variant.empty() && variant != "standard") return Error{"hexdice: unknown variant \"" + std::string(variant) + "\""};
    auto pos = Position::create(5, {Player{"red", 0, false}, Player{"blue", 3, false}});
    if (!pos) return Error{pos.error()};
    return to_json(*pos);
  }
  Result<Json> normalize(const Json& position) const override {
    auto pos = position_from_json(position);
    if (!pos) return Error{pos.error()};
    return to_json(*pos);
  }
  Result<Json> legal_actions(const Json& position) const override {
    auto pos = position_from_json(position);
    if (!pos) return Error{pos.error()};
    Json out = Json::array();
    for (const Action& a : hexdice::legal_actions(*pos)) out.push_back(to_json(a, pos->board()));
    return out;
  }
  Result<AppliedJson> apply(const Json& position, const Json& action) const override {
    auto pos = position_from_json(position);
    if (!pos) return Error{pos.error()};
    auto a = action_from_json(action, *pos);
    if (!a) return Error{a.error()};
    auto applied = hexdice::apply(*pos, *a);
    if (!applied) return Error{applied.error()};
    return AppliedJson{to_json(applied->position), to_json(applied->outcome, *pos)};
  }
  Result<Json> winner(const Json& position) const override {
    auto pos = position_from_json(position);
    if (!pos) return Error{pos.error()};
    return pos->winner() >= 0 ? Json(pos->player(pos->winner()).id) : Json(nullptr);
  }
  Result<bool> game_over(const Json& position) const override {
    auto pos = position_from_json(position);
    if (!pos) return Error{pos.error()};
    return pos->game_over();
  }
  std::string cell_name(const Json& position, Hex h) const override {
    int radius = 5;
    if (position.is_object() && position.contains("radius") && position["radius"].is_number_integer()) {
      const auto r = position["radius"].get<long long>();
      if (r >= kMinRadius && r <= kMaxRadius) radius = static_cast<int>(r);
    }
    const auto board = Board::get(radius);
    return board->contains(h) ? board->name(h) : std::string();
  }
  Result<std::vector<Hex>> cells(const Json& position) const override {
    auto pos = position_from_json(position);
    if (!pos) return Error{pos.error()};
    return pos->board().cells();
  }
  std::string describe(const Json& position, const Json& action) const override {
    auto pos = position_from_json(position);
    if (!pos) return "?";
    auto a = action_from_json(action, *pos);
    return a ? hexdice::describe(*pos, *a) : "?";
  }
};

}  // namespace

std::shared_ptr<const Ruleset> make_hexdice_ruleset() { return std::make_shared<HexDiceRuleset>(); }

}  // namespace hexdice
