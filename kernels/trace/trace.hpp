// A trace: everything the threads of one launch did, in each thread's program
// order. The launch is described once (kernel, plan, arrays); events are
// grouped by block, and within a block by thread.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "api/plan.hpp"
#include "core/dim3.hpp"
#include "trace/event.hpp"

namespace tilescope {

struct ArrayInfo {
    std::string name;  // as the kernel's source calls it: N, M, F_c, P, N_s, ...
    Space space = Space::Global;
    int width = 0;     // elements per row (for N and P: the image width)
    int height = 1;
    int channels = 1;
    int pitch = 0;     // row stride in elements
    int size = 0;      // elements in all
};

struct BlockEvents {
    Dim3 block;
    std::vector<Event> events;  // grouped by thread (ascending), each thread's in program order
};

// The traced blocks of a launch, in linear block order.
using TracedBlocks = std::vector<BlockEvents>;

struct Trace {
    std::string kernel;
    std::string backend;  // "cpu" or "cuda"
    LaunchPlan plan;
    std::array<ArrayInfo, kArrayCount> arrays;
    std::vector<BlockEvents> blocks;  // the traced blocks, in linear block order

    std::size_t eventCount() const {
        std::size_t n = 0;
        for (const BlockEvents& b : blocks) n += b.events.size();
        return n;
    }
};

}  // namespace tilescope
