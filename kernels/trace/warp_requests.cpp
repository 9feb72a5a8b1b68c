#include "trace/warp_requests.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "trace/sources.hpp"

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

// Where a lane's access sits in its warp's instruction stream (see the header).
struct PlaceKey {
    std::uint32_t phase;
    std::int32_t tap;         // the mask element the lane's current tap read; kNoTap after the taps
    std::uint32_t tapRepeat;  // how many times before the lane had read that element
    std::uint32_t nth;
    std::uint16_t line;
    std::uint8_t array;
    bool store;
    friend bool operator==(const PlaceKey&, const PlaceKey&) = default;
};

struct PlaceHash {
    std::size_t operator()(const PlaceKey& k) const noexcept {
        std::uint64_t h = (static_cast<std::uint64_t>(k.phase) << 48) ^
                          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.tap)) << 24) ^
                          (static_cast<std::uint64_t>(k.tapRepeat) << 16) ^
                          k.nth ^ (static_cast<std::uint64_t>(k.line) << 36) ^
                          (static_cast<std::uint64_t>(k.array) << 60) ^ (k.store ? 1ull << 63 : 0);
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 32;
        return static_cast<std::size_t>(h);
    }
};

constexpr std::int32_t kNoTap = -2;    // an access after the phase's taps (the store of the result)
constexpr std::int32_t kLoopPass = -3;  // an access in a loop that fills shared memory, placed by its pass
constexpr std::size_t kNoTapEvent = ~std::size_t{0};

// A thread's count of its accesses of one (line, array, load or store) since its last multiply-add.
struct LineCount {
    std::uint16_t line;
    std::uint8_t array;
    bool store;
    std::uint32_t count;
};

void measure(WarpRequest& r, std::span<const Event> events, std::vector<std::int64_t>& words) {
    words.clear();
    for (std::uint32_t i : r.events) words.push_back(events[i].index);
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    r.bytes = static_cast<std::uint32_t>(words.size() * 4);
    if (r.space == RequestSpace::Global) {
        std::int64_t lastSector = -1, lastLine = -1;
        std::uint32_t sectors = 0, lines = 0;
        for (std::int64_t w : words) {  // ascending, so sectors and lines ascend too
            if (sectorOf(w) != lastSector) ++sectors, lastSector = sectorOf(w);
            if (lineOf(w) != lastLine) ++lines, lastLine = lineOf(w);
        }
        r.sectors = sectors;
        r.lines = lines;
    } else if (r.space == RequestSpace::Shared && r.laneBytes > 4) {
        // 8 or 16 bytes a lane: the warp is served a half or a quarter at a time (lanes 0-15, 16-31; or
        // 0-7, 8-15, ...), 128 bytes a pass at best; each part's bank conflicts add passes of their own.
        const std::uint32_t lanesPerPart = 128u / r.laneBytes;
        std::uint32_t total = 0;
        for (std::uint32_t part = 0; part < kWarpSize / lanesPerPart; ++part) {
            words.clear();
            for (std::uint32_t i : r.events)
                if (events[i].thread % kWarpSize / lanesPerPart == part) words.push_back(events[i].index);
            std::sort(words.begin(), words.end());
            words.erase(std::unique(words.begin(), words.end()), words.end());
            std::uint32_t perBank[kBanks] = {};
            for (std::int64_t w : words) ++perBank[bankOf(w)];
            total += *std::max_element(std::begin(perBank), std::end(perBank));
        }
        r.wavefronts = total;
    } else if (r.space == RequestSpace::Shared) {
        std::uint32_t perBank[kBanks] = {};
        for (std::int64_t w : words) ++perBank[bankOf(w)];
        r.wavefronts = *std::max_element(std::begin(perBank), std::end(perBank));
    } else {
        r.wavefronts = static_cast<std::uint32_t>(words.size());
    }
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

namespace {

std::vector<std::uint16_t> scanVectorLines(std::string_view text) {
    std::vector<std::uint16_t> lines;
    int line = 1;
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view s = text.substr(begin, end - begin);
        const std::string_view code = s.substr(0, s.find("//"));
        if (code.find("load4(") != std::string_view::npos || code.find("store4(") != std::string_view::npos ||
            code.find("copyAsync4(") != std::string_view::npos)
            lines.push_back(static_cast<std::uint16_t>(line));
        begin = end + 1;
        ++line;
    }
    return lines;
}

}  // namespace

