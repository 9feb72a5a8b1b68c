#!/usr/bin/env python3
"""Compares two recordings of scripts/fixed-states.sh, picture by picture and
output by output: for each picture the number of pixels that differ and the
box around them; for each text output whether it is the same, and the first
lines that differ. Exit 0 when everything is the same, 1 otherwise.

    scripts/compare-states.py BEFORE_DIR AFTER_DIR [--noise AGAIN_DIR ...] [--ignore NAME ...]

Some of what the app shows changes from run to run by itself: the times it
measured ("ran on the CPU in 6.820 ms"), and with them the number of glyphs
drawn. --noise names more recordings of the same build as BEFORE_DIR: the
places where one of them differs from BEFORE_DIR (each a box around a run of changed pixels,
widened by a few characters) are left out of the pictures' comparison, and
text lines that differ in any of them are left out of the texts'.
"""
import argparse
import difflib
import os
import sys

from PIL import Image, ImageChops


def changed_pixels(a, b):
    ia, ib = Image.open(a).convert("RGB"), Image.open(b).convert("RGB")
    if ia.size != ib.size:
        return None, f"size {ia.size} -> {ib.size}"
    r, g, b = ImageChops.difference(ia, ib).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b)  # the largest change of any channel
    width = ia.size[0]
    data = diff.getdata()
    return {(i % width, i // width) for i, v in enumerate(data) if v}, None


def noise_boxes(points, pad_x=48, pad_y=6):
    """Boxes around runs of changed pixels: rows grouped into bands, each band split where x has a gap."""
    boxes = []
    rows = sorted({y for _, y in points})
    bands, start, last = [], None, None
    for y in rows:
        if start is None or y > last + pad_y:
            if start is not None:
                bands.append((start, last))
            start = y
        last = y
    if start is not None:
        bands.append((start, last))
    for y0, y1 in bands:
        xs = sorted({x for x, y in points if y0 <= y <= y1})
        x_start = x_last = xs[0]
        for x in xs[1:] + [None]:
            if x is None or x > x_last + pad_x:
                boxes.append((x_start - pad_x, y0 - pad_y, x_last + pad_x, y1 + pad_y))
                if x is not None:
                    x_start = x
            if x is not None:
                x_last = x
    return boxes


def compare_png(a, b, noise=()):
    points, problem = changed_pixels(a, b)
    if problem:
        return problem
    if noise:
        boxes = []
        for n in noise:
            noisy, _ = changed_pixels(a, n)
            boxes += noise_boxes(noisy or set())
        points = {(x, y) for x, y in points
                  if not any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes)}
    if not points:
        return None
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return f"{len(points)} pixels differ, within x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}"


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def compare_text(a, b, noise=()):
    ta, tb = read_lines(a), read_lines(b)
    others = [read_lines(n) for n in noise]
    if others and all(len(t) == len(ta) for t in others) and len(tb) == len(ta):
        # Lines that change by themselves between runs of one build are left out.
        keep = [i for i in range(len(ta)) if all(t[i] == ta[i] for t in others)]
        ta, tb = [ta[i] for i in keep], [tb[i] for i in keep]
    if ta == tb:
        return None
    lines = list(difflib.unified_diff(ta, tb, "before", "after", n=0, lineterm=""))
    return "\n    ".join(lines[:12])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--noise", nargs="*", default=[],
                        help="more recordings of BEFORE's build: what differs between them is noise")
    parser.add_argument("--ignore", nargs="*", default=[], help="files to leave out (by name)")
    args = parser.parse_args()
    names = sorted(set(os.listdir(args.before)) | set(os.listdir(args.after)))
    different = 0
    for name in names:
        if name in args.ignore or name.endswith(".log"):
            continue
        a, b = os.path.join(args.before, name), os.path.join(args.after, name)
        if not os.path.exists(a) or not os.path.exists(b):
            print(f"{name}: only {'after' if not os.path.exists(a) else 'before'}")
            different += 1
            continue
        n = [p for p in (os.path.join(d, name) for d in args.noise) if os.path.exists(p)]
        what = compare_png(a, b, n) if name.endswith(".png") else compare_text(a, b, n)
        if what:
            print(f"{name}: {what}")
            different += 1
    same = len([n for n in names if n not in args.ignore and not n.endswith(".log")]) - different
    print(f"{same} the same, {different} different")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
