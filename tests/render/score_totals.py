#!/usr/bin/env python3
"""Totals of `hexdice eval --scenes` outputs, one file per set (tests/render/score_sets.sh).

    tests/render/score_totals.py OUT_DIR [OUT_DIR...]

Prints, per directory: sets, precision, visible dice read, face and whole-board exact counts.
"""
import os
import re
import sys

PATTERNS = {
    "precision": r"occupancy precision: [\d.]+% \((\d+)/(\d+)\)",
    "visible": r"of all visible dice, hidden = missed: [\d.]+% \((\d+)/(\d+)\)",
    "face": r"face accuracy: [\d.]+% \((\d+)/(\d+)\)",
    "exact": r"whole-board exact match: [\d.]+% \((\d+)/(\d+)\)",
}


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: score_totals.py OUT_DIR [OUT_DIR...]")
    for d in sys.argv[1:]:
        totals = {k: [0, 0] for k in PATTERNS}
        sets = 0
        for name in sorted(os.listdir(d)):
            text = open(os.path.join(d, name)).read()
            found = {k: re.search(p, text) for k, p in PATTERNS.items()}
            if not all(found.values()):
                print(f"  {name}: no totals (an error?)")
                continue
            sets += 1
            for k, m in found.items():
                totals[k][0] += int(m.group(1))
                totals[k][1] += int(m.group(2))
        line = "  ".join(f"{k} {a}/{b}" for k, (a, b) in totals.items())
        print(f"{d}: {sets} sets  {line}")


if __name__ == "__main__":
    main()
