#!/usr/bin/env python3
"""Writes TileScope's built-in inputs into this folder (run it from anywhere).

Everything here is made from numbers, not copied from anywhere: the book's
example arrays, a checkerboard, a gradient, and a photograph-like greyscale
scene (sky, sun, hills, a house, a tree, a field) drawn procedurally with
value noise. Pure Python, no packages: the files are small and the output is
the same on every machine (a fixed seed).

    python3 assets/generate_assets.py
"""

import math
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write_npy(name, values):
    """A 1D float32 .npy file (format version 1.0)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    # Magic (6) + version (2) + length (2) + header + newline, padded to 64 bytes.
    padding = 64 - (10 + len(header) + 1) % 64
    header = header + " " * padding + "\n"
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def write_pgm(name, width, height, value):
    """A binary 8-bit PGM of value(x, y) in [0, 1]."""
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            pixels.append(max(0, min(255, round(value(x, y) * 255))))
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (width, height))
        f.write(bytes(pixels))


class ValueNoise:
    """Smoothly interpolated random values on a grid, summed over octaves."""

    def __init__(self, seed, size=64):
        rng = random.Random(seed)
        self.size = size
        self.grid = [[rng.random() for _ in range(size)] for _ in range(size)]

    def sample(self, x, y):
        n = self.size
        x0, y0 = math.floor(x), math.floor(y)
        fx, fy = x - x0, y - y0
        sx, sy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
        g = self.grid
        a = g[y0 % n][x0 % n] + (g[y0 % n][(x0 + 1) % n] - g[y0 % n][x0 % n]) * sx
        b = g[(y0 + 1) % n][x0 % n] + (g[(y0 + 1) % n][(x0 + 1) % n] - g[(y0 + 1) % n][x0 % n]) * sx
        return a + (b - a) * sy

    def fractal(self, x, y, octaves=4):
        total, amplitude, frequency, norm = 0.0, 1.0, 1.0, 0.0
        for _ in range(octaves):
            total += amplitude * self.sample(x * frequency, y * frequency)
            norm += amplitude
            amplitude *= 0.5
            frequency *= 2.0
        return total / norm


def smoothstep(e0, e1, v):
    t = max(0.0, min(1.0, (v - e0) / (e1 - e0)))
    return t * t * (3 - 2 * t)


def photo(size=256):
    """A landscape: bright sky with clouds, a sun, two ranges of hills, a
    field with furrows, a house with a window and a door, a round tree."""
    clouds = ValueNoise(11)
    terrain = ValueNoise(23)
    texture = ValueNoise(37)
    grain = random.Random(5)
    s = size / 256.0

    def far_ridge(x):
        return 118 * s + 14 * s * math.sin(x / (37 * s)) + 9 * s * math.sin(x / (13 * s) + 1.3) \
            + 10 * s * (terrain.fractal(x / (40 * s), 0.5) - 0.5)

    def near_ridge(x):
        return 150 * s + 10 * s * math.sin(x / (53 * s) + 2.0) + 8 * s * (terrain.fractal(x / (25 * s), 3.5) - 0.5)

    def value(x, y):
        # Sky: lighter towards the horizon, with soft clouds.
        v = 0.62 + 0.25 * (y / (130 * s))
        c = clouds.fractal(x / (48 * s), y / (20 * s), 5)
        v += 0.22 * smoothstep(0.52, 0.75, c)
        # The sun and its glow.
        d = math.hypot(x - 196 * s, y - 46 * s)
        v = max(v, 1.0 - smoothstep(17 * s, 19 * s, d) * 0.15) if d < 19 * s else v + 0.08 * math.exp(-(d - 19 * s) / (18 * s))
        # Far hills: mid grey, lit from the right.
        if y > far_ridge(x):
            v = 0.47 + 0.12 * (terrain.fractal(x / (18 * s), y / (18 * s)) - 0.5) - 0.0006 * (y - far_ridge(x)) / s
        # Near hills: darker, rougher.
        if y > near_ridge(x):
            v = 0.33 + 0.16 * (texture.fractal(x / (9 * s), y / (9 * s)) - 0.5)
        # The field: furrows converging towards the horizon.
        if y > 190 * s:
            depth = (y - 190 * s) / (66 * s)
            furrow = 0.5 + 0.5 * math.sin((x - 128 * s) / (4 * s + 10 * s * depth) * 2.2 / (0.3 + depth))
            v = 0.52 + 0.1 * depth + 0.09 * furrow + 0.1 * (texture.fractal(x / (6 * s), y / (6 * s)) - 0.5)
        # The house: a bright wall, a dark roof, a window with a cross, a door.
        if 40 * s <= x < 96 * s and 168 * s <= y < 214 * s:
            v = 0.82 - 0.05 * (x - 40 * s) / (56 * s)
            if 52 * s <= x < 70 * s and 178 * s <= y < 196 * s:
                v = 0.12 if not (abs(x - 61 * s) < 1.2 * s or abs(y - 187 * s) < 1.2 * s) else 0.8
            if 78 * s <= x < 90 * s and 188 * s <= y < 214 * s:
                v = 0.22
        roof_half = (y - 140 * s) * (32 * s) / (28 * s)
        if 140 * s <= y < 168 * s and abs(x - 68 * s) <= roof_half:
            v = 0.18 + 0.06 * ((x + y) % (6 * s) < 3 * s)
        # The tree: a trunk and a round, textured crown.
        if 178 * s <= x < 186 * s and 170 * s <= y < 222 * s:
            v = 0.2
        crown = math.hypot(x - 182 * s, y - 152 * s)
        if crown < (26 + 4 * (terrain.sample(x / (5 * s), y / (5 * s)) - 0.5)) * s:
            v = 0.22 + 0.22 * texture.fractal(x / (4 * s), y / (4 * s)) + 0.12 * (182 * s - x) / (26 * s) * 0.5
        # Vignette and sensor grain, as a real photograph has.
        r = math.hypot(x - size / 2, y - size / 2) / (size / 2)
        v *= 1.0 - 0.18 * r * r
        v += grain.gauss(0, 0.012)
        return v

    write_pgm("photo.pgm", size, size, value)


def main():
    # The book's 1D example: N = 1..7 (with the mask 3 4 5 4 3, P[2] = 57).
    write_npy("book_n_1_to_7.npy", [1, 2, 3, 4, 5, 6, 7])
    # The second example array of the chapter.
    write_npy("book_n_4_1_3_2_3.npy", [4, 1, 3, 2, 3])
    # 8 x 8 squares, one pixel each: repeated (not averaged) to any size, so
    # that the squares stay sharp.
    write_pgm("checkerboard.pgm", 8, 8, lambda x, y: float((x + y) % 2))
    # Mostly left to right, a little top to bottom: Sobel x and Sobel y both see it.
    write_pgm("gradient.pgm", 64, 64, lambda x, y: 0.8 * x / 63 + 0.2 * y / 63)
    photo()


if __name__ == "__main__":
    main()
