#include "api/kernels.hpp"

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
     "mask unrolled from __constant__ memory",
     "conv/conv2d_fast.cuh", Space::Constant, TileShape::ThreadPatch, false, false, {"N", "F_c", "P", ""}},
};

}  // namespace

std::span<const KernelInfo> allKernels() { return kKernels; }

const KernelInfo* findKernel(std::string_view name) {
    for (const KernelInfo& k : kKernels)
        if (k.name == name) return &k;
    return nullptr;
}

const KernelInfo& kernelInfo(KernelId id) { return kKernels[static_cast<int>(id)]; }

}  // namespace tilescope
