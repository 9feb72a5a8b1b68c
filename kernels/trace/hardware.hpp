// What the hardware did during an instrumented GPU run: which SM ran each
// block, when it started and finished (the GPU's global nanosecond timer),
// and which hardware warp slot each of its warps occupied. The CPU executor
// has no such thing; its traces leave this empty.
#pragma once

#include <cstdint>
#include <vector>

#include "core/dim3.hpp"

namespace tilescope {

struct BlockHardware {
    Dim3 block;
    unsigned sm = 0;              // %smid
    std::uint64_t startNs = 0;    // %globaltimer at the block's first recorded event
    std::uint64_t endNs = 0;      // ... and at its last
    std::vector<unsigned> warpIds;  // %warpid of each warp of the block, in warp order
};

}  // namespace tilescope
