#include "trace/warp_requests.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace tilescope {

MemoryCounters& MemoryCounters::operator+=(const MemoryCounters& o) {
    globalLoadRequests += o.globalLoadRequests;
    globalLoadSectors += o.globalLoadSectors;
    globalLoadBytes += o.globalLoadBytes;
    globalStoreRequests += o.globalStoreRequests;
    globalStoreSectors += o.globalStoreSectors;
    globalStoreBytes += o.globalStoreBytes;
    sharedLoadRequests += o.sharedLoadRequests;
    sharedLoadWavefronts += o.sharedLoadWavefronts;
    sharedStoreRequests += o.sharedStoreRequests;
    sharedStoreWavefronts += o.sharedStoreWavefronts;
    constantLoadRequests += o.constantLoadRequests;
    constantLoadSerialised += o.constantLoadSerialised;
    return *this;
}

namespace {

double ratio(std::uint64_t a, std::uint64_t b) {
    return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

}  // namespace

double MemoryCounters::globalLoadEfficiency() const {
    return ratio(globalLoadBytes, globalLoadSectors * kSectorBytes);
}
double MemoryCounters::globalStoreEfficiency() const {
    return ratio(globalStoreBytes, globalStoreSectors * kSectorBytes);
}
double MemoryCounters::sharedLoadEfficiency() const {
    return ratio(sharedLoadRequests, sharedLoadWavefronts);
}
double MemoryCounters::sharedStoreEfficiency() const {
    return ratio(sharedStoreRequests, sharedStoreWavefronts);
}

std::vector<WarpRequest> warpRequests(const Trace& trace, std::size_t blockIndex) {
    const std::vector<Event>& events = trace.blocks[blockIndex].events;
    // Key: warp, phase, array, load or store, source line, and the thread's
    // count of such accesses so far in the phase.
    using Key = std::tuple<std::uint32_t, std::uint16_t, std::uint8_t, bool, std::uint16_t, std::uint32_t>;
    std::map<Key, std::size_t> index;
    std::vector<WarpRequest> requests;
    // Per thread: how many accesses of (phase, array, store, line) it has made.
    std::map<std::tuple<std::uint16_t, std::uint16_t, std::uint8_t, bool, std::uint16_t>, std::uint32_t> seen;
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (e.array >= kArrayCount || (!isLoad(e.op) && !isStore(e.op)) || isOutside(e.op))
            continue;
        const Space space = trace.arrays[e.array].space;
        if (space == Space::Register)
            continue;
        const bool store = isStore(e.op);
        const std::uint32_t n = seen[{e.thread, e.phase, e.array, store, e.line}]++;
        const Key key{e.thread / 32u, e.phase, e.array, store, e.line, n};
        auto [it, added] = index.try_emplace(key, requests.size());
        if (added) {
            WarpRequest r;
            r.space = space == Space::Shared     ? RequestSpace::Shared
                      : space == Space::Constant ? RequestSpace::Constant
                                                 : RequestSpace::Global;
            r.store = store;
            r.array = e.array;
            r.line = e.line;
            r.warp = e.thread / 32u;
            requests.push_back(std::move(r));
        }
        requests[it->second].events.push_back(i);
    }
    for (WarpRequest& r : requests) {
        std::vector<std::int64_t> words;
        for (std::uint32_t i : r.events)
            words.push_back(events[i].index);
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        r.bytes = static_cast<std::uint32_t>(words.size() * 4);
        if (r.space == RequestSpace::Global) {
            std::vector<std::int64_t> sectors, lines;
            for (std::int64_t w : words) {
                sectors.push_back(w * 4 / kSectorBytes);
                lines.push_back(w * 4 / kLineBytes);
            }
            sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
            lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
            r.sectors = static_cast<std::uint32_t>(sectors.size());
            r.lines = static_cast<std::uint32_t>(lines.size());
        } else if (r.space == RequestSpace::Shared) {
            std::uint32_t perBank[kBanks] = {};
            for (std::int64_t w : words)
                ++perBank[static_cast<std::size_t>(((w % kBanks) + kBanks) % kBanks)];
            r.wavefronts = *std::max_element(std::begin(perBank), std::end(perBank));
        } else {
            r.wavefronts = static_cast<std::uint32_t>(words.size());
        }
    }
    return requests;
}

MemoryCounters countRequests(const std::vector<WarpRequest>& requests) {
    MemoryCounters c;
    for (const WarpRequest& r : requests) {
        switch (r.space) {
            case RequestSpace::Global:
                if (r.store) {
                    ++c.globalStoreRequests;
                    c.globalStoreSectors += r.sectors;
                    c.globalStoreBytes += r.bytes;
                } else {
                    ++c.globalLoadRequests;
                    c.globalLoadSectors += r.sectors;
                    c.globalLoadBytes += r.bytes;
                }
                break;
            case RequestSpace::Shared:
                if (r.store) {
                    ++c.sharedStoreRequests;
                    c.sharedStoreWavefronts += r.wavefronts;
                } else {
                    ++c.sharedLoadRequests;
                    c.sharedLoadWavefronts += r.wavefronts;
                }
                break;
            case RequestSpace::Constant:
                if (!r.store) {
                    ++c.constantLoadRequests;
                    c.constantLoadSerialised += r.wavefronts > 0 ? r.wavefronts - 1 : 0;
                }
                break;
        }
    }
    return c;
}

MemoryCounters countMemory(const Trace& trace, std::size_t blockIndex) {
    return countRequests(warpRequests(trace, blockIndex));
}

}  // namespace tilescope
