#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job on the bundled demo input.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
exec build/bin/hexdice moves data/demo/position.json
