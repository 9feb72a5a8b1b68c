#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (corpus/<target>/), small files
made from first principles with the standard library only: .npy headers as
NumPy writes them, PNG through zlib, BMP and a baseline JPEG byte by byte.
fuzz_kernel has no corpus here: its seeds are the project's own kernel files
(tests/own/good, tests/own/broken, assets/exercises), which
scripts/bootstrap.sh gives it where they are.
The seeds are committed; rerun this only to change them.

fuzz_mask and fuzz_input read a first byte that picks the file's extension
(see their sources); their seeds carry it.
"""
import glob
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def write(target, name, data):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# [SECTION] .npy
def npy(descr, shape, payload, major=1, fortran="False"):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)
    preamble = 10 if major == 1 else 12
    header += " " * ((64 - (preamble + len(header) + 1) % 64) % 64) + "\n"
    length = struct.pack("<H", len(header)) if major == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([major, 0]) + length + header.encode("latin1") + payload


def f4(*values):
    return struct.pack("<%df" % len(values), *values)


def f8(*values):
    return struct.pack("<%dd" % len(values), *values)


NPY_2D = npy("<f4", (3, 4), f4(*[i / 11 for i in range(12)]))
MASK_NPY = npy("<f4", (3, 3), f4(1, 2, 1, 2, 4, 2, 1, 2, 1))


def npy_seeds():
    write("npy", "f4_1d.npy", npy("<f4", (5,), f4(1, 2, 3, 4, 5)))
    write("npy", "f4_2d.npy", NPY_2D)
    write("npy", "f4_3d.npy", npy("<f4", (2, 2, 3), f4(*[i / 12 for i in range(12)])))
    write("npy", "f8_2d.npy", npy("<f8", (2, 3), f8(0.5, -1.5, 2.25, 3e30, -0.0, 1e-40)))
    write("npy", "u1_2d.npy", npy("|u1", (2, 2), bytes([0, 127, 128, 255])))
    write("npy", "v2.npy", npy("<f4", (2, 2), f4(1, 2, 3, 4), major=2))
    write("npy", "v3.npy", npy("<f4", (1, 3), f4(1, 2, 3), major=3))
    write("npy", "fortran.npy", npy("<f4", (2, 2), f4(1, 2, 3, 4), fortran="True"))
    write("npy", "big_endian.npy", npy(">f4", (2,), struct.pack(">2f", 1, 2)))
    write("npy", "nan.npy", npy("<f4", (3,), f4(1, float("nan"), float("inf"))))
    write("npy", "scalar.npy", npy("<f4", (), f4(1)))
    write("npy", "truncated.npy", npy("<f4", (4, 4), f4(1, 2, 3)))


# [SECTION] PGM / PPM
def pnm_seeds():
    write("pnm", "p2.pgm", b"P2\n# plain grey\n3 2\n255\n0 128 255\n64 32 16\n")
    write("pnm", "p3.ppm", b"P3\n2 2\n15\n15 0 0  0 15 0\n0 0 15  7 7 7\n")
    write("pnm", "p5.pgm", b"P5\n# binary grey\n4 3\n255\n" + bytes(range(0, 240, 20)))
    write("pnm", "p5_16.pgm", b"P5 2 2 65535\n" + struct.pack(">4H", 0, 1000, 40000, 65535))
    write("pnm", "p6.ppm", b"P6\n2 2\n255\n" + bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]))
    write("pnm", "p1.pbm", b"P1\n2 2\n0 1\n1 0\n")


# [SECTION] PNG, BMP, JPEG
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(width, height, color_type, bit_depth, rows, extra=b""):
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) +
            chunk(b"IEND", b""))


def bmp(width, height, pixels):
    """24-bit BI_RGB, rows bottom-up, each padded to 4 bytes; pixels are (r, g, b) rows top-down."""
    stride = (width * 3 + 3) & ~3
    data = b""
    for row in reversed(pixels):
        line = b"".join(bytes([b, g, r]) for r, g, b in row)
        data += line + b"\x00" * (stride - len(line))
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(data), 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + len(data), 0, 0, 14 + 40) + info + data


def jpeg_grey_16x8():
    """A baseline JPEG of two 8x8 grey blocks, DC only, with the smallest Huffman tables."""
    dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + b"\x01" * 64
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 8, 16, 1) + b"\x01\x11\x00"
    # DC table 0: category 0 -> '0', category 5 -> '10'. AC table 0: EOB -> '0'.
    dc = b"\x00" + bytes([1, 1] + [0] * 14) + b"\x00\x05"
    ac = b"\x10" + bytes([1] + [0] * 15) + b"\x00"
    dht = b"\xff\xc4" + struct.pack(">H", 2 + len(dc) + len(ac)) + dc + ac
    sos = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00" + b"\x00\x3f\x00"
    # Block 1: DC difference +20 (category 5, bits 10100); block 2: -20 (bits 01011); each then EOB.
    bits = "10" + "10100" + "0" + "10" + "01011" + "0"
    bits += "1" * (-len(bits) % 8)
    scan = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)).replace(b"\xff", b"\xff\x00")
    return b"\xff\xd8" + dqt + sof + dht + sos + scan + b"\xff\xd9"


INPUT_EXTENSIONS = [".npy", ".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".pnm", ".PNG", ".tif", ""]


def with_extension(extension, data):
    return bytes([INPUT_EXTENSIONS.index(extension)]) + data


def input_seeds():
    write("input", "npy", with_extension(".npy", NPY_2D))
    grey_rows = [bytes([0, 60, 120, 255]), bytes([9, 8, 7, 6])]
    write("input", "png_grey8", with_extension(".png", png(4, 2, 0, 8, grey_rows)))
    write("input", "png_rgb8", with_extension(".png", png(2, 1, 2, 8, [bytes([255, 0, 0, 0, 0, 255])])))
    write("input", "png_rgba16", with_extension(".png", png(1, 2, 6, 16, [b"\xff\xff\x00\x00\x80\x00\xff\xff",
                                                                          b"\x00\x01\x00\x02\x00\x03\x00\x04"])))
    write("input", "png_grey_alpha", with_extension(".PNG", png(2, 1, 4, 8, [bytes([10, 255, 20, 0])])))
    # Found by fuzz_input: stb quoted this chunk's type, newline and all, in its reason.
    unknown_chunk = chunk(b"N\nG!", b"")
    write("input", "png_unknown_chunk", with_extension(".png", png(1, 1, 0, 8, [b"\x80"], extra=unknown_chunk)))
    write("input", "jpeg", with_extension(".jpg", jpeg_grey_16x8()))
    write("input", "bmp", with_extension(".bmp", bmp(3, 2, [[(255, 0, 0), (0, 255, 0), (0, 0, 255)],
                                                            [(1, 2, 3), (4, 5, 6), (7, 8, 9)]])))
    write("input", "pgm", with_extension(".pgm", b"P5\n2 2\n255\n\x00\x40\x80\xff"))
    write("input", "ppm", with_extension(".pnm", b"P3 1 1 255 1 2 3\n"))
    write("input", "unknown", with_extension(".tif", b"II*\x00"))


# [SECTION] Masks: the first byte picks .txt, .csv, .raw or .npy
MASK_EXTENSIONS = [".txt", ".csv", ".raw", ".npy"]


def mask(extension, data):
    return bytes([MASK_EXTENSIONS.index(extension)]) + data


def mask_seeds():
    write("mask", "txt_3x3", mask(".txt", b"1 2 1\n2 4 2\n1 2 1\n"))
    write("mask", "txt_1d", mask(".txt", b"# binomial\n1 4 6 4 1\n\n"))
    write("mask", "txt_floats", mask(".txt", b"-0.5 +1e-3 2.5E2\r\n1e0 .5 7.\n1 1 1\n"))
    write("mask", "txt_nan", mask(".txt", b"1 2 1\n2 nan 2\n1 2 x\n"))
    write("mask", "csv_header", mask(".csv", b"3,3\n0,1,0\n1,-4,1\n0,1,0\n"))
    write("mask", "csv_plain", mask(".csv", b"0.25, 0.5 ,0.25\n"))
    write("mask", "raw", mask(".raw", b"5 5\n" + b"\n".join(b" ".join(b"0.04" for _ in range(5)) for _ in range(5))))
    write("mask", "raw_free_layout", mask(".raw", b"3 3\n1 2 3 4\n5 6 7\n8 9\n"))
    write("mask", "npy", mask(".npy", MASK_NPY))


if __name__ == "__main__":
    npy_seeds()
    pnm_seeds()
    input_seeds()
    mask_seeds()
