#!/usr/bin/env python3
"""Compares two recordings of scripts/fixed-states.sh, picture by picture and
output by output: for each picture the number of pixels that differ and the
box around them; for each text output whether it is the same, and the first
lines that differ. Exit 0 when everything is the same, 1 otherwise.

    scripts/compare-states.py BEFORE_DIR AFTER_DIR [--ignore NAME ...]
"""
import argparse
import difflib
import os
import sys

from PIL import Image, ImageChops


def compare_png(a, b):
    ia, ib = Image.open(a).convert("RGB"), Image.open(b).convert("RGB")
    if ia.size != ib.size:
        return f"size {ia.size} -> {ib.size}"
    diff = ImageChops.difference(ia, ib)
    box = diff.getbbox()
    if box is None:
        return None
    count = sum(1 for p in diff.getdata() if p != (0, 0, 0))
    return f"{count} pixels differ, within x {box[0]}..{box[2] - 1}, y {box[1]}..{box[3] - 1}"


def compare_text(a, b):
    with open(a, encoding="utf-8", errors="replace") as f:
        ta = f.read().splitlines()
    with open(b, encoding="utf-8", errors="replace") as f:
        tb = f.read().splitlines()
    if ta == tb:
        return None
    lines = list(difflib.unified_diff(ta, tb, "before", "after", n=0, lineterm=""))
    return "\n    ".join(lines[:12])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
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
        what = compare_png(a, b) if name.endswith(".png") else compare_text(a, b)
        if what:
            print(f"{name}: {what}")
            different += 1
    same = len([n for n in names if n not in args.ignore and not n.endswith(".log")]) - different
    print(f"{same} the same, {different} different")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
