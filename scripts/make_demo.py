#!/usr/bin/env python3
"""Writes the referee demo (data/demo/): start.json, observations/NNNNN.json (one per
frame at 10 fps: what the camera reports, with "motion": true while a hand is over the
sheet) and commands.txt ("FRAME COMMAND" lines typed by the players).

The game: red moves, blue declares a failed attack (no trace on the table), red rerolls,
blue guards, a misread (a face changes with no hand: must be rejected), red captures blue's
base and wins. Every position is computed by `hexdice apply`, so the rules decide.

    scripts/make_demo.py [build/bin/hexdice]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/bin/hexdice")
OUT = os.path.join(ROOT, "data/demo")

START = {
    "ruleset": "hexdice", "radius": 5,
    "players": [{"id": "red", "corner": "N"}, {"id": "blue", "corner": "S"}],
    "to_move": "red",
    "units": [
        {"q": 0, "r": 2, "owner": "red", "face": 1},
        {"q": 0, "r": -2, "owner": "red", "face": 5},
        {"q": 1, "r": -4, "owner": "red", "face": 1},
        {"q": 0, "r": -1, "owner": "blue", "face": 1},
        {"q": -2, "r": 3, "owner": "blue", "face": 2},
        {"q": 2, "r": 2, "owner": "blue", "face": 5},
    ],
}

# ("seen", action) is done on the table and must be inferred; ("declare", text) is typed.
SCRIPT = [
    ("seen", {"type": "move", "unit": [1, -4], "to": [1, -3]}),
    ("declare", {"type": "move", "unit": [0, -1], "to": [0, -2]}, "declare f5 f4"),
    ("seen", {"type": "reroll", "unit": [1, -3], "face": 4}),
    ("seen", {"type": "guard", "unit": [-2, 3]}),
    ("misread", None),
    ("seen", {"type": "move", "unit": [0, 2], "to": [0, 4]}),
]


def apply(pos, action):
    with tempfile.TemporaryDirectory() as d:
        p, a = os.path.join(d, "p.json"), os.path.join(d, "a.json")
        json.dump(pos, open(p, "w"))
        json.dump(action, open(a, "w"))
        r = subprocess.run([BIN, "apply", p, a], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("make_demo: illegal demo action %s: %s" % (action, r.stderr.strip()))
        return json.loads(r.stdout)["position"]


def observation(pos, motion=False, drop=0):
    cells = [{"q": u["q"], "r": u["r"], "color": u["owner"], "face": u["face"],
              "guard": bool(u.get("guard", False)), "confidence": 0.95} for u in pos["units"]]
    cells.sort(key=lambda c: (c["q"], c["r"]))
    if drop:
        cells = cells[:-drop]  # dice under the hand are not read
    o = {"board_found": True, "cells": cells}
    if motion:
        o["motion"] = True
    return o


def main():
    obs_dir = os.path.join(OUT, "observations")
    shutil.rmtree(obs_dir, ignore_errors=True)
    os.makedirs(obs_dir)
    frames, commands = [], []
    pos = START
    frames += [observation(pos)] * 5
    for step in SCRIPT:
        kind = step[0]
        if kind == "misread":
            bad = json.loads(json.dumps(pos))
            bad["units"][1]["face"] = 6 if bad["units"][1]["face"] != 6 else 1
            frames += [observation(bad)] * 5          # no hand: the dice cannot have changed
            commands.append("%d reject" % len(frames))
            frames += [observation(pos)] * 4
            continue
        if kind == "declare":
            commands.append("%d %s" % (len(frames), step[2]))
            pos = apply(pos, step[1])
        else:
            pos = apply(pos, step[1])
        # A hand over the sheet (arm in view, some dice hidden), then the table at rest.
        frames += [observation(pos, True, 2), observation(pos, True, 1), observation(pos, True, 3),
                   observation(pos, True, 1)]
        frames += [observation(pos)] * 6
    for i, f in enumerate(frames):
        with open(os.path.join(obs_dir, "%05d.json" % i), "w") as fh:
            json.dump(f, fh)
    json.dump(START, open(os.path.join(OUT, "start.json"), "w"), indent=1)
    with open(os.path.join(OUT, "commands.txt"), "w") as fh:
        fh.write("# FRAME COMMAND: typed by the players (hexdice referee --commands)\n")
        fh.write("\n".join(commands) + "\n")
    print("make_demo: %d frames, %d commands, winner %s" % (len(frames), len(commands), pos.get("winner")))


if __name__ == "__main__":
    main()
