#include "api/sweep.hpp"

#include <algorithm>
#include <random>

#include "api/runner.hpp"
#include "exec/backends.hpp"
#include "trace/classify.hpp"

namespace tilescope {

void bookFigures(SweepPoint& p) {
    const int mw = 2 * p.radius + 1;
    const double taps = p.dims == 1 ? mw : static_cast<double>(mw) * mw;
    auto square = [&](double x) { return p.dims == 1 ? x : x * x; };
    const KernelId id = p.plan.kernel;
    switch (id) {
    case KernelId::Conv1dBasic:
    case KernelId::Conv2dBasic:
        // N and the mask from global memory: 2 FLOPs per 8 bytes.
        p.bookFlopPerByte = 0.25;
        p.bookGlobalLoadsPerOutput = 2 * taps;
        p.bookInputLoadReduction = 1.0;
        break;
    case KernelId::Conv1dConst:
    case KernelId::Conv2dConst:
        // The mask from constant memory: 2 FLOPs per 4 bytes of N (§7.3).
        p.bookFlopPerByte = 0.5;
        p.bookGlobalLoadsPerOutput = taps;
        p.bookInputLoadReduction = 1.0;
        break;
    case KernelId::Conv1dTiled:
    case KernelId::Conv2dTiledIn:
    case KernelId::Conv2dTiledOut:
    case KernelId::Conv2dTiledPitched: {
        // A block loads its input tile once and computes its output tile:
        // Figure 7.14 (4th ed.) for FLOP/B, Figure 7.22 and §7.4 (3rd ed.)
        // for the reduction of loads against the basic kernel.
        const double out = p.plan.outTile, in = out + 2.0 * p.radius;
        if (out <= 0) break;
        p.bookInputLoadReduction = taps * square(out) / square(in);
        if (id == KernelId::Conv2dTiledPitched) break;  // its mask comes through global memory too
        p.bookFlopPerByte = 2.0 * taps * square(out) / (4.0 * square(in));
        p.bookGlobalLoadsPerOutput = square(in) / square(out);
        break;
    }
    default:
        break;  // the caches' share (the cached kernels) and conv2d_fast have no closed form in the book
    }
}

Result<std::vector<SweepPoint>> sweep(const SweepRequest& req) {
    std::vector<SweepPoint> points;
    std::mt19937 random(7);
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    for (const std::string& name : req.kernels) {
        const KernelInfo* k = findKernel(name);
        if (!k) return badInput("unknown kernel '" + name + "' (`tilescope list` names the kernels)");
        if (k->asPrinted) return badInput(name + " is a listing as printed: sweep the corrected kernels");
        for (int r : req.radii) {
            if (r < 0 || r > kMaxRadius)
                return badInput("--radius " + std::to_string(r) + " is outside 0.." + std::to_string(kMaxRadius));
            for (int block : req.blocks) {
                SweepPoint p;
                p.kernel = name;
                p.dims = k->dims;
                p.block = block;
                p.radius = r;
                const int mw = 2 * r + 1;
                // The tile's size does not depend on the input's: plan once to
                // learn it, then size the input so that block 1 (or (1,1)) is interior.
                Problem probe{256, k->dims == 1 ? 1 : 256, 1, k->dims, mw, k->dims == 1 ? 1 : mw, block};
                auto first = planLaunch(*k, probe, DeviceLimits{}, req.whatIf);
                if (!first) {
                    p.skipped = first.error().message;
                    points.push_back(p);
                    continue;
                }
                const int edge = first->outTile > 0 ? first->outTile : block;
                const int size = 3 * edge + 2 * r + std::max(first->inTile, edge);
                Image input = k->dims == 1 ? Image::signal(std::vector<float>(static_cast<std::size_t>(size)))
                                           : Image::planar(size, size);
                for (float& v : input.data) v = value(random);
                std::vector<float> weights(k->dims == 1 ? mw : mw * mw);
                for (float& v : weights) v = value(random);
                const Mask mask = k->dims == 1 ? Mask::row(weights) : Mask::square(mw, weights);
                const Dim3 interior = k->dims == 1 ? Dim3{1, 0, 0} : Dim3{1, 1, 0};
                RunRequest run;
                run.kernel = name;
                run.input = &input;
                run.mask = &mask;
                run.block = block;
                run.backend = Backend::Cpu;
                run.whatIf = req.whatIf;
                run.trace = true;
                run.traceBlocks = {interior};
                auto result = runKernel(run);
                if (!result) {
                    p.skipped = result.error().message;
                    points.push_back(p);
                    continue;
                }
                p.plan = result->plan;
                if (!result->trace || result->trace->blocks.size() != 1 ||
                    !blockGeometry(p.plan, interior).interior) {
                    p.skipped = "no interior block at this size";
                    points.push_back(p);
                    continue;
                }
                p.counts = countBlock(*result->trace, 0);
                p.measured = derive(p.counts, p.plan);
                bookFigures(p);
                points.push_back(p);
            }
        }
    }
    return points;
}

std::vector<std::optional<double>> timeSweep(const std::vector<SweepPoint>& points, int width, int height,
                                             std::string* reason) {
    std::vector<std::optional<double>> ms(points.size());
    if (!gpuAvailable(reason))
        return ms;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        if (!p.skipped.empty() || p.plan.whatIf) continue;
        const KernelInfo* k = findKernel(p.kernel);
        if (!k) continue;
        const int mw = 2 * p.radius + 1;
        Problem problem{p.dims == 1 ? width * height : width, p.dims == 1 ? 1 : height, 1, p.dims, mw,
                        p.dims == 1 ? 1 : mw, p.block};
        auto plan = planLaunch(*k, problem, currentLimits(), false);
        if (!plan) continue;
        auto t = cuda::benchKernel(*plan, cuda::BenchOptions{});
        if (t) ms[i] = t->medianMs;
    }
    return ms;
}

}  // namespace tilescope
