// Launch planning: from a kernel, an input shape, a mask and a block edge to
// the grid, block and shared memory of the launch, or a message that says why
// the combination cannot work. All three executions launch from the same plan.
#pragma once

#include <cstddef>
#include <string>

#include "api/kernels.hpp"
#include "core/dim3.hpp"
#include "core/result.hpp"

namespace tilescope {

constexpr int kMaxRadius = 7;        // constant memory holds masks up to 15 x 15
constexpr int kMaxWhatIfThreads = 65535;  // the trace stores a thread's index in 16 bits
// conv2d_fast: each thread computes a kFastPatch x kFastPatch patch of outputs
// (PATCH in conv/conv2d_fast.cuh), so a block of edge x edge threads covers an
// output tile of kFastPatch * edge on each side.
constexpr int kFastPatch = 4;
// From radius kFastStageFrom to kFastStageTo (7x7, 9x9) conv2d_fast stages
// its input in shared memory instead (STAGE_FROM, STAGE_TO, BANDS in the
// kernel): its output tile, still kFastPatch * edge square, is kFastBands
// bands of rows, each with its own input tile, and the block is edge x
// edge / kFastBands threads, each computing one patch per band.
constexpr int kFastStageFrom = 3, kFastStageTo = 4, kFastBands = 2;
constexpr bool fastStages(int radius) { return radius >= kFastStageFrom && radius <= kFastStageTo; }

// The limits the book talks about. The defaults are those every CUDA GPU of
// the last decade meets (and what the CPU executor enforces unless --what-if).
struct DeviceLimits {
    int maxThreadsPerBlock = 1024;
    std::size_t sharedPerBlock = 48 * 1024;  // without opting in to more
    std::size_t sharedPerBlockOptin = 48 * 1024;
    std::size_t constantBytes = 64 * 1024;
    // Known only from a GPU (0: unknown).
    std::size_t sharedPerSm = 0;
    int maxThreadsPerSm = 0;
    int maxBlocksPerSm = 0;
    std::size_t l2Bytes = 0;
    int smCount = 0;
    std::string name = "reference limits (no GPU)";
};

struct Problem {
    int width = 0;
    int height = 1;
    int channels = 1;
    int rank = 2;  // 1 for a 1D signal
    int maskWidth = 0;
    int maskHeight = 1;
    int block = 0;  // 0: the kernel's default
};

struct LaunchPlan {
    KernelId kernel{};
    Dim3 grid;
    Dim3 block;
    std::size_t sharedBytes = 0;
    int radius = 0;
    int maskWidth = 0;
    int inTile = 0;   // input tile edge (elements), 0 when the kernel does not tile
    int outTile = 0;  // output tile edge
    int width = 0, height = 1, channels = 1;
    int pitch = 0;    // row stride of N and P in floats (pitched kernel); width otherwise
    bool whatIf = false;  // beyond what a GPU can launch: runs on the CPU executor only
    std::string whatIfReason;
};

// The input tiles conv2d_fast stages in shared memory (bands == 0 when it
// stages none): `bands` tiles one after the other, each tileWidth x
// tileHeight floats; band b's tile starts b * bandRows image rows below band
// 0's, which starts r rows above the output tile and haloColumns columns left
// of it (whole float4s: 4 for r <= 4).
struct FastStaging {
    int bands = 0;
    int tileWidth = 0, tileHeight = 0;
    int bandRows = 0;
    int haloColumns = 0;
};
FastStaging fastStaging(const LaunchPlan& plan);

int defaultBlock(const KernelInfo& kernel);
// The block edge a launch gets when none is asked for (Problem::block == 0):
// defaultBlock(kernel), except for conv2d_fast, whose best block depends on
// the radius (measured on an H100, docs/performance.md).
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
