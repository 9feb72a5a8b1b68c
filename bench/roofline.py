#!/usr/bin/env python3
"""Draws the roofline of one `tilescope bench` run, with every kernel on it.

x: arithmetic intensity, FLOP per byte of DRAM traffic at its minimum (each
   input read once, each output written once: 8 bytes per pixel), so
   2 (2r+1)^2 / 8 for a 2D mask and 2 (2r+1) / 8 for a 1D one;
y: achieved GFLOP/s (2 FLOPs per tap per output).
Roofs: the device-to-device copy bandwidth measured in the same run (the
memory roof, GB/s x FLOP/byte) and the FP32 FMA peak (the flat roof). Each 2D
mask's floor, the larger of the copy's time and its multiply-adds' time at the
peak (`tilescope bench`'s "floor"), is the roof at that mask's intensity: a
diamond there names the mask and which roof bounds it. The peers from
bench/peers.py, when given, are drawn with the same axes.

    roofline.py --bench bench.csv [--peers peers.csv] --output roofline.png

Uses matplotlib when it is installed; otherwise writes a plainer PNG with the
standard library alone (zlib), roofs and points only, with the legend printed
on stdout.
"""
import argparse
import csv
import math
import struct
import sys
import zlib


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load(bench_path, peers_path):
    rows = read_rows(bench_path)
    copies = [r for r in rows if r["kernel"] == "cudaMemcpy_d2d"]
    kernels = [r for r in rows if r["kernel"] != "cudaMemcpy_d2d"]
    if not kernels:
        sys.exit("roofline: no kernel rows in %s" % bench_path)
    peak = float(kernels[0]["peak_gflop_per_s"])
    copy_gbps = max(float(r["gb_per_s"]) for r in copies) if copies else None
    points = []  # (label, group, mask, intensity, gflops)
    for r in kernels:
        w, dims = int(r["mask_width"]), int(r["dims"])
        taps = w * w if dims == 2 else w
        block = r["block_x"] + ("x" + r["block_y"] if dims == 2 else "")
        points.append((r["kernel"], r["kernel"], "%dx%d" % (w, w) if dims == 2 else str(w), 2.0 * taps / 8.0,
                       float(r["gflop_per_s"]), block))
    if peers_path:
        try:
            for r in read_rows(peers_path):
                w = int(r["mask_width"])
                points.append((r["peer"], "peer: " + r["peer"], "%dx%d" % (w, w), 2.0 * w * w / 8.0,
                               float(r["gflop_per_s"]), "-"))
        except OSError as e:
            print("roofline: peers left out (%s)" % e, file=sys.stderr)
    device = kernels[0]["device"]
    return device, peak, copy_gbps, points


def floors(peak, copy_gbps, points):
    """(mask, intensity, GFLOP/s at the floor, bound) for each 2D mask of the run, by intensity."""
    if not copy_gbps:
        return []
    masks = sorted({(p[2], p[3]) for p in points if "x" in p[2]}, key=lambda m: m[1])
    return [(m, x, min(peak, copy_gbps * x), "FMA" if copy_gbps * x > peak else "copy") for m, x in masks]


