// The memory requests a warp issues, from a trace of per-thread accesses
// (docs/memory-model.md). The lanes of one warp that access the same array,
// from the same source line, the same time (the n-th such access of each
// thread since its last barrier) are one request, as one instruction of a
// warp would be on the GPU. Where lanes diverge (a boundary test skips some
// iterations of a lane), the n-th access of one lane may belong to another
// iteration than the n-th of its neighbour: the grouping is then an
// approximation, and the requests are the most any lane makes.
//
// For each request:
//   global    the 32-byte sectors and 128-byte lines its addresses touch
//             (arrays start on 256-byte boundaries, as cudaMalloc's do;
//             pitched images carry their pitch in the element index);
//   shared    the bank of each lane's 4-byte word (32 banks): its wavefronts
//             are the most distinct words that fall in one bank (a word read
//             by several lanes is broadcast, one wavefront);
//   constant  the distinct addresses: one is a broadcast, k are served in k passes.
#pragma once

#include <cstdint>
#include <vector>

#include "trace/trace.hpp"

namespace tilescope {

struct MemoryCounters {
    std::uint64_t globalLoadRequests = 0;
    std::uint64_t globalLoadSectors = 0;
    std::uint64_t globalLoadBytes = 0;  // bytes the lanes asked for (4 per distinct address)
    std::uint64_t globalStoreRequests = 0;
    std::uint64_t globalStoreSectors = 0;
    std::uint64_t globalStoreBytes = 0;
    std::uint64_t sharedLoadRequests = 0;
    std::uint64_t sharedLoadWavefronts = 0;
    std::uint64_t sharedStoreRequests = 0;
    std::uint64_t sharedStoreWavefronts = 0;
    std::uint64_t constantLoadRequests = 0;
    std::uint64_t constantLoadSerialised = 0;  // passes beyond one per request

    MemoryCounters& operator+=(const MemoryCounters& o);
    friend bool operator==(const MemoryCounters&, const MemoryCounters&) = default;

    // Bytes used / bytes moved (sectors x 32); 0 with no request.
    double globalLoadEfficiency() const;
    double globalStoreEfficiency() const;
    // Requests / wavefronts: 1 when no request conflicts.
    double sharedLoadEfficiency() const;
    double sharedStoreEfficiency() const;
};

constexpr int kSectorBytes = 32;
constexpr int kLineBytes = 128;
constexpr int kBanks = 32;

enum class RequestSpace : std::uint8_t { Global, Shared, Constant };

// One warp's request, as the model groups it.
struct WarpRequest {
    RequestSpace space = RequestSpace::Global;
    bool store = false;
    std::uint8_t array = 0;
    std::uint16_t line = 0;  // the source line
    std::uint32_t warp = 0;
    std::vector<std::uint32_t> events;  // indices into the block's events, one per active lane
    std::uint32_t sectors = 0;          // global: distinct 32-byte sectors
    std::uint32_t lines = 0;            // global: distinct 128-byte lines
    std::uint32_t bytes = 0;            // 4 x distinct addresses
    std::uint32_t wavefronts = 0;       // shared: the most distinct words in one bank; constant: distinct addresses
};

// Every request of one traced block, in the order of their first access.
std::vector<WarpRequest> warpRequests(const Trace& trace, std::size_t blockIndex);

MemoryCounters countRequests(const std::vector<WarpRequest>& requests);
MemoryCounters countMemory(const Trace& trace, std::size_t blockIndex);

}  // namespace tilescope
