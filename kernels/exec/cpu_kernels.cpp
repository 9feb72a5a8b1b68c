// Execution (c): the kernels compiled as C++ and run on the CPU, one fiber
// per CUDA thread. The kernel bodies are the same files the CUDA builds
// compile; here their names (Global, SharedArray2D, Accumulator, ...) are the
// recording wrappers of traced_types.hpp with the CPU recorder, and
// __syncthreads() is a real barrier between fibers.
#define TS_FN inline
#include "exec/traced_types.hpp"

#include "core/kernel_catalogue.hpp"
#include "core/kernel_table.hpp"
#include "exec/backends.hpp"
#include "exec/cpu_runtime.hpp"

#include <functional>
#include <mutex>

namespace tilescope::cpu {

using Recorder = CpuRecorder;
#include "exec/traced_language.inl"

#define TS_KERNEL
#define __constant__
#define __syncthreads() ::tilescope::cpu::syncthreads(__LINE__)
#include "conv/all_kernels.inc"
#undef __syncthreads
#undef __constant__
#undef TS_KERNEL

namespace {
#include "exec/launch_table.inl"

}  // namespace

Result<TracedBlocks> execute(const LaunchPlan& plan, const HostArrays& arrays, const CpuOptions& options) {
    // Constant memory is one per program, like the GPU's: launches on the CPU
    // are serialised around it.
    static std::mutex constantMemory;
    std::lock_guard lock(constantMemory);
    fillConstantMask(plan, arrays.mask, M.values, F_c.values);

    KernelArgs args{arrays.N, arrays.nSize, arrays.mask, arrays.maskSize, arrays.P, arrays.pSize};
    return launchKernel(plan, args, [&](auto kernel, auto... params) {
        std::function<void()> thread = [=] { kernel(params...); };
        return runGrid(plan, thread, options);
    });
}

}  // namespace tilescope::cpu
