// The CPU executor: runs a kernel's grid block by block, each block's threads
// as fibers, with __syncthreads() as a real barrier. Blocks run in parallel
// on worker threads; each block's events are kept apart and joined in block
// order, so a trace does not depend on how many workers ran it.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "core/launch_plan.hpp"
#include "core/barrier_drop.hpp"
#include "core/result.hpp"
#include "trace/fault.hpp"
#include "trace/trace.hpp"

namespace tilescope::cpu {

struct CpuOptions {
    bool trace = false;
    std::function<bool(Dim3)> traceBlock;  // which blocks to trace (empty: all)
    std::size_t eventBudget = 20'000'000;
    BarrierDrop drop;  // the barriers left out
    Schedule schedule = Schedule::InOrder;
    unsigned seed = 1;
    int workers = 0;  // 0: one per hardware thread
    const std::atomic<bool>* cancel = nullptr;
    std::atomic<unsigned>* blocksDone = nullptr;
    LaunchFaults* faults = nullptr;  // set, when given, to what went wrong in the launch
};


// Runs `thread` once per CUDA thread of the plan's grid.
Result<TracedBlocks> runGrid(const LaunchPlan& plan, const std::function<void()>& thread, const CpuOptions& options);

}  // namespace tilescope::cpu
