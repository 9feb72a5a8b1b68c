#include "trace/cache_model.hpp"

#include <algorithm>
#include <map>

#include "trace/warp_requests.hpp"

namespace tilescope {

namespace {

constexpr int kSectorsPerLine = kLineBytes / kSectorBytes;

// A set-associative cache of 128-byte lines holding any of their four
// sectors, least recently used line evicted. A line's set is a hash of its
// address, not its address modulo the number of sets: GPUs hash the address
// bits that choose a set, and with the plain modulo an image whose rows are a
// power of two apart (1024 floats: every 32nd line) would put the rows of one
// block's tile in the same few sets and evict its own halo from L1.
class SectorCache {
public:
    SectorCache() = default;
    SectorCache(std::int64_t bytes, int ways) {
        m_ways = std::max(1, ways);
        const std::int64_t lines = std::max<std::int64_t>(m_ways, bytes / kLineBytes);
        m_sets = static_cast<std::size_t>(std::max<std::int64_t>(1, lines / m_ways));
        m_entries.assign(m_sets * static_cast<std::size_t>(m_ways), Entry{});
    }

    // Looks sector `sector` up; fills it (and its line, evicting) when absent. Returns whether it was present.
    bool access(std::int64_t sector) {
        const std::int64_t line = sector / kSectorsPerLine;
        const std::uint8_t bit = static_cast<std::uint8_t>(1u << (sector % kSectorsPerLine));
        Entry* set = &m_entries[setOf(line) * static_cast<std::size_t>(m_ways)];
        ++m_clock;
        Entry* victim = nullptr;
        for (int w = 0; w < m_ways; ++w) {
            Entry& e = set[w];
            if (e.sectors != 0 && e.line == line) {
                e.lastUse = m_clock;
                const bool hit = (e.sectors & bit) != 0;
                e.sectors |= bit;
                return hit;
            }
            // An empty way first, else the least recently used.
            if (!victim || (victim->sectors != 0 && (e.sectors == 0 || e.lastUse < victim->lastUse))) victim = &e;
        }
        victim->line = line;
        victim->sectors = bit;
        victim->lastUse = m_clock;
        return false;
    }

private:
    std::size_t setOf(std::int64_t line) const {
        std::uint64_t h = static_cast<std::uint64_t>(line);
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        return static_cast<std::size_t>(h % m_sets);
    }
    struct Entry {
        std::int64_t line = -1;
        std::uint64_t lastUse = 0;
        std::uint8_t sectors = 0;
    };
    std::vector<Entry> m_entries;
    std::size_t m_sets = 1;
    int m_ways = 1;
    std::uint64_t m_clock = 0;
};

// The shared-memory carve-outs an H100 offers, in KiB: the driver takes the
// smallest that holds the resident blocks' shared memory.
int carveOutBytes(int sharedBytes) {
    for (int kib : {0, 8, 16, 32, 64, 100, 132, 164, 196, 228})
        if (kib * 1024 >= sharedBytes) return kib * 1024;
    return 228 * 1024;
}

// Arrays are apart in the address space (each starts on its own 256-byte boundary).
std::int64_t arrayBase(std::uint8_t array) { return static_cast<std::int64_t>(array) << 40; }

}  // namespace

double CacheCounters::l1HitRate() const {
    return loadSectors == 0 ? 0.0 : static_cast<double>(l1Hits) / static_cast<double>(loadSectors);
}

double CacheCounters::l2HitRate() const {
    const std::uint64_t looked = l2LoadSectors + storeSectors;
    return looked == 0 ? 0.0 : static_cast<double>(l2LoadHits + storeSectors) / static_cast<double>(looked);
}

struct CacheModel::State {
    CacheConfig config;
    int blocksPerSm = 1;
    int l1Bytes = 0;
    std::vector<SectorCache> l1;  // per SM
    SectorCache l2;
    CacheCounters counters;
    std::map<std::pair<std::uint16_t, std::uint8_t>, CacheLineCounts> lines;
};

CacheModel::CacheModel(const CacheConfig& config, const LaunchPlan& plan) : m_state(std::make_unique<State>()) {
    State& s = *m_state;
    s.config = config;
    const int threads = static_cast<int>(std::max(1u, plan.block.count()));
    const int shared = static_cast<int>(plan.sharedBytes);
    int perSm = config.blocksPerSm;
    if (perSm <= 0) {
        perSm = std::min(config.maxBlocksPerSm, config.maxThreadsPerSm / threads);
        if (shared > 0) perSm = std::min(perSm, config.sharedPerSm / shared);
        perSm = std::max(1, perSm);
    }
    s.blocksPerSm = perSm;
    s.l1Bytes = config.l1Bytes > 0 ? config.l1Bytes
                                    : std::max(16 * 1024, config.l1AndSharedBytes - carveOutBytes(shared * perSm));
    s.l1.assign(static_cast<std::size_t>(std::max(1, config.sms)), SectorCache(s.l1Bytes, config.l1Ways));
    s.l2 = SectorCache(config.l2Bytes, config.l2Ways);
}

CacheModel::~CacheModel() = default;
CacheModel::CacheModel(CacheModel&&) noexcept = default;
CacheModel& CacheModel::operator=(CacheModel&&) noexcept = default;

std::vector<MemoryCounters> CacheModel::replay(const Trace& trace) {
    State& s = *m_state;
    std::vector<MemoryCounters> perBlock(trace.blocks.size());
    const std::size_t sms = s.l1.size();
    const std::size_t wave = sms * static_cast<std::size_t>(s.blocksPerSm);
    std::vector<std::int64_t> sectors;
    for (std::size_t first = 0; first < trace.blocks.size();) {
        // The traced blocks of one wave: block k of the launch is in wave k / (sms x blocksPerSm), on SM k % sms.
        const std::size_t waveOf = trace.linearBlock(trace.blocks[first].block) / wave;
        std::size_t count = 1;
        while (first + count < trace.blocks.size() &&
               trace.linearBlock(trace.blocks[first + count].block) / wave == waveOf)
            ++count;
        std::vector<std::vector<WarpRequest>> requests(count);
        std::vector<std::size_t> sm(count), next(count, 0);
        for (std::size_t b = 0; b < count; ++b) {
            requests[b] = warpRequests(trace, first + b);
            perBlock[first + b] = countRequests(requests[b]);
            sm[b] = trace.linearBlock(trace.blocks[first + b].block) % sms;
        }
        // The resident blocks take turns, one request each.
        for (bool more = true; more;) {
            more = false;
            for (std::size_t b = 0; b < count; ++b) {
                if (next[b] >= requests[b].size()) continue;
                more = true;
                const WarpRequest& r = requests[b][next[b]++];
                if (r.space != RequestSpace::Global) continue;
                const std::vector<Event>& events = trace.blocks[first + b].events;
                sectors = requestSectors(r, events);
                const std::int64_t base = arrayBase(r.array) / kSectorBytes;
                if (r.store) {
                    for (std::int64_t sector : sectors) {
                        ++s.counters.storeSectors;
                        if (s.l2.access(base + sector)) ++s.counters.l2StoreHits;
                    }
                    continue;
                }
                CacheLineCounts& line = s.lines[{r.line, r.array}];
                line.line = r.line;
                line.array = r.array;
                for (std::int64_t sector : sectors) {
                    ++s.counters.loadSectors;
                    ++line.sectors;
                    if (s.l1[sm[b]].access(base + sector)) {
                        ++s.counters.l1Hits;
                        ++line.l1Hits;
                        continue;
                    }
                    ++s.counters.l2LoadSectors;
                    if (s.l2.access(base + sector)) {
                        ++s.counters.l2LoadHits;
                        ++line.l2Hits;
                    } else {
                        s.counters.dramReadBytes += kSectorBytes;
                        ++line.dramSectors;
                    }
                }
            }
        }
        first += count;
    }
    s.counters.lines.clear();
    for (const auto& [key, line] : s.lines) s.counters.lines.push_back(line);
    return perBlock;
}

const CacheCounters& CacheModel::counters() const { return m_state->counters; }
int CacheModel::blocksPerSm() const { return m_state->blocksPerSm; }
int CacheModel::l1Bytes() const { return m_state->l1Bytes; }

CacheCounters modelCaches(const Trace& trace, const CacheConfig& config) {
    CacheModel model(config, trace.plan);
    model.replay(trace);
    return model.counters();
}

}  // namespace tilescope