def with_matplotlib(device, peak, copy_gbps, points, output):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(14, 7), dpi=110)
    xs = [p[3] for p in points]
    lo, hi = min(xs) / 2, max(max(xs) * 2, (peak / copy_gbps) * 4 if copy_gbps else 100)
    grid = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    if copy_gbps:
        ax.plot(grid, [min(peak, copy_gbps * x) for x in grid], color="black", lw=2,
                label="roof: copy %.0f GB/s, FP32 FMA peak %.0f GFLOP/s" % (copy_gbps, peak))
        ax.axvline(peak / copy_gbps, color="grey", ls=":", lw=1)
    else:
        ax.axhline(peak, color="black", lw=2, label="FP32 FMA peak %.0f GFLOP/s" % peak)
    groups = []
    for p in points:
        if p[1] not in groups:
            groups.append(p[1])
    markers = "os^vD<>pPX*hH8d"
    cmap = plt.get_cmap("tab20")
    for i, g in enumerate(groups):
        pts = [p for p in points if p[1] == g]
        if len({p[2] for p in pts}) < len(pts):  # several blocks per mask: keep the 16x16 (or 256) ones
            pts = [p for p in pts if p[5] in ("16x16", "256", "-")] or pts
        # A kernel whose launcher picks the block per mask (conv2d_fast) names each mask's block.
        blocks = [p[5] for p in pts]
        block = blocks[0] if len(set(blocks)) == 1 else "/".join(blocks) + " by mask"
        is_fast = g == "conv2d_fast"
        ax.plot([p[3] for p in pts], [p[4] for p in pts], ls="-" if is_fast else "--", lw=2.5 if is_fast else 0.8,
                marker=markers[i % len(markers)], ms=9 if is_fast else 6, color="red" if is_fast else cmap(i % 20),
                label=g + ("" if g.startswith("peer") else " (block %s)" % block))
        if is_fast:
            for p in pts:
                ax.annotate(p[2], (p[3], p[4]), textcoords="offset points", xytext=(6, -12), fontsize=8, color="red")
    for i, (mask, x, y, bound) in enumerate(floors(peak, copy_gbps, points)):
        ax.plot([x], [y], marker="D", ms=10, color="black", ls="none",
                label="each mask's floor: max(copy, multiply-adds at the peak)" if i == 0 else None)
        ax.annotate("%s floor (%s)" % (mask, bound), (x, y), textcoords="offset points", xytext=(-10, 10),
                    fontsize=9, fontweight="bold", ha="right")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP per byte of minimum DRAM traffic, 8 bytes per pixel)")
    ax.set_ylabel("achieved GFLOP/s (2 per tap per output)")
    ax.set_title("Roofline, %s: chapter-7 kernels, conv2d_fast and peers (8192x8192 and 2^26, float32)" % device,
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    fig.savefig(output)


# [SECTION] A PNG without matplotlib: roofs and points on log-log axes.

def write_png(path, width, height, pixels):
    raw = b"".join(b"\x00" + bytes(pixels[y * width * 3:(y + 1) * width * 3]) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def plain_png(device, peak, copy_gbps, points, output):
    W, H, M = 1000, 700, 60
    px = bytearray([255] * (W * H * 3))
    xs, ys = [p[3] for p in points], [p[4] for p in points] + [peak]
    x0, x1 = math.log10(min(xs) / 2), math.log10(max(xs) * 4)
    y0, y1 = math.log10(max(min(ys) / 2, 1e-3)), math.log10(peak * 2)
    def to_px(x, y):
        return (M + (math.log10(x) - x0) / (x1 - x0) * (W - 2 * M),
                H - M - (math.log10(y) - y0) / (y1 - y0) * (H - 2 * M))
    def dot(cx, cy, rad, color):
        for dy in range(-rad, rad + 1):
            for dx in range(-rad, rad + 1):
                x, y = int(cx) + dx, int(cy) + dy
                if dx * dx + dy * dy <= rad * rad and 0 <= x < W and 0 <= y < H:
                    px[(y * W + x) * 3:(y * W + x) * 3 + 3] = bytes(color)
    for i in range(M, W - M):  # axes
        dot(i, H - M, 0, (0, 0, 0))
    for j in range(M, H - M):
        dot(M, j, 0, (0, 0, 0))
    steps = 2000
    for i in range(steps + 1):  # the roofs
        x = 10 ** (x0 + (x1 - x0) * i / steps)
        y = min(peak, copy_gbps * x) if copy_gbps else peak
        dot(*to_px(x, y), 1, (0, 0, 0))
    palette = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189), (140, 86, 75), (227, 119, 194),
               (127, 127, 127), (188, 189, 34), (23, 190, 207), (0, 0, 128), (128, 128, 0), (0, 128, 128)]
    groups = []
    for p in points:
        if p[1] not in groups:
            groups.append(p[1])
    for p in points:
        color = (220, 0, 0) if p[1] == "conv2d_fast" else palette[groups.index(p[1]) % len(palette)]
        dot(*to_px(p[3], p[4]), 6 if p[1] == "conv2d_fast" else 4, color)
    for mask, x, y, bound in floors(peak, copy_gbps, points):  # the floors: black squares on the roof
        cx, cy = to_px(x, y)
        for d in range(-8, 9):
            for e in (-8, 8):
                dot(cx + d, cy + e, 0, (0, 0, 0))
                dot(cx + e, cy + d, 0, (0, 0, 0))
    write_png(output, W, H, px)
    print("roofline (plain PNG, no matplotlib): %s; black: roofs; black squares: each mask's floor (%s); "
          "red: conv2d_fast; others:" % (device, ", ".join("%s %s" % (m, b) for m, _, _, b in
                                                            floors(peak, copy_gbps, points))))
    for g in groups:
        print("  %s: RGB %s" % (g, (220, 0, 0) if g == "conv2d_fast" else palette[groups.index(g) % len(palette)]))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", required=True)
    p.add_argument("--peers")
    p.add_argument("--output", required=True)
    args = p.parse_args()
    device, peak, copy_gbps, points = load(args.bench, args.peers)
    try:
        import matplotlib  # noqa: F401
        with_matplotlib(device, peak, copy_gbps, points, args.output)
        print("roofline: %s (matplotlib), %d points" % (args.output, len(points)))
    except ImportError:
        plain_png(device, peak, copy_gbps, points, args.output)


if __name__ == "__main__":
    main()
