#include "api/kernels.hpp"

#include <atomic>
#include <cstddef>
#include <deque>
#include <iterator>
#include <mutex>

namespace tilescope {

namespace {

constexpr KernelInfo kKernels[] = {
    {KernelId::Conv1dBasic, "conv1d_basic", 1, "Fig 7.6 (3rd ed.)",
     "one thread per output, mask in global memory, ghost cells skipped", "conv/conv1d_basic.cuh", Space::Global,
     TileShape::None, false, false, {"N", "M", "P", ""}},
    {KernelId::Conv1dConst, "conv1d_const", 1, "Fig 7.8 (3rd ed.)", "mask in __constant__ memory",
     "conv/conv1d_const.cuh", Space::Constant, TileShape::None, false, false, {"N", "M", "P", ""}},
    {KernelId::Conv1dTiled, "conv1d_tiled", 1, "Fig 7.11 (3rd ed.)",
     "tile plus left and right halo in shared memory, ghost cells stored as 0", "conv/conv1d_tiled.cuh",
     Space::Constant, TileShape::BlockIsTile, true, false, {"N", "M", "P", "N_ds"}},
    {KernelId::Conv1dTiledCached, "conv1d_tiled_cached", 1, "Fig 7.13/7.14 (3rd ed.)",
     "only the tile in shared memory, halo read from global memory (the caches)", "conv/conv1d_tiled_cached.cuh",
     Space::Constant, TileShape::BlockIsTile, true, false, {"N", "M", "P", "N_ds"}},
    {KernelId::Conv2dBasic, "conv2d_basic", 2, "Fig 7.7 (4th ed.)", "one thread per output, boundary checks",
     "conv/conv2d_basic.cuh", Space::Global, TileShape::None, false, false, {"N", "F", "P", ""}},
    {KernelId::Conv2dConst, "conv2d_const", 2, "Fig 7.9 (4th ed.)", "filter in __constant__ memory",
     "conv/conv2d_const.cuh", Space::Constant, TileShape::None, false, false, {"N", "F_c", "P", ""}},
    {KernelId::Conv2dTiledIn, "conv2d_tiled_in", 2, "Fig 7.12 (4th ed.)",
     "block = input tile, OUT_TILE_DIM = IN_TILE_DIM - 2r, edge threads switched off for the output",
     "conv/conv2d_tiled_in.cuh", Space::Constant, TileShape::BlockIsInputTile, true, false,
     {"N", "F_c", "P", "N_s"}},
    {KernelId::Conv2dTiledOut, "conv2d_tiled_out", 2, "slides 003, §7.4 (notes)",
     "block = output tile, centre then halo loaded in extra passes, dynamic shared memory",
     "conv/conv2d_tiled_out.cuh", Space::Constant, TileShape::BlockIsOutputTile, true, false,
     {"N", "F_c", "P", "N_s"}},
    {KernelId::Conv2dTiledCached, "conv2d_tiled_cached", 2, "Fig 7.15 (4th ed.)",
     "block = tile, halo cells read from global memory (the caches)", "conv/conv2d_tiled_cached.cuh",
     Space::Constant, TileShape::BlockIsTile, true, false, {"N", "F_c", "P", "N_s"}},
    {KernelId::Conv2dTiledPitched, "conv2d_tiled_pitched", 2, "Fig 7.17-7.21 (3rd ed.), slides 001",
     "pitched multi-channel image, BLOCK_WIDTH = O_TILE_WIDTH + MASK_WIDTH - 1, mask through const __restrict__",
     "conv/conv2d_tiled_pitched.cuh", Space::Global, TileShape::BlockIsInputTile, true, true,
     {"N", "M", "P", "Ns"}},
    {KernelId::Conv2dFast, "conv2d_fast", 2, "beyond ch. 7: for Hopper",
     "4x4 outputs per thread, input rows slid through registers, float4 loads, radius a template parameter, "
     "mask unrolled from __constant__ memory; at 7x7 and 9x9 the input staged in shared memory by asynchronous "
     "copies, two bands of rows a block",
     "conv/conv2d_fast.cuh", Space::Constant, TileShape::ThreadPatch, true, false, {"N", "F_c", "P", "N_s"}},

    // The listings as printed, their defects kept (conv/as_printed/).
    {KernelId::Conv1dBasicAsPrinted, "conv1d_basic_as_printed", 1, "Fig 7.6 (3rd ed.)",
     "Figure 7.6 as printed: one thread per output, mask in global memory",
     "conv/as_printed/conv1d_basic_as_printed.cuh", Space::Global, TileShape::None, false, false,
     {"N", "M", "P", ""}, true,
     "no `i < Width` test: the last block's threads with i >= Width write past the end of P"},
    {KernelId::Conv1dConstAsPrinted, "conv1d_const_as_printed", 1, "Fig 7.8 (3rd ed.)",
     "Figure 7.8 as printed: mask in __constant__ memory", "conv/as_printed/conv1d_const_as_printed.cuh",
     Space::Constant, TileShape::None, false, false, {"N", "M", "P", ""}, true,
     "no `i < Width` test: the last block's threads with i >= Width write past the end of P"},
    {KernelId::Conv1dTiledAsPrinted, "conv1d_tiled_as_printed", 1, "Fig 7.11 (3rd ed.)",
     "Figure 7.11 as printed: tile plus left and right halo in shared memory",
     "conv/as_printed/conv1d_tiled_as_printed.cuh", Space::Constant, TileShape::BlockIsTile, true, false,
     {"N", "M", "P", "N_ds"}, true,
     "never writes P; the internal cells are loaded with no `< Width` test, past the end of N in the last block"},
    {KernelId::Conv1dTiledCachedAsPrinted, "conv1d_tiled_cached_as_printed", 1, "Fig 7.13/7.14 (3rd ed.)",
     "Figure 7.14 as printed: only the tile in shared memory, halo from the caches",
     "conv/as_printed/conv1d_tiled_cached_as_printed.cuh", Space::Constant, TileShape::BlockIsTile, true, false,
     {"N", "M", "P", "N_ds"}, true,
     "never writes P; N_ds[threadIdx.x] = N[i] reads past the end of N in the last block"},
    {KernelId::Conv2dBasicAsPrinted, "conv2d_basic_as_printed", 2, "Fig 7.7 (4th ed.)",
     "Figure 7.7 as printed: one thread per output, filter in global memory",
     "conv/as_printed/conv2d_basic_as_printed.cuh", Space::Global, TileShape::None, false, false,
     {"N", "F", "P", ""}, true,
     "no test that the output is inside the image: past the right edge two threads store one element of P, "
     "past the bottom they write past its end"},
    {KernelId::Conv2dConstAsPrinted, "conv2d_const_as_printed", 2, "Fig 7.9 (4th ed.)",
     "Figure 7.9 as printed: filter in __constant__ memory", "conv/as_printed/conv2d_const_as_printed.cuh",
     Space::Constant, TileShape::None, false, false, {"N", "F_c", "P", ""}, true,
     "no test that the output is inside the image: past the right edge two threads store one element of P, "
     "past the bottom they write past its end"},
    {KernelId::Conv2dTiledCachedAsPrinted, "conv2d_tiled_cached_as_printed", 2, "Fig 7.15 (4th ed.)",
     "Figure 7.15 as printed: block = tile, halo to come from the caches",
     "conv/as_printed/conv2d_tiled_cached_as_printed.cuh", Space::Constant, TileShape::BlockIsTile, true, false,
     {"N", "F_c", "P", "N_s"}, true,
     "N_s[threadIdx.y+fRow][threadIdx.x+fCol] lacks `- FILTER_RADIUS` and reads past the tile; the halo taps are "
     "dropped (no else branch); its `>= 0` test is unsigned"},
    {KernelId::Conv2dTiledPitchedAsPrinted, "conv2d_tiled_pitched_as_printed", 2, "Fig 7.19-7.21 (3rd ed.)",
     "Figures 7.19-7.21 as printed: pitched image, one channel, BLOCK_WIDTH = O_TILE_WIDTH + Mask_Width - 1",
     "conv/as_printed/conv2d_tiled_pitched_as_printed.cuh", Space::Global, TileShape::BlockIsInputTile, true, true,
     {"N", "M", "P", "Ns"}, true,
     "input tile off by one (+ 1); no __syncthreads() between filling Ns and reading it; the result goes into the "
     "input N, with width for pitch, and P is never written"},
    {KernelId::Conv2dBasicSlidesAsPrinted, "conv2d_basic_slides_as_printed", 2, "slides 003, basic kernel",
     "the slides' basic kernel as printed: dst[y*w+x] += src[(y+k-1)*w+(x+l-1)] * f[k*fsize+l]",
     "conv/as_printed/conv2d_basic_slides_as_printed.cuh", Space::Global, TileShape::None, false, false,
     {"src", "f", "dst", ""}, true,
     "accumulates into dst, never cleared; reads src with no boundary check (outside at the top and bottom, "
     "wrapped at the sides); the - 1 fits a 3x3 filter only"},
};

constexpr bool inIdOrder() {
    for (std::size_t i = 0; i < std::size(kKernels); ++i)
        if (static_cast<std::size_t>(kKernels[i].id) != i) return false;
    return true;
}
static_assert(inIdOrder(), "kernelInfo() indexes kKernels by KernelId: keep the two in the same order");

}  // namespace

std::span<const KernelInfo> allKernels() { return kKernels; }

const KernelInfo* findKernel(std::string_view name) {
    for (const KernelInfo& k : kKernels)
        if (k.name == name) return &k;
    return nullptr;
}

namespace {

// Every own kernel registered, newest last; never freed (see kernels.hpp).
struct OwnEntry {
    OwnKernelDescription description;
    std::string sourceFile;
    KernelInfo info;
};

std::mutex g_ownMutex;
std::deque<OwnEntry>& ownEntries() {
    static std::deque<OwnEntry> entries;
    return entries;
}
std::atomic<const OwnEntry*> g_own{nullptr};

constexpr KernelInfo kNoOwnKernel{KernelId::Own, "own", 2, "your kernel", "a kernel read from a file", "own:",
                                  Space::Global, TileShape::None, false, false, {"N", "M", "P", "N_s"}};

}  // namespace

const KernelInfo& registerOwnKernel(const OwnKernelDescription& d) {
    std::lock_guard lock(g_ownMutex);
    OwnEntry& e = ownEntries().emplace_back();
    e.description = d;
    e.sourceFile = "own:" + d.path;
    const OwnKernelDescription& s = e.description;
    e.info = KernelInfo{KernelId::Own, s.name, s.dims, "your kernel", "your own kernel, read from its file",
                        e.sourceFile, s.maskSpace, TileShape::None, s.usesShared, false,
                        {s.arrayNames[0], s.arrayNames[1], s.arrayNames[2], s.arrayNames[3]}};
    g_own.store(&e);
    return e.info;
}

std::string_view ownKernelSource() {
    const OwnEntry* e = g_own.load();
    return e ? std::string_view(e->description.text) : std::string_view();
}

const KernelInfo& kernelInfo(KernelId id) {
    if (id == KernelId::Own) {
        const OwnEntry* e = g_own.load();
        return e ? e->info : kNoOwnKernel;
    }
    return kKernels[static_cast<int>(id)];
}

const KernelInfo& correctedKernel(const KernelInfo& kernel) {
    switch (kernel.id) {
    case KernelId::Conv1dBasicAsPrinted: return kernelInfo(KernelId::Conv1dBasic);
    case KernelId::Conv1dConstAsPrinted: return kernelInfo(KernelId::Conv1dConst);
    case KernelId::Conv1dTiledAsPrinted: return kernelInfo(KernelId::Conv1dTiled);
    case KernelId::Conv1dTiledCachedAsPrinted: return kernelInfo(KernelId::Conv1dTiledCached);
    case KernelId::Conv2dBasicAsPrinted: return kernelInfo(KernelId::Conv2dBasic);
    case KernelId::Conv2dConstAsPrinted: return kernelInfo(KernelId::Conv2dConst);
    case KernelId::Conv2dTiledCachedAsPrinted: return kernelInfo(KernelId::Conv2dTiledCached);
    case KernelId::Conv2dTiledPitchedAsPrinted: return kernelInfo(KernelId::Conv2dTiledPitched);
    case KernelId::Conv2dBasicSlidesAsPrinted: return kernelInfo(KernelId::Conv2dBasic);
    default: return kernel;
    }
}

}  // namespace tilescope