std::vector<std::uint16_t> vectorAccessLines(const Trace& trace) {
    if (trace.plan.kernel == KernelId::Own) return {};
    // The built-in sources are fixed: each is scanned once.
    static const std::vector<std::vector<std::uint16_t>> byKernel = [] {
        std::vector<std::vector<std::uint16_t>> all;
        for (int k = 0; k < static_cast<int>(KernelId::Own); ++k)
            all.push_back(scanVectorLines(kernelSource(kernelInfo(static_cast<KernelId>(k)))));
        return all;
    }();
    return byKernel[static_cast<std::size_t>(trace.plan.kernel)];
}

namespace {

// Per barrier phase, a bit for each shared array that some thread of the
// block stores to from one line more than once in that phase.
std::vector<std::uint32_t> loopingSharedArrays(std::span<const Event> ev, const Space (&spaceOf)[kArrayCount]) {
    std::vector<std::uint32_t> looping;
    std::vector<LineCount> stores;
    std::size_t i = 0;
    while (i < ev.size()) {
        const std::uint16_t thread = ev[i].thread;
        std::uint32_t phase = 0;
        stores.clear();
        for (; i < ev.size() && ev[i].thread == thread; ++i) {
            const Event& e = ev[i];
            if (e.op == Op::Barrier) {
                ++phase;
                stores.clear();
                continue;
            }
            if (!isStore(e.op) || isOutside(e.op) || e.array >= kArrayCount || spaceOf[e.array] != Space::Shared)
                continue;
            auto c = std::find_if(stores.begin(), stores.end(),
                                  [&](const LineCount& l) { return l.line == e.line && l.array == e.array; });
            if (c == stores.end()) {
                stores.push_back(LineCount{e.line, e.array, true, 1});
            } else if (++c->count == 2) {
                if (looping.size() <= phase) looping.resize(phase + 1, 0);
                looping[phase] |= 1u << e.array;
            }
        }
    }
    return looping;
}

}  // namespace

