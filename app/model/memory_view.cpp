#include "model/memory_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/kernel_catalogue.hpp"

namespace tilescope::ui {

// [SECTION] A trace's counters

std::optional<HaloLoads> haloLoads(const Trace& trace, const CacheCounters& caches) {
    if (trace.plan.kernel == KernelId::Own)
        return std::nullopt;
    const KernelId id = correctedKernel(kernelOf(trace.plan)).id;
    if (id != KernelId::Conv1dTiledCached && id != KernelId::Conv2dTiledCached)
        return std::nullopt;
    // The tile is loaded by the first line of the kernel that reads N; the
    // halo by another (the branch of the tap loop that misses the tile).
    const CacheLineCounts* tile = nullptr;
    for (const CacheLineCounts& l : caches.lines)
        if (l.array == kArrayInput && (!tile || l.line < tile->line))
            tile = &l;
    const CacheLineCounts* halo = nullptr;
    for (const CacheLineCounts& l : caches.lines)
        if (l.array == kArrayInput && &l != tile && (!halo || l.sectors > halo->sectors))
            halo = &l;
    if (!halo)
        return std::nullopt;
    return HaloLoads{halo->line, halo->sectors, halo->l1Hits, halo->l2Hits, halo->dramSectors};
}

MemoryFigures memoryFigures(const Trace& trace) {
    MemoryFigures f;
    const ArrayInfo& n = trace.arrays[kArrayInput];
    f.inputBytes = static_cast<std::uint64_t>(std::max(n.size, 0)) * 4;
    // With the whole launch traced, the caches' replay counts each block's requests on the way.
    if (!trace.blocks.empty() && trace.blocks.size() == trace.plan.grid.count()) {
        CacheModel model(CacheConfig{}, trace.plan);
        f.blocks = model.replay(trace);
        f.caches = model.counters();
        f.blocksPerSm = model.blocksPerSm();
        f.l1Bytes = model.l1Bytes();
        f.halo = haloLoads(trace, *f.caches);
    } else {
        for (std::size_t b = 0; b < trace.blocks.size(); ++b) f.blocks.push_back(countMemory(trace, b));
    }
    for (const MemoryCounters& block : f.blocks) f.totals += block;
    return f;
}

namespace {
std::string count(std::uint64_t v) {
    return std::to_string(v);
}
std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100.0 * fraction);
    return text;
}
std::string perRequest(std::uint64_t wavefronts, std::uint64_t requests) {
    if (requests == 0)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", static_cast<double>(wavefronts) / static_cast<double>(requests));
    return text;
}
// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}
std::string share(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? std::string("0%") : percent(static_cast<double>(part) / static_cast<double>(whole));
}
}  // namespace

std::vector<MemoryRow> memoryRows(const MemoryCounters& b, const MemoryCounters& l) {
    std::vector<MemoryRow> rows;
    auto add = [&](const char* key, const char* label, const char* explanation, std::string block, std::string launch) {
        rows.push_back({key, label, explanation, std::move(block), std::move(launch)});
    };
    add("global_load_requests", "global load requests", "one per warp and instruction", count(b.globalLoadRequests),
        count(l.globalLoadRequests));
    add("global_load_sectors", "global load sectors", "32 bytes each", count(b.globalLoadSectors),
        count(l.globalLoadSectors));
    add("global_load_efficiency", "global load efficiency", "bytes used / moved", percent(b.globalLoadEfficiency()),
        percent(l.globalLoadEfficiency()));
    add("global_store_requests", "global store requests", "", count(b.globalStoreRequests),
        count(l.globalStoreRequests));
    add("global_store_sectors", "global store sectors", "32 bytes each", count(b.globalStoreSectors),
        count(l.globalStoreSectors));
    add("global_store_efficiency", "global store efficiency", "bytes used / moved", percent(b.globalStoreEfficiency()),
        percent(l.globalStoreEfficiency()));
    add("shared_load_requests", "shared load requests", "", count(b.sharedLoadRequests), count(l.sharedLoadRequests));
    add("shared_load_wavefronts", "shared load wavefronts", "one per bank pass", count(b.sharedLoadWavefronts),
        count(l.sharedLoadWavefronts));
    add("shared_load_conflict", "  wavefronts per load", "1: no bank conflict",
        perRequest(b.sharedLoadWavefronts, b.sharedLoadRequests),
        perRequest(l.sharedLoadWavefronts, l.sharedLoadRequests));
    add("shared_store_requests", "shared store requests", "", count(b.sharedStoreRequests),
        count(l.sharedStoreRequests));
    add("shared_store_wavefronts", "shared store wavefronts", "one per bank pass", count(b.sharedStoreWavefronts),
        count(l.sharedStoreWavefronts));
    add("shared_store_conflict", "  wavefronts per store", "1: no bank conflict",
        perRequest(b.sharedStoreWavefronts, b.sharedStoreRequests),
        perRequest(l.sharedStoreWavefronts, l.sharedStoreRequests));
    add("constant_load_requests", "constant requests", "", count(b.constantLoadRequests),
        count(l.constantLoadRequests));
    add("constant_load_serialised", "constant passes serialised", "0: every one a broadcast",
        count(b.constantLoadSerialised), count(l.constantLoadSerialised));
    return rows;
}

