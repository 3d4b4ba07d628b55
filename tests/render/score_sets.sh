#!/usr/bin/env bash
# Scores every fixture scene set in data/fixtures and every finished rendered set in SETS_DIR
# (from tests/render/render_sets.sh) with `HEXDICE eval --scenes DIR --verbose`, one file per set
# in OUT_DIR, then prints the totals. Two binaries' OUT_DIRs compared with `diff -r` show every
# reading a change moved. Held-out sets are left out unless HELD_OUT=1.
# Usage: tests/render/score_sets.sh HEXDICE SETS_DIR OUT_DIR [PARAMS_YAML]
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 3 ]] || { echo "usage: tests/render/score_sets.sh HEXDICE SETS_DIR OUT_DIR [PARAMS_YAML]" >&2; exit 2; }
BIN=$(readlink -f "$1"); SETS=$2; OUT=$3; PARAMS=${4:-}
[[ -x $BIN ]] || { echo "score_sets: $1 is not an executable" >&2; exit 1; }
held='^(dev16|dev20|heldA|heldG|heldH)$'
mkdir -p "$OUT"
# shellcheck disable=SC2016  # the single-quoted script is sh -c's, its $0..$3 are xargs' arguments
{
  for d in data/fixtures/scenes* data/fixtures/small_cells*; do echo "$d"; done
  grep -v '^#' tests/render/sets.txt | awk 'NF {print $1}' | while read -r name; do
    [[ ${HELD_OUT:-0} == 1 ]] || ! [[ $name =~ $held ]] || continue
    [[ -f $SETS/$name.done ]] && echo "$SETS/$name"
  done
} | xargs -P2 -I{} sh -c '"$0" eval --scenes "$1" --verbose ${2:+--params "$2"} > "$3/$(basename "$1").txt" 2>&1' "$BIN" {} "$PARAMS" "$OUT"
python3 tests/render/score_totals.py "$OUT"
