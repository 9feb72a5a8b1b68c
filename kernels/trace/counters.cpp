// Counting memory traffic and arithmetic from events: see counters.hpp.
#include "trace/counters.hpp"

namespace tilescope {

Counters& Counters::operator+=(const Counters& o) {
    globalLoads += o.globalLoads;
    globalLoadBytes += o.globalLoadBytes;
    inputLoads += o.inputLoads;
    sharedLoads += o.sharedLoads;
    sharedStores += o.sharedStores;
    constantLoads += o.constantLoads;
    globalStores += o.globalStores;
    flops += o.flops;
    barriers += o.barriers;
    ghostRefs += o.ghostRefs;
    threads += o.threads;
    threadsComputing += o.threadsComputing;
    return *this;
}

namespace {
double ratio(double a, double b) {
    return b > 0 ? a / b : 0.0;
}
}  // namespace

DerivedFigures derive(const Counters& c, const LaunchPlan& plan) {
    DerivedFigures d;
    d.flopPerByte = ratio(static_cast<double>(c.flops), static_cast<double>(c.globalLoadBytes));
    d.flopPerGlobalLoad = ratio(static_cast<double>(c.flops), static_cast<double>(c.globalLoads));
    d.globalLoadsPerOutput = ratio(static_cast<double>(c.globalLoads), static_cast<double>(c.globalStores));
    d.inputLoadsPerOutput = ratio(static_cast<double>(c.inputLoads), static_cast<double>(c.globalStores));
    // The basic kernel loads every in-array tap of every output once: all
    // taps minus the ghost ones.
    const std::uint64_t taps = c.globalStores * static_cast<std::uint64_t>(tapsTotal(plan));
    d.basicInputLoads = taps >= c.ghostRefs ? taps - c.ghostRefs : 0;
    d.inputLoadReduction = ratio(static_cast<double>(d.basicInputLoads), static_cast<double>(c.inputLoads));
    return d;
}

Counters countThread(const Trace& trace, std::span<const Event> events) {
    Counters c;
    c.threads = 1;
    const ArrayInfo& out = trace.arrays[kArrayOutput];
    const int taps = tapsTotal(trace.plan);
    for (const Event& e : events) {
        switch (e.op) {
            case Op::Load:
                switch (trace.space(e)) {
                    case Space::Global:
                        ++c.globalLoads;
                        c.globalLoadBytes += sizeof(float);
                        if (e.array == kArrayInput)
                            ++c.inputLoads;
                        break;
                    case Space::Shared:
                        ++c.sharedLoads;
                        break;
                    case Space::Constant:
                        ++c.constantLoads;
                        break;
                    case Space::Register:
                        break;
                }
                break;
            case Op::Store:
                if (trace.space(e) == Space::Shared) {
                    ++c.sharedStores;
                } else if (trace.space(e) == Space::Global) {
                    ++c.globalStores;
                    if (e.array == kArrayOutput) {
                        c.threadsComputing = 1;
                        const ArrayInfo::Coords p = out.coords(e.index);
                        c.ghostRefs += static_cast<std::uint64_t>(taps - tapsInside(trace.plan, p.x, p.y));
                    }
                }
                break;
            case Op::MultiplyAdd:
                c.flops += 2;
                break;
            case Op::Barrier:
                ++c.barriers;
                break;
            case Op::LoadOutside:
            case Op::StoreOutside:
                break;  // never made: the problem detector counts them
        }
    }
    return c;
}

Counters countBlock(const Trace& trace, std::size_t blockIndex) {
    const std::vector<Event>& events = trace.blocks[blockIndex].events;
    Counters block;
    std::size_t begin = 0;
    unsigned seen = 0;
    while (begin < events.size()) {
        std::size_t end = begin;
        while (end < events.size() && events[end].thread == events[begin].thread)
            ++end;
        Counters t = countThread(trace, std::span<const Event>(events.data() + begin, end - begin));
        block += t;
        ++seen;
        begin = end;
    }
    // Threads that recorded nothing are threads all the same.
    block.threads += trace.plan.block.count() - seen;
    return block;
}

TraceCounts countTrace(const Trace& trace) {
    TraceCounts counts;
    counts.blocks.reserve(trace.blocks.size());
    for (std::size_t b = 0; b < trace.blocks.size(); ++b) {
        Counters c = countBlock(trace, b);
        const bool interior = blockGeometry(trace.plan, trace.blocks[b].block).interior;
        counts.blocks.push_back(c);
        counts.interior.push_back(interior ? 1 : 0);
        counts.totals += c;
        if (interior) {
            counts.interiorTotals += c;
            ++counts.interiorBlocks;
        }
    }
    return counts;
}

}  // namespace tilescope
