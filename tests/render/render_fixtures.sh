#!/usr/bin/env bash
# Renders labelled POV-Ray scenes of the standard sheet (tests/render/scene_gen.py).
# Not part of the default tests: rendering takes ~20-60 s per image per core.
# Usage: tests/render/render_fixtures.sh [OUT_DIR] [COUNT] [START] [extra scene_gen.py args]
#   defaults: data/fixtures/scenes, 40 scenes, from index 0 (scene_000..scene_039).
# Needs: build/bin/hexdice (for board.png/board.json), povray, ImageMagick convert, python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-data/fixtures/scenes}
COUNT=${2:-40}
START=${3:-0}
shift $(( $# < 3 ? $# : 3 ))
HEXDICE=${HEXDICE:-build/bin/hexdice}
[[ -x $HEXDICE ]] || { echo "render_fixtures: build hexdice first (make -C build hexdice)" >&2; exit 1; }
BOARD=${RENDER_BOARD_DIR:-build/render/board}
"$HEXDICE" board --out "$BOARD" >/dev/null
exec python3 tests/render/scene_gen.py --board "$BOARD" --out "$OUT" --count "$COUNT" --start "$START" "$@"
