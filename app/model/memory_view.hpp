// What the step-through views show of the memory the hardware moves, from
// the warp-request model (trace/warp_requests.hpp) and the cache model
// (trace/cache_model.hpp); no drawing here, so tests can hold the views'
// numbers to the model's.
//
// MemoryFigures: a trace's counters, made once per trace (on the runner's
// thread, with the trace's replay model): every traced block's requests
// counted, their sum, and, when every block of the launch is traced, the
// launch replayed through L1 and L2.
//
// BlockRequests: one block's requests, made once when the block is first
// shown, each with the replay position at which the views show it (just
// past its warp's part of the step of its earliest lane's access), and each
// warp's requests in that order: the "warp request" granularity steps
// through the selected thread's warp's list.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trace/cache_model.hpp"
#include "trace/trace_index.hpp"
#include "trace/warp_requests.hpp"

namespace tilescope::ui {

// [SECTION] A trace's counters

// The halo loads of a kernel that leaves the halo to the caches: the source
// line of N whose loads the cache model served, other than the line that
// loads the tile (the first line of N); the one moving the most sectors.
struct HaloLoads {
    std::uint16_t line = 0;
    std::uint64_t sectors = 0, l1Hits = 0, l2Hits = 0, dramSectors = 0;
};

struct MemoryFigures {
    std::vector<MemoryCounters> blocks;  // per traced block (countMemory)
    MemoryCounters totals;               // their sum
    // With every block of the launch traced: the launch through the caches.
    std::optional<CacheCounters> caches;
    int blocksPerSm = 0;
    int l1Bytes = 0;
    std::uint64_t inputBytes = 0;   // N's size in bytes (its pitch included)
    std::optional<HaloLoads> halo;  // conv1d_tiled_cached and conv2d_tiled_cached
};

MemoryFigures memoryFigures(const Trace& trace);

// The halo loads among `caches`' lines, for a kernel that reads its halo from
// global memory; nullopt for any other kernel.
std::optional<HaloLoads> haloLoads(const Trace& trace, const CacheCounters& caches);

// The Counts panel's rows of the warps' requests: for the selected block and
// for the launch (every traced block), as the panel shows them.
struct MemoryRow {
    const char* key;          // the layout probe's name: counts.memory.<key>
    const char* label;        // "global load sectors"
    const char* explanation;  // "32 bytes each"
    std::string block, launch;
};
std::vector<MemoryRow> memoryRows(const MemoryCounters& block, const MemoryCounters& launch);

// The cache model's lines of the Counts panel (empty without it): hit rates,
// DRAM bytes against N's size, and for a kernel that leaves the halo to the
// caches, where its halo loads were served, beside the book's assumption.
std::vector<std::string> cacheLines(const MemoryFigures& figures);

// [SECTION] One block's requests, for stepping and drawing

class BlockRequests {
public:
    explicit BlockRequests(const BlockReplay& replay);

    const BlockReplay& replay() const { return *m_replay; }
    const std::vector<WarpRequest>& all() const { return m_requests; }
    const WarpRequest& request(std::uint32_t r) const { return m_requests[r]; }
    // The cursor at which the views show request r: its warp's part of its step has happened.
    Cursor shownAt(std::uint32_t r) const { return m_shownAt[r]; }
    // Warp w's requests (indices into all()), by shownAt() and then in the model's order.
    const std::vector<std::uint32_t>& ofWarp(unsigned warp) const;

    // Warp w's latest request shown by `cursor` (shownAt <= cursor) that
    // `wanted` accepts; nullopt when none.
    std::optional<std::uint32_t> latest(unsigned warp, Cursor cursor,
                                        const std::function<bool(const WarpRequest&)>& wanted = {}) const;

private:
    const BlockReplay* m_replay;
    std::vector<WarpRequest> m_requests;
    std::vector<Cursor> m_shownAt;
    std::vector<std::vector<std::uint32_t>> m_byWarp;
    std::vector<std::uint32_t> m_none;
};

// Stepping by the requests of one warp. `current`: the request the view
// stands on, when the cursor was put there by stepping (several requests
// can share a cursor); otherwise the latest at or before the cursor counts.
struct RequestStep {
    Cursor cursor = 0;
    std::optional<std::uint32_t> request;  // the request now shown (nullopt: before the first, or the end)
};
RequestStep nextRequest(const BlockRequests& requests, unsigned warp, Cursor cursor,
                        std::optional<std::uint32_t> current);
RequestStep previousRequest(const BlockRequests& requests, unsigned warp, Cursor cursor,
                            std::optional<std::uint32_t> current);

// What each view draws: the grid of N a global request of N; the shared
// tile a shared request; the mask a load of the mask (constant or global).
inline bool isGlobalRequestOfN(const WarpRequest& r) {
    return r.space == RequestSpace::Global && r.array == kArrayInput;
}
inline bool isSharedRequest(const WarpRequest& r) {
    return r.space == RequestSpace::Shared;
}
inline bool isMaskRequest(const WarpRequest& r) {
    return r.array == kArrayMask && !r.store;
}

// [SECTION] Words and shapes

// "global load of N", "shared store of N_s", "constant load of F_c"
std::string requestName(const Trace& trace, const WarpRequest& r);
// Bytes used / bytes moved (sectors x 32) of a global request, in percent.
double requestEfficiency(const WarpRequest& r);
// "6 sectors, 67% used"
std::string sectorSummary(const WarpRequest& r);
// "2 wavefronts (2-way conflict)", "1 wavefront (no conflict)"
std::string wavefrontSummary(const WarpRequest& r);
// "broadcast (1 address)", "serialised 3 ways (3 addresses)"
std::string constantSummary(const WarpRequest& r);

// A run of cells of one row of a 2D (or 1D) array that one 32-byte sector covers.
struct SectorRun {
    std::int64_t sector = 0;
    int x0 = 0, x1 = 0, y = 0;  // cells x0 <= x < x1 of row y
};
// The runs of each sector a global request on `array` touches, sector by
// sector (ascending); a sector that wraps past a row's end is two runs, and
// the parts of a pitched row past the array's width are left out.
std::vector<SectorRun> sectorRuns(const ArrayInfo& array, const WarpRequest& r, std::span<const Event> events);

}  // namespace tilescope::ui
