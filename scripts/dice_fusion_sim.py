#!/usr/bin/env python3
"""Replays the pip/network fusion (vision/dice.cpp fuse_face) offline on the matched dice of
`hexdice eval --real`, to try other fusions without re-running the finder.

    HEXDICE_EVAL_DUMP=1 build/bin/hexdice eval --real DATA --split even-val --model FOREST \
        2>&1 >/dev/null | grep -E '^(DUMP|ORACLE)' > dump_even-val.txt
    scripts/dice_fusion_sim.py [--oracle] dump_even-val.txt [dump_even.txt ...]

(--oracle: the reads at the labelled boxes instead of the finder's matched dice.)

Per dump file, per photo source (byler / penlington): dice read right by the shipped fusion
(w 1, floor 1e-3), and by each variant:
  - global weight w and floor;
  - "strength": the pip term scaled by min(1, s_max / T)^g (weak pip evidence counts less);
  - "ambiguity": the pip term scaled by a when the second best layout score is over t x the best;
then, where the network and the fusion disagree, who is right.
The face read by the binary is the dump's; the replay of the shipped fusion must equal it.
"""
import math
import sys


def load(path, tag="DUMP"):
    rows = []
    for line in open(path):
        t = line.split()
        if not t or t[0] != tag:
            continue
        rows.append(dict(name=t[1], x=t[2], y=t[3], lab=int(t[4]), face=int(t[5]), base=int(t[6]),
                         cf=int(t[7]), ps=[0.0] + [float(v) for v in t[8:14]],
                         cn=[0.0] + [float(v) for v in t[14:20]]))
    return rows


def fuse(ps, cn, base, w=1.0, floor=1e-3, alpha=1.0):
    smax = max(ps[1:])
    best, best_v = base, -math.inf
    for f in range(1, 7):
        s = max(ps[f] / smax, floor) if smax > 0 else 1.0
        v = alpha * math.log(max(s, 1e-12)) + w * math.log(max(cn[f], 1e-12))
        if v > best_v:
            best, best_v = f, v
    return best


def second_ratio(ps):
    v = sorted(ps[1:], reverse=True)
    return v[1] / v[0] if v[0] > 0 else 1.0


def main(args):
    tag = "DUMP"
    if args and args[0] == "--oracle":  # the reads at the labelled boxes (ORACLE lines)
        tag, args = "ORACLE", args[1:]
    data = {p: load(p, tag) for p in args}

    def score(fn):
        out = []
        for p, rows in data.items():
            b = sum(fn(r) == r["lab"] for r in rows if r["name"].startswith("byler"))
            q = sum(fn(r) == r["lab"] for r in rows if r["name"].startswith("penlington"))
            out.append(f"{p}: {b + q} (byler {b}, penlington {q})")
        return "  ".join(out)

    print("read by the binary     ", score(lambda r: r["face"]))
    print("replayed (w 1, 1e-3)   ", score(lambda r: fuse(r["ps"], r["cn"], r["base"])))
    for w in (0.5, 1, 2, 3):
        for fl in (1e-3, 0.01, 0.03, 0.1, 0.3):
            print(f"global w {w} floor {fl:<6}", score(lambda r: fuse(r["ps"], r["cn"], r["base"], w, fl)))
    for T in (100, 200, 300):
        for g in (1, 2):
            print(f"strength T {T} g {g}     ",
                  score(lambda r: fuse(r["ps"], r["cn"], r["base"], 1, 1e-3, min(1.0, max(r["ps"][1:]) / T) ** g)))
    for t in (0.5, 0.6, 0.7, 0.8):
        for a in (0, 0.25, 0.5):
            print(f"ambiguity t {t} a {a}   ",
                  score(lambda r: fuse(r["ps"], r["cn"], r["base"], 1, 1e-3, a if second_ratio(r["ps"]) > t else 1.0)))
    for p, rows in data.items():
        for kind in ("byler", "penlington"):
            rr = [r for r in rows if r["name"].startswith(kind)]
            net_right = [r for r in rr if r["cf"] == r["lab"] and r["face"] != r["lab"]]
            fused_right = [r for r in rr if r["cf"] != r["lab"] and r["face"] == r["lab"]]
            print(f"{p} {kind}: {len(rr)} matched; network right, fusion wrong {len(net_right)} "
                  f"(network p {' '.join('%.2f' % r['cn'][r['cf']] for r in net_right)}); "
                  f"network wrong, fusion right {len(fused_right)} "
                  f"(network p {' '.join('%.2f' % r['cn'][r['cf']] for r in fused_right)})")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