std::vector<WarpRequest> warpRequests(const Trace& trace, std::size_t blockIndex) {
    const std::vector<Event>& events = trace.blocks[blockIndex].events;
    const std::span<const Event> ev(events);
    const std::vector<std::uint16_t> vectorLines = vectorAccessLines(trace);
    auto isVectorLine = [&](std::uint16_t line) {
        return !vectorLines.empty() && std::find(vectorLines.begin(), vectorLines.end(), line) != vectorLines.end();
    };
    Space spaceOf[kArrayCount];
    for (int a = 0; a < kArrayCount; ++a) spaceOf[a] = trace.arrays[a].space;

    std::vector<WarpRequest> requests;
    std::vector<std::uint32_t> firstLocal;      // per request: the least in-phase position of its lanes' accesses
    std::vector<std::uint32_t> phaseLength;     // per phase: the most events of a thread before its barrier
    std::vector<char> phaseHasBarrier;
    std::unordered_map<PlaceKey, std::uint32_t, PlaceHash> index;  // this warp's requests
    std::vector<LineCount> counts;      // accesses in the current tap, since its mask read
    std::vector<LineCount> afterTaps;   // accesses after the phase's last multiply-add (or in a phase without)
    std::vector<std::size_t> lastTap;   // per phase: the event index of the thread's last multiply-add
    std::vector<std::uint32_t> maskReads(static_cast<std::size_t>(std::max(0, trace.arrays[kArrayMask].size)), 0);
    std::vector<std::int32_t> maskTouched;  // the mask elements this thread has read
    std::uint32_t currentWarp = ~0u;

    // A phase whose threads fill a shared array in a loop (some thread stores
    // to it from one line twice, as conv2d_tiled_out's passes over its input
    // tile do): lanes run different numbers of passes of nested loops there,
    // so a count of passes does not say which pass a lane is in. Its place is
    // where the pass stores, relative to where the lane's first pass stored:
    // the same for every lane in one pass of the loops, whatever the lane
    // skipped. An access in such a loop (up to the thread's last store to the
    // array in the phase) is placed by the store that ends its pass; a lane
    // that stores a ghost zero from another line instead of loading still
    // ends its pass with a store, so it stays in step.
    const std::vector<std::uint32_t> loopArrays = loopingSharedArrays(ev, spaceOf);
    std::vector<std::size_t> loopStores;  // the thread's stores to looping arrays, in order
    std::vector<std::size_t> lastLoopStore;  // per phase: the thread's last store to a looping array
    std::vector<std::array<std::int64_t, kArrayCount>> firstLoopIndex;  // per phase and array: its first store's index
    std::size_t i = 0;
    while (i < ev.size()) {
        const std::uint16_t thread = ev[i].thread;
        const std::uint32_t warp = thread / kWarpSize;
        if (warp != currentWarp) {
            index.clear();
            currentWarp = warp;
        }
        // Where this thread's last multiply-add of each phase is: an access
        // before it is in the tap loop, placed by taps; one after it (the
        // store of the result) by its count in the phase alone.
        // One pass over the thread's events: per phase, its last multiply-add
        // and its stores to looping arrays (the first one's index too).
        lastTap.clear();
        lastLoopStore.clear();
        loopStores.clear();
        firstLoopIndex.clear();
        {
            std::uint32_t p = 0;
            for (std::size_t j = i; j < ev.size() && ev[j].thread == thread; ++j) {
                const Event& e = ev[j];
                if (e.op == Op::Barrier) {
                    ++p;
                } else if (e.op == Op::MultiplyAdd) {
                    if (lastTap.size() <= p) lastTap.resize(p + 1, kNoTapEvent);
                    lastTap[p] = j;
                } else if (p < loopArrays.size() && isStore(e.op) && e.array < kArrayCount && !isOutside(e.op) &&
                           (loopArrays[p] >> e.array & 1u)) {
                    if (lastLoopStore.size() <= p) {
                        lastLoopStore.resize(p + 1, kNoTapEvent);
                        std::array<std::int64_t, kArrayCount> none;
                        none.fill(-1);
                        firstLoopIndex.resize(p + 1, none);
                    }
                    if (firstLoopIndex[p][e.array] < 0) firstLoopIndex[p][e.array] = e.index;
                    lastLoopStore[p] = j;
                    loopStores.push_back(j);
                }
            }
        }
        std::size_t nextLoopStore = 0;
        std::uint32_t phase = 0, local = 0, tapRepeat = 0;
        std::int32_t tap = -1;
        for (std::int32_t m : maskTouched) maskReads[static_cast<std::size_t>(m)] = 0;
        maskTouched.clear();
        counts.clear();
        afterTaps.clear();
        std::uint32_t vectorRequest = ~0u;  // the request of the 16-byte access in progress
        int vectorLeft = 0;
        std::int32_t vectorNext = 0;
        for (; i < ev.size() && ev[i].thread == thread; ++i) {
            const Event& e = ev[i];
            if (phase >= phaseLength.size()) {
                phaseLength.resize(phase + 1, 0);
                phaseHasBarrier.resize(phase + 1, 0);
            }
            if (e.op == Op::Barrier) {
                phaseHasBarrier[phase] = 1;
                ++phase;
                local = 0;
                tap = -1;
                tapRepeat = 0;
                counts.clear();
                afterTaps.clear();
                vectorLeft = 0;
                continue;
            }
            const std::uint32_t k = local++;
            phaseLength[phase] = std::max(phaseLength[phase], local);
            if (e.op == Op::MultiplyAdd) {
                vectorLeft = 0;
                continue;
            }
            if (e.array >= kArrayCount || isOutside(e.op) || spaceOf[e.array] == Space::Register) continue;
            const bool store = isStore(e.op);
            const bool inTaps = phase < lastTap.size() && lastTap[phase] != kNoTapEvent && i < lastTap[phase];
            if (inTaps && !store && e.array == kArrayMask && e.index >= 0 &&
                static_cast<std::size_t>(e.index) < maskReads.size()) {
                // A new tap: its mask element places it.
                if (maskReads[static_cast<std::size_t>(e.index)] == 0) maskTouched.push_back(e.index);
                tap = e.index;
                tapRepeat = maskReads[static_cast<std::size_t>(e.index)]++;
                counts.clear();
            }
            // The 2nd to 4th floats of a load4 or store4 join its first.
            if (vectorLeft > 0 && e.line == requests[vectorRequest].line && e.array == requests[vectorRequest].array &&
                store == requests[vectorRequest].store && e.index == vectorNext) {
                requests[vectorRequest].events.push_back(static_cast<std::uint32_t>(i));
                --vectorLeft;
                ++vectorNext;
                continue;
            }
            vectorLeft = 0;
            const bool inLoop = !inTaps && phase < lastLoopStore.size() && lastLoopStore[phase] != kNoTapEvent &&
                                i <= lastLoopStore[phase];
            std::uint32_t passHere = 0;
            if (inLoop) {
                while (loopStores[nextLoopStore] < i) ++nextLoopStore;
                const Event& end = ev[loopStores[nextLoopStore]];
                passHere = static_cast<std::uint32_t>(end.index - firstLoopIndex[phase][end.array]);
            }
            std::vector<LineCount>& lineCounts = inTaps ? counts : afterTaps;
            std::uint32_t nth = 0;
            auto c = std::find_if(lineCounts.begin(), lineCounts.end(), [&](const LineCount& l) {
                return l.line == e.line && l.array == e.array && l.store == store;
            });
            if (c == lineCounts.end()) {
                lineCounts.push_back(LineCount{e.line, e.array, store, 1});
            } else {
                nth = c->count++;
            }
            const PlaceKey key = inTaps   ? PlaceKey{phase, tap, tapRepeat, nth, e.line, e.array, store}
                                 : inLoop ? PlaceKey{phase, kLoopPass, 0u, passHere, e.line, e.array, store}
                                          : PlaceKey{phase, kNoTap, 0u, nth, e.line, e.array, store};
            auto [it, added] = index.try_emplace(key, static_cast<std::uint32_t>(requests.size()));
            if (added) {
                WarpRequest r;
                const Space space = spaceOf[e.array];
                r.space = space == Space::Shared     ? RequestSpace::Shared
                          : space == Space::Constant ? RequestSpace::Constant
                                                     : RequestSpace::Global;
                r.store = store;
                r.array = e.array;
                r.line = e.line;
                r.phase = static_cast<std::uint16_t>(phase);
                r.warp = warp;
                r.laneBytes = isVectorLine(e.line) ? 16 : 4;
                requests.push_back(std::move(r));
                firstLocal.push_back(k);
            }
            WarpRequest& r = requests[it->second];
            r.events.push_back(static_cast<std::uint32_t>(i));
            firstLocal[it->second] = std::min(firstLocal[it->second], k);
            if (r.laneBytes == 16) {
                vectorRequest = it->second;
                vectorLeft = 3;
                vectorNext = e.index + 1;
            }
        }
    }

    // Steps as trace/steps.cpp numbers them: a phase's events, then its barrier step.
    std::vector<std::uint32_t> phaseFirst(phaseLength.size() + 1, 0);
    for (std::size_t p = 0; p < phaseLength.size(); ++p)
        phaseFirst[p + 1] = phaseFirst[p] + phaseLength[p] + (phaseHasBarrier[p] ? 1 : 0);
    std::vector<std::int64_t> words;
    for (std::size_t r = 0; r < requests.size(); ++r) {
        requests[r].step = phaseFirst[requests[r].phase] + firstLocal[r];
        measure(requests[r], ev, words);
    }
    std::stable_sort(requests.begin(), requests.end(), [](const WarpRequest& a, const WarpRequest& b) {
        return a.step != b.step ? a.step < b.step : a.warp < b.warp;
    });
    return requests;
}

