#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60). Optional: not part of the default test command.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
scripts/setup.sh build >/dev/null  # packages
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DHEXDICE_FUZZ=ON -DHEXDICE_GUI=OFF -DHEXDICE_BENCH=OFF \
  -DHEXDICE_FUZZ_SECONDS="$SECONDS_PER_TARGET" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz --target fuzz-run -j"$(nproc)"
