#!/usr/bin/env python3
"""What a user would pick instead of TileScope's kernels, timed the same way.

On one float32 image (8192x8192 by default) and one random mask per size
(3x3, 5x5, 9x9, 15x15), with zero boundary like TileScope:
  - CuPy:    cupyx.scipy.ndimage.correlate(mode='constant', cval=0)
  - PyTorch: torch.nn.functional.conv2d through cuDNN, padding r (TF32 off
             for convolutions and matrix products, cudnn.benchmark on)
  - NPP:     nppiFilterBorder_32f_C1R_Ctx through ctypes, when libnppif is
             found. NPP accepts only NPP_BORDER_REPLICATE here, so its output
             is compared only where the mask stays inside the image.
Every peer is checked against a float64 reference (PyTorch conv2d in double
precision) before it is timed. Timing: CUDA events around each call on the
default stream, warm-up first, the median of many calls, inputs rotated among
several buffers so that L2 does not hold the previous call's input.

Prints a Markdown table and writes CSV (--csv). Exit status 1 when a peer
disagrees with the reference.
"""
import argparse
import csv
import ctypes
import ctypes.util
import glob
import os
import statistics
import sys


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", default="8192x8192", help="WxH")
    p.add_argument("--radius", default="1,2,4,7", help="mask radii, comma-separated")
    p.add_argument("--buffers", type=int, default=3, help="input buffers rotated (each W*H*4 bytes)")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeat", type=int, default=30, help="timed calls at most")
    p.add_argument("--millis", type=float, default=300.0, help="GPU time to aim for per case")
    p.add_argument("--csv", help="write the results here")
    p.add_argument("--markdown", help="write the table here")
    return p.parse_args()


# [SECTION] NPP through ctypes

class NppiSize(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int)]


class NppiPoint(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class NppStreamContext(ctypes.Structure):
    # nppdefs.h (CUDA 11.x to 13.x). CUDA 13's NPP has no nppGetStreamContext:
    # the fields are filled from the device's properties.
    _fields_ = [
        ("hStream", ctypes.c_void_p),
        ("nCudaDeviceId", ctypes.c_int),
        ("nMultiProcessorCount", ctypes.c_int),
        ("nMaxThreadsPerMultiProcessor", ctypes.c_int),
        ("nMaxThreadsPerBlock", ctypes.c_int),
        ("nSharedMemPerBlock", ctypes.c_size_t),
        ("nCudaDevAttrComputeCapabilityMajor", ctypes.c_int),
        ("nCudaDevAttrComputeCapabilityMinor", ctypes.c_int),
        ("nStreamFlags", ctypes.c_uint),
        ("nReserved0", ctypes.c_int),
    ]


NPP_BORDER_REPLICATE = 2


def find_npp():
    """libnppif (and libnppc, which it needs), or None with the reason."""
    dirs = ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/x86_64-linux-gnu"]
    for path in sys.path:
        dirs += glob.glob(os.path.join(path, "nvidia", "*", "lib")) + glob.glob(os.path.join(path, "nvidia", "*", "*", "lib"))
    def locate(name):
        found = ctypes.util.find_library(name)
        if found:
            return found
        for d in dirs:
            hits = sorted(glob.glob(os.path.join(d, "lib%s.so*" % name)))
            if hits:
                return hits[0]
        return None
    core, filters = locate("nppc"), locate("nppif")
    if not filters:
        return None, "libnppif not found"
    try:
        if core:
            ctypes.CDLL(core, mode=ctypes.RTLD_GLOBAL)
        lib = ctypes.CDLL(filters)
        fn = lib.nppiFilterBorder_32f_C1R_Ctx
    except (OSError, AttributeError) as e:
        return None, "NPP unusable: %s" % e
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, NppiSize, NppiPoint, ctypes.c_void_p, ctypes.c_int, NppiSize,
                   ctypes.c_void_p, NppiSize, NppiPoint, ctypes.c_int, NppStreamContext]
    return fn, filters