std::vector<std::int64_t> requestSectors(const WarpRequest& r, std::span<const Event> events) {
    std::vector<std::int64_t> sectors;
    for (std::uint32_t i : r.events) sectors.push_back(sectorOf(events[i].index));
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    return sectors;
}

std::vector<bool> conflictingEvents(const WarpRequest& r, std::span<const Event> events) {
    // 8 or 16 bytes a lane: banks are shared only within a half or a quarter of the warp (measure()).
    const std::uint32_t lanesPerPart = r.laneBytes > 4 ? 128u / r.laneBytes : kWarpSize;
    const std::uint32_t parts = kWarpSize / lanesPerPart;
    auto partOf = [&](std::uint32_t i) { return events[i].thread % kWarpSize / lanesPerPart; };
    std::vector<std::array<int, kBanks>> perBank(parts);
    for (auto& banks : perBank) banks.fill(0);
    std::vector<std::pair<std::uint32_t, std::int64_t>> words;  // (part, word)
    for (std::uint32_t i : r.events) words.emplace_back(partOf(i), events[i].index);
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    for (const auto& [part, w] : words) ++perBank[part][bankOf(w)];
    std::vector<bool> out;
    out.reserve(r.events.size());
    for (std::uint32_t i : r.events) out.push_back(perBank[partOf(i)][bankOf(events[i].index)] > 1);
    return out;
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
