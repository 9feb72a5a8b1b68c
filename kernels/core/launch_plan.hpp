// A launch as planned (core/planner.hpp): the grid, block and shared memory,
// and the tiles they cover. All three executions launch from the same plan,
// and a trace keeps the plan it was recorded with.
#pragma once

#include <cstddef>
#include <string>

#include "core/dim3.hpp"
#include "core/kernel_id.hpp"

namespace tilescope {

struct KernelInfo;

// How a ThreadPatch kernel (conv2d_fast) runs beyond its grid and block:
// whether it stages its input in shared memory, and how many registers a
// thread may use (0: as many as the compiler chooses). planLaunch gives the
// model's shape (the kernel's catalogue entry) unless the Problem asks for
// another; a shape other than the model's runs as plain CUDA only
// (exec/fast_tuning.hpp), so a trace always holds the model's.
struct FastShape {
    bool staged = false;
    int registers = 0;
    bool operator==(const FastShape&) const = default;
};

struct LaunchPlan {
    KernelId kernel{};
    // The kernel's catalogue entry, as planLaunch was given it: a built-in
    // kernel's lives for the program, a student's as long as its OwnKernel
    // (own/own_kernel.hpp). kernelOf() reads it.
    const KernelInfo* entry = nullptr;
    Dim3 grid;
    Dim3 block;
    std::size_t sharedBytes = 0;
    int radius = 0;
    int maskWidth = 0;
    int inTile = 0;   // input tile edge (elements), 0 when the kernel does not tile
    int outTile = 0;  // output tile edge
    int width = 0, height = 1, channels = 1;
    int pitch = 0;    // row stride of N and P in floats (pitched kernel); width otherwise
    FastShape fast;   // ThreadPatch kernels only
    bool whatIf = false;  // beyond what a GPU can launch: runs on the CPU executor only
    std::string whatIfReason;
};

}  // namespace tilescope
