// `tilescope device`: the GPU's limits (or the reference limits without
// one), each beside what a launch uses of it and, in words, which setting of
// the launch it bounds: the rows of the app's device panel, for a terminal
// or a slide. Nothing runs: the launch is only planned.
#include <cstdio>
#include <memory>

#include "api/limits.hpp"
#include "api/runner.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "own/sandbox.hpp"
#include "trace/trace_select.hpp"

namespace tilescope::cli {

namespace {

int runDevice(const KernelOptions& options) {
    Loaded loaded;
    if (Status s = load(options, loaded); !s)
        return fail(s.error());
    auto plan = planRequest(loaded.request);
    if (!plan)
        return fail(plan.error());
    const KernelInfo& kernel = *loaded.request.entry;
    std::string reason;
    const bool gpu = gpuAvailable(&reason);
    const DeviceLimits limits = gpu ? currentLimits() : DeviceLimits{};
    std::printf("%s\n", limits.name.c_str());
    if (!gpu)
        std::printf("(no GPU: %s)\n", reason.c_str());
    const LaunchPlan& p = *plan;
    if (kernel.dims == 1)
        std::printf("%s: %d elements, r = %d, a grid of %u blocks of %u threads\n\n", options.kernel.c_str(), p.width,
                    p.radius, p.grid.x, p.block.x);
    else
        std::printf("%s: %d x %d, r = %d, a grid of %u x %u blocks of %u x %u threads\n\n", options.kernel.c_str(),
                    p.width, p.height, p.radius, p.grid.x, p.grid.y, p.block.x, p.block.y);
    for (const LimitUse& row : describeLimits(kernel, &p, limits, loaded.mask.width)) {
        std::printf("%-26s %-24s this launch: %s%s\n", row.limit.c_str(), row.value.c_str(), row.used.c_str(),
                    row.over ? " (over)" : "");
        std::printf("    %s\n", row.constrains.c_str());
    }
    if (p.whatIf)
        std::fprintf(stderr, "tilescope: what-if: %s\n", p.whatIfReason.c_str());
    // Where a kernel file's code runs (own/sandbox.hpp).
    std::printf("\nkernel files: %s\n", own::sandboxStatus().summary().c_str());
    return 0;
}

}  // namespace

Command addDeviceCommand(CLI::App& app) {
    auto options = std::make_shared<KernelOptions>();
    auto* c = app.add_subcommand("device",
                                 "the GPU's limits beside what a launch uses of each, and which setting each bounds");
    addKernelOptions(*c, *options, true);
    return Command{c, [options] { return runDevice(*options); }};
}

}  // namespace tilescope::cli
