#!/usr/bin/env python3
"""Labelled test scenes of the printed Hex Dice map, rendered with POV-Ray.

For each scene this writes NAME.pov, renders it, adds sensor noise and JPEG
recompression with ImageMagick, and writes NAME.json: the truth label (image size,
camera, the sheet's marker corners in pixels, and per die: cell, colour, face,
guard, top-face centre in pixels). Python standard library only.

World frame (POV-Ray units = mm): the paper lies in the plane y = 0 with y up;
a point (x, y) on the page in board.json millimetres (x right, y down the page)
is at X = x - W/2, Z = H/2 - y. The top edge of the sheet is toward +Z.

Pixel coordinates in labels: x right, y down, the centre of the top-left pixel is
(0, 0) (OpenCV convention).

Usage:
  scene_gen.py --board DIR --out DIR --count N [--seed S] [--start K] [--preset P]
               [--quality fast|normal] [--keep-pov] [--jobs 1] [--harsh]
  DIR for --board holds board.png and board.json (from `hexdice board`).
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

DIE_MM = 16.0
GUARD_MM = 10.0
EDGE_R = 0.11  # edge rounding as a fraction of the die side
TOP_GRID = 7  # occluded_fraction: rays to a 7 x 7 grid over the top face

COLOURS = {
    # name: (body rgb, pip rgb)
    "red": ((0.72, 0.05, 0.05), (0.95, 0.95, 0.93)),
    "blue": ((0.04, 0.13, 0.62), (0.95, 0.95, 0.93)),
    "green": ((0.03, 0.42, 0.12), (0.95, 0.95, 0.93)),
    "yellow": ((0.95, 0.78, 0.06), (0.03, 0.03, 0.03)),
    "white": ((0.90, 0.90, 0.87), (0.03, 0.03, 0.03)),
    "black": ((0.035, 0.035, 0.035), (0.95, 0.95, 0.93)),
}

# Pip layouts on a face, in units of the pip offset (a = 0.27 side).
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}

# Canonical die: face value on each local axis; opposite faces sum to 7.
# +Y 1, -Y 6, +Z 2, -Z 5, +X 3, -X 4.
FACE_AXES = {1: (0, 1, 0), 6: (0, -1, 0), 2: (0, 0, 1), 5: (0, 0, -1), 3: (1, 0, 0), 4: (-1, 0, 0)}
# POV rotation that brings face f to +Y.
FACE_UP_ROT = {1: "<0,0,0>", 6: "<180,0,0>", 2: "<-90,0,0>", 5: "<90,0,0>", 3: "<0,0,90>", 4: "<0,0,-90>"}


# ---------------------------------------------------------------- vector math
def add(a, b): return (a[0] + b[0], a[1] + b[1], a[2] + b[2])
def sub(a, b): return (a[0] - b[0], a[1] - b[1], a[2] - b[2])
def mul(a, k): return (a[0] * k, a[1] * k, a[2] * k)
def dot(a, b): return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
def cross(a, b): return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
def norm(a): return math.sqrt(dot(a, a))
def unit(a): return mul(a, 1.0 / norm(a))
def vec(a): return "<%.4f,%.4f,%.4f>" % a


class Camera:
    """Pinhole camera as POV-Ray's perspective camera with explicit vectors:
    the ray through image point (u, v) in [-0.5, 0.5] is D + u R + v U."""

    def __init__(self, width, height, target, tilt_deg, yaw_deg, dist, hfov_deg):
        self.width, self.height = width, height
        self.target, self.tilt, self.yaw, self.dist, self.hfov = target, tilt_deg, yaw_deg, dist, hfov_deg
        t, y = math.radians(tilt_deg), math.radians(yaw_deg)
        h = (math.sin(y), 0.0, math.cos(y))  # horizontal direction the camera faces
        up = (0.0, 1.0, 0.0)
        self.location = add(sub(target, mul(h, dist * math.sin(t))), mul(up, dist * math.cos(t)))
        d_dir = add(mul(h, math.sin(t)), mul(up, -math.cos(t)))
        u_dir = add(mul(h, math.cos(t)), mul(up, math.sin(t)))
        r_dir = cross(u_dir, d_dir)
        self.R = r_dir  # |R| = 1 spans the image width
        self.D = mul(d_dir, 0.5 / math.tan(math.radians(hfov_deg) / 2))
        self.U = mul(u_dir, height / width)

    def project(self, p):
        """World point -> (x, y) pixel, or None when behind the camera."""
        d = sub(p, self.location)
        t = dot(d, self.D) / dot(self.D, self.D)
        if t <= 1e-9:
            return None
        u = dot(d, self.R) / (t * dot(self.R, self.R))
        v = dot(d, self.U) / (t * dot(self.U, self.U))
        return ((u + 0.5) * self.width - 0.5, (0.5 - v) * self.height - 0.5)

    def in_image(self, px, margin=0.0):
        return px is not None and margin <= px[0] <= self.width - 1 - margin and margin <= px[1] <= self.height - 1 - margin

    def focal_px(self):
        return self.width / (2 * math.tan(math.radians(self.hfov) / 2))

    def pov(self):
        return "camera { perspective location %s direction %s right %s up %s }\n" % (
            vec(self.location), vec(self.D), vec(self.R), vec(self.U))

    def label(self):
        f = self.focal_px()
        return {
            "model": "pinhole, no distortion",
            "location_mm": [round(c, 3) for c in self.location],
            "target_mm": [round(c, 3) for c in self.target],
            "height_mm": round(self.location[1], 2),
            "distance_mm": round(self.dist, 2),
            "tilt_deg": round(self.tilt, 2),
            "yaw_deg": round(self.yaw, 2),
            "hfov_deg": round(self.hfov, 3),
            "fx": round(f, 3), "fy": round(f, 3),
            "cx": (self.width - 1) / 2.0, "cy": (self.height - 1) / 2.0,
            "frame": "world X = page x - W/2, Y up, Z = H/2 - page y (mm)",
        }


# ---------------------------------------------------------------- sheet geometry
class Sheet:
    def __init__(self, board_dir):
        with open(os.path.join(board_dir, "board.json")) as f:
            self.j = json.load(f)
        self.png = os.path.abspath(os.path.join(board_dir, "board.png"))
        self.W, self.H = self.j["width_mm"], self.j["height_mm"]
        self.size = self.j["hex_size_mm"]
        self.radius = self.j["radius"]
        self.cells = {(c["q"], c["r"]): c for c in self.j["cells"]}

    def world(self, x, y, h=0.0):
        return (x - self.W / 2, h, self.H / 2 - y)

    def cell_centre(self, qr):
        c = self.cells[qr]["centre_mm"]
        return c[0], c[1]

    def hex_corners(self, qr):
        cx, cy = self.cell_centre(qr)
        return [(cx + self.size * math.cos(math.radians(60 * i)), cy + self.size * math.sin(math.radians(60 * i)))
                for i in range(6)]


def point_in_convex(p, poly):
    sign = 0
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        c = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        if c != 0:
            s = 1 if c > 0 else -1
            if sign == 0:
                sign = s
            elif s != sign:
                return False
    return True


def square_corners(cx, cy, side, yaw_deg):
    a = math.radians(yaw_deg)
    h = side / 2
    out = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = sx * h, sy * h
        out.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    return out


def squares_overlap(a, b, gap):
    """Separating-axis test of two convex quads (page mm), with a clearance gap."""
    for poly in (a, b):
        for i in range(4):
            p, q = poly[i], poly[(i + 1) % 4]
            n = (q[1] - p[1], -(q[0] - p[0]))
            ln = math.hypot(*n)
            n = (n[0] / ln, n[1] / ln)
            pa = [x * n[0] + y * n[1] for x, y in a]
            pb = [x * n[0] + y * n[1] for x, y in b]
            if max(pa) + gap < min(pb) or max(pb) + gap < min(pa):
                return False
    return True


# ---------------------------------------------------------------- POV objects
def die_pov(size, body, pip, face, yaw, pos, finish):
    """A rounded die standing on the plane y = 0 at page position pos (world X, Z)."""
    h = size / 2
    r = size * EDGE_R
    k = h - r
    parts = ["box{<%.3f,%.3f,%.3f>,<%.3f,%.3f,%.3f>}" % (-h, -k, -k, h, k, k),
             "box{<%.3f,%.3f,%.3f>,<%.3f,%.3f,%.3f>}" % (-k, -h, -k, k, h, k),
             "box{<%.3f,%.3f,%.3f>,<%.3f,%.3f,%.3f>}" % (-k, -k, -h, k, k, h)]
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                parts.append("sphere{<%.3f,%.3f,%.3f>,%.3f}" % (sx * k, sy * k, sz * k, r))
    for a in (-1, 1):
        for b in (-1, 1):
            parts.append("cylinder{<%.3f,%.3f,%.3f>,<%.3f,%.3f,%.3f>,%.3f}" % (-k, a * k, b * k, k, a * k, b * k, r))
            parts.append("cylinder{<%.3f,%.3f,%.3f>,<%.3f,%.3f,%.3f>,%.3f}" % (a * k, -k, b * k, a * k, k, b * k, r))
            parts.append("cylinder{<%.3f,%.3f,%.3f>,<%.3f,%.3f,%.3f>,%.3f}" % (a * k, b * k, -k, a * k, b * k, k, r))
    off = size * 0.27
    pr = size * 0.095  # dimple sphere radius
    depth = size * 0.035
    pips = []
    for value, axis in FACE_AXES.items():
        # Two in-plane axes for this face.
        if axis[1] != 0:
            e1, e2 = (1, 0, 0), (0, 0, 1)
        elif axis[2] != 0:
            e1, e2 = (1, 0, 0), (0, 1, 0)
        else:
            e1, e2 = (0, 0, 1), (0, 1, 0)
        base = mul(axis, h + pr - depth)
        for a, b in PIPS[value]:
            c = add(base, add(mul(e1, a * off), mul(e2, b * off)))
            pips.append("sphere{%s,%.3f}" % (vec(c), pr))
    pip_tex = "texture{pigment{rgb<%.3f,%.3f,%.3f>} finish{ambient 0.05 diffuse 0.8 specular 0.1}}" % pip
    return ("difference{ merge{ %s texture{pigment{rgb<%.3f,%.3f,%.3f>} finish{%s}} }\n"
            "  union{ %s %s }\n  rotate %s rotate y*%.2f translate <%.3f,%.3f,%.3f> }\n") % (
        " ".join(parts), body[0], body[1], body[2], finish, " ".join(pips), pip_tex,
        FACE_UP_ROT[face], yaw, pos[0], h, pos[2])


def capsule_pov(a, b, r, tex):
    return "sphere{%s,%.2f %s} sphere{%s,%.2f %s} cylinder{%s,%s,%.2f %s}\n" % (
        vec(a), r, tex, vec(b), r, tex, vec(a), vec(b), r, tex)


def ray_hits_capsule(o, d, a, b, r):
    """Whether the segment o + t d, t in (0, 1), passes within r of segment ab."""
    # Sample the ray densely: capsules are few, labels only need a yes/no.
    for i in range(1, 200):
        t = i / 200.0
        p = add(o, mul(d, t))
        ab = sub(b, a)
        s = max(0.0, min(1.0, dot(sub(p, a), ab) / dot(ab, ab)))
        if norm(sub(p, add(a, mul(ab, s)))) < r:
            return True
    return False


TABLES = [
    ("wood", "pigment{wood turbulence 0.08 color_map{[0 rgb<0.45,0.28,0.14>][0.5 rgb<0.58,0.38,0.2>][1 rgb<0.42,0.25,0.12>]} scale <6,6,200> rotate y*%d} finish{specular 0.15 roughness 0.05}"),
    ("dark_wood", "pigment{wood turbulence 0.1 color_map{[0 rgb<0.18,0.1,0.05>][0.6 rgb<0.28,0.16,0.08>][1 rgb<0.15,0.08,0.04>]} scale <5,5,250> rotate y*%d} finish{specular 0.2 roughness 0.04}"),
    ("grey_cloth", "pigment{granite color_map{[0 rgb 0.32][1 rgb 0.38]} scale 30 rotate y*%d} normal{bumps 0.15 scale 4}"),
    ("green_felt", "pigment{granite color_map{[0 rgb<0.05,0.25,0.1>][1 rgb<0.08,0.3,0.13>]} scale 25 rotate y*%d} normal{bumps 0.1 scale 3}"),
    ("white_table", "pigment{granite color_map{[0 rgb 0.78][1 rgb 0.85]} scale 40 rotate y*%d} finish{specular 0.2 roughness 0.03}"),
    ("checker_tiles", "pigment{checker rgb<0.55,0.5,0.45> rgb<0.45,0.4,0.36> scale 150 rotate y*%d} finish{specular 0.25 roughness 0.02}"),
]

LIGHTS = {"neutral": (1.0, 1.0, 1.0), "warm": (1.0, 0.86, 0.68), "cool": (0.84, 0.9, 1.0), "daylight": (0.97, 0.98, 1.0)}


# ---------------------------------------------------------------- scene sampling
def place_die(rng, sheet, qr, guard, others=None):
    """Yaw and page position (mm) of a die (and its guard) inside cell qr.
    others: squares (page mm) of dice already placed that this die must not touch (--packed)."""
    hexp = sheet.hex_corners(qr)
    cx, cy = sheet.cell_centre(qr)
    if guard and sheet.size < 14:
        return place_die_small_guard(rng, sheet, qr, others)
    for _ in range(4000):
        yaw = rng.uniform(0, 360)
        if guard:
            # A 16 mm die and a 10 mm guard fit side by side only across the flats of the
            # 29.4 mm cell: the pair lines up toward a flat edge, the die nearly square to it.
            ang = math.radians(30 + 60 * rng.randrange(6) + rng.uniform(-5, 5))
            off = rng.uniform(5.0, 6.8)
            yaw = math.degrees(ang) + rng.uniform(-5, 5)
            ux, uy = cx - off * math.cos(ang), cy - off * math.sin(ang)
        else:
            rad = rng.uniform(0, 4.0)
            ang = rng.uniform(0, 2 * math.pi)
            ux, uy = cx + rad * math.cos(ang), cy + rad * math.sin(ang)
        sq = square_corners(ux, uy, DIE_MM, yaw)
        if sheet.size < 14:
            # Hexes under 14 mm (radius 7+ on A3) cannot hold a 16 mm die: let it overhang the
            # printed edge a little, as it would on a real small map (robust21).
            k = max(1.12, 12.0 / (sheet.size * 0.866))
            big = [(cx + (p[0] - cx) * k, cy + (p[1] - cy) * k) for p in hexp]
            if not all(point_in_convex(p, big) for p in sq):
                continue
        elif not all(point_in_convex(p, hexp) for p in sq):
            continue
        if others and any(squares_overlap(sq, o, 0.6) for o in others):
            continue
        if not guard:
            return (ux, uy, yaw), None
        gyaw = math.degrees(ang) + rng.uniform(-30, 30)
        goff = rng.uniform(6.5, 10.0)
        gx, gy = cx + goff * math.cos(ang), cy + goff * math.sin(ang)
        gsq = square_corners(gx, gy, GUARD_MM, gyaw)
        if not all(point_in_convex(p, hexp) for p in gsq):
            continue
        if squares_overlap(sq, gsq, 0.4):
            continue
        return (ux, uy, yaw), (gx, gy, gyaw)
    raise RuntimeError("cannot place a die in cell %s" % (qr,))


def place_die_small_guard(rng, sheet, qr, others=None):
    """--guards on hexes under 14 mm (robust23): a 16 mm die and its 10 mm guard cannot both
    stand in the cell. The token stands inside the cell, toward one of its corners or flats,
    and the die beside it, overhanging the far edge (its centre still in the cell), the pair
    lined up as a player would set them down."""
    hexp = sheet.hex_corners(qr)
    cx, cy = sheet.cell_centre(qr)
    inr = sheet.size * 0.866
    k = max(1.12, 12.0 / inr)
    big = [(cx + (p[0] - cx) * k, cy + (p[1] - cy) * k) for p in hexp]
    for _ in range(4000):
        ang = rng.uniform(0, 2 * math.pi)
        goff = rng.uniform(0.55, 0.85) * inr
        dist = rng.uniform(13.4, 14.6)  # die centre to token centre: 8 + 5 mm and a little air
        gx, gy = cx + goff * math.cos(ang), cy + goff * math.sin(ang)
        ux, uy = gx - dist * math.cos(ang), gy - dist * math.sin(ang)
        yaw = math.degrees(ang) + rng.uniform(-8, 8)
        gyaw = math.degrees(ang) + rng.uniform(-30, 30)
        if not point_in_convex((ux, uy), hexp):
            continue
        sq = square_corners(ux, uy, DIE_MM, yaw)
        gsq = square_corners(gx, gy, GUARD_MM, gyaw)
        if not point_in_convex((gx, gy), hexp) or not all(point_in_convex(p, big) for p in gsq):
            continue
        if squares_overlap(sq, gsq, 0.4):
            continue
        if others and any(squares_overlap(sq, o, 0.6) or squares_overlap(gsq, o, 0.6) for o in others):
            continue
        return (ux, uy, yaw), (gx, gy, gyaw)
    raise RuntimeError("cannot place a die and its guard in cell %s" % (qr,))


def fit_distance(cam_args, pts, frac):
    """Distance at which the world points span `frac` of the image (the tighter axis)."""
    lo, hi = 150.0, 20000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        cam = Camera(dist=mid, **cam_args)
        pr = [cam.project(p) for p in pts]
        if any(p is None for p in pr):
            lo = mid
            continue
        xs, ys = [p[0] for p in pr], [p[1] for p in pr]
        span = max((max(xs) - min(xs)) / cam.width, (max(ys) - min(ys)) / cam.height)
        cx, cy = (max(xs) + min(xs)) / 2 / cam.width, (max(ys) + min(ys)) / 2 / cam.height
        # Also keep the bounding box centred enough to fit.
        need = span + 2 * max(abs(cx - 0.5), abs(cy - 0.5))
        if need > frac:
            lo = mid
        else:
            hi = mid
    return hi


def packed_cells(rng, sheet, cells):
    """--packed (hexes under 14 mm only): the shuffled cells regrouped into clusters of 2-4
    neighbouring cells, as dice stand in real play on a small map (robust22)."""
    left = list(cells)
    taken = set()
    out = []
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
    for qr in left:
        if qr in taken:
            continue
        group = [qr]
        taken.add(qr)
        want = rng.randint(2, 4)
        while len(group) < want:
            near = [(g[0] + dq, g[1] + dr) for g in group for dq, dr in steps]
            near = [c for c in near if c in sheet.cells and c not in taken]
            if not near:
                break
            c = rng.choice(sorted(set(near)))
            group.append(c)
            taken.add(c)
        out.extend(group)
    return out


def sample_scene(rng, sheet, idx, preset, packed=False, small_guards=False):
    s = {"name": "scene_%03d" % idx, "preset": preset}
    s["size"] = rng.choice([(1280, 720), (1280, 720), (1920, 1080)])
    s["tilt"] = rng.uniform(0, 35) if preset != "topdown" else rng.uniform(0, 5)
    # Portrait sheet in a landscape frame: mostly the long side across the image.
    s["yaw"] = (90 if rng.random() < 0.75 else 0) + rng.uniform(-15, 15) + (180 if rng.random() < 0.3 else 0)
    s["hfov"] = rng.uniform(50, 72)
    s["fill"] = rng.uniform(0.82, 0.96)
    s["light"] = rng.choice(list(LIGHTS))
    s["light_strength"] = rng.uniform(0.75, 1.25)
    s["table"] = rng.randrange(len(TABLES))
    s["table_rot"] = rng.randrange(180)
    s["sheet_specular"] = rng.choice([0.0, 0.05, 0.15, 0.35])
    s["noise"] = rng.uniform(0.04, 0.2)  # ImageMagick -attenuate; more makes 1 MB JPEGs
    s["jpeg"] = rng.choice([85, 88, 90, 90])
    s["hand"] = preset == "hand" or (preset == "normal" and rng.random() < 0.12)
    s["sheet"] = preset != "nosheet"
    n = rng.randint(6, 24)
    cells = list(sheet.cells)
    rng.shuffle(cells)
    palette = rng.choice([["red", "blue"], ["red", "blue"], ["red", "blue", "green"],
                          ["yellow", "black"], ["white", "green"], list(COLOURS),
                          ["red", "blue", "green", "yellow", "white", "black"]])
    dice = []
    if packed and sheet.size < 14:
        cells = packed_cells(rng, sheet, cells)
    elif sheet.size < 14:  # small cells: no two dice in neighbouring cells (they would touch)
        chosen = []
        for qr in cells:
            if all(max(abs(qr[0]-c[0]), abs(qr[1]-c[1]), abs(qr[0]+qr[1]-c[0]-c[1])) >= 2 for c in chosen):
                chosen.append(qr)
        cells = chosen
    for qr in cells[:n]:
        # No room for a guard in a small cell, unless --guards (robust23: beside the die, the die
        # overhanging; the draw is made either way, so scenes without --guards are unchanged).
        guard = rng.random() < 0.15 and (sheet.size >= 14 or small_guards)
        colour = rng.choice(palette)
        face = rng.randint(1, 6)
        if packed and sheet.size < 14:
            squares = [square_corners(d["unit"][0], d["unit"][1], DIE_MM, d["unit"][2]) for d in dice]
            squares += [square_corners(d["guard_pose"][0], d["guard_pose"][1], GUARD_MM, d["guard_pose"][2])
                        for d in dice if d["guard_pose"]]
            try:
                unit, gd = place_die(rng, sheet, qr, guard, squares)
            except RuntimeError:
                continue  # no room beside the dice already there: the cell stays empty
        else:
            unit, gd = place_die(rng, sheet, qr, guard)
        dice.append({"qr": qr, "colour": colour, "face": face, "guard": guard, "unit": unit, "guard_pose": gd})
    s["dice"] = dice
    # Camera target: the sheet centre with jitter; off-centre for the half-out-of-view preset.
    tx, tz = rng.uniform(-15, 15), rng.uniform(-15, 15)
    if preset == "half":
        a = rng.uniform(0, 2 * math.pi)
        tx, tz = 150 * math.cos(a), 200 * math.sin(a)
        s["fill"] = rng.uniform(0.7, 0.9)
    elif preset == "edge":
        # Mostly off the sheet: usually at most one marker in view (board not found).
        a = rng.uniform(0, 2 * math.pi)
        tx, tz = 260 * math.cos(a), 330 * math.sin(a)
        s["fill"] = rng.uniform(0.8, 1.0)
    s["target"] = (tx, 0.0, tz)
    return s


HARSH_CASTS = {"tungsten": (1.0, 0.74, 0.45), "warm_led": (1.0, 0.82, 0.6), "cold": (0.7, 0.84, 1.0),
               "shade": (0.78, 0.9, 1.0), "green_fluo": (0.85, 1.0, 0.8)}


def sample_harsh(hrng, W, H):
    """--harsh (robust24): a harsher camera and room than the standard presets draw, from a
    separate RNG (hrng), so scenes without --harsh stay as they were. Each effect is drawn on
    or off on its own (at least two on); every value goes into the label's "harsh" object.
    Post-processing (after POV-Ray), in the order a camera makes them: vignetting and blur
    (lens), exposure and white balance, sensor noise, a lower-resolution stream scaled back to
    the frame size, JPEG. In the scene: a second, hard light low over the far side of the
    table and an object there (a mug, a bottle, a book) whose shadow falls across the sheet."""
    h = {}
    names = ["blur", "dim", "cast", "lowres", "shadow", "vignette"]
    while True:
        on = {n: hrng.random() < 0.5 for n in names}
        if sum(on.values()) >= 2:
            break
    if on["blur"]:
        if hrng.random() < 0.5:
            h["blur"] = {"kind": "defocus", "sigma_px": round(hrng.uniform(0.6, 1.6) * W / 1280.0, 2)}
        else:
            h["blur"] = {"kind": "motion", "length_px": round(hrng.uniform(2.0, 6.0) * W / 1280.0, 2),
                         "angle_deg": round(hrng.uniform(0, 180), 1)}
    if on["dim"]:
        h["dim"] = {"exposure": round(hrng.uniform(0.3, 0.6), 3), "noise_attenuate": round(hrng.uniform(0.25, 0.5), 3)}
    if on["cast"]:
        name = hrng.choice(sorted(HARSH_CASTS))
        h["cast"] = {"name": name, "rgb_gain": list(HARSH_CASTS[name])}
    if on["lowres"]:
        h["lowres"] = {"stream_width": hrng.choice([640, 800, 960]) if W <= 1280 else hrng.choice([960, 1280])}
    if on["shadow"]:
        h["shadow"] = {"object": hrng.choice(["mug", "bottle", "book"]),
                       "azimuth_off_deg": round(hrng.uniform(-50, 50), 1),
                       "gap_mm": round(hrng.uniform(10, 60), 1),
                       "light_elevation_deg": round(hrng.uniform(18, 40), 1),
                       "light_share": round(hrng.uniform(0.35, 0.6), 3),
                       "light_side_deg": round(hrng.uniform(-25, 25), 1)}
    if on["vignette"]:
        h["vignette"] = {"corner_gain": round(hrng.uniform(0.45, 0.75), 3)}
    h["jpeg_quality"] = hrng.randint(60, 75)
    return h


def sample_gain(grng, h):
    """--gain (session 26): a webcam in a dim room that raises its gain instead of leaving the
    frame dark (robust27's gain copies, drawn in the renderer): exposure 0.3-0.5, the sensor's
    noise at that light, then the gain that brings the frame back to its level (1/exposure,
    +-10%), so the noise is amplified with the signal. From its own RNG (grng), so the scene and
    any --harsh draw stay as they were; replaces --harsh's "dim" (a camera that raises its gain
    does not also leave the frame dark). Adds h["gain"] (and a JPEG quality if --harsh did not)."""
    exposure = round(grng.uniform(0.3, 0.5), 3)
    h["gain"] = {"exposure": exposure, "noise_attenuate": round(grng.uniform(0.3, 0.5), 3),
                 "gain": round(grng.uniform(0.9, 1.1) / exposure, 3)}
    h.pop("dim", None)
    h.setdefault("jpeg_quality", grng.randint(60, 75))
    return h


def harsh_scene_pov(sheet, s, cam):
    """The second light and the object whose hard shadow falls across the sheet (--harsh
    "shadow"). The object stands beyond the sheet's far edge as the camera sees it (further
    along the camera's facing direction than any point of the sheet), so it hides no part of
    the sheet or a die from the camera: the labels' visibility is unchanged."""
    sh = s["harsh"]["shadow"]
    yaw = math.radians(s["yaw"] + sh["azimuth_off_deg"])
    d = (math.sin(yaw), 0.0, math.cos(yaw))  # from the sheet centre toward the object
    hdir = (math.sin(math.radians(s["yaw"])), 0.0, math.cos(math.radians(s["yaw"])))
    corners = [sheet.world(x, y) for x, y in ((0, 0), (sheet.W, 0), (sheet.W, sheet.H), (0, sheet.H))]
    far = max(dot(c, hdir) for c in corners)
    size = {"mug": (42.0, 100.0), "bottle": (34.0, 230.0), "book": (80.0, 230.0)}[sh["object"]]
    r, hgt = size
    # Walk out along d until the object's near side is past the sheet's farthest point along
    # the camera's direction and outside the sheet's rectangle, then add the drawn gap.
    t = 0.0
    while True:
        p = mul(d, t)
        if dot(p, hdir) - r > far and (abs(p[0]) - r > sheet.W / 2 or abs(p[2]) - r > sheet.H / 2):
            break
        t += 5.0
    t += sh["gap_mm"]
    p = mul(d, t)
    if sh["object"] == "book":
        obj = ("box{<%.1f,0,%.1f>,<%.1f,%.1f,%.1f> pigment{rgb<0.55,0.12,0.1>} finish{specular 0.1} "
               "rotate y*%.1f translate %s}\n" % (-r, -14.0, r, hgt, 14.0, math.degrees(yaw), vec(p)))
    else:
        colour = "rgb<0.85,0.85,0.8>" if sh["object"] == "mug" else "rgb<0.15,0.35,0.2>"
        obj = "cylinder{<0,0,0>,<0,%.1f,0>,%.1f pigment{%s} finish{specular 0.3 roughness 0.02} translate %s}\n" % (
            hgt, r, colour, vec(p))
    # The hard light: behind the object as seen from the sheet, low, its shadow toward the camera.
    la = yaw + math.radians(sh["light_side_deg"])
    el = math.radians(sh["light_elevation_deg"])
    dist = 1500.0
    lpos = add(p, (math.sin(la) * dist * math.cos(el), dist * math.sin(el), math.cos(la) * dist * math.cos(el)))
    # It gives light_share of the paper's light (the key and fill lights give the rest, see
    # build): its shadow is that much darker than the paper around it.
    k = sh["light_share"] * s["light_strength"] * 1.07 / math.sin(el)
    light = "light_source { %s rgb<%.3f,%.3f,%.3f> }\n" % (vec(lpos), k, k * 0.95, k * 0.88)
    sh["object_mm"] = [round(v, 1) for v in p]
    sh["light_mm"] = [round(v, 1) for v in lpos]
    return light + obj


