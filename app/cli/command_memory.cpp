// `tilescope memory`: the memory model of a whole launch of any size
// (docs/memory-model.md). The launch is traced a few waves of blocks at a
// time; each piece's warp requests are counted and replayed through the
// caches, then dropped, so memory stays bounded. Prints JSON on stdout:
//   {"kernel", "backend", ..., "grid", "block_dim", "grid_blocks", "events",
//    "totals": {the warps' request counters}, "caches": {see cli/memory_json.hpp}}
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "cli/commands.hpp"
#include "cli/memory_json.hpp"
#include "cli/options.hpp"
#include "trace/cache_model.hpp"
#include "trace/trace_select.hpp"
#include "trace/warp_requests.hpp"

namespace tilescope::cli {

namespace {

struct MemoryOptions {
    KernelOptions kernel;
    CacheConfig caches;
    int l1Kib = 0;
    int l2Mib = 50;
    int wavesPerPiece = 2;
    std::size_t eventBudget = 400'000'000;
};

int runMemory(const MemoryOptions& o) {
    Loaded loaded;
    if (Status s = load(o.kernel, loaded); !s) return fail(s.error());
    if (loaded.own) return fail(badInput("memory: a kernel file's launch is traced by `tilescope stats`"));
    auto plan = planRequest(loaded.request);
    if (!plan) return fail(plan.error());
    loaded.request.plan = *plan;
    CacheConfig config = o.caches;
    config.l1Bytes = o.l1Kib * 1024;
    config.l2Bytes = static_cast<std::int64_t>(o.l2Mib) * 1024 * 1024;
    CacheModel model(config, *plan);
    const std::size_t wave = static_cast<std::size_t>(config.sms) * static_cast<std::size_t>(model.blocksPerSm());
    const std::size_t piece = wave * static_cast<std::size_t>(std::max(1, o.wavesPerPiece));
    const LaunchPlan& p = *plan;
    const std::size_t blocks = p.grid.count();

    loaded.request.trace = true;
    loaded.request.eventBudget = o.eventBudget;
    MemoryCounters totals;
    std::size_t events = 0;
    Json report;
    for (std::size_t first = 0; first < blocks; first += piece) {
        std::vector<Dim3> list;
        for (std::size_t b = first; b < std::min(blocks, first + piece); ++b) {
            const unsigned linear = static_cast<unsigned>(b);
            list.push_back(Dim3{linear % p.grid.x, (linear / p.grid.x) % p.grid.y, linear / (p.grid.x * p.grid.y)});
        }
        loaded.request.traceBlocks = std::move(list);
        auto run = runKernel(loaded.request);
        if (!run) return fail(run.error());
        const Trace& trace = *run->trace;
        for (const MemoryCounters& block : model.replay(trace)) totals += block;
        events += trace.eventCount();
        if (first == 0) report = launchJson(*run);
        if (first + piece >= blocks) {
            report["grid_blocks"] = blocks;
            report["events"] = events;
            Json t = Json::object();
            addMemoryJson(t, totals);
            report["totals"] = std::move(t);
            report["caches"] = cachesJson(model, trace);
        }
    }
    return printReport(report, p);
}

}  // namespace

Command addMemoryCommand(CLI::App& app) {
    auto o = std::make_shared<MemoryOptions>();
    CLI::App* c = app.add_subcommand(
        "memory",
        "count the warps' memory requests of a whole launch and replay them through a model of the L1 and L2 caches "
        "(any size: traced a few waves of blocks at a time); prints JSON");
    addKernelOptions(*c, o->kernel, true);
    c->add_option("--sms", o->caches.sms, "SMs the blocks are spread over (H100 SXM: 132)")->check(CLI::Range(1, 1024));
    c->add_option("--blocks-per-sm", o->caches.blocksPerSm, "resident blocks per SM (0: from occupancy)")
        ->check(CLI::Range(0, 64));
    c->add_option("--l1-kib", o->l1Kib, "L1 data cache per SM in KiB (0: what the shared-memory carve-out leaves of 256)")
        ->check(CLI::Range(0, 4096));
    c->add_option("--l1-ways", o->caches.l1Ways, "L1 associativity (default 16)")->check(CLI::Range(1, 64));
    c->add_option("--l2-mib", o->l2Mib, "L2 capacity in MiB (H100: 50)")->check(CLI::Range(1, 4096));
    c->add_option("--l2-ways", o->caches.l2Ways, "L2 associativity")->check(CLI::Range(1, 64));
    c->add_option("--waves-per-piece", o->wavesPerPiece, "waves of blocks traced at a time")->check(CLI::Range(1, 1000));
    c->add_option("--event-budget", o->eventBudget, "the most events one piece may hold");
    return Command{c, [o] { return runMemory(*o); }};
}

}  // namespace tilescope::cli
