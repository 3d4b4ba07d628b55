#!/usr/bin/env python3
"""Views of the printed ChArUco board (`hexdice board --charuco`), rendered with POV-Ray
for the camera-calibration tests: one fixed pinhole camera (known intrinsics, no
distortion) looking at the A4 board lying on a table from varied positions and tilts.

Writes view_NN.jpg and truth.json (fx, fy, cx, cy, image size, per view the camera
pose). Uses the Camera class and conventions of scene_gen.py (pixel (0, 0) is the
centre of the top-left pixel; cx = (W - 1) / 2).

Usage:
  charuco_gen.py --board DIR --out DIR [--count 12] [--seed S] [--hfov 62] [--size 1280x720]
  DIR for --board holds charuco.png and charuco.json (from `hexdice board --charuco`).
"""
import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scene_gen import Camera, fit_distance, vec  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--hfov", type=float, default=62.0)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--jpeg", type=int, default=88)
    args = ap.parse_args()
    W, H = (int(v) for v in args.size.split("x"))
    with open(os.path.join(args.board, "charuco.json")) as f:
        spec = json.load(f)
    png = os.path.abspath(os.path.join(args.board, "charuco.png"))
    pw, ph = spec["page_mm"]
    os.makedirs(args.out, exist_ok=True)
    truth_path = os.path.join(args.out, "truth.json")
    truth = {"width": W, "height": H, "hfov_deg": args.hfov, "charuco": spec, "views": []}
    if os.path.exists(truth_path):
        with open(truth_path) as f:
            old = json.load(f)
        truth["views"] = [v for v in old.get("views", []) if not (args.start <= v["index"] < args.start + args.count)]
    corners = [(-pw / 2, 0, -ph / 2), (pw / 2, 0, -ph / 2), (pw / 2, 0, ph / 2), (-pw / 2, 0, ph / 2)]
    for i in range(args.start, args.start + args.count):
        rng = random.Random(args.seed * 1000 + i)
        tilt = rng.uniform(8, 48)
        yaw = rng.uniform(0, 360)
        target = (rng.uniform(-40, 40), 0.0, rng.uniform(-60, 60))
        fill = rng.uniform(0.6, 0.95)
        cam_args = dict(width=W, height=H, target=target, tilt_deg=tilt, yaw_deg=yaw, hfov_deg=args.hfov)
        cam = Camera(dist=fit_distance(cam_args, corners, fill), **cam_args)
        la = rng.uniform(0, 2 * math.pi)
        lpos = (math.cos(la) * 400, 1300, math.sin(la) * 400)
        k = rng.uniform(0.8, 1.15)
        pov = ["#version 3.7;\n", "global_settings { assumed_gamma 1.0 max_trace_level 3 }\n", cam.pov(),
               "light_source { %s rgb %.3f }\n" % (vec(lpos), 0.85 * k),  # nothing casts shadows: a point light
               "light_source { <%.1f,1800,%.1f> rgb %.3f shadowless }\n" % (-lpos[0] * 0.5, -lpos[2] * 0.5, 0.25 * k),
               "background { rgb <0.2,0.2,0.22> }\n",
               "plane { y, -0.15 texture{ pigment{ granite color_map{[0 rgb 0.30][1 rgb 0.40]} scale 30 } } }\n",
               "box { <0,0,0>, <1,1,1> texture { pigment { image_map { png \"%s\" interpolate 2 } } "
               "finish { ambient 0.0 diffuse 0.85 specular 0.05 roughness 0.06 } } "
               "scale <%.3f,%.3f,0.1> rotate x*90 translate <%.3f,0,%.3f> }\n" % (png, pw, ph, -pw / 2, -ph / 2)]
        name = "view_%02d" % i
        tmp = tempfile.mkdtemp(prefix="hexdice_charuco_")
        try:
            pov_path, png_path = os.path.join(tmp, name + ".pov"), os.path.join(tmp, name + ".png")
            with open(pov_path, "w") as f:
                f.write("".join(pov))
            t0 = time.time()
            r = subprocess.run(["nice", "-n", "10", "povray", "-D", "+I" + pov_path, "+O" + png_path, "+FN",
                                "+W%d" % W, "+H%d" % H, "+WT1", "-GA", "+Q8", "+A0.3", "+AM1", "+R2"],
                               capture_output=True, text=True)
            if r.returncode != 0 or not os.path.exists(png_path):
                sys.stderr.write(r.stderr[-3000:])
                raise RuntimeError("povray failed for " + name)
            subprocess.run(["convert", png_path, "-attenuate", "0.08", "+noise", "Gaussian", "-strip",
                            "-quality", str(args.jpeg), os.path.join(args.out, name + ".jpg")], check=True)
            dt = time.time() - t0
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        lab = cam.label()
        truth["fx"], truth["fy"], truth["cx"], truth["cy"] = lab["fx"], lab["fy"], lab["cx"], lab["cy"]
        truth["views"].append({"index": i, "image": name + ".jpg", "tilt_deg": lab["tilt_deg"], "yaw_deg": lab["yaw_deg"],
                               "location_mm": lab["location_mm"], "target_mm": lab["target_mm"]})
        truth["views"].sort(key=lambda v: v["index"])
        with open(truth_path, "w") as f:
            json.dump(truth, f, indent=1)
            f.write("\n")
        print("%s tilt=%.1f yaw=%.0f render %.1fs" % (name, tilt, yaw, dt), flush=True)


if __name__ == "__main__":
    main()
