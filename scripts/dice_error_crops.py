#!/usr/bin/env python3
"""Crops of every die `hexdice eval --real --verbose` lists as misread or missed, to look at.

Usage (docs/dice.md, round 16):
  build/bin/hexdice eval --real REAL --split even-val --model FOREST --verbose > ev.txt
  mkdir det; for im in $(grep -o '^[a-z]*_[A-Za-z0-9_]*\\.jpg' ev.txt | sort -u); do
    build/bin/hexdice dice REAL/images/$im --json --model FOREST > det/$im.json; done
  scripts/dice_error_crops.py REAL ev.txt det OUT      # OUT/NNN_*.png, OUT/index.txt, OUT/sheet_NN.png
  scripts/dice_error_crops.py REAL ev.txt det OUT oracle   # the oracle-box misreads instead

Each crop is 2.4x the labelled box, 300 px: the label in green, the finder's detections in
red (HEXDICE_DICE_DEBUG=1 on `hexdice dice` says why a die was dropped). Needs ImageMagick.
"""
import json, os, re, subprocess, sys

real, ev, detdir, out = sys.argv[1:5]
oracle = 'oracle' in sys.argv[5:]
os.makedirs(out, exist_ok=True)
images = os.path.join(real, 'images')
rx = re.compile(r'^(\S+): (box|missed|oracle box) \[(\d+) x (\d+) from \((\d+), (\d+)\)\] face (\d)(?: read (\d+))?(.*)$')
rows = []
for line in open(ev):
    m = rx.match(line.strip())
    if not m:
        continue
    name, kind, w, h, x, y, face, read, rest = m.groups()
    if (kind == 'oracle box') != oracle:
        continue
    w, h, x, y = map(int, (w, h, x, y))
    side = max(w, h)
    S = int(side * 2.4)
    x0, y0 = int(x + w / 2 - S / 2), int(y + h / 2 - S / 2)
    k = 300 / S
    draws = []
    dj = os.path.join(detdir, name + '.json')
    if os.path.exists(dj):
        for d in json.load(open(dj)):
            if d['x1'] < x0 or d['y1'] < y0 or d['x0'] > x0 + S or d['y0'] > y0 + S:
                continue
            draws += ['-stroke', 'red', '-fill', 'none', '-draw', 'rectangle %d,%d %d,%d' % (
                (d['x0'] - x0) * k, (d['y0'] - y0) * k, (d['x1'] - x0) * k, (d['y1'] - y0) * k)]
    draws += ['-stroke', 'lime', '-fill', 'none', '-draw',
              'rectangle %d,%d %d,%d' % ((x - x0) * k, (y - y0) * k, (x + w - x0) * k, (y + h - y0) * k)]
    n = len(rows) + 1
    tag = '%03d_%s_%s_f%s_r%s' % (n, name[:-4], 'miss' if kind == 'missed' else 'read', face, read or 'X')
    cap = '%d %s t%s r%s %s' % (n, name[:-4], face, read or 'miss', rest.strip())
    subprocess.run(['convert', os.path.join(images, name), '-virtual-pixel', 'gray', '-define',
                    'distort:viewport=%dx%d+%d+%d' % (S, S, x0, y0), '-distort', 'SRT', '0', '+repage',
                    '-filter', 'Lanczos', '-resize', '300x300!', *draws, os.path.join(out, tag + '.png')], check=True)
    rows.append((tag, cap))
with open(os.path.join(out, 'index.txt'), 'w') as f:
    for t, c in rows:
        f.write(t + '\t' + c + '\n')
for s in range(0, len(rows), 6):
    args = []
    for t, c in rows[s:s + 6]:
        args += ['-label', c, os.path.join(out, t + '.png')]
    subprocess.run(['montage', '-pointsize', '12', *args, '-tile', '3x2', '-geometry', '300x300+4+4',
                    os.path.join(out, 'sheet_%02d.png' % (s // 6))], check=True)
print(len(rows), 'crops in', out)