def build(sheet, s, rng):
    W, H = s["size"]
    cam_args = dict(width=W, height=H, target=s["target"], tilt_deg=s["tilt"], yaw_deg=s["yaw"], hfov_deg=s["hfov"])
    corners = [sheet.world(x, y) for x, y in ((0, 0), (sheet.W, 0), (sheet.W, sheet.H), (0, sheet.H))]
    if s["preset"] in ("half", "edge"):
        # Frame the sheet as if it were centred, then the target shift pushes part of it out.
        centred = dict(cam_args, target=(0.0, 0.0, 0.0))
        dist = fit_distance(centred, corners, s["fill"])
    else:
        shifted = [add(c, (0, 0, 0)) for c in corners]
        dist = fit_distance(cam_args, shifted, s["fill"])
    cam = Camera(dist=dist, **cam_args)

    lc = LIGHTS[s["light"]]
    k = s["light_strength"]
    if s.get("harsh", {}).get("shadow"):  # --harsh: the second, hard light takes its share
        k *= 1.0 - s["harsh"]["shadow"]["light_share"]
    # Key light: an area light above and to one side (glare on the sheet and dice).
    la = rng.uniform(0, 2 * math.pi)
    lpos = (math.cos(la) * rng.uniform(150, 600), rng.uniform(900, 1500), math.sin(la) * rng.uniform(150, 600))
    pov = ["#version 3.7;\n", "global_settings { assumed_gamma 1.0 max_trace_level 4 }\n", cam.pov(),
           "light_source { %s rgb<%.3f,%.3f,%.3f> area_light <250,0,0>, <0,0,250>, 3, 3 adaptive 1 jitter circular orient }\n"
           % (vec(lpos), lc[0] * k * 0.85, lc[1] * k * 0.85, lc[2] * k * 0.85),
           "light_source { <%.1f,1800,%.1f> rgb<%.3f,%.3f,%.3f> shadowless }\n"
           % (-lpos[0] * 0.5, -lpos[2] * 0.5, lc[0] * k * 0.22, lc[1] * k * 0.22, lc[2] * k * 0.22),
           "background { rgb <0.2,0.2,0.22> }\n"]
    table = TABLES[s["table"]][1] % s["table_rot"]
    pov.append("plane { y, -0.15 texture{ %s } }\n" % table)
    if s["sheet"]:
        pov.append(
            "box { <0,0,0>, <1,1,1> texture { pigment { image_map { png \"%s\" interpolate 2 } } "
            "finish { ambient 0.0 diffuse 0.85 specular %.2f roughness 0.06 } } "
            "scale <%.3f,%.3f,0.1> rotate x*90 translate <%.3f,0,%.3f> }\n"
            % (sheet.png, s["sheet_specular"], sheet.W, sheet.H, -sheet.W / 2, -sheet.H / 2))
    die_finish = "ambient 0.02 diffuse 0.75 specular 0.5 roughness 0.015 reflection 0.03"
    labels = []
    guard_body, guard_pip = COLOURS["blue"]
    for d in s["dice"]:
        ux, uy, yaw = d["unit"]
        pos = sheet.world(ux, uy)
        body, pip = COLOURS[d["colour"]]
        pov.append(die_pov(DIE_MM, body, pip, d["face"], yaw, pos, die_finish))
        if d["guard_pose"]:
            gx, gy, gyaw = d["guard_pose"]
            pov.append(die_pov(GUARD_MM, guard_body, guard_pip, 1, gyaw, sheet.world(gx, gy), die_finish))

    hand_caps = []
    if s["hand"]:
        # An arm from beyond one image edge, hand hovering over the sheet.
        ang = rng.uniform(0, 2 * math.pi)
        wrist = (rng.uniform(-90, 90), rng.uniform(60, 140), rng.uniform(-120, 120))
        elbow = (wrist[0] + 520 * math.cos(ang), wrist[1] + 200, wrist[2] + 520 * math.sin(ang))
        hand_caps.append((elbow, wrist, 34.0))
        back = unit((wrist[0] - elbow[0], 0, wrist[2] - elbow[2]))
        side = (-back[2], 0, back[0])
        palm = add(wrist, mul(back, 45))
        hand_caps.append((wrist, palm, 38.0))
        for i, off in enumerate((-27, -9, 9, 27)):
            base = add(palm, mul(side, off))
            tip = add(add(base, mul(back, 60 + (8 if i in (1, 2) else 0))), (0, -25, 0))
            hand_caps.append((base, tip, 9.0))
        thumb_b = add(wrist, add(mul(side, 35), mul(back, 10)))
        hand_caps.append((thumb_b, add(thumb_b, add(mul(side, 30), add(mul(back, 35), (0, -20, 0)))), 10.0))
        skin = rng.choice([(0.85, 0.62, 0.5), (0.62, 0.42, 0.3), (0.4, 0.26, 0.18), (0.92, 0.72, 0.6)])
        tex = "texture{pigment{rgb<%.2f,%.2f,%.2f>} finish{specular 0.2 roughness 0.1}}" % skin
        pov.append("union {\n" + "".join(capsule_pov(a, b, r, "") for a, b, r in hand_caps) + tex + "}\n")

    if s.get("harsh", {}).get("shadow"):
        pov.append(harsh_scene_pov(sheet, s, cam))

    def occluded(p):
        o = cam.location
        return any(ray_hits_capsule(o, sub(p, o), a, b, r) for a, b, r in hand_caps)

    def occluded_fraction(ux, uy, yaw):
        """Fraction of a TOP_GRID x TOP_GRID grid over the die's top face (cell centres of
        the 16 mm square, 16 mm above the paper) whose ray to the camera meets the hand."""
        if not hand_caps:
            return 0.0
        a = math.radians(yaw)
        hit = 0
        for i in range(TOP_GRID):
            for j in range(TOP_GRID):
                x = ((i + 0.5) / TOP_GRID - 0.5) * DIE_MM
                y = ((j + 0.5) / TOP_GRID - 0.5) * DIE_MM
                px = ux + x * math.cos(a) - y * math.sin(a)
                py = uy + x * math.sin(a) + y * math.cos(a)
                hit += occluded(sheet.world(px, py, DIE_MM))
        return hit / float(TOP_GRID * TOP_GRID)

    def lattice_hidden(ux, uy, yaw):
        """How many of the 9 points of the top face's pip lattice (0, +-0.27 side: every
        place a pip of any face can be) the hand hides from the camera."""
        if not hand_caps:
            return 0
        a = math.radians(yaw)
        o = 0.27 * DIE_MM
        n = 0
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                x, y = i * o, j * o
                n += occluded(sheet.world(ux + x * math.cos(a) - y * math.sin(a), uy + x * math.sin(a) + y * math.cos(a), DIE_MM))
        return n

    # ---- truth label
    markers = []
    for m in sheet.j["markers"]:
        px = [cam.project(sheet.world(x, y)) for x, y in m["corners_mm"]]
        vis = s["sheet"] and all(cam.in_image(p) for p in px) and not any(
            occluded(sheet.world(x, y)) for x, y in m["corners_mm"])
        markers.append({"id": m["id"], "corners_px": [[round(p[0], 2), round(p[1], 2)] if p else None for p in px],
                        "fully_visible": bool(vis)})
    n_vis = sum(1 for m in markers if m["fully_visible"])
    sheet_px = [cam.project(c) for c in corners]
    for d in s["dice"]:
        ux, uy, yaw = d["unit"]
        top = sheet.world(ux, uy, DIE_MM)
        c = cam.project(top)
        cube = [sheet.world(x, y, hgt) for x, y in square_corners(ux, uy, DIE_MM, yaw) for hgt in (0.0, DIE_MM)]
        cpx = [cam.project(p) for p in cube]
        entry = {
            "q": d["qr"][0], "r": d["qr"][1], "cell": sheet.cells[d["qr"]]["name"],
            "color": d["colour"], "face": d["face"], "guard": d["guard"],
            "centre_mm": [round(ux, 2), round(uy, 2)], "yaw_deg": round(yaw, 1),
            "top_px": [round(c[0], 2), round(c[1], 2)],
            "bbox_px": [round(min(p[0] for p in cpx), 1), round(min(p[1] for p in cpx), 1),
                        round(max(p[0] for p in cpx), 1), round(max(p[1] for p in cpx), 1)],
            "in_view": cam.in_image(c, 2.0),
            "occluded": occluded(top),
            "occluded_fraction": round(occluded_fraction(ux, uy, yaw), 3),
            "pip_lattice_hidden": lattice_hidden(ux, uy, yaw),
        }
        if not s["sheet"]:
            entry["q"] = entry["r"] = entry["cell"] = None
        if d["guard_pose"]:
            gx, gy, gyaw = d["guard_pose"]
            g = cam.project(sheet.world(gx, gy, GUARD_MM))
            entry["guard_token"] = {"centre_mm": [round(gx, 2), round(gy, 2)], "yaw_deg": round(gyaw, 1), "size_mm": GUARD_MM,
                                    "top_px": [round(g[0], 2), round(g[1], 2)], "color": "blue", "face": 1}
        labels.append(entry)
    label = {
        "format": "hexdice-scene-label", "version": 1,
        "image": s["name"] + ".jpg", "width": W, "height": H,
        "board_found": bool(s["sheet"] and n_vis >= 2),
        "sheet_present": s["sheet"],
        "markers_visible": n_vis,
        "sheet_corners_px": [[round(p[0], 1), round(p[1], 1)] for p in sheet_px],
        "hand": s["hand"],
        "preset": s["preset"],
        "camera": cam.label(),
        "lighting": {"colour": s["light"], "strength": round(s["light_strength"], 3),
                     "key_light_mm": [round(v, 1) for v in lpos], "area_light": "250x250 mm, 3x3 adaptive"},
        "table": TABLES[s["table"]][0],
        "sheet_specular": s["sheet_specular"],
        "post": {"gaussian_noise_attenuate": round(s["noise"], 3), "jpeg_quality": s["jpeg"]},
        "markers": markers,
        "dice": labels,
        "notes": "top_px: centre of the die's top face (16 mm above the paper); pixel (0,0) is the centre of the "
                 "top-left pixel. board_found: sheet in the scene and >= 2 markers fully visible. For a scene "
                 "without the sheet, q/r/cell are null.",
    }
    if "harsh" in s:
        label["harsh"] = s["harsh"]
        label["post"]["jpeg_quality"] = s["harsh"]["jpeg_quality"]
    if s["sheet"]:
        label["board"] = {"paper": sheet.j["paper"], "radius": sheet.radius, "hex_size_mm": sheet.size}
    return "".join(pov), label


