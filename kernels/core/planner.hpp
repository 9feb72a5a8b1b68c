// Launch planning: from a kernel, an input shape, a mask and a block edge to
// the grid, block and shared memory of the launch, or a message that says why
// the combination cannot work. All three executions launch from the same plan.
#pragma once

#include "core/device_limits.hpp"
#include "core/kernel_info.hpp"
#include "core/launch_plan.hpp"
#include "core/result.hpp"

namespace tilescope {

constexpr int kMaxWhatIfThreads = 65535;  // the trace stores a thread's index in 16 bits

struct Problem {
    int width = 0;
    int height = 1;
    int channels = 1;
    int rank = 2;  // 1 for a 1D signal
    int maskWidth = 0;
    int maskHeight = 1;
    int block = 0;  // 0: the kernel's default
    // A ThreadPatch kernel's shape (LaunchPlan::fast): -1 each for the model's.
    int staged = -1;     // 0: reads its input through the caches, 1: stages it in shared memory
    int registers = -1;  // a thread's register limit, 0 for the compiler's choice
};

// The model's shape of a ThreadPatch kernel at a radius (its catalogue
// entry's ThreadPatch).
FastShape modelShape(const KernelInfo& kernel, int radius);
// The input tiles a ThreadPatch kernel stages in shared memory in this
// plan's shape (bands == 0 when it stages none): `bands` tiles one after
// the other, each tileWidth x tileHeight floats; band b's tile starts b *
// bandRows image rows below band 0's, which starts r rows above the output
// tile and haloColumns columns left of it (whole float4s: 4 for r <= 4).
struct PatchStaging {
    int bands = 0;
    int tileWidth = 0, tileHeight = 0;
    int bandRows = 0;
    int haloColumns = 0;
};
PatchStaging patchStaging(const KernelInfo& kernel, const LaunchPlan& plan);

int defaultBlock(const KernelInfo& kernel);
// The block edge a launch gets when none is asked for (Problem::block == 0):
// defaultBlock(kernel), unless the kernel's entry names the block measured
// best at this radius (ThreadPatch::blockByRadius).
int defaultBlock(const KernelInfo& kernel, int radius);

// Checks the combination and computes the launch. `allowWhatIf` lets a
// configuration past the device limits through (marked whatIf) for the CPU.
Result<LaunchPlan> planLaunch(const KernelInfo& kernel, const Problem& problem, const DeviceLimits& limits,
                              bool allowWhatIf);

// Row stride used for pitched images: rows padded to 128 bytes (32 floats),
// the width of a DRAM burst on current GPUs. Fixed rather than asked of
// cudaMallocPitch so that CPU and GPU traces of the same launch agree.
int pitchFor(int width, int channels);

}  // namespace tilescope
