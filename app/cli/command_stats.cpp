// `tilescope stats`: runs a kernel with tracing on and prints, as JSON on
// stdout, the memory traffic and arithmetic of the traced blocks and of
// their sum, with the figures the book derives from them. Key names are
// fixed (scripts and the tests read them):
//   {"kernel", "backend", "backend_reason", "what_if", "what_if_reason",
//    "grid", "block_dim", "plan": {...}, "traced_blocks", "grid_blocks",
//    "totals": {counters, derived}, "interior_blocks", "interior_totals": {...} or null,
//    "blocks": [{"block": [bx, by], "interior": bool, "cells": {...}, counters, derived}]}
// counters: global_loads, global_load_bytes, input_loads, shared_loads,
// shared_stores, constant_loads, global_stores, flops, barriers, ghost_refs,
// threads, threads_computing; derived: flop_per_byte, flop_per_global_load,
// global_loads_per_output, input_loads_per_output, basic_input_loads,
// input_load_reduction (see kernels/trace/counters.hpp for what each counts);
// the warps' requests (kernels/trace/warp_requests.hpp, docs/memory-model.md):
// global_load_requests, global_load_sectors, global_store_requests,
// global_store_sectors, shared_load_requests, shared_load_wavefronts,
// shared_store_requests, shared_store_wavefronts, constant_load_requests,
// constant_load_serialised, and global_load_efficiency,
// global_store_efficiency (bytes used / bytes moved), shared_load_efficiency,
// shared_store_efficiency (requests / wavefronts); with every block traced,
// "caches": the launch replayed through the model of L1 and L2
// (trace/cache_model.hpp; keys in cli/memory_json.hpp), else null.
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "trace/classify.hpp"
#include "trace/counters.hpp"
#include "trace/trace_select.hpp"
#include "cli/memory_json.hpp"
#include "trace/cache_model.hpp"
#include "trace/warp_requests.hpp"

namespace tilescope::cli {

namespace {


struct StatsOptions {
    KernelOptions kernel;
    TraceSelection selection;
};

void addCounters(Json& j, const Counters& c, const LaunchPlan& plan) {
    j["global_loads"] = c.globalLoads;
    j["global_load_bytes"] = c.globalLoadBytes;
    j["input_loads"] = c.inputLoads;
    j["shared_loads"] = c.sharedLoads;
    j["shared_stores"] = c.sharedStores;
    j["constant_loads"] = c.constantLoads;
    j["global_stores"] = c.globalStores;
    j["flops"] = c.flops;
    j["barriers"] = c.barriers;
    j["ghost_refs"] = c.ghostRefs;
    j["threads"] = c.threads;
    j["threads_computing"] = c.threadsComputing;
    const DerivedFigures d = derive(c, plan);
    j["flop_per_byte"] = d.flopPerByte;
    j["flop_per_global_load"] = d.flopPerGlobalLoad;
    j["global_loads_per_output"] = d.globalLoadsPerOutput;
    j["input_loads_per_output"] = d.inputLoadsPerOutput;
    j["basic_input_loads"] = d.basicInputLoads;
    j["input_load_reduction"] = d.inputLoadReduction;
}

int runStats(const StatsOptions& o) {
    Loaded loaded;
    auto result = runTraced(o.kernel, o.selection, loaded);
    printPrintout(loaded);
    if (!result)
        return fail(result.error());
    const Trace& trace = *result->trace;
    const LaunchPlan& p = trace.plan;
    const TraceCounts counts = countTrace(trace);
    // The caches need the whole launch: with every block traced, its replay
    // (which counts each block's requests on the way).
    std::optional<CacheModel> caches;
    std::vector<MemoryCounters> memory;
    if (trace.blocks.size() == p.grid.count()) {
        caches.emplace(CacheConfig{}, p);
        memory = caches->replay(trace);
    } else {
        for (std::size_t b = 0; b < trace.blocks.size(); ++b) memory.push_back(countMemory(trace, b));
    }
    MemoryCounters memoryTotals, memoryInterior;
    for (std::size_t b = 0; b < trace.blocks.size(); ++b) {
        memoryTotals += memory[b];
        if (counts.interior[b])
            memoryInterior += memory[b];
    }

    Json j = launchJson(*result);
    j["plan"] = {{"radius", p.radius},     {"mask_width", p.maskWidth}, {"in_tile", p.inTile},
                 {"out_tile", p.outTile},  {"width", p.width},          {"height", p.height},
                 {"channels", p.channels}, {"pitch", p.pitch},          {"shared_bytes", p.sharedBytes}};
    j["traced_blocks"] = trace.blocks.size();
    j["grid_blocks"] = p.grid.count();
    Json totals = Json::object();
    addCounters(totals, counts.totals, p);
    addMemoryJson(totals, memoryTotals);
    j["totals"] = totals;
    if (caches) {
        j["caches"] = cachesJson(*caches, trace);
    } else {
        j["caches"] = nullptr;
    }
    j["interior_blocks"] = counts.interiorBlocks;
    if (counts.interiorBlocks > 0) {
        Json interior = Json::object();
        addCounters(interior, counts.interiorTotals, p);
        addMemoryJson(interior, memoryInterior);
        j["interior_totals"] = interior;
    } else {
        j["interior_totals"] = nullptr;
    }
    Json list = Json::array();
    for (std::size_t b = 0; b < trace.blocks.size(); ++b) {
        const BlockGeometry g = blockGeometry(p, trace.blocks[b].block);
        const CellCounts cells = g.counts();
        Json block;
        block["block"] = {trace.blocks[b].block.x, trace.blocks[b].block.y};
        block["interior"] = g.interior;
        block["cells"] = {
            {"internal", cells.internal}, {"halo", cells.halo}, {"ghost", cells.ghost}, {"past_end", cells.pastEnd}};
        addCounters(block, counts.blocks[b], p);
        addMemoryJson(block, memory[b]);
        list.push_back(std::move(block));
    }
    j["blocks"] = std::move(list);
    return printReport(j, p);
}

}  // namespace

Command addStatsCommand(CLI::App& app) {
    auto options = std::make_shared<StatsOptions>();
    CLI::App* c = app.add_subcommand(
        "stats",
        "count the loads, stores, FLOPs and barriers of a launch and print them as JSON, with the book's ratios");
    addKernelOptions(*c, options->kernel, true);
    addRaceOptions(*c, options->kernel);
    addTraceOptions(*c, options->selection, "count");
    return Command{c, [options] { return runStats(*options); }};
}

}  // namespace tilescope::cli