def harsh_post(label):
    """ImageMagick arguments for --harsh's post-processing (robust24), in a camera's order:
    vignetting, blur (lens); exposure, white balance; a lower-resolution stream (noise at that
    resolution), scaled back to the frame size; JPEG at 60-75."""
    W, H = label["width"], label["height"]
    h = label["harsh"]
    a = []
    if "vignette" in h:
        # Gain 1 at the centre falling to corner_gain at the corners (square of the radius).
        k = 1.0 - h["vignette"]["corner_gain"]
        # Made on a 1/10 grid and scaled up (-fx on the whole frame takes minutes on a loaded machine).
        w, hh = W // 10, H // 10
        a += ["(", "-size", "%dx%d" % (w, hh), "xc:white", "-fx",
              "1-%.4f*(((i+0.5)/w-0.5)^2*%d+((j+0.5)/h-0.5)^2*%d)/%.1f" % (k, W * W, H * H, (W * W + H * H) / 4.0),
              "-resize", "%dx%d!" % (W, H), ")", "-compose", "multiply", "-composite"]
    if "blur" in h:
        b = h["blur"]
        if b["kind"] == "defocus":
            a += ["-blur", "0x%.2f" % b["sigma_px"]]
        else:
            a += ["-motion-blur", "0x%.2f+%.1f" % (b["length_px"] / 2.0, b["angle_deg"])]
    if "dim" in h:
        a += ["-evaluate", "multiply", "%.3f" % h["dim"]["exposure"]]
    if "gain" in h:
        a += ["-evaluate", "multiply", "%.3f" % h["gain"]["exposure"]]
    if "cast" in h:
        g = h["cast"]["rgb_gain"]
        a += ["-color-matrix", "%.3f 0 0 0 %.3f 0 0 0 %.3f" % (g[0], g[1], g[2])]
    noise = h["dim"]["noise_attenuate"] if "dim" in h else label["post"]["gaussian_noise_attenuate"]
    if "gain" in h:
        noise = h["gain"]["noise_attenuate"]
    if "lowres" in h:
        sw = h["lowres"]["stream_width"]
        a += ["-resize", "%dx%d!" % (sw, round(sw * H / float(W)))]
    a += ["-attenuate", "%.3f" % noise, "+noise", "Gaussian"]
    if "lowres" in h:
        a += ["-filter", "Triangle", "-resize", "%dx%d!" % (W, H)]
    if "gain" in h:  # the camera's gain, after the sensor's noise: it amplifies both
        a += ["-evaluate", "multiply", "%.3f" % h["gain"]["gain"]]
    a += ["-strip", "-quality", str(h["jpeg_quality"])]
    return a


