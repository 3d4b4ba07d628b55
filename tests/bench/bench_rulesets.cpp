// Move generation and apply speed of the extra rulesets (Wizard Hex, Hexa Decimal).
#include <benchmark/benchmark.h>

#include "core/hexadecimal/hexadecimal.h"
#include "core/wizardhex/wizardhex.h"

namespace {

using namespace hexdice;

void BM_HexaDecimalLegalActionsStart(benchmark::State& st) {
  const auto s = *hexadecimal::start(static_cast<hexadecimal::Variant>(st.range(0)));
  std::vector<hexadecimal::Action> out;
  for (auto _ : st) {
    hexadecimal::legal_actions(s, out);
    benchmark::DoNotOptimize(out.data());
  }
  st.SetLabel(std::string(hexadecimal::kVariantNames[static_cast<std::size_t>(st.range(0))]));
}
BENCHMARK(BM_HexaDecimalLegalActionsStart)->Arg(0)->Arg(1)->Arg(2);

void BM_HexaDecimalPerft2(benchmark::State& st) {
  const auto s = *hexadecimal::start(hexadecimal::Variant::Standard);
  for (auto _ : st) benchmark::DoNotOptimize(hexadecimal::perft(s, 2));
}
BENCHMARK(BM_HexaDecimalPerft2)->Unit(benchmark::kMillisecond);

void BM_WizardHexLegalActionsMidgame(benchmark::State& st) {
  auto s = *wizardhex::start({{"green", wizardhex::kEarth}, {"black", wizardhex::kWind}});
  // Play the first legal move a dozen times: a fixed, reproducible midgame.
  for (int i = 0; i < 12 && !s.over; ++i) wizardhex::apply_unchecked(s, wizardhex::legal_actions(s).back());
  std::vector<wizardhex::Action> out;
  for (auto _ : st) {
    wizardhex::legal_actions(s, out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_WizardHexLegalActionsMidgame);

}  // namespace

BENCHMARK_MAIN();
