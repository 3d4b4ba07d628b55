#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the live referee on the bundled demo game
# (data/demo/: observations per frame at 10 fps, typed commands, start position; see
# scripts/make_demo.py), then prints the game record it logged.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
db="$(mktemp -d)/demo.db"
trap 'rm -rf "$(dirname "$db")"' EXIT
build/bin/hexdice referee --observations data/demo/observations --commands data/demo/commands.txt \
  --start data/demo/start.json --db "$db" --fps 0 --no-stdin
echo
build/bin/hexdice history --db "$db" 1
