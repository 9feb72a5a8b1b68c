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

#include "core/kernel_catalogue.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
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

const char* spaceText(Space s) {
    switch (s) {
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Constant: return "constant";
    case Space::Register: return "register";
    }
    return "global";
}

Json accessJson(const Trace& t, const ProblemAccess& a) {
    if (!a.valid()) return nullptr;
    const Dim3 block = t.blocks[a.block].block;
    const Dim3 thread = t.threadCoords(a.thread);
    return Json{{"block", {block.x, block.y}}, {"thread", {thread.x, thread.y}}, {"line", a.line},
                {"step", a.step},           {"store", isStore(a.op)}};
}

int runCheck(const CheckOptions& o) {
    Loaded loaded;
    if (Status s = load(o.kernel, loaded); !s) return fail(s.error());
    loaded.request.check = true;
    loaded.request.eventBudget = o.eventBudget;
    auto result = runKernel(loaded.request);
    printPrintout(loaded);
    if (!result) return fail(result.error());
    if (!result->trace || !result->problems) return fail(Error{ExitCode::Internal, "the run returned no trace"});
    const Trace& t = *result->trace;
    const ProblemSet& problems = *result->problems;
    std::string drop;
    if (loaded.request.drop.all) {
        drop = "every __syncthreads() dropped";
    } else if (!loaded.request.drop.lines.empty()) {
        for (unsigned line : loaded.request.drop.lines) drop += (drop.empty() ? "" : ",") + std::to_string(line);
        drop = "__syncthreads() dropped at line " + drop;
    }
    if (!drop.empty() && result->backend == Backend::Cpu)
        drop += std::string(", warps ") + scheduleName(loaded.request.schedule);

    if (o.json) {
        Json j = launchJson(*result);
        j["dropped_barriers"] = drop;
        j["mask"] = loaded.maskText;
        Json counts = Json::object();
        for (int k = 0; k < kProblemKindCount; ++k)
            counts[problemKindKey(static_cast<ProblemKind>(k))] = problems.counts[static_cast<std::size_t>(k)];
        j["counts"] = counts;
        j["total"] = problems.total();
        j["largest_error"] = problems.largestError;
        Json groups = Json::array();
        for (const ProblemGroup& g : problems.groups)
            groups.push_back({{"kind", problemKindKey(g.kind)},
                              {"order", hazardOrderName(g.order)},
                              {"array", g.array < kArrayCount ? Json(t.arrays[g.array].name) : Json(nullptr)},
                              {"first_line", g.firstLine},
                              {"second_line", g.secondLine},
                              {"count", g.count}});
        j["groups"] = std::move(groups);
        Json items = Json::array();
        for (const ProblemReport& p : problems.items) {
            Json item{{"kind", problemKindKey(p.kind)},
                      {"order", hazardOrderName(p.order)},
                      {"array", p.array < kArrayCount ? Json(t.arrays[p.array].name) : Json(nullptr)},
                      {"space", p.array < kArrayCount ? Json(spaceText(t.arrays[p.array].space)) : Json(nullptr)},
                      {"index", p.index},
                      {"element", p.array < kArrayCount ? Json(elementName(t, p.array, p.index)) : Json(nullptr)},
                      {"first", accessJson(t, p.first)},
                      {"second", accessJson(t, p.second)},
                      {"text", describeProblem(t, p)}};
            if (p.kind == ProblemKind::WrongResult)
                item["output"] = {{"x", p.x}, {"y", p.y}, {"channel", p.channel}, {"got", p.got},
                                  {"expected", p.expected}};
            if (p.kind == ProblemKind::BarrierMismatch) item["threads"] = p.threads;
            if (p.subscripts.rows > 0) {
                item["element"] = subscriptedName(t.arrays[p.array].name, p.subscripts);
                item["subscripts"] = {{"row", p.subscripts.row},
                                      {"column", p.subscripts.col},
                                      {"rows", p.subscripts.rows},
                                      {"columns", p.subscripts.cols}};
            }
            items.push_back(std::move(item));
        }
        j["problems"] = std::move(items);
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        std::array<int, kProblemKindCount> printed{};
        for (const ProblemReport& p : problems.items) {
            int& n = printed[static_cast<std::size_t>(p.kind)];
            if (o.shown > 0 && n >= o.shown) continue;
            ++n;
            std::printf("%s\n", problemLine(t, p).c_str());
        }
        // Where they come from: each kind between the same two lines, once.
        if (!problems.clean()) std::printf("where:\n");
        for (const ProblemGroup& g : problems.groups) {
            std::string what = problemKindName(g.kind);
            if (g.order != HazardOrder::None) what += std::string(" (") + hazardOrderName(g.order) + ")";
            if (g.array < kArrayCount) what += " on " + t.arrays[g.array].name;
            const std::string lines = g.secondLine > 0 ? "lines " + std::to_string(g.firstLine) + " -> " +
                                                             std::to_string(g.secondLine)
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
    if (!o.json) std::fprintf(stderr, "tilescope check: mask: %s\n", loaded.maskText.c_str());
    const std::string where = std::string(backendName(result->backend)) +
                              (result->backend == Backend::Cuda ? " (" + result->backendReason + ")" : "");
    const std::string name = t.plan.kernel == KernelId::Own
                                 ? "your " + t.kernel + " (" + std::string(kernelOf(t.plan).sourceFile.substr(4)) + ")"
                                 : t.kernel;
    std::fprintf(stderr, "tilescope check: %s on %s%s, grid %ux%u, block %ux%u: %s\n", name.c_str(),
                 where.c_str(), drop.empty() ? "" : (", " + drop).c_str(), t.plan.grid.x, t.plan.grid.y,
                 t.plan.block.x, t.plan.block.y,
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
        "check", "run a kernel with every thread traced and name what goes wrong: races, reads of unwritten memory, "
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