def npp_context(torch):
    props = torch.cuda.get_device_properties(0)
    ctx = NppStreamContext()
    ctx.hStream = None  # the legacy default stream, where the events are recorded
    ctx.nCudaDeviceId = torch.cuda.current_device()
    ctx.nMultiProcessorCount = props.multi_processor_count
    ctx.nMaxThreadsPerMultiProcessor = props.max_threads_per_multi_processor
    ctx.nMaxThreadsPerBlock = getattr(props, "max_threads_per_block", 1024)
    ctx.nSharedMemPerBlock = getattr(props, "shared_memory_per_block", 48 * 1024)
    ctx.nCudaDevAttrComputeCapabilityMajor = props.major
    ctx.nCudaDevAttrComputeCapabilityMinor = props.minor
    ctx.nStreamFlags = 0
    return ctx


# [SECTION] Timing

def time_calls(torch, call, buffers, warmup, repeat, millis):
    """Median, min and max milliseconds of call(i), each between its own events."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    probe = 1.0
    for i in range(max(1, warmup)):
        start.record()
        call(i % buffers)
        stop.record()
        stop.synchronize()
        probe = max(start.elapsed_time(stop), 1e-3)
    n = int(min(max(millis / probe, 10), max(10, repeat)))
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    for i, (a, b) in enumerate(events):
        a.record()
        call(i % buffers)
        b.record()
    torch.cuda.synchronize()
    ms = [a.elapsed_time(b) for a, b in events]
    return statistics.median(ms), min(ms), max(ms), n


def main():
    args = parse_args()
    import torch
    import torch.nn.functional as F

    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    try:
        import cupy
        import cupyx.scipy.ndimage as cndi
    except ImportError as e:
        cupy, cndi = None, None
        print("peers: CuPy unavailable (%s)" % e, file=sys.stderr)
    npp, npp_where = find_npp()
    print("peers: NPP: %s" % npp_where, file=sys.stderr)

    width, height = (int(v) for v in args.size.lower().split("x"))
    radii = [int(v) for v in args.radius.split(",")]
    device = torch.cuda.get_device_name(0)
    gen = torch.Generator(device="cuda").manual_seed(7)
    images = [torch.rand((height, width), device="cuda", generator=gen, dtype=torch.float32) * 2 - 1
              for _ in range(max(1, args.buffers))]
    out_npp = torch.empty_like(images[0])
    bytes_moved = 8.0 * width * height

    # The copy of the same bytes, for the same percentage the bench reports.
    copy_dst = torch.empty_like(images[0])
    copy_ms = time_calls(torch, lambda b: copy_dst.copy_(images[b]), len(images), args.warmup, args.repeat,
                         args.millis)[0]
    print("peers: %s, device-to-device copy of %dx%d float32: %.3f ms, %.0f GB/s"
          % (device, width, height, copy_ms, bytes_moved / copy_ms * 1e-6), file=sys.stderr)

    rows, failed = [], False
    for r in radii:
        w = 2 * r + 1
        mask = (torch.rand((w, w), generator=gen, device="cuda", dtype=torch.float32) * 2 - 1).contiguous()
        weight = mask.view(1, 1, w, w)
        flops = 2.0 * w * w * width * height

        def torch_call(b):
            return F.conv2d(images[b].view(1, 1, height, width), weight, padding=r).view(height, width)

        peers = {"PyTorch conv2d (cuDNN)": torch_call}
        if cupy is not None:
            cmask = cupy.asarray(mask)
            cimages = [cupy.asarray(im) for im in images]  # shares the memory, no copy
            peers["CuPy ndimage.correlate"] = lambda b: cndi.correlate(cimages[b], cmask, mode="constant", cval=0.0)

        # The float64 reference, and which way round NPP wants its mask.
        ref = F.conv2d(images[0].double().view(1, 1, height, width), weight.double(), padding=r).view(height, width)
        absref = F.conv2d(images[0].double().abs().view(1, 1, height, width), weight.double().abs(),
                          padding=r).view(height, width)
        tolerance = (w * w + 2) * 2.0 ** -23

        def rel_error(y, inner=False):
            y = torch.as_tensor(y, device="cuda").double()
            d, b = (y - ref).abs(), absref.clamp_min(1e-30)
            if inner:
                d, b = d[r:height - r, r:width - r], b[r:height - r, r:width - r]
            e = (d / b).max().item()
            return e if e == e else float("inf")

        npp_mask = None
        if npp is not None:
            ctx = npp_context(torch)
            for candidate in (mask.flip(0, 1).contiguous(), mask):  # NPP documents the coefficients reversed
                def npp_call(b, k=candidate):
                    status = npp(images[b].data_ptr(), width * 4, NppiSize(width, height), NppiPoint(0, 0),
                                 out_npp.data_ptr(), width * 4, NppiSize(width, height), k.data_ptr(),
                                 NppiSize(w, w), NppiPoint(r, r), NPP_BORDER_REPLICATE, ctx)
                    if status != 0:
                        raise RuntimeError("nppiFilterBorder_32f_C1R_Ctx returned %d" % status)
                    return out_npp
                try:
                    npp_call(0)
                    torch.cuda.synchronize()
                except RuntimeError as e:
                    print("peers: NPP: %s" % e, file=sys.stderr)
                    break
                if rel_error(out_npp, inner=True) <= tolerance:
                    npp_mask = candidate
                    peers["NPP nppiFilterBorder_32f_C1R (replicate)"] = npp_call
                    break
            if npp_mask is None:
                print("peers: NPP's output disagrees with the reference for %dx%d; not timed" % (w, w),
                      file=sys.stderr)

        for name, call in peers.items():
            inner = name.startswith("NPP")
            y = call(0)
            torch.cuda.synchronize()
            error = rel_error(y, inner=inner)
            ok = error <= tolerance
            failed = failed or not ok
            median, lo, hi, n = time_calls(torch, call, len(images), args.warmup, args.repeat, args.millis)
            rows.append({
                "device": device, "peer": name, "width": width, "height": height, "mask_width": w,
                "median_ms": median, "min_ms": lo, "max_ms": hi, "repeats": n,
                "gb_per_s": bytes_moved / median * 1e-6, "copy_ms": copy_ms, "pct_copy": 100.0 * copy_ms / median,
                "gflop_per_s": flops / median * 1e-6, "max_rel_error": error, "correct": int(ok),
                "compared": "away from the border" if inner else "whole image",
            })
            print("peers: %-42s %dx%d: %8.3f ms  %5.0f GB/s  %5.1f%% of copy  error %.2g%s"
                  % (name, w, w, median, rows[-1]["gb_per_s"], rows[-1]["pct_copy"], error, "" if ok else "  WRONG"),
                  file=sys.stderr)
        del ref, absref

    table = ["| peer | size | mask | time (ms) | GB/s | % of copy | GFLOP/s | checked | error |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: |"]
    table.append("| device-to-device copy | %dx%d | - | %.3f | %.0f | 100.0 | - | - | - |"
                 % (width, height, copy_ms, bytes_moved / copy_ms * 1e-6))
    for row in rows:
        table.append("| %s | %dx%d | %dx%d | %.3f | %.0f | %.1f | %.0f | %s | %.1e |" % (
            row["peer"], width, height, row["mask_width"], row["mask_width"], row["median_ms"], row["gb_per_s"],
            row["pct_copy"], row["gflop_per_s"], row["compared"], row["max_rel_error"]))
    text = "\n".join(table) + "\n"
    print(text, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("Device: %s. TF32 off (cudnn.allow_tf32 = matmul.allow_tf32 = False), cudnn.benchmark on.\n\n"
                    % device + text)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["peer"])
            out.writeheader()
            out.writerows(rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
