// `tilescope check`: runs a kernel with every block traced and prints what
// went wrong, one problem a line, then a summary (kernels/trace/problems.hpp
// says what is found and how). Exit codes: 0 clean, 1 problems found, 2 bad
// input, 3 the backend asked for is unavailable. --json prints the launch,
// the counts per kind and every problem (up to ProblemSet::kMaxPerKind of a
// kind) with its words, for scripts and the GPU cross-check.
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/check_json.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "core/kernel_catalogue.hpp"
#include "trace/fault.hpp"
#include "trace/problems.hpp"

namespace tilescope::cli {

namespace {

struct CheckOptions {
    KernelOptions kernel;
    std::size_t eventBudget = 20'000'000;
    bool json = false;
    int shown = 20;  // lines per kind; 0: all
};

int runCheck(const CheckOptions& o) {
    Loaded loaded;
    if (Status s = load(o.kernel, loaded); !s)
        return fail(s.error());
    loaded.request.check = true;
    loaded.request.eventBudget = o.eventBudget;
    auto result = runKernel(loaded.request);
    printPrintout(loaded);
    if (!result)
        return fail(result.error());
    if (!result->trace || !result->problems)
        return fail(Error{ExitCode::Internal, "the run returned no trace"});
    const Trace& t = *result->trace;
    const ProblemSet& problems = *result->problems;
    const std::string drop = droppedBarriersText(loaded, *result);

    if (o.json) {
        const Json j = checkJson(loaded, *result);
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        std::array<int, kProblemKindCount> printed{};
        for (const ProblemReport& p : problems.items) {
            int& n = printed[static_cast<std::size_t>(p.kind)];
            if (o.shown > 0 && n >= o.shown)
                continue;
            ++n;
            std::printf("%s\n", problemLine(t, p).c_str());
        }
        // Where they come from: each kind between the same two lines, once.
        if (!problems.clean())
            std::printf("where:\n");
        for (const ProblemGroup& g : problems.groups) {
            std::string what = problemKindName(g.kind);
            if (g.order != HazardOrder::None)
                what += std::string(" (") + hazardOrderName(g.order) + ")";
            if (g.array < kArrayCount)
                what += " on " + t.arrays[g.array].name;
            const std::string lines =
                g.secondLine > 0  ? "lines " + std::to_string(g.firstLine) + " -> " + std::to_string(g.secondLine)
                : g.firstLine > 0 ? "line " + std::to_string(g.firstLine)
                                  : "never written";
            std::printf("  %s, %s: %llu\n", what.c_str(), lines.c_str(), static_cast<unsigned long long>(g.count));
        }
        for (int k = 0; k < kProblemKindCount; ++k) {
            const std::uint64_t all = problems.counts[static_cast<std::size_t>(k)];
            const std::uint64_t shown = static_cast<std::uint64_t>(printed[static_cast<std::size_t>(k)]);
            if (all > shown)
                std::printf("... and %llu more (%s; --all prints every one)\n",
                            static_cast<unsigned long long>(all - shown), problemKindName(static_cast<ProblemKind>(k)));
        }
    }
    std::fflush(stdout);  // the problems first, then the mask and the summary line
    if (!o.json)
        std::fprintf(stderr, "tilescope check: mask: %s\n", loaded.maskText.c_str());
    const std::string where = std::string(backendName(result->backend)) +
                              (result->backend == Backend::Cuda ? " (" + result->backendReason + ")" : "");
    const std::string name = t.plan.kernel == KernelId::Own
                                 ? "your " + t.kernel + " (" + std::string(kernelOf(t.plan).sourceFile.substr(4)) + ")"
                                 : t.kernel;
    std::fprintf(stderr, "tilescope check: %s on %s%s, grid %ux%u, block %ux%u: %s\n", name.c_str(), where.c_str(),
                 drop.empty() ? "" : (", " + drop).c_str(), t.plan.grid.x, t.plan.grid.y, t.plan.block.x,
                 t.plan.block.y,
                 problems.clean() ? "no problems (every shared access ordered by a barrier, nothing outside the "
                                    "arrays, the output matches the float64 reference)"
                                  : problems.summary().c_str());
    if (loaded.input.channels > 1 && !kernelOf(t.plan).multiChannel)
        std::fprintf(stderr, "tilescope check: the trace covers channel 0 of %d; wrong outputs cover every channel\n",
                     loaded.input.channels);
    return problems.clean() ? 0 : 1;
}

}  // namespace

Command addCheckCommand(CLI::App& app) {
    auto options = std::make_shared<CheckOptions>();
    CLI::App* c = app.add_subcommand(
        "check",
        "run a kernel with every thread traced and name what goes wrong: races, reads of unwritten memory, "
        "accesses outside an array, barriers not reached, wrong outputs (exit 1 when any)");
    addKernelOptions(*c, options->kernel, true);
    addRaceOptions(*c, options->kernel);
    c->add_option("--event-budget", options->eventBudget, "stop with a message past this many recorded events")
        ->capture_default_str();
    c->add_flag("--json", options->json, "print the launch and every problem as JSON");
    c->add_flag_function(
        "--all", [options](std::int64_t) { options->shown = 0; }, "print every problem (default: 20 of each kind)");
    return Command{c, [options] { return runCheck(*options); }};
}

}  // namespace tilescope::cli
