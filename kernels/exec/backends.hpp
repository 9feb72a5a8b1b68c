// The three executions of the same kernel source, as the runner sees them.
// Each is compiled in its own translation unit: cpu_kernels.cpp (always),
// cuda_plain.cu and cuda_instrumented.cu (when CUDA is enabled; otherwise
// cuda_unavailable.cpp answers that there is no GPU).
#pragma once

#include <string>

#include "api/plan.hpp"
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

// Asks the driver once; cheap afterwards.
const GpuInfo& gpuInfo();

struct TraceOptions {
    std::vector<Dim3> blocks;  // blocks to trace; empty: all
    std::size_t eventBudget = 20'000'000;
};

// The plain kernel: copies in, launches, copies out; returns the kernel's time
// in milliseconds (CUDA events around the launch alone).
Result<double> executePlain(const LaunchPlan& plan, const HostArrays& arrays);

// The instrumented kernel: every thread records its events into a device buffer.
Result<TracedBlocks> executeInstrumented(const LaunchPlan& plan, const HostArrays& arrays,
                                            const TraceOptions& options);

}  // namespace cuda
}  // namespace tilescope