std::vector<std::string> cacheLines(const MemoryFigures& f) {
    std::vector<std::string> lines;
    if (!f.caches)
        return lines;
    const CacheCounters& c = *f.caches;
    char text[256];
    std::snprintf(text, sizeof text, "L1 hits: %s of %s global load sectors", percent(c.l1HitRate()).c_str(),
                  grouped(c.loadSectors).c_str());
    lines.push_back(text);
    std::snprintf(text, sizeof text, "L2 hit rate: %s (loads and stores)", percent(c.l2HitRate()).c_str());
    lines.push_back(text);
    std::snprintf(text, sizeof text, "DRAM read %s bytes: %.2f x N's %s", grouped(c.dramReadBytes).c_str(),
                  f.inputBytes ? static_cast<double>(c.dramReadBytes) / static_cast<double>(f.inputBytes) : 0.0,
                  grouped(f.inputBytes).c_str());
    lines.push_back(text);
    if (f.halo) {
        const HaloLoads& h = *f.halo;
        lines.push_back(
            "The book: halo cells are read from global memory, \"hopefully\" from the L2 cache. The "
            "model, halo loads of N (line " +
            std::to_string(h.line) + "): " + share(h.l1Hits, h.sectors) + " of their sectors from L1, " +
            share(h.l2Hits, h.sectors) + " from L2, " + share(h.dramSectors, h.sectors) + " from DRAM");
    }
    return lines;
}

// [SECTION] One block's requests

BlockRequests::BlockRequests(const BlockReplay& replay)
    : m_replay(&replay), m_requests(warpRequests(replay.trace(), replay.blockIndex())) {
    m_shownAt.resize(m_requests.size(), 0);
    m_byWarp.resize(replay.warpCount());
    for (std::uint32_t r = 0; r < m_requests.size(); ++r) {
        const WarpRequest& q = m_requests[r];
        Cursor at = replay.size();
        if (q.step < replay.stepCount()) {
            // Just past the warp's events of the step (a step's events go by ascending thread).
            const StepInfo& s = replay.step(q.step);
            const unsigned warpEnd = (q.warp + 1) * kWarpSize;
            Cursor lo = s.begin, hi = s.end;
            while (lo < hi) {
                const Cursor mid = lo + (hi - lo) / 2;
                if (replay.threadOf(replay.eventAt(mid)) < warpEnd)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            at = lo;
        }
        m_shownAt[r] = at;
        if (q.warp < m_byWarp.size())
            m_byWarp[q.warp].push_back(r);
    }
    for (auto& list : m_byWarp)
        std::stable_sort(list.begin(), list.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return m_shownAt[a] < m_shownAt[b]; });
}

const std::vector<std::uint32_t>& BlockRequests::ofWarp(unsigned warp) const {
    return warp < m_byWarp.size() ? m_byWarp[warp] : m_none;
}

std::optional<std::uint32_t> BlockRequests::latest(unsigned warp, Cursor cursor,
                                                   const std::function<bool(const WarpRequest&)>& wanted) const {
    const std::vector<std::uint32_t>& list = ofWarp(warp);
    auto end = std::partition_point(list.begin(), list.end(), [&](std::uint32_t r) { return m_shownAt[r] <= cursor; });
    for (auto it = end; it != list.begin();) {
        --it;
        if (!wanted || wanted(m_requests[*it]))
            return *it;
    }
    return std::nullopt;
}

namespace {
// Where the view stands in warp w's list: the index of `current` when it is
// shown at `cursor`, else of the latest shown by then; -1 before the first.
long long standing(const BlockRequests& requests, unsigned warp, Cursor cursor, std::optional<std::uint32_t> current) {
    const std::vector<std::uint32_t>& list = requests.ofWarp(warp);
    if (current && requests.shownAt(*current) == cursor) {
        auto it = std::find(list.begin(), list.end(), *current);
        if (it != list.end())
            return it - list.begin();
    }
    auto end =
        std::partition_point(list.begin(), list.end(), [&](std::uint32_t r) { return requests.shownAt(r) <= cursor; });
    return static_cast<long long>(end - list.begin()) - 1;
}
}  // namespace

