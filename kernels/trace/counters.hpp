// Counters: how much memory traffic and arithmetic a thread, a block or the
// traced grid did, counted from its events, and the figures the book derives
// from them (FLOP per byte of global memory, loads per output element, the
// reduction of input loads against the basic kernel).
//
// What is counted where:
//   globalLoads      Loads of arrays in global memory: N, and the mask when the
//                    kernel takes it by pointer (M in conv1d_basic, F in
//                    conv2d_basic, M through `const __restrict__` in the pitched kernel)
//   inputLoads       the global loads of N alone, as the book counts "accesses to N"
//   sharedLoads/Stores, constantLoads (the mask in __constant__ memory)
//   globalStores     stores to P (one per output element written)
//   flops            2 per multiply-add
//   barriers         __syncthreads() passed
//   ghostRefs        mask taps of a thread that writes an output which fall
//                    outside the array: skipped by basic, const and cached kernels,
//                    multiplied as a stored 0 by the tiled ones
//   threads, threadsComputing (threads that write an output element)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/classify.hpp"
#include "trace/trace.hpp"

namespace tilescope {

struct Counters {
    std::uint64_t globalLoads = 0;
    std::uint64_t globalLoadBytes = 0;
    std::uint64_t inputLoads = 0;
    std::uint64_t sharedLoads = 0;
    std::uint64_t sharedStores = 0;
    std::uint64_t constantLoads = 0;
    std::uint64_t globalStores = 0;
    std::uint64_t flops = 0;
    std::uint64_t barriers = 0;
    std::uint64_t ghostRefs = 0;
    std::uint64_t threads = 0;
    std::uint64_t threadsComputing = 0;

    Counters& operator+=(const Counters& o);
    friend bool operator==(const Counters&, const Counters&) = default;
};

// The book's ratios. A ratio whose denominator is 0 is 0.
struct DerivedFigures {
    double flopPerByte = 0;           // flops / global load bytes (Fig 7.14 4th ed, §7.2-7.3)
    double flopPerGlobalLoad = 0;     // flops / global loads
    double globalLoadsPerOutput = 0;  // global loads / outputs written
    double inputLoadsPerOutput = 0;
    std::uint64_t basicInputLoads = 0;  // loads of N the basic kernel makes for the same outputs
    double inputLoadReduction = 0;      // basicInputLoads / inputLoads (Fig 7.22 3rd ed, §7.4)
};

DerivedFigures derive(const Counters& c, const LaunchPlan& plan);

// One thread's counters (threads = 1). Ghost references come from the
// thread's output coordinate (the index of its store to P) and the plan.
Counters countThread(const Trace& trace, std::span<const Event> threadEvents);

// Counters for every traced block (in trace.blocks order), their sum, and the
// sum over interior blocks only (the book's tables are for interior blocks).
struct TraceCounts {
    std::vector<Counters> blocks;
    std::vector<char> interior;  // per block
    Counters totals;
    Counters interiorTotals;
    std::size_t interiorBlocks = 0;
};

Counters countBlock(const Trace& trace, std::size_t blockIndex);
TraceCounts countTrace(const Trace& trace);

}  // namespace tilescope
