#!/usr/bin/env python3
"""Writes the referee demo (data/demo/): start.json, observations/NNNNN.json (one per
frame at 10 fps: what the camera reports, with "motion": true while a hand is over the
sheet) and commands.txt ("FRAME COMMAND" lines typed by the players).

The game: red moves, blue declares a failed attack (no trace on the table), red rerolls,
blue guards, a misread (a face changes with no hand: must be rejected), red captures blue's
base and wins. Every position is computed by `hexdice apply`, so the rules decide.

`plan()` is the frame-by-frame script shared with tests/render/demo_frames.py, which
renders the same frames as camera images (data/demo/frames/): the same frame numbers, so
commands.txt serves both.

    scripts/make_demo.py [build/bin/hexdice]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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

# ("seen", action) is done on the table and must be inferred; ("declare", action, text) is typed.
SCRIPT = [
    ("seen", {"type": "move", "unit": [1, -4], "to": [1, -3]}),
    ("declare", {"type": "move", "unit": [0, -1], "to": [0, -2]}, "declare f5 f4"),
    ("seen", {"type": "reroll", "unit": [1, -3], "face": 4}),
    ("seen", {"type": "guard", "unit": [-2, 3]}),
    ("misread", None),
    ("seen", {"type": "move", "unit": [0, 2], "to": [0, 4]}),
]

HAND_FRAMES = 4   # frames with a hand over the sheet per action (the first half before it)
REST_FRAMES = 6   # still frames after an action
MISREAD_FRAMES = 5


def apply(binary, pos, action):
    with tempfile.TemporaryDirectory() as d:
        p, a = os.path.join(d, "p.json"), os.path.join(d, "a.json")
        json.dump(pos, open(p, "w"))
        json.dump(action, open(a, "w"))
        r = subprocess.run([binary, "apply", p, a], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("make_demo: illegal demo action %s: %s" % (action, r.stderr.strip()))
        return json.loads(r.stdout)["position"]


def misread_of(pos):
    """The same table with one face read wrongly (what the camera reports, nothing moved)."""
    bad = json.loads(json.dumps(pos))
    u = bad["units"][1]
    u["face"] = 6 if u["face"] != 6 else 1
    return bad, (u["q"], u["r"])


def plan(binary):
    """Frames in play order: dicts with `pos` (the table as it is), `hand` (a hand over the
    sheet), `step` (index in SCRIPT, -1 before the first), `k` (frame within the hand pass),
    `cells` (the cells the hand works on), `owner` (whose hand), `misread` (the unit read
    wrongly, or None). Also returns the commands ("FRAME COMMAND") and the final position."""
    frames, commands = [], []
    pos = START
    for _ in range(5):
        frames.append({"pos": pos, "hand": False, "step": -1, "k": 0, "cells": [], "owner": None, "misread": None})
    for i, step in enumerate(SCRIPT):
        kind = step[0]
        if kind == "misread":
            bad, cell = misread_of(pos)
            for _ in range(MISREAD_FRAMES):  # no hand: the dice cannot have changed
                frames.append({"pos": bad, "hand": False, "step": i, "k": 0, "cells": [], "owner": None,
                               "misread": cell, "true_pos": pos})
            commands.append("%d reject" % len(frames))
            for _ in range(4):
                frames.append({"pos": pos, "hand": False, "step": i, "k": 0, "cells": [], "owner": None, "misread": None})
            continue
        action = step[1]
        if kind == "declare":
            commands.append("%d %s" % (len(frames), step[2]))
        mover = pos["to_move"]
        before = pos
        pos = apply(binary, pos, action)
        cells = [tuple(action["unit"])] + ([tuple(action["to"])] if "to" in action else [])
        # A hand over the sheet (arm in view, some dice hidden): the table as before while
        # the hand reaches in, as after while it leaves; then the table at rest.
        for k in range(HAND_FRAMES):
            frames.append({"pos": before if k < HAND_FRAMES // 2 else pos, "hand": True, "step": i, "k": k,
                           "cells": cells, "owner": mover, "misread": None})
        for _ in range(REST_FRAMES):
            frames.append({"pos": pos, "hand": False, "step": i, "k": 0, "cells": [], "owner": None, "misread": None})
    return frames, commands, pos


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
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/bin/hexdice")
    obs_dir = os.path.join(OUT, "observations")
    shutil.rmtree(obs_dir, ignore_errors=True)
    os.makedirs(obs_dir)
    frames, commands, final = plan(binary)
    for i, f in enumerate(frames):
        o = observation(f["pos"], f["hand"], (2, 1, 3, 1)[f["k"] % 4] if f["hand"] else 0)
        with open(os.path.join(obs_dir, "%05d.json" % i), "w") as fh:
            json.dump(o, fh)
    json.dump(START, open(os.path.join(OUT, "start.json"), "w"), indent=1)
    with open(os.path.join(OUT, "commands.txt"), "w") as fh:
        fh.write("# FRAME COMMAND: typed by the players (hexdice referee --commands)\n")
        fh.write("\n".join(commands) + "\n")
    print("make_demo: %d frames, %d commands, winner %s" % (len(frames), len(commands), final.get("winner")))


if __name__ == "__main__":
    main()
