// The catalogue of chapter-7 kernels: names, book figures, what each one
// teaches, and the names its arrays have in its source. The command line,
// the app and the tests all find kernels here.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "trace/event.hpp"

namespace tilescope {

enum class KernelId : int {
    Conv1dBasic,
    Conv1dConst,
    Conv1dTiled,
    Conv1dTiledCached,
    Conv2dBasic,
    Conv2dConst,
    Conv2dTiledIn,
    Conv2dTiledOut,
    Conv2dTiledCached,
    Conv2dTiledPitched,
    Conv2dFast,  // not a book figure: chapter 7 taken to the GPU's limits (issue 5)
    // The listings as printed, their defects kept (conv/as_printed/).
    Conv1dBasicAsPrinted,
    Conv1dConstAsPrinted,
    Conv1dTiledAsPrinted,
    Conv1dTiledCachedAsPrinted,
    Conv2dBasicAsPrinted,
    Conv2dConstAsPrinted,
    Conv2dTiledCachedAsPrinted,
    Conv2dTiledPitchedAsPrinted,
    Conv2dBasicSlidesAsPrinted,
    // A student's own kernel, read from a file at run time (kernels/own/):
    // its KernelInfo is the one registered last (registerOwnKernel).
    Own,
};

// How the kernel's block edge (--block N) relates to its tiles.
enum class TileShape {
    None,        // no tiling: one thread per output element
    BlockIsTile, // block = tile; halo read from shared (1D tiled) or from the caches
    BlockIsInputTile,  // block = input tile; OUT = block - 2r; edge threads switched off
    BlockIsOutputTile, // block = output tile; IN = block + 2r loaded in passes
    ThreadPatch,       // each thread computes kFastPatch x kFastPatch outputs (two patches where staged: plan.hpp)
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
};

// Every kernel: the corrected ones first, then the listings as printed
// (KernelInfo::asPrinted). Whatever compares kernels with the reference
// skips the listings as printed.
std::span<const KernelInfo> allKernels();
const KernelInfo* findKernel(std::string_view name);
const KernelInfo& kernelInfo(KernelId id);
// The corrected kernel of a listing as printed (conv1d_basic for
// conv1d_basic_as_printed); a corrected kernel is its own. A listing as
// printed is planned as its corrected kernel is.
const KernelInfo& correctedKernel(const KernelInfo& kernel);

// A student's own kernel (KernelId::Own). Registering one makes
// kernelInfo(KernelId::Own) and kernelSource(KernelId::Own) describe it; the
// strings are kept for the life of the program, so a KernelInfo handed out
// earlier stays valid when a newer kernel is registered. findKernel() and
// allKernels() never list it: it is named by its file (--kernel-file).
struct OwnKernelDescription {
    std::string name;        // the __global__ function's name
    std::string path;        // the file, as the user named it
    std::string text;        // its exact bytes (the Source panel shows them)
    int dims = 2;
    Space maskSpace = Space::Global;
    bool usesShared = false;
    std::array<std::string, kArrayCount> arrayNames;
};
const KernelInfo& registerOwnKernel(const OwnKernelDescription& description);
// The text of the kernel registered last (empty before any).
std::string_view ownKernelSource();

}  // namespace tilescope
