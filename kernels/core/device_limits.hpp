// The limits the book talks about, as a launch is planned against them. The
// defaults are those every CUDA GPU of the last decade meets (and what the
// CPU executor enforces unless --what-if); a GPU reports its own.
#pragma once

#include <cstddef>
#include <string>

namespace tilescope {

struct DeviceLimits {
    int maxThreadsPerBlock = 1024;
    std::size_t sharedPerBlock = 48 * 1024;  // without opting in to more
    std::size_t sharedPerBlockOptin = 48 * 1024;
    std::size_t constantBytes = 64 * 1024;
    // Known only from a GPU (0: unknown).
    std::size_t sharedPerSm = 0;
    int maxThreadsPerSm = 0;
    int maxBlocksPerSm = 0;
    std::size_t l2Bytes = 0;
    int smCount = 0;
    std::string name = "reference limits (no GPU)";
};

}  // namespace tilescope
