// Where the sectors of the warps' global requests come from: a replay of a
// launch's requests (trace/warp_requests.hpp) through a per-SM L1 and a
// shared L2 (docs/memory-model.md).
//
// Blocks run as a GPU runs them: in linear block order, in waves of
// `sms x blocksPerSm` blocks, block k of the launch on SM k % sms; within a wave
// the resident blocks take turns, one request each, every block's requests in
// step order. Both caches keep 128-byte lines of four 32-byte sectors, fill
// only the sectors a request misses, and evict the least recently used line
// of a set. Loads look up L1, then L2, then DRAM; stores go through to L2
// (allocating their sectors there without reading DRAM) and leave L1 as it
// is. Caches start empty, as Nsight Compute leaves them before each launch it
// measures. Constant memory has its own cache and is not replayed here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/launch_plan.hpp"
#include "trace/trace.hpp"
#include "trace/warp_requests.hpp"

namespace tilescope {

// The H100 SXM5's figures by default.
struct CacheConfig {
    int sms = 132;
    int blocksPerSm = 0;           // 0: from occupancy (threads, shared memory, blocks per SM)
    int maxThreadsPerSm = 2048;
    int maxBlocksPerSm = 32;
    int sharedPerSm = 228 * 1024;  // the most shared memory an SM gives its blocks
    int l1AndSharedBytes = 256 * 1024;  // per SM; L1 gets what the shared-memory carve-out leaves
    int l1Bytes = 0;               // 0: from the carve-out
    int l1Ways = 16;               // not published for the H100; 16 matches its L1 hit rates (docs/memory-model.md)
    std::int64_t l2Bytes = 50ll * 1024 * 1024;
    int l2Ways = 16;
};

// One source line's global loads, as the caches served them.
struct CacheLineCounts {
    std::uint16_t line = 0;
    std::uint8_t array = 0;
    std::uint64_t sectors = 0;  // looked up in L1
    std::uint64_t l1Hits = 0;
    std::uint64_t l2Hits = 0;
    std::uint64_t dramSectors = 0;
};

struct CacheCounters {
    std::uint64_t loadSectors = 0;   // global load sectors looked up in L1
    std::uint64_t l1Hits = 0;
    std::uint64_t l2LoadSectors = 0; // L1 misses, looked up in L2
    std::uint64_t l2LoadHits = 0;
    std::uint64_t storeSectors = 0;  // global store sectors written to L2
    std::uint64_t l2StoreHits = 0;   // store sectors already in L2
    std::uint64_t dramReadBytes = 0; // 32 per L2 load miss
    std::vector<CacheLineCounts> lines;  // by source line, ascending

    double l1HitRate() const;  // l1Hits / loadSectors
    // (load hits + store sectors) / (load and store sectors), as Nsight
    // Compute's lts__t_sector_hit_rate counts them: a store allocates its
    // sector without reading DRAM, which counts as a hit.
    double l2HitRate() const;
};

class CacheModel {
public:
    CacheModel(const CacheConfig& config, const LaunchPlan& plan);
    ~CacheModel();
    CacheModel(CacheModel&&) noexcept;
    CacheModel& operator=(CacheModel&&) noexcept;

    // Replays every traced block of `trace`, wave by wave, keeping what the
    // caches hold from the calls before (a launch may be traced in pieces of
    // consecutive blocks, each a whole number of waves). Returns each block's
    // request counters (countRequests of the warp requests it replayed), so
    // that a caller who wants them too need not build the requests again.
    std::vector<MemoryCounters> replay(const Trace& trace);

    const CacheCounters& counters() const;
    int blocksPerSm() const;
    int l1Bytes() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The whole trace, from empty caches.
CacheCounters modelCaches(const Trace& trace, const CacheConfig& config = {});

}  // namespace tilescope
