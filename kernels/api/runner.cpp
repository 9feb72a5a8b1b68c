#include "api/runner.hpp"

#include <algorithm>

#include "base/clock.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "exec/backends.hpp"
#include "own/own_kernel.hpp"
#include "reference/reference.hpp"
#include "trace/fault.hpp"

namespace tilescope {

namespace {

// N and P as the kernel sees them: one plane, or (pitched kernel) all
// channels interleaved in rows of `pitch` floats.
std::vector<float> toKernelLayout(const Image& image, const LaunchPlan& plan) {
    if (plan.pitch == image.width * image.channels) return image.data;
    std::vector<float> out(static_cast<std::size_t>(plan.pitch) * image.height, 0.0f);
    const std::size_t row = static_cast<std::size_t>(image.width) * image.channels;
    for (int y = 0; y < image.height; ++y)
        std::copy_n(image.data.begin() + y * row, row, out.begin() + static_cast<std::size_t>(y) * plan.pitch);
    return out;
}

void fromKernelLayout(const std::vector<float>& data, const LaunchPlan& plan, Image& image) {
    const std::size_t row = static_cast<std::size_t>(image.width) * image.channels;
    for (int y = 0; y < image.height; ++y)
        std::copy_n(data.begin() + static_cast<std::size_t>(y) * plan.pitch, row, image.data.begin() + y * row);
}

Trace describeLaunch(const KernelInfo& k, const LaunchPlan& plan, Backend backend, const Mask& mask) {
    Trace t;
    t.kernel = std::string(k.name);
    t.backend = backendName(backend);
    t.plan = plan;
    const int size = plan.pitch * plan.height;
    auto image = [&](int id) {
        ArrayInfo& a = t.arrays[id];
        a.name = std::string(k.arrayNames[id]);
        a.space = Space::Global;
        a.width = plan.width;
        a.height = plan.height;
        a.channels = plan.channels;
        a.pitch = plan.pitch;
        a.size = size;
    };
    image(kArrayInput);
    image(kArrayOutput);
    ArrayInfo& m = t.arrays[kArrayMask];
    m.name = std::string(k.arrayNames[kArrayMask]);
    m.space = k.maskSpace;
    m.width = mask.width;
    m.height = mask.height;
    // Constant masks live in F_c[15][15] (or M[15]): their row stride is 15.
    m.pitch = k.maskSpace == Space::Constant ? 15 : mask.width;
    m.size = k.maskSpace == Space::Constant ? (k.dims == 1 ? 15 : 15 * 15) : mask.width * mask.height;
    ArrayInfo& s = t.arrays[kArrayShared];
    const PatchStaging staged = patchStaging(k, plan);
    if (staged.bands > 0) {
        // A ThreadPatch kernel's band tiles, one below the other.
        s.name = std::string(k.arrayNames[kArrayShared]);
        s.space = Space::Shared;
        s.width = s.pitch = staged.tileWidth;
        s.height = staged.bands * staged.tileHeight;
        s.size = static_cast<int>(plan.sharedBytes / sizeof(float));
    } else if (k.usesShared && k.tiles != TileShape::ThreadPatch) {
        s.name = std::string(k.arrayNames[kArrayShared]);
        s.space = Space::Shared;
        s.width = plan.inTile;
        s.height = k.dims == 1 ? 1 : plan.inTile;
        s.pitch = plan.inTile;
        s.size = static_cast<int>(plan.sharedBytes / sizeof(float));
    }
    return t;
}

}  // namespace

bool exceedsTraceBudget(const Error& error, std::size_t budget) {
    return error.code == ExitCode::BadInput && error.message.rfind(traceBudgetMessage(budget), 0) == 0;
}

Result<LaunchPlan> planRequest(const RunRequest& req) {
    const KernelInfo* k = req.entry ? req.entry : findKernel(req.kernel);
    if (!k)
        return badInput("unknown kernel '" + req.kernel + "' (`tilescope list` names the ten kernels)");
    if (!req.input || !req.mask)
        return Error{ExitCode::Internal, "planRequest: no input or mask"};
    const Image& in = *req.input;
    const Mask& m = *req.mask;
    Problem problem{in.width, in.height, in.channels, in.rank, m.width, m.height, req.block};
    return planLaunch(*k, problem, gpuAvailable() ? currentLimits() : DeviceLimits{}, req.whatIf);
}

namespace {

// The launch of `plan` on one backend, plane by plane for a multi-channel
// input to a single-channel kernel: fills the output, the time and (when
// asked) the trace of `result`.
Status executeOn(Backend backend, const KernelInfo& k, const LaunchPlan& plan, const RunRequest& req,
                 RunResult& result) {
    const Image& input = *req.input;
    const Mask& mask = *req.mask;
    result.output = input;
    result.millis = 0.0;
    result.trace.reset();
    result.faults = LaunchFaults{};
    result.plainSkipped.clear();
    const int planes = k.multiChannel ? 1 : input.channels;
    std::vector<float> maskValues = mask.values;

    for (int c = 0; c < planes; ++c) {
        Image plane = k.multiChannel || input.channels == 1 ? input : input.plane(c);
        std::vector<float> N = toKernelLayout(plane, plan);
        std::vector<float> P(N.size(), 0.0f);
        HostArrays arrays{N.data(), static_cast<int>(N.size()), maskValues.data(), static_cast<int>(maskValues.size()),
                          P.data(), static_cast<int>(P.size())};
        const bool traceThis = (req.trace || req.check) && c == 0;
        const std::vector<Dim3> traceBlocks = req.check ? std::vector<Dim3>{} : req.traceBlocks;
        LaunchFaults faults;

        if (backend == Backend::Cpu) {
            cpu::CpuOptions options;
            options.trace = traceThis;
            if (!traceBlocks.empty()) {
                options.traceBlock = [&](Dim3 b) {
                    for (const Dim3& t : req.traceBlocks)
                        if (sameBlock(t, b, plan.grid))
                            return true;
                    return false;
                };
            }
            options.eventBudget = req.eventBudget;
            options.drop = req.drop;
            options.schedule = req.schedule;
            options.seed = req.seed;
            options.workers = req.cpuWorkers;
            options.cancel = req.cancel;
            options.blocksDone = req.blocksDone;
            options.faults = &faults;
            const base::Stopwatch stopwatch;
            auto blocks = cpu::execute(plan, arrays, options);
            result.millis += stopwatch.milliseconds();
            if (!blocks) return blocks.error();
            if (traceThis) {
                result.trace = describeLaunch(k, plan, Backend::Cpu, mask);
                result.trace->blocks = std::move(*blocks);
            }
        } else {
            // A listing as printed may touch memory outside its arrays: the
            // instrumented kernel notes such accesses and never makes them,
            // so it alone runs, and its output is the result.
            const bool plain = !k.asPrinted || req.asIs;
            if (plain) {
                auto millis = cuda::executePlain(plan, arrays, req.drop);
                if (!millis) return millis.error();
                result.millis += *millis;
            } else {
                result.plainSkipped = "a listing as printed runs as instrumented CUDA, which never touches memory "
                                      "outside its arrays (--as-is runs the plain kernel)";
            }
            if (traceThis || !plain) {
                std::vector<float> tracedP(P.size(), 0.0f);
                HostArrays tracedArrays = arrays;
                if (plain) tracedArrays.P = tracedP.data();
                cuda::TraceOptions options{traceBlocks, !traceThis, req.eventBudget, req.drop};
                auto run = cuda::executeInstrumented(plan, tracedArrays, options);
                if (!run) return run.error();
                faults = run->faults;
                if (traceThis) {
                    result.trace = describeLaunch(k, plan, Backend::Cuda, mask);
                    result.trace->blocks = std::move(run->blocks);
                    result.trace->hardware = std::move(run->hardware);
                }
            }
        }
        result.faults.merge(faults);

        if (k.multiChannel || input.channels == 1) {
            fromKernelLayout(P, plan, result.output);
        } else {
            Image out = plane;
            out.data = P;
            result.output.setPlane(c, out);
        }
    }
    return success();
}

}  // namespace

Result<RunResult> runKernel(const RunRequest& req) {
    if (req.own) return own::runOwnKernel(*req.own, req);
    const KernelInfo* k = req.entry ? req.entry : findKernel(req.kernel);
    if (!k)
        return badInput("unknown kernel '" + req.kernel + "' (`tilescope list` names the kernels)");
    if (!req.input || !req.mask)
        return Error{ExitCode::Internal, "runKernel: no input or mask"};
    const Image& input = *req.input;
    const Mask& mask = *req.mask;

    std::string gpuReason, gpuName;
    const bool gpu = gpuAvailable(&gpuReason, &gpuName);
    if (req.backend == Backend::Cuda && !gpu && !req.fallbackToCpu)
        return Error{ExitCode::BackendUnavailable, "--backend cuda is not available: " + gpuReason};

    Problem problem{input.width, input.height, input.channels, input.rank, mask.width, mask.height, req.block};
    auto plan = req.plan ? Result<LaunchPlan>(*req.plan)
                         : planLaunch(*k, problem, gpu ? currentLimits() : DeviceLimits{}, req.whatIf);
    if (!plan)
        return plan.error();

    RunResult result;
    result.plan = *plan;
    if (req.backend == Backend::Cuda && gpu) {
        if (plan->whatIf)
            return badInput(req.kernel + ": " + plan->whatIfReason +
                            "; what-if configurations run on the CPU executor only (--backend cpu)");
        result.backend = Backend::Cuda;
        result.backendReason = gpuName;
    } else if (req.backend == Backend::Cuda) {
        // Asked for the GPU, allowed the CPU: the GPU has gone since it was chosen.
        result.backend = Backend::Cpu;
        result.backendReason = "no GPU: " + gpuReason;
        result.gpuFailure = gpuReason;
    } else if (req.backend == Backend::Cpu) {
        result.backend = Backend::Cpu;
        result.backendReason = "requested";
    } else if (!gpu) {
        result.backend = Backend::Cpu;
        result.backendReason = "no GPU: " + gpuReason;
    } else if (plan->whatIf) {
        result.backend = Backend::Cpu;
        result.backendReason = "what-if configuration: " + plan->whatIfReason;
    } else {
        result.backend = Backend::Cuda;
        result.backendReason = gpuName;
    }
    if (Status s = checkBarrierDrop(*k, req.drop); !s) return s.error();

    Status ran = executeOn(result.backend, *k, *plan, req, result);
    // A CUDA error (out of memory, a lost context) is the GPU's failure, not
    // the request's: where the caller allows it, the CPU executor runs the
    // same plan instead, and the result says why.
    const bool fallback = req.backend == Backend::Auto || req.fallbackToCpu;
    if (!ran && result.backend == Backend::Cuda && ran.error().code == ExitCode::BackendUnavailable && fallback) {
        result.gpuFailure = ran.error().message;
        result.backend = Backend::Cpu;
        result.backendReason = "the GPU failed (" + ran.error().message + "); the CPU executor ran it instead";
        ran = executeOn(Backend::Cpu, *k, *plan, req, result);
    }
    if (!ran)
        return ran.error();
    if (req.check && result.trace) {
        const std::vector<double> want = reference::convolve(input, mask);
        const ResultCheck results{&result.output, want, reference::float32Tolerance(input, mask)};
        result.problems = detectProblems(*result.trace, &results);
    }
    return result;
}

}  // namespace tilescope
