// A run of a kernel, as asked for and as it came back: the one request the
// command line, the app and the tests make of the runner (api/runner.hpp)
// and of a student's kernel (own/own_kernel.hpp), and what both return.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/barrier_drop.hpp"
#include "core/image.hpp"
#include "core/kernel_info.hpp"
#include "core/launch_plan.hpp"
#include "exec/backend.hpp"
#include "exec/cpu_executor.hpp"
#include "exec/printout.hpp"
#include "trace/fault.hpp"
#include "trace/problems.hpp"
#include "trace/trace.hpp"

namespace tilescope {

// A student's kernel, compiled (own/own_kernel.hpp): the request holds it
// without knowing more of it; the runner hands such a request to own/.
namespace own {
class OwnKernel;
}

struct RunRequest {
    std::string kernel;  // the kernel's name, as the user gave it
    // The kernel's entry and its launch, resolved once where the request is
    // made (the command line's options, the app's runner): runKernel runs
    // them as they are. Left out, runKernel finds the kernel by `kernel` and
    // plans the launch itself.
    const KernelInfo* entry = nullptr;
    std::optional<LaunchPlan> plan;
    const Image* input = nullptr;
    const Mask* mask = nullptr;
    int block = 0;  // --block N; 0: the kernel's default
    Backend backend = Backend::Auto;
    // With Backend::Cuda: when the GPU fails (a CUDA error, or the GPU is
    // gone), run on the CPU executor instead of failing. Backend::Auto always
    // does; the command line's explicit --backend cuda does not.
    bool fallbackToCpu = false;
    bool whatIf = false;  // allow configurations no GPU can launch (CPU only)
    bool trace = false;
    std::vector<Dim3> traceBlocks;  // empty: every block
    std::size_t eventBudget = 20'000'000;
    BarrierDrop drop;  // the barriers left out (the race demonstration)
    Schedule schedule = Schedule::InOrder;  // CPU executor: the order warps run in
    unsigned seed = 1;                      // for Schedule::Random
    // Trace every block and run the problem detector (RunResult::problems).
    bool check = false;
    // A listing as printed runs on the GPU as instrumented CUDA, which never
    // touches memory outside its arrays; this runs the plain kernel as it is
    // (for compute-sanitizer).
    bool asIs = false;
    int cpuWorkers = 0;
    // A student's own kernel file (kernels/own/), compiled: it runs instead
    // of `kernel`, in a worker process stopped after timeLimitSeconds.
    std::shared_ptr<const own::OwnKernel> own;
    double timeLimitSeconds = 10.0;
    // With `own` on the GPU: time the plain kernel this many times after a
    // warm-up; RunResult::millis is then their median (tilescope bench).
    int benchRepeats = 0;
    // With `own`: what the kernel file printed (printf) goes here, also when
    // the run fails (a crash, the time limit). Of a multi-channel input, the
    // run on channel 0.
    KernelPrintout* printout = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    std::atomic<unsigned>* blocksDone = nullptr;
};

struct RunResult {
    Image output;  // same shape as the input
    Backend backend = Backend::Cpu;
    std::string backendReason;  // "NVIDIA H100 80GB HBM3", "no CUDA device: ...", "requested"
    std::string gpuFailure;     // the CUDA error that sent this run to the CPU executor (empty: none)
    double millis = 0.0;        // kernel time (GPU: CUDA events; CPU: wall clock of the executor)
    LaunchPlan plan;
    std::optional<Trace> trace;  // for multi-channel input to a single-channel kernel: channel 0
    LaunchFaults faults;         // accesses outside an array, barriers not reached (the run went on)
    std::optional<ProblemSet> problems;  // with RunRequest::check
    std::string plainSkipped;    // why the plain CUDA kernel did not run (a listing as printed), if so
};

// Whether two block indices name the same block of `grid`.
inline bool sameBlock(Dim3 a, Dim3 b, Dim3 grid) {
    // Dim3 defaults z to 1 (right for sizes), while block indices of a 2D grid
    // have z = 0: on a grid one block deep, z does not tell blocks apart.
    return a.x == b.x && a.y == b.y && (grid.z == 1 || a.z == b.z);
}

}  // namespace tilescope
