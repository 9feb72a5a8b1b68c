// A kernel's catalogue entry: its name, its book figure, what it teaches, the
// names its arrays have in its source, and its geometry (how its block edge
// relates to its tiles). Everything that plans, runs, traces or draws a
// kernel reads these, never the kernel's numbers written out elsewhere.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/array_id.hpp"
#include "core/kernel_id.hpp"
#include "core/space.hpp"

namespace tilescope {

constexpr int kMaxRadius = 7;  // constant memory holds masks up to 15 x 15

// How the kernel's block edge (--block N) relates to its tiles.
enum class TileShape {
    None,        // no tiling: one thread per output element
    BlockIsTile, // block = tile; halo read from shared (1D tiled) or from the caches
    BlockIsInputTile,  // block = input tile; OUT = block - 2r; edge threads switched off
    BlockIsOutputTile, // block = output tile; IN = block + 2r loaded in passes
    ThreadPatch,       // each thread computes a patch of outputs (KernelInfo::patch)
};

// The geometry of a TileShape::ThreadPatch kernel: each thread computes
// `outputs` x `outputs` outputs (PATCH in the kernel), so a block of edge x
// edge threads covers an output tile of outputs * edge on each side. From
// radius stageFrom to stageTo the kernel stages its input in shared memory
// instead: its output tile, still outputs * edge square, is `bands` bands of
// rows, each with its own input tile, and the block is edge x edge / bands
// threads, each computing one patch per band.
struct ThreadPatch {
    int outputs = 1;
    int bands = 1;
    int stageFrom = 1, stageTo = 0;  // none when stageFrom > stageTo
    // The block edge measured best at each radius (0: the kernel's default).
    std::array<int, kMaxRadius + 1> blockByRadius{};
    // Registers a thread may use up to radius limitRegistersTo: stagedRegisters
    // on the staged path, directRegisters on the other; past it, the compiler's
    // own count (0).
    int limitRegistersTo = -1;
    int stagedRegisters = 0, directRegisters = 0;

    constexpr bool stages(int radius) const { return radius >= stageFrom && radius <= stageTo; }
};

struct KernelInfo {
    KernelId id;
    std::string_view name;
    int dims;                     // 1 or 2
    std::string_view figure;      // "Fig 7.12 (4th ed.)"
    std::string_view strategy;    // one line, for `list --verbose` and the app
    std::string_view sourceFile;  // path under kernels/, e.g. "conv/conv2d_tiled_in.cuh"
    Space maskSpace;              // where the kernel reads the mask from
    TileShape tiles;
    bool usesShared;
    bool multiChannel;            // handles interleaved channels itself (pitched image)
    std::array<std::string_view, kArrayCount> arrayNames;  // indexed by ArrayId
    // A listing as printed, its defect kept (conv/as_printed/): `check` shows
    // what goes wrong. Never run as plain CUDA unless asked (it may touch
    // memory outside its arrays); `list` shows these apart.
    bool asPrinted = false;
    std::string_view defect = {};  // one line: what is wrong with the listing
    ThreadPatch patch = {};        // TileShape::ThreadPatch only
    // A student's kernel: the file's exact bytes (a built-in kernel's text is
    // embedded under sourceFile, trace/sources.hpp).
    std::string_view sourceText = {};
    // A student's kernel that declares several __shared__ arrays: their
    // names by offset (Subscript2D::part indexes it); empty otherwise.
    std::span<const std::string_view> sharedParts = {};
};

}  // namespace tilescope
