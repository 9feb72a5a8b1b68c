// The kernels TileScope knows, by id: the chapter-7 kernels, the listings as
// printed, and a student's own (whose entry its OwnKernel holds, own/).
#pragma once

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
    // its KernelInfo is the one its OwnKernel holds.
    Own,
};

}  // namespace tilescope
