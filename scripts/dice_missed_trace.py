#!/usr/bin/env python3
"""For each labelled die the finder missed (the `missed` lines of `hexdice eval --real --verbose`), the
finder stage that lost it, from `HEXDICE_DICE_DEBUG=1 hexdice dice PHOTO --model MODEL` (docs/dice.md round 20):
no candidate, every candidate rejected by the classifier, suppressed before reading, every read moved
onto another die, suppressed after reading, one face per cube, dropped by the network.

    scripts/dice_missed_trace.py EVAL_VERBOSE.txt [source prefix]   (env: HEXDICE_BIN, REAL_DICE, DICE_MODEL, TRACE_DIR)
"""
import re, subprocess, sys, os, collections
ev, src = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
B = os.environ.get("HEXDICE_BIN", "build/bin/hexdice")
D = os.path.join(os.environ.get("REAL_DICE", "../shared/data/real-dice"), "images")
MODEL = os.environ.get("DICE_MODEL", "")
TRACE = os.environ.get("TRACE_DIR", "trace")
os.makedirs(TRACE, exist_ok=True)
miss = collections.defaultdict(list)
for line in open(ev):
    m = re.match(r'^(\S+\.jpg): missed \[(\d+) x (\d+) from \((\d+), (\d+)\)\] face (\d)', line)
    if m and m.group(1).startswith(src):
        n, w, h, x, y, f = m.groups()
        miss[n].append((int(x), int(y), int(w), int(h), int(f)))
pt = r'\[([-\d.e]+), ([-\d.e]+)\]'
cats = collections.Counter()
for n, labs in sorted(miss.items()):
    cache = os.path.join(TRACE, n + ".dbg")  # the debug output, kept
    if not os.path.exists(cache):
        r = subprocess.run([B, "dice", f"{D}/{n}"] + (["--model", MODEL] if MODEL else []), env=dict(os.environ, HEXDICE_DICE_DEBUG="1"),
                           capture_output=True, text=True)
        open(cache, "w").write(r.stderr)
    lines = open(cache).read().splitlines()
    if any("reading again" in l for l in lines):
        i = max(i for i, l in enumerate(lines) if "reading again" in l)
        pre = [l for l in lines[:i] if "forest rejects" in l]
        lines = pre + lines[i + 1:]
    ev_ = []
    for l in lines:
        ps = [(float(a), float(b)) for a, b in re.findall(pt, l)]
        ev_.append((l, ps))
    for (x, y, w, h, f) in labs:
        inside = lambda p: x <= p[0] <= x + w and y <= p[1] <= y + h
        fate = []
        for l, ps in ev_:
            if not ps or not inside(ps[0]): continue
            if "forest rejects" in l: fate.append("forest-rej")
            elif "pre-nms drops" in l:
                fate.append("prenms(under %s)" % ("same" if inside(ps[1]) else "other"))
            elif l.startswith("dice: pips"):
                fate.append("read->%s f%s" % ("in" if inside(ps[1]) else "OUT", re.search(r' face (\d)', l).group(1)))
            elif "nms drops" in l: fate.append("nms(under %s)" % ("same" if inside(ps[1]) else "other"))
            elif "one face per cube" in l: fate.append("cube")
            elif "network drops" in l: fate.append("net")
        # the final detections: any 'pips ... ->' centre inside that was not dropped
        c = collections.Counter(fate)
        if not fate: cat = "no candidate"
        elif set(c) == {"forest-rej"}: cat = "forest rejects all"
        elif not any(k.startswith("read") for k in c): cat = "prenms only"
        elif not any(k.startswith("read->in") for k in c): cat = "reads move off"
        elif "net" in c: cat = "network"
        elif "cube" in c: cat = "one face per cube"
        elif any(k.startswith("nms") for k in c): cat = "nms"
        else: cat = "kept? (match/edge)"
        cats[cat] += 1
        print(f"{n} {x},{y} {w}x{h} f{f}: {cat}: " + ", ".join(f"{k}x{v}" for k, v in c.items()))
print(cats)
