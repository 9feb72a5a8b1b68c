// The memory requests a warp issues, from a trace of per-thread accesses
// (docs/memory-model.md). The lanes of one warp that access the same array
// from the same source line, at the same place in their loop, are one
// request, as one instruction of a warp would be on the GPU. A lane's place
// is counted without knowing the loop: within a barrier phase, by the
// multiply-adds (taps) it has done before the access, then by its accesses of
// that line since its last multiply-add. Lanes that take different branches
// of one iteration (a tile cell from shared memory, a halo cell from global
// memory) stay at the same place; lanes that skip a tap altogether (a ghost
// cell at the image's edge) fall behind their neighbours, and there the
// grouping is an approximation. In a loop that fills a shared array (a thread
// stores to it from one line more than once in the phase), a lane's place is
// where its pass stores, relative to where its first pass stored: lanes that
// run fewer passes of nested loops, or store a ghost zero instead of loading,
// stay in step.
//
// For each request:
//   global    the 32-byte sectors and 128-byte lines its addresses touch
//             (arrays start on 256-byte boundaries, as cudaMalloc's do;
//             pitched images carry their pitch in the element index);
//   shared    the bank of each lane's 4-byte word (32 banks): its wavefronts
//             are the most distinct words that fall in one bank (a word read
//             by several lanes is broadcast, one wavefront);
//   constant  the distinct addresses: one is a broadcast, k are served in k passes.
// A line that calls load4 or store4 moves 16 bytes per lane: the four floats
// the trace records for it are one access of that lane.
#pragma once

#include <cstdint>
#include <span>
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

// Where element `index` of a 4-byte array sits.
constexpr std::int64_t sectorOf(std::int64_t index) { return index * 4 / kSectorBytes; }
constexpr std::int64_t lineOf(std::int64_t index) { return index * 4 / kLineBytes; }
constexpr int bankOf(std::int64_t index) { return static_cast<int>(((index % kBanks) + kBanks) % kBanks); }

enum class RequestSpace : std::uint8_t { Global, Shared, Constant };

// One warp's request, as the model groups it.
struct WarpRequest {
    RequestSpace space = RequestSpace::Global;
    bool store = false;
    std::uint8_t array = 0;
    std::uint8_t laneBytes = 4;  // 4, or 16 for load4/store4
    std::uint16_t line = 0;      // the source line
    std::uint16_t phase = 0;     // barriers passed before it
    std::uint32_t warp = 0;
    std::uint32_t step = 0;      // the replay step (trace/steps.hpp) of its earliest lane's access
    std::vector<std::uint32_t> events;  // indices into the block's events: every float each active lane moves
    std::uint32_t sectors = 0;          // global: distinct 32-byte sectors
    std::uint32_t lines = 0;            // global: distinct 128-byte lines
    std::uint32_t bytes = 0;            // 4 x distinct addresses
    std::uint32_t wavefronts = 0;       // shared: the most distinct words in one bank; constant: distinct addresses
};

// Every request of one traced block, ordered by step, then warp.
std::vector<WarpRequest> warpRequests(const Trace& trace, std::size_t blockIndex);

// The source lines of the trace's kernel that make 16-byte accesses (load4, store4).
std::vector<std::uint16_t> vectorAccessLines(const Trace& trace);

// The distinct sectors a global request touches, ascending.
std::vector<std::int64_t> requestSectors(const WarpRequest& r, std::span<const Event> events);
// For a shared request: per event of `r.events`, whether its bank holds more
// than one distinct word of the request (the lanes that wait for another
// wavefront); for 8 or 16 bytes a lane, of its half or quarter of the warp.
std::vector<bool> conflictingEvents(const WarpRequest& r, std::span<const Event> events);

MemoryCounters countRequests(const std::vector<WarpRequest>& requests);
MemoryCounters countMemory(const Trace& trace, std::size_t blockIndex);

}  // namespace tilescope