def render(pov_text, label, out_dir, name, quality, keep_pov, noise_seed):
    W, H = label["width"], label["height"]
    tmp = tempfile.mkdtemp(prefix="hexdice_scene_")
    try:
        pov_path = os.path.join(tmp, name + ".pov")
        png_path = os.path.join(tmp, name + ".png")
        with open(pov_path, "w") as f:
            f.write(pov_text)
        q = ["+Q9", "+A0.3", "+AM1", "+R2"] if quality == "normal" else ["+Q8", "-A"]
        cmd = ["nice", "povray", "-D", "+I" + pov_path, "+O" + png_path, "+FN", "+W%d" % W, "+H%d" % H,
               "+WT1", "-GA"] + q
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(png_path):
            sys.stderr.write(r.stderr[-3000:])
            raise RuntimeError("povray failed for " + name)
        dt = time.time() - t0
        jpg = os.path.join(out_dir, name + ".jpg")
        if "harsh" in label:
            subprocess.run(["convert", png_path, "-seed", str(noise_seed)] + harsh_post(label) + [jpg], check=True)
        else:
            subprocess.run(["convert", png_path, "-seed", str(noise_seed), "-attenuate", "%.3f" % label["post"]["gaussian_noise_attenuate"],
                            "+noise", "Gaussian", "-strip", "-quality", str(label["post"]["jpeg_quality"]), jpg], check=True)
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            json.dump(label, f, indent=1)
            f.write("\n")
        if keep_pov:
            shutil.copy(pov_path, os.path.join(out_dir, name + ".pov"))
        return dt
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", required=True, help="directory with board.png and board.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--start", type=int, default=0, help="index of the first scene (names scene_NNN)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--preset", default="mix", choices=["mix", "normal", "topdown", "hand", "half", "edge", "nosheet"])
    ap.add_argument("--quality", default="normal", choices=["normal", "fast"])
    ap.add_argument("--keep-pov", action="store_true")
    ap.add_argument("--packed", action="store_true",
                    help="hexes under 14 mm only: dice in clusters of neighbouring cells, not kept apart")
    ap.add_argument("--guards", action="store_true",
                    help="hexes under 14 mm only: guard tokens too (beside the die, which overhangs its cell)")
    ap.add_argument("--pov-only", action="store_true", help="write .pov and .json only, no rendering")
    ap.add_argument("--harsh", action="store_true",
                    help="a harsher camera and room (robust24): blur, a dim room, a strong colour cast, JPEG 60-75, "
                         "a low-resolution stream, a second hard light and an object's shadow, vignetting; drawn "
                         "from a separate RNG, so the scene itself (dice, camera, lights) is the one drawn without it")
    ap.add_argument("--gain", action="store_true",
                    help="a webcam in a dim room that raises its gain (session 26): exposure 0.3-0.5, the sensor's "
                         "noise, then x1/exposure; from its own RNG; with --harsh it replaces the dim room")
    args = ap.parse_args()
    sheet = Sheet(args.board)
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.start, args.start + args.count):
        rng = random.Random(args.seed * 1000 + i)  # each scene reproducible on its own
        preset = args.preset
        if preset == "mix":
            preset = {3: "topdown", 5: "hand", 7: "half", 9: "nosheet"}.get(i % 10, "normal")
            if i % 20 == 9:
                preset = "nosheet"
            elif i % 10 == 9:
                preset = "normal"
        s = sample_scene(rng, sheet, i, preset, args.packed, args.guards)
        if args.harsh:
            s["harsh"] = sample_harsh(random.Random(args.seed * 1000 + i + 0x5eed24), s["size"][0], s["size"][1])
            if "dim" in s["harsh"]:
                s["noise"] = s["harsh"]["dim"]["noise_attenuate"]
        if args.gain:
            s["harsh"] = sample_gain(random.Random(args.seed * 1000 + i + 0x6a1027), s.get("harsh", {}))
            s["noise"] = s["harsh"]["gain"]["noise_attenuate"]
        pov_text, label = build(sheet, s, rng)
        if args.pov_only:
            with open(os.path.join(args.out, s["name"] + ".pov"), "w") as f:
                f.write(pov_text)
            with open(os.path.join(args.out, s["name"] + ".json"), "w") as f:
                json.dump(label, f, indent=1)
            continue
        # The sensor noise (ImageMagick's +noise) from a seed of the scene's own, so a scene renders to
        # the same bytes every time; unseeded, a set rendered again on a new machine differed in its
        # noise alone and moved readings on the harsh sets by several dice (session 35).
        dt = render(pov_text, label, args.out, s["name"], args.quality, args.keep_pov, args.seed * 1000 + i)
        print("%s %dx%d preset=%s dice=%d tilt=%.1f render %.1fs" % (
            s["name"], label["width"], label["height"], preset, len(label["dice"]), s["tilt"], dt), flush=True)


if __name__ == "__main__":
    main()