RequestStep nextRequest(const BlockRequests& requests, unsigned warp, Cursor cursor,
                        std::optional<std::uint32_t> current) {
    const std::vector<std::uint32_t>& list = requests.ofWarp(warp);
    const long long k = standing(requests, warp, cursor, current) + 1;
    if (k < static_cast<long long>(list.size())) {
        const std::uint32_t r = list[static_cast<std::size_t>(k)];
        return {std::max(cursor, requests.shownAt(r)), r};
    }
    // Past the warp's last request: the end, unless the last is shown there already (then it stays).
    if (cursor >= requests.replay().size() && !list.empty() && k - 1 >= 0 &&
        requests.shownAt(list[static_cast<std::size_t>(k - 1)]) == cursor)
        return {cursor, list[static_cast<std::size_t>(k - 1)]};
    return {requests.replay().size(), std::nullopt};
}

RequestStep previousRequest(const BlockRequests& requests, unsigned warp, Cursor cursor,
                            std::optional<std::uint32_t> current) {
    const std::vector<std::uint32_t>& list = requests.ofWarp(warp);
    long long k = standing(requests, warp, cursor, current);
    // Past the request it stands after (between requests, or at the end): back to that one.
    if (k >= 0 && requests.shownAt(list[static_cast<std::size_t>(k)]) < cursor) {
        const std::uint32_t r = list[static_cast<std::size_t>(k)];
        return {requests.shownAt(r), r};
    }
    --k;
    if (k >= 0) {
        const std::uint32_t r = list[static_cast<std::size_t>(k)];
        return {requests.shownAt(r), r};
    }
    return {0, std::nullopt};
}

// [SECTION] Words and shapes

std::string requestName(const Trace& trace, const WarpRequest& r) {
    const char* space = r.space == RequestSpace::Global   ? "global"
                        : r.space == RequestSpace::Shared ? "shared"
                                                          : "constant";
    const std::string array = r.array < kArrayCount ? trace.arrays[r.array].name : std::string("?");
    return std::string(space) + (r.store ? " store to " : " load of ") + array;
}

double requestEfficiency(const WarpRequest& r) {
    return r.sectors == 0 ? 0.0
                          : 100.0 * static_cast<double>(r.bytes) / (static_cast<double>(r.sectors) * kSectorBytes);
}

std::string sectorSummary(const WarpRequest& r) {
    char text[64];
    std::snprintf(text, sizeof text, "%u sector%s, %.0f%% used", r.sectors, r.sectors == 1 ? "" : "s",
                  requestEfficiency(r));
    return text;
}

std::string wavefrontSummary(const WarpRequest& r) {
    char text[96];
    // 8 or 16 bytes a lane: a half or a quarter of the warp a wavefront at best (warp_requests.cpp).
    const std::uint32_t parts = r.laneBytes > 4 ? r.laneBytes / 4u : 1u;  // 32 lanes / (128 bytes / laneBytes)
    if (r.wavefronts <= 1)
        std::snprintf(text, sizeof text, "1 wavefront (no conflict)");
    else if (r.wavefronts <= parts)
        std::snprintf(text, sizeof text, "%u wavefronts (no conflict: %u bytes a lane)", r.wavefronts, r.laneBytes);
    else if (parts > 1)
        std::snprintf(text, sizeof text, "%u wavefronts (%u more than %u bytes a lane need)", r.wavefronts,
                      r.wavefronts - parts, r.laneBytes);
    else
        std::snprintf(text, sizeof text, "%u wavefronts (%u-way conflict)", r.wavefronts, r.wavefronts);
    return text;
}

std::string constantSummary(const WarpRequest& r) {
    char text[64];
    if (r.wavefronts <= 1)
        std::snprintf(text, sizeof text, "broadcast (1 address)");
    else
        std::snprintf(text, sizeof text, "serialised %u ways (%u addresses)", r.wavefronts, r.wavefronts);
    return text;
}

std::vector<SectorRun> sectorRuns(const ArrayInfo& array, const WarpRequest& r, std::span<const Event> events) {
    std::vector<SectorRun> runs;
    const std::int64_t perSector = kSectorBytes / 4;
    for (std::int64_t sector : requestSectors(r, events)) {
        std::optional<SectorRun> run;
        for (std::int64_t i = sector * perSector; i < (sector + 1) * perSector; ++i) {
            if (i < 0 || i >= array.size)
                continue;
            const ArrayInfo::Coords c = array.coords(static_cast<int>(i));
            if (c.x >= std::max(array.width, 1))
                continue;  // a pitched row's padding
            if (run && run->y == c.y && c.x <= run->x1) {
                run->x1 = std::max(run->x1, c.x + 1);
                continue;
            }
            if (run)
                runs.push_back(*run);
            run = SectorRun{sector, c.x, c.x + 1, c.y};
        }
        if (run)
            runs.push_back(*run);
    }
    return runs;
}

}  // namespace tilescope::ui
