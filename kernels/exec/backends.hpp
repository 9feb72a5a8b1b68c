// The three executions of the same kernel source, as the runner sees them.
// Each is compiled in its own translation unit: cpu_kernels.cpp (always),
// cuda_plain.cu and cuda_instrumented.cu (when CUDA is enabled; otherwise
// cuda_unavailable.cpp answers that there is no GPU).
#pragma once

#include <string>

#include "core/device_limits.hpp"
#include "core/launch_plan.hpp"
#include "core/result.hpp"
#include "exec/cpu_executor.hpp"
#include "trace/trace.hpp"

namespace tilescope {

// The arrays of one launch, in host memory. N and P use the plan's layout
// (pitched rows for the pitched kernel).
struct HostArrays {
    const float* N = nullptr;
    int nSize = 0;
    const float* mask = nullptr;  // row-major, maskWidth x maskWidth (or maskWidth for 1D)
    int maskSize = 0;
    float* P = nullptr;
    int pSize = 0;
};

namespace cpu {
// Runs the kernel on the CPU executor; with options.trace, records events.
Result<TracedBlocks> execute(const LaunchPlan& plan, const HostArrays& arrays, const CpuOptions& options);
}  // namespace cpu

namespace cuda {

struct GpuInfo {
    bool available = false;
    std::string reason;  // why not, when unavailable
    DeviceLimits limits;
};

// Asks the driver once; cheap afterwards. A GPU whose context was lost to a
// fault (see cudaFailure in cuda_support.hpp) reads as unavailable from then
// on, with the fault as the reason: every later CUDA call would fail too.
GpuInfo gpuInfo();

struct TraceOptions {
    std::vector<Dim3> blocks;  // blocks to trace; empty: all (none: record nothing, as for an untraced run)
    bool none = false;
    std::size_t eventBudget = 20'000'000;
    BarrierDrop drop;
};

// The plain kernel: copies in, launches, copies out; returns the kernel's time
// in milliseconds (CUDA events around the launch alone). A kernel that
// accesses memory outside its arrays really does so here: the runner sends
// such kernels (the listings as printed) to the instrumented build instead.
Result<double> executePlain(const LaunchPlan& plan, const HostArrays& arrays, const BarrierDrop& drop = {});

struct InstrumentedRun {
    TracedBlocks blocks;
    std::vector<BlockHardware> hardware;  // SM, start and end time, warp slots of every block
    LaunchFaults faults;  // accesses outside an array: recorded and skipped, never made
};

// The instrumented kernel: every thread records its events into a device buffer.
Result<InstrumentedRun> executeInstrumented(const LaunchPlan& plan, const HostArrays& arrays,
                                            const TraceOptions& options);

// [SECTION] The benchmark (`tilescope bench`, cuda_bench.cu): the plain
// kernels timed with CUDA events on random data, with no host work between
// launches. Without CUDA each entry point returns BackendUnavailable.

struct BenchOptions {
    int warmup = 3;           // launches before timing (module load, clocks, caches)
    int minRepeats = 10;      // timed launches, each between its own pair of events
    int maxRepeats = 100;
    double millisPerCase = 300.0;  // repetitions are chosen to fill about this much GPU time
    // Inputs and outputs rotate among buffers that together hold at least
    // this many bytes, so a launch never finds its input in L2 left there by
    // the previous one (0: four times the L2 cache).
    std::size_t rotationBytes = 0;
};

struct BenchDevice {
    std::string name;
    int smCount = 0;
    int ccMajor = 0, ccMinor = 0;
    int clockKHz = 0;        // the SMs' maximum (boost) clock, as the driver reports it
    int fp32LanesPerSm = 0;  // FP32 FMA units per SM (128 on Hopper)
    std::size_t l2Bytes = 0;
    int driverVersion = 0;   // cudaDriverGetVersion: 13000 for CUDA 13.0
    int runtimeVersion = 0;  // cudaRuntimeGetVersion, the runtime this build links
    // An FMA is 2 FLOPs; every lane of every SM issuing one per clock.
    double peakGflops() const { return 2.0 * smCount * fp32LanesPerSm * (clockKHz * 1e-6); }
};

struct BenchTiming {
    double medianMs = 0.0, minMs = 0.0, maxMs = 0.0;
    int repeats = 0;
    int buffers = 0;       // input/output pairs rotated
    int checked = 0;       // sampled outputs compared with a double-precision reference
    double maxError = 0.0; // largest |out - ref| / sum(|F| |N|) over them
    bool correct = true;   // every sample within float32 rounding, none left unwritten
};

Result<BenchDevice> benchDevice();
// A device-to-device cudaMemcpy of `bytes` (it reads and writes `bytes`
// each), timed and rotated like the kernels.
Result<BenchTiming> benchCopy(std::size_t bytes, const BenchOptions& options);
// The plain kernel of `plan` (from planLaunch) on random input and mask.
Result<BenchTiming> benchKernel(const LaunchPlan& plan, const BenchOptions& options);

}  // namespace cuda
}  // namespace tilescope
