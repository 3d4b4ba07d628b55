#!/usr/bin/env bash
# Renders the scene sets listed in tests/render/sets.txt (the README's development and held-out
# sets) into OUT_DIR/NAME, in the list's order, skipping a set already finished (OUT_DIR/NAME.done).
# Not part of the tests: ~5 s per scene on an idle core, 12 scenes a set.
# Usage: tests/render/render_sets.sh OUT_DIR [NAME...]   (no NAME: every set in the list)
# Needs: build/bin/hexdice (for the sheet), povray, ImageMagick's convert, python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 1 ]] || { echo "usage: tests/render/render_sets.sh OUT_DIR [NAME...]" >&2; exit 2; }
OUT=$1; shift
HEXDICE=${HEXDICE:-build/bin/hexdice}
[[ -x $HEXDICE ]] || { echo "render_sets: build hexdice first (cmake --build build --target hexdice)" >&2; exit 1; }
mkdir -p "$OUT"
BOARD=$OUT/board
[[ -f $BOARD/board.json ]] || "$HEXDICE" board --out "$BOARD" >/dev/null
grep -v '^#' tests/render/sets.txt | while read -r name s1 st1 s2 st2 flag; do
  [[ -n $name ]] || continue
  if [[ $# -gt 0 ]] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  [[ -f $OUT/$name.done ]] && continue
  hand=4; [[ ${flag:-} == --harsh ]] && hand=3
  rm -rf "${OUT:?}/$name"
  # /usr/bin first: ImageMagick's own convert, not a stand-in earlier on PATH.
  PATH=/usr/bin:$PATH nice python3 tests/render/scene_gen.py --board "$BOARD" --out "$OUT/$name" \
    --count 8 --start "$st1" --seed "$s1" ${flag:+"$flag"}
  PATH=/usr/bin:$PATH nice python3 tests/render/scene_gen.py --board "$BOARD" --out "$OUT/$name" \
    --count "$hand" --start "$st2" --seed "$s2" --preset hand ${flag:+"$flag"}
  touch "$OUT/$name.done"
  echo "render_sets: $name done"
done
