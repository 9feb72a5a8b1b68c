// The GPU limits chapter 7 talks about, each beside what the current launch
// uses of it and, in words, which setting of the launch it constrains: the
// block edge, the tile in shared memory, the mask in constant memory, how
// many blocks share an SM, how many waves the grid takes, whether the halo
// can be left to the L2 cache. The device panel shows these rows; the tests
// check their numbers.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"

namespace tilescope {

struct LimitUse {
    std::string limit;       // "threads per block"
    std::string value;       // "1024"
    std::string used;        // "256", or "-" when there is no launch
    bool over = false;       // the launch passes the limit (a what-if launch)
    std::string constrains;  // one sentence: which setting this limit bounds, with this launch's numbers
};

// Blocks of this launch one SM can hold at once, from its threads and its
// shared memory (registers are not counted; 0 when the limits are unknown).
int residentBlocksPerSm(const LaunchPlan& plan, const DeviceLimits& limits);

// One row per limit the device reports. `plan` may be null (the set-up
// cannot run); `maskWidth` is the mask's 2r+1.
std::vector<LimitUse> describeLimits(const KernelInfo& kernel, const LaunchPlan* plan, const DeviceLimits& limits,
                                     int maskWidth);

// 1024 -> "1 KiB", 49152 -> "48 KiB", 1000 -> "1000 B".
std::string byteSize(std::size_t bytes);

}  // namespace tilescope
