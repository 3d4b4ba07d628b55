#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite with ctest.
# HEXDICE_SANITIZE=1 builds with ASan+UBSan into build-asan/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${HEXDICE_SANITIZE:-0}" == 1 ]]; then
  scripts/setup.sh build-asan -DHEXDICE_SANITIZE=ON -DHEXDICE_BENCH=OFF
  dir=build-asan
else
  scripts/setup.sh build
  dir=build
fi
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
