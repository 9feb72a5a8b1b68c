// The built-in kernels' catalogue entries, in KernelId order: the corrected
// kernels first, then the listings as printed. A header so that code which
// must agree with an entry at compile time (exec/launch_table.inl) can check
// it; everything else asks core/kernel_catalogue.hpp.
#pragma once

#include "core/kernel_info.hpp"

namespace tilescope {

inline constexpr KernelInfo kKernelTable[] = {
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
     "conv/conv2d_fast.cuh", Space::Constant, TileShape::ThreadPatch, true, false, {"N", "F_c", "P", "N_s"}, false,
     {},
     // PATCH, BANDS, STAGE_FROM and STAGE_TO in the kernel (exec/launch_table.inl checks that they agree). The
     // blocks were measured on an H100 at 8192x8192 (docs/performance.md): 24x24 threads (96x96 outputs a block)
     // take 3x3 from 0.191 to 0.187 ms against 16x16; 5x5 was up to 2% faster with 16x16, and so were 11x11 and
     // 13x13 (8% and 4%); 15x15 ran the same with either and keeps 16x16. Staged, 7x7 runs 24 x 12 threads
     // (0.201 ms against 0.205 at 16 x 8) and 9x9 16 x 8 (0.235 against 0.238 at 24 x 12). Radius 0 takes its
     // measured neighbour's block.
     ThreadPatch{4, 2, 3, 4, {24, 24, 16, 24, 16, 16, 16, 16}, 4, 32, 64}},

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

}  // namespace tilescope
