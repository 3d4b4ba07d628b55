#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the live referee on the bundled demo game,
# then prints the game record it logged. The game (scripts/make_demo.py) is played from the
# rendered camera frames data/demo/frames/ (tests/render/demo_frames.py) through the board
# reader when they are there, else from the recorded observations data/demo/observations/;
# DEMO_SOURCE=observations forces the latter. Both are 10 fps with the same frame numbers,
# so the typed commands (data/demo/commands.txt) serve both.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
db="$(mktemp -d)/demo.db"
trap 'rm -rf "$(dirname "$db")"' EXIT
if [[ ${DEMO_SOURCE:-frames} == frames && -e data/demo/frames/00000.jpg ]]; then
  source=(--source data/demo/frames)
else
  source=(--observations data/demo/observations)
fi
build/bin/hexdice referee "${source[@]}" --commands data/demo/commands.txt \
  --start data/demo/start.json --db "$db" --fps 0 --no-stdin
echo
build/bin/hexdice history --db "$db" 1
