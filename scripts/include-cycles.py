#!/usr/bin/env python3
"""Prints the include cycles among the project's source units.

A unit is a header with its source (ui/app.hpp and ui/app.cpp are one unit,
ui/app). An arrow runs from a unit to each unit whose header one of its files
includes by the project's include paths ("ui/app.hpp", "io/files.hpp",
"api/plan.hpp"). A cycle is a set of units each reachable from every other
(a strongly connected component of two or more units).

    scripts/include-cycles.py [FOLDER ...]     (default: app kernels)

Also prints the pairs of folders that include each other (kernels/api and
kernels/trace, say): folders in layers include one way only.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE = (".hpp", ".cpp", ".h", ".cuh", ".cu", ".inl", ".inc")


def unit_of(path):
    stem, _ = os.path.splitext(path)
    return stem


def collect(folders):
    files = {}
    for folder in folders:
        for base, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith(SOURCE):
                    full = os.path.join(base, name)
                    files[os.path.relpath(full, ROOT)] = full
    # An include "ui/app.hpp" is resolved against the include roots app/ and kernels/.
    roots = ["app", "kernels", ""]
    edges = defaultdict(set)
    for rel, full in files.items():
        with open(full, encoding="utf-8", errors="replace") as f:
            text = f.read()
        here = os.path.dirname(rel)
        for inc in INCLUDE.findall(text):
            for r in [here] + roots:
                cand = os.path.normpath(os.path.join(r, inc))
                if cand in files:
                    a, b = unit_of(rel), unit_of(cand)
                    if a != b:
                        edges[a].add(b)
                    break
    units = sorted({unit_of(r) for r in files})
    return units, edges


def components(units, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for u in units:
        if u not in index:
            visit(u)
    return [c for c in out if len(c) > 1]


def main():
    folders = sys.argv[1:] or ["app", "kernels"]
    units, edges = collect(folders)
    cycles = components(units, edges)
    print(f"{len(units)} units, {sum(len(v) for v in edges.values())} arrows, {len(cycles)} cycle(s)")
    for c in sorted(cycles, key=len, reverse=True):
        print(f"  {len(c)} units: " + ", ".join(c))
    folders_of = defaultdict(set)
    for a, targets in edges.items():
        for b in targets:
            fa, fb = os.path.dirname(a), os.path.dirname(b)
            if fa != fb:
                folders_of[fa].add(fb)
    both = sorted({tuple(sorted((a, b))) for a in folders_of for b in folders_of[a] if a in folders_of.get(b, ())})
    print(f"{len(both)} pair(s) of folders that include each other")
    for a, b in both:
        print(f"  {a} <-> {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
