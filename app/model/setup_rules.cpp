#include "model/setup_rules.hpp"

#include <algorithm>
#include <string_view>

#include "api/runner.hpp"
#include "core/planner.hpp"

namespace tilescope::ui {

namespace {

void replaceAll(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

}  // namespace

std::string inAppWords(std::string message) {
    replaceAll(message, "add --what-if", "tick what-if");
    replaceAll(message, "--what-if", "what-if");
    replaceAll(message, "use --block ", "use a block edge of ");
    replaceAll(message, "(--backend cpu)", "(choose the CPU backend)");
    return message;
}

const KernelInfo* setupKernel(std::string_view name, const KernelInfo* own) {
    return isOwnKernel(name) ? own : findKernel(name);
}

std::string ownKernelName(const KernelInfo& kernel) {
    return "your " + std::string(kernel.name);
}

bool compareFits(const std::string& kernel, const std::string& compare, const KernelInfo* own) {
    if (kernel == compare)
        return false;
    const KernelInfo* a = setupKernel(kernel, own);
    const KernelInfo* b = setupKernel(compare, own);
    if ((isOwnKernel(kernel) && !a) || (isOwnKernel(compare) && !b))
        return (a || isOwnKernel(kernel)) && (b || isOwnKernel(compare));
    return a && b && a->id != b->id && a->dims == b->dims;
}

GpuStatus queryGpu() {
    GpuStatus gpu;
    gpu.available = gpuAvailable(&gpu.reason, &gpu.name);
    return gpu;
}

SetupState demoSetup(const GpuStatus& gpu) {
    SetupState s;  // conv2d_tiled_in, Figure 7.4's mask, block 16, the photograph at 64 x 64
    s.backend = gpu.available ? Backend::Cuda : Backend::Cpu;
    return s;
}

void adaptToKernel(SetupState& s, const KernelInfo& previous, const KernelInfo& next) {
    // The lines of another kernel's barriers mean nothing to this one.
    if (previous.id != next.id) {
        s.droppedBarriers.clear();
        s.schedule = Schedule::InOrder;
    }
    if (previous.dims == next.dims)
        return;
    s.block = defaultBlock(next);
    const MaskPresetInfo& preset = maskPresetInfo(s.preset);
    const bool custom = s.preset == MaskPreset::Custom;
    if (custom || (next.dims == 1 && !preset.oneD) || (next.dims == 2 && !preset.twoD)) {
        s.preset = next.dims == 1 ? MaskPreset::BookOneD : MaskPreset::Figure7_4;
        s.radius = 2;
        if (custom)
            s.customValues.clear();
    }
    if (s.input.source != InputSource::File) {
        const bool bookArray = inputSourceInfo(s.input.source).fixedArray;
        if (next.dims == 2 && bookArray)
            s.input.source = InputSource::Photo;
        if (next.dims == 1 && !bookArray)
            s.input.source = InputSource::BookOneToSeven;
    }
}

BarrierDrop barrierDropOf(const SetupState& s, const KernelInfo* own) {
    BarrierDrop drop;
    const KernelInfo* k = setupKernel(s.kernel, own);
    if (!k || s.droppedBarriers.empty())
        return drop;
    for (unsigned line : barrierLines(*k))
        if (std::find(s.droppedBarriers.begin(), s.droppedBarriers.end(), line) != s.droppedBarriers.end())
            drop.lines.push_back(line);
    return drop;
}

Result<Mask> currentMask(const SetupState& s, const KernelInfo* own) {
    const KernelInfo* k = setupKernel(s.kernel, own);
    if (!k)
        return badInput(isOwnKernel(s.kernel) ? "your kernel file has not compiled yet"
                                              : "unknown kernel '" + s.kernel + "'");
    if (s.radius < 0 || s.radius > kMaxRadius)
        return badInput("radius " + std::to_string(s.radius) + " is outside 0.." + std::to_string(kMaxRadius));
    if (s.preset == MaskPreset::Custom)
        return makeCustomMask(s.customValues, k->dims, s.radius);
    return makePresetMask(s.preset, k->dims, s.radius);
}

std::string SetupCheck::firstProblem() const {
    for (const std::string* p : {&kernelProblem, &maskProblem, &inputProblem, &planProblem, &backendProblem})
        if (!p->empty())
            return *p;
    return {};
}

SetupCheck checkSetup(const SetupState& s, const std::optional<InputShape>& knownShape, const GpuStatus& gpu,
                      const KernelInfo* own) {
    SetupCheck check;
    check.kernel = setupKernel(s.kernel, own);
    if (!check.kernel) {
        check.kernelProblem = isOwnKernel(s.kernel) ? "your kernel file has not compiled yet: open one (File > Open "
                                                      "kernel...) and compile it (Ctrl+S)"
                                                    : "unknown kernel '" + s.kernel + "'";
        return check;
    }
    if (auto mask = currentMask(s, own))
        check.mask = std::move(*mask);
    else
        check.maskProblem = mask.error().message;

    if (s.backend == Backend::Cuda && !gpu.available)
        check.backendProblem = "CUDA is not available: " + gpu.reason;

    check.shape = knownShape ? knownShape : predictedShape(s.input, check.kernel->dims);
    if (check.shape && check.mask) {
        const InputShape& in = *check.shape;
        Problem problem{in.width, in.height, in.channels, in.rank, check.mask->width, check.mask->height, s.block};
        if (check.kernel->id == KernelId::Own) {
            // The student's launch() chooses the grid and the block: known once it has run.
        } else if (s.block <= 0) {
            check.planProblem = "the block edge must be 1 or more";
        } else if (auto plan = planLaunch(*check.kernel, problem, currentLimits(), s.whatIf)) {
            check.plan = *plan;
            if (plan->whatIf && s.backend == Backend::Cuda)
                check.backendProblem = "what-if: " + plan->whatIfReason +
                                       "; no GPU can launch this, so it runs on the CPU executor only (choose CPU)";
        } else {
            check.planProblem = inAppWords(plan.error().message);
        }
    }
    return check;
}

std::string describeShape(const InputShape& shape) {
    if (shape.rank == 1)
        return std::to_string(shape.width) + (shape.width == 1 ? " element" : " elements");
    std::string text = std::to_string(shape.width) + " x " + std::to_string(shape.height);
    if (shape.channels > 1)
        text += " x " + std::to_string(shape.channels) + " channels";
    return text;
}

}  // namespace tilescope::ui
