// Building the replay model of a block and answering questions about it: see
// trace_index.hpp. Construction is O(events) (a counting sort by step); every
// query afterwards is a lookup or a binary search.
#include "trace/trace_index.hpp"

#include "trace/steps.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <unordered_set>

#include "trace/fault.hpp"
#include "trace/problems.hpp"
#include "trace/sources.hpp"

namespace tilescope {

// [SECTION] Names

const char* threadStateName(ThreadState state) {
    switch (state) {
        case ThreadState::NotStarted:
            return "not started";
        case ThreadState::Loading:
            return "loading";
        case ThreadState::Computing:
            return "computing";
        case ThreadState::WaitingAtBarrier:
            return "waiting at barrier";
        case ThreadState::AtBarrier:
            return "at barrier";
        case ThreadState::SwitchedOff:
            return "switched off";
        case ThreadState::Idle:
            return "idle";
        case ThreadState::Done:
            return "done";
        case ThreadState::IdleLane:
            return "idle lane";
    }
    return "?";
}

const char* ghostHandlingName(GhostHandling h) {
    switch (h) {
        case GhostHandling::None:
            return "none";
        case GhostHandling::StoredZero:
            return "stored 0";
        case GhostHandling::Skipped:
            return "skipped";
    }
    return "?";
}

// [SECTION] Construction

BlockReplay::BlockReplay(const Trace& trace, std::size_t blockIndex)
    : m_trace(&trace),
      m_blockIndex(blockIndex),
      m_events(&trace.blocks[blockIndex].events),
      m_geometry(blockGeometry(trace.plan, trace.blocks[blockIndex].block)) {
    const std::vector<Event>& ev = *m_events;
    const std::uint32_t count = static_cast<std::uint32_t>(ev.size());
    const unsigned threads = replayThreads(trace.plan.block);

    // Each thread's range of events and each event's step (trace/steps.hpp).
    BlockSteps order = replaySteps(ev, threads);
    m_threadBegin = std::move(order.threadBegin);
    m_phaseFirstStep = std::move(order.phaseFirstStep);
    const std::vector<char>& phaseHasBarrier = order.phaseHasBarrier;
    const std::vector<std::uint32_t>& stepOf = order.stepOf;
    const std::size_t phases = phaseHasBarrier.size();
    const std::uint32_t steps = m_phaseFirstStep[phases];

    // Counting sort by step; threads are visited in ascending order, so each
    // step's events come out sorted by thread.
    std::vector<std::uint32_t> fill(steps + 1, 0);
    for (unsigned t = 0; t < threads; ++t)
        for (std::uint32_t i = m_threadBegin[t]; i < m_threadBegin[t + 1]; ++i) ++fill[stepOf[i] + 1];
    for (std::uint32_t s = 0; s < steps; ++s)
        fill[s + 1] += fill[s];
    m_steps.resize(steps);
    m_stepBegin.resize(steps);
    for (std::size_t p = 0; p < phases; ++p) {
        for (std::uint32_t s = m_phaseFirstStep[p]; s < m_phaseFirstStep[p + 1]; ++s) {
            StepInfo& info = m_steps[s];
            info.begin = fill[s];
            info.end = fill[s + 1];
            info.phase = static_cast<std::uint16_t>(p);
            info.indexInPhase = static_cast<std::uint16_t>(s - m_phaseFirstStep[p]);
            info.barrier = phaseHasBarrier[p] && s + 1 == m_phaseFirstStep[p + 1];
            m_stepBegin[s] = info.begin;
        }
    }
    m_order.resize(count);
    m_position.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const Cursor pos = fill[stepOf[i]]++;
        m_order[pos] = i;
        m_position[i] = pos;
    }

    // Threads: role, counters, output.
    m_threads.resize(threads);
    for (unsigned t = 0; t < threads; ++t) {
        std::span<const Event> mine = threadEvents(t);
        ThreadSummary& s = m_threads[t];
        s.role = classifyThread(mine);
        s.counters = countThread(trace, mine);
        for (const Event& e : mine)
            if (e.op == Op::Store && e.array == kArrayOutput) {
                s.output = e.index;
                break;
            }
        m_counters += s.counters;
    }

    // Cells of the footprint: loads of N in replay order, ghost taps, zeros stored.
    const Rect& fp = m_geometry.footprint;
    const std::size_t cells = static_cast<std::size_t>(fp.area());
    const ArrayInfo& input = trace.arrays[kArrayInput];
    m_cellLoadBegin.assign(cells + 1, 0);
    m_cellGhostRefs.assign(cells, 0);
    m_cellZeroStores.assign(cells, 0);
    auto inputSlot = [&](int index) {
        const ArrayInfo::Coords p = input.coords(index);
        return cellSlot(p.x, p.y);
    };
    for (std::uint32_t i = 0; i < count; ++i)
        if (ev[i].op == Op::Load && ev[i].array == kArrayInput)
            if (int slot = inputSlot(ev[i].index); slot >= 0)
                ++m_cellLoadBegin[slot + 1];
    for (std::size_t c = 0; c < cells; ++c)
        m_cellLoadBegin[c + 1] += m_cellLoadBegin[c];
    m_cellLoads.resize(m_cellLoadBegin[cells]);
    {
        std::vector<std::uint32_t> next(m_cellLoadBegin.begin(), m_cellLoadBegin.end() - 1);
        for (Cursor pos = 0; pos < count; ++pos) {
            const Event& e = ev[m_order[pos]];
            if (e.op == Op::Load && e.array == kArrayInput)
                if (int slot = inputSlot(e.index); slot >= 0)
                    m_cellLoads[next[slot]++] = pos;
        }
    }
    const ArrayInfo& output = trace.arrays[kArrayOutput];
    const int r = m_geometry.radiusX, ry = m_geometry.radiusY;
    for (const Event& e : ev) {
        if (e.op != Op::Store || e.array != kArrayOutput)
            continue;
        const ArrayInfo::Coords p = output.coords(e.index);
        if (tapsInside(trace.plan, p.x, p.y) == tapsTotal(trace.plan))
            continue;
        for (int y = p.y - ry; y <= p.y + ry; ++y)
            for (int x = p.x - r; x <= p.x + r; ++x)
                if (!m_geometry.array.contains(x, y))
                    if (int slot = cellSlot(x, y); slot >= 0)
                        ++m_cellGhostRefs[slot];
    }

    // Shared memory and output: each element's stores in replay order.
    const int sharedSize = trace.arrays[kArrayShared].space == Space::Shared ? trace.arrays[kArrayShared].size : 0;
    const int outChannels = std::max(1, output.channels);
    const Rect& ot = m_geometry.outputTile;
    const std::size_t outputSlots = static_cast<std::size_t>(ot.area()) * outChannels;
    auto outputSlot = [&](int index) -> long long {
        const ArrayInfo::Coords p = output.coords(index);
        if (!ot.contains(p.x, p.y))
            return -1;
        return (static_cast<long long>(p.y - ot.y0) * ot.width() + (p.x - ot.x0)) * outChannels + p.channel;
    };
    m_sharedBegin.assign(static_cast<std::size_t>(std::max(0, sharedSize)) + 1, 0);
    m_outputBegin.assign(outputSlots + 1, 0);
    for (const Event& e : ev) {
        if (e.op != Op::Store)
            continue;
        if (e.array == kArrayShared && e.index >= 0 && e.index < sharedSize)
            ++m_sharedBegin[e.index + 1];
        if (e.array == kArrayOutput)
            if (long long slot = outputSlot(e.index); slot >= 0)
                ++m_outputBegin[slot + 1];
    }
    for (std::size_t i = 0; i + 1 < m_sharedBegin.size(); ++i)
        m_sharedBegin[i + 1] += m_sharedBegin[i];
    for (std::size_t i = 0; i + 1 < m_outputBegin.size(); ++i)
        m_outputBegin[i + 1] += m_outputBegin[i];
    m_sharedStores.resize(m_sharedBegin.back());
    m_outputStores.resize(m_outputBegin.back());
    std::vector<std::uint32_t> nextShared(m_sharedBegin.begin(), m_sharedBegin.end() - 1);
    std::vector<std::uint32_t> nextOutput(m_outputBegin.begin(), m_outputBegin.end() - 1);
    for (Cursor pos = 0; pos < count; ++pos) {
        const std::uint32_t i = m_order[pos];
        const Event& e = ev[i];
        if (e.op != Op::Store)
            continue;
        if (e.array == kArrayShared && e.index >= 0 && e.index < sharedSize) {
            m_sharedStores[nextShared[e.index]++] = i;
            const unsigned t = e.thread;
            if (storeSource(threadEvents(t), i - m_threadBegin[t]) < 0) {
                int x = 0, y = 0;
                m_geometry.sharedCell(e.index, x, y);
                if (int slot = cellSlot(x, y); slot >= 0)
                    ++m_cellZeroStores[slot];
            }
        }
        if (e.array == kArrayOutput)
            if (long long slot = outputSlot(e.index); slot >= 0)
                m_outputStores[nextOutput[slot]++] = i;
    }
}

std::size_t BlockReplay::memoryBytes() const {
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    return sizeof(*this) + bytes(m_threadBegin) + bytes(m_threads) + bytes(m_order) + bytes(m_position) +
           bytes(m_steps) + bytes(m_stepBegin) + bytes(m_phaseFirstStep) + bytes(m_cellLoadBegin) + bytes(m_cellLoads) +
           bytes(m_cellGhostRefs) + bytes(m_cellZeroStores) + bytes(m_sharedBegin) + bytes(m_sharedStores) +
           bytes(m_outputBegin) + bytes(m_outputStores);
}

// [SECTION] Replay order and stepping

std::uint32_t BlockReplay::stepAt(Cursor position) const {
    auto it = std::upper_bound(m_stepBegin.begin(), m_stepBegin.end(), position);
    return static_cast<std::uint32_t>(it - m_stepBegin.begin()) - 1;
}

Cursor BlockReplay::phaseBegin(std::uint32_t phase) const {
    if (phase >= phaseCount())
        return size();
    const std::uint32_t s = m_phaseFirstStep[phase];
    return s < m_steps.size() ? m_steps[s].begin : size();
}

Cursor BlockReplay::next(Cursor c, Granularity g) const {
    if (c >= size())
        return size();
    const StepInfo& s = m_steps[stepAt(c)];
    switch (g) {
        case Granularity::Step:
            return s.end;
        case Granularity::WarpStep:
        case Granularity::WarpRequest: {
            const unsigned warpEnd = ((*m_events)[m_order[c]].thread / kWarpSize + 1) * kWarpSize;
            auto it = std::partition_point(m_order.begin() + c, m_order.begin() + s.end,
                                           [&](std::uint32_t i) { return (*m_events)[i].thread < warpEnd; });
            return static_cast<Cursor>(it - m_order.begin());
        }
        case Granularity::Event:
            return c + 1;
    }
    return c;
}

Cursor BlockReplay::previous(Cursor c, Granularity g) const {
    if (c > size())
        c = size();
    if (c == 0)
        return 0;
    const StepInfo& s = m_steps[stepAt(c - 1)];
    switch (g) {
        case Granularity::Step:
            return s.begin;
        case Granularity::WarpStep:
        case Granularity::WarpRequest: {
            const unsigned warpBegin = (*m_events)[m_order[c - 1]].thread / kWarpSize * kWarpSize;
            auto it = std::partition_point(m_order.begin() + s.begin, m_order.begin() + c,
                                           [&](std::uint32_t i) { return (*m_events)[i].thread < warpBegin; });
            return static_cast<Cursor>(it - m_order.begin());
        }
        case Granularity::Event:
            return c - 1;
    }
    return c;
}

std::span<const Event> BlockReplay::threadEvents(unsigned t) const {
    if (t >= threadCount())
        return {};
    return {m_events->data() + m_threadBegin[t], m_threadBegin[t + 1] - m_threadBegin[t]};
}

std::uint32_t BlockReplay::threadEventsDone(unsigned t, Cursor c) const {
    if (t >= threadCount())
        return 0;
    // A thread's events keep their program order in the replay, so their
    // positions ascend: binary search.
    auto first = m_position.begin() + m_threadBegin[t];
    auto last = m_position.begin() + m_threadBegin[t + 1];
    return static_cast<std::uint32_t>(std::partition_point(first, last, [c](Cursor p) { return p < c; }) - first);
}

std::optional<Cursor> BlockReplay::nextOfThread(Cursor c, unsigned t) const {
    if (t >= threadCount())
        return std::nullopt;
    const std::uint32_t done = threadEventsDone(t, c);
    if (m_threadBegin[t] + done >= m_threadBegin[t + 1])
        return std::nullopt;
    return m_position[m_threadBegin[t] + done] + 1;
}

std::optional<Cursor> BlockReplay::previousOfThread(Cursor c, unsigned t) const {
    if (t >= threadCount())
        return std::nullopt;
    const std::uint32_t done = threadEventsDone(t, c);
    if (done == 0)
        return std::nullopt;
    return m_position[m_threadBegin[t] + done - 1];
}

std::vector<ArrayInfo::Coords> BlockReplay::cellsLoadedBy(unsigned t, Cursor c) const {
    std::vector<ArrayInfo::Coords> cells;
    for (const Event& e : threadEventsBefore(t, c))
        if (e.op == Op::Load && e.array == kArrayInput)
            cells.push_back(m_trace->arrays[kArrayInput].coords(e.index));
    return cells;
}

std::optional<std::uint32_t> BlockReplay::currentEvent(unsigned t, Cursor c) const {
    const std::uint32_t done = threadEventsDone(t, c);
    if (done == 0)
        return std::nullopt;
    return m_threadBegin[t] + done - 1;
}

Activity BlockReplay::activity(std::uint32_t event) const {
    const unsigned t = (*m_events)[event].thread;
    return eventActivity(threadEvents(t), event - m_threadBegin[t]);
}

ThreadState BlockReplay::threadState(unsigned lane, Cursor c) const {
    if (lane >= threadCount())
        return ThreadState::IdleLane;
    const ThreadSummary& s = m_threads[lane];
    if (s.role == ThreadRole::Idle)
        return ThreadState::Idle;
    const std::uint32_t begin = m_threadBegin[lane], total = m_threadBegin[lane + 1] - begin;
    const std::uint32_t done = threadEventsDone(lane, c);
    if (c == 0)
        return total == 0 ? ThreadState::Idle : ThreadState::NotStarted;
    const bool finished = done == total;
    if (finished && c >= size())
        return s.role == ThreadRole::LoadsOnly ? ThreadState::SwitchedOff : ThreadState::Done;
    auto stateOf = [&](std::uint32_t event) {
        switch (activity(event)) {
            case Activity::TileLoad:
                return ThreadState::Loading;
            case Activity::Compute:
                return ThreadState::Computing;
            case Activity::Barrier:
                return ThreadState::AtBarrier;
        }
        return ThreadState::Computing;
    };
    const std::uint32_t current = stepAt(std::min(c, size()) - 1);
    // It acted in the current step: that is what it is doing.
    if (done > 0 && stepAt(m_position[begin + done - 1]) == current)
        return stateOf(begin + done - 1);
    if (finished)
        return s.role == ThreadRole::LoadsOnly ? ThreadState::SwitchedOff : ThreadState::Done;
    const std::uint32_t nextEvent = begin + done;
    // The cursor is inside the current step and this thread's turn in it is still to come.
    if (stepAt(m_position[nextEvent]) == current)
        return stateOf(nextEvent);
    if ((*m_events)[nextEvent].op == Op::Barrier) {
        // Nothing to do in this phase but wait. A thread that did nothing in
        // the phase at all, and never computes, is switched off here.
        const bool workedThisPhase = done > 0 && (*m_events)[nextEvent - 1].op != Op::Barrier;
        if (!workedThisPhase && s.role == ThreadRole::LoadsOnly)
            return ThreadState::SwitchedOff;
        return ThreadState::WaitingAtBarrier;
    }
    return stateOf(nextEvent);
}

// [SECTION] Cells, shared memory, output

int BlockReplay::cellSlot(int x, int y) const {
    const Rect& fp = m_geometry.footprint;
    if (!fp.contains(x, y))
        return -1;
    return (y - fp.y0) * fp.width() + (x - fp.x0);
}

Cursor BlockReplay::countBefore(const std::vector<std::uint32_t>& events, std::uint32_t begin, std::uint32_t end,
                                Cursor c) const {
    auto first = events.begin() + begin, last = events.begin() + end;
    return static_cast<Cursor>(
        std::partition_point(first, last, [&](std::uint32_t event) { return m_position[event] < c; }) - first);
}

std::uint32_t BlockReplay::loadsOfCell(int x, int y) const {
    const int slot = cellSlot(x, y);
    return slot < 0 ? 0 : m_cellLoadBegin[slot + 1] - m_cellLoadBegin[slot];
}

std::uint32_t BlockReplay::loadsOfCellBefore(int x, int y, Cursor c) const {
    const int slot = cellSlot(x, y);
    if (slot < 0)
        return 0;
    auto first = m_cellLoads.begin() + m_cellLoadBegin[slot], last = m_cellLoads.begin() + m_cellLoadBegin[slot + 1];
    return static_cast<std::uint32_t>(std::lower_bound(first, last, c) - first);
}

std::uint32_t BlockReplay::ghostRefsOfCell(int x, int y) const {
    const int slot = cellSlot(x, y);
    return slot < 0 ? 0 : m_cellGhostRefs[slot];
}

std::uint32_t BlockReplay::zeroStoresOfCell(int x, int y) const {
    const int slot = cellSlot(x, y);
    return slot < 0 ? 0 : m_cellZeroStores[slot];
}

GhostHandling BlockReplay::ghostHandling(int x, int y) const {
    const CellKind kind = cellKind(x, y);
    if (kind != CellKind::Ghost && kind != CellKind::PastEnd)
        return GhostHandling::None;
    if (zeroStoresOfCell(x, y) > 0)
        return GhostHandling::StoredZero;
    if (ghostRefsOfCell(x, y) > 0)
        return GhostHandling::Skipped;
    return GhostHandling::None;
}

std::optional<SharedValue> BlockReplay::sharedAt(int i, Cursor c) const {
    if (i < 0 || i >= sharedSize())
        return std::nullopt;
    const Cursor stores = countBefore(m_sharedStores, m_sharedBegin[i], m_sharedBegin[i + 1], c);
    if (stores == 0)
        return std::nullopt;
    const std::uint32_t event = m_sharedStores[m_sharedBegin[i] + stores - 1];
    const Event& e = (*m_events)[event];
    SharedValue v;
    v.value = e.value;
    v.event = event;
    v.stores = stores;
    const unsigned t = e.thread;
    const long long source = storeSource(threadEvents(t), event - m_threadBegin[t]);
    if (source >= 0) {
        v.source = (*m_events)[m_threadBegin[t] + source].index;
        const ArrayInfo::Coords p = m_trace->arrays[kArrayInput].coords(v.source);
        v.kind = cellKind(p.x, p.y);
    } else {
        int x = 0, y = 0;
        m_geometry.sharedCell(i, x, y);
        v.kind = cellKind(x, y);
    }
    return v;
}

std::optional<float> BlockReplay::outputAt(int x, int y, int channel, Cursor c) const {
    const Rect& ot = m_geometry.outputTile;
    const int channels = std::max(1, m_trace->arrays[kArrayOutput].channels);
    if (!ot.contains(x, y) || channel < 0 || channel >= channels)
        return std::nullopt;
    const std::size_t slot = (static_cast<std::size_t>(y - ot.y0) * ot.width() + (x - ot.x0)) * channels + channel;
    const Cursor stores = countBefore(m_outputStores, m_outputBegin[slot], m_outputBegin[slot + 1], c);
    if (stores == 0)
        return std::nullopt;
    return (*m_events)[m_outputStores[m_outputBegin[slot] + stores - 1]].value;
}

// [SECTION] Words

namespace {

std::string number(float v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", static_cast<double>(v));
    return buffer;
}

std::string coordsText(int x, int y, bool twoD) {
    return twoD ? "(" + std::to_string(x) + "," + std::to_string(y) + ")" : "(" + std::to_string(x) + ")";
}

bool identifierChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '[' || c == ']';
}

// The variable on the left of `+=` in the source line ("Pvalue",
// "Pvalue[j][c]"); "Pvalue" when there is none.
std::string accumulatorName(std::string_view line) {
    const std::size_t op = line.find("+=");
    if (op == std::string_view::npos)
        return "Pvalue";
    std::size_t end = op;
    while (end > 0 && line[end - 1] == ' ')
        --end;
    std::size_t begin = end;
    while (begin > 0 && identifierChar(line[begin - 1]))
        --begin;
    return begin < end ? std::string(line.substr(begin, end - begin)) : "Pvalue";
}

// What is added, as the source writes it: the text between `+=` and `;`.
std::string addendText(std::string_view line) {
    const std::size_t op = line.find("+=");
    if (op == std::string_view::npos)
        return "...";
    std::string_view rest = line.substr(op + 2);
    rest = rest.substr(0, rest.find(';'));
    while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
    while (!rest.empty() && rest.back() == ' ')
        rest.remove_suffix(1);
    return rest.empty() ? "..." : std::string(rest);
}

}  // namespace

std::string BlockReplay::describe(std::uint32_t event) const {
    const Trace& t = *m_trace;
    const Event& e = (*m_events)[event];
    const bool twoD = t.dims() == 2;
    const std::span<const Event> mine = threadEvents(e.thread);
    const std::size_t i = event - m_threadBegin[e.thread];

    auto element = [&](std::uint8_t array, int index) {
        if (array >= kArrayCount)
            return std::string("?");
        const ArrayInfo& a = t.arrays[array];
        const bool rows = (array == kArrayShared || (array == kArrayMask && a.space == Space::Constant)) && twoD;
        // Inside the array, as the Problems panel names it (a 3-D array by plane, row and column).
        if (rows && index >= 0 && index < a.size)
            return elementName(t, array, index);
        if (rows) {
            const int pitch = std::max(1, a.pitch);
            return a.name + "[" + std::to_string(index / pitch) + "][" + std::to_string(index % pitch) + "]";
        }
        return a.name + "[" + std::to_string(index) + "]";
    };
    auto inputKind = [&](int index) {
        const ArrayInfo::Coords p = t.arrays[kArrayInput].coords(index);
        return std::string(cellKindName(cellKind(p.x, p.y)));
    };
    auto loadText = [&](const Event& load) {
        std::string s = element(load.array, load.index) + " = " + number(load.value);
        switch (t.space(load)) {
            case Space::Global:
                s += load.array == kArrayInput ? " (" + inputKind(load.index) + ")" : " (global memory)";
                break;
            case Space::Constant:
                s += " (constant memory)";
                break;
            case Space::Shared: {
                auto held = sharedAt(load.index, positionOf(static_cast<std::uint32_t>(&load - m_events->data())));
                if (held && held->source >= 0)
                    s += " (shared memory, from N[" + std::to_string(held->source) + "], " + cellKindName(held->kind) +
                         ")";
                else if (held)
                    s += std::string(" (shared memory, a ") + (held->kind == CellKind::Ghost ? "ghost " : "") +
                         "0 stored for " + cellKindName(held->kind) + " cell)";
                else
                    s += " (shared memory, never written)";
                break;
            }
            case Space::Register:
                break;
        }
        return s;
    };

    std::string text = describeThread(t.plan, block(), e.thread) + ", line " + std::to_string(e.line) + ": ";
    switch (e.op) {
        case Op::Load:
            text += loadText(e);
            if (eventActivity(mine, i) == Activity::TileLoad)
                text += ", for " + element(kArrayShared, mine[i + 1].index);
            break;
        case Op::Store:
            if (e.array == kArrayShared) {
                const long long source = storeSource(mine, i);
                if (source >= 0) {
                    const Event& load = mine[static_cast<std::size_t>(source)];
                    text += element(kArrayShared, e.index) + " = N[" + std::to_string(load.index) +
                            "] = " + number(e.value) + " (" + inputKind(load.index) + ")";
                } else {
                    int x = 0, y = 0;
                    m_geometry.sharedCell(e.index, x, y);
                    const CellKind kind = cellKind(x, y);
                    text += element(kArrayShared, e.index) + " = " + number(e.value) + " (" +
                            (kind == CellKind::Ghost     ? "ghost cell "
                             : kind == CellKind::PastEnd ? "past the end of N, cell "
                                                         : std::string(cellKindName(kind)) + " cell ") +
                            coordsText(x, y, twoD) + ")";
                }
            } else {
                const ArrayInfo::Coords p = t.arrays[kArrayOutput].coords(e.index);
                text += element(e.array, e.index) + " = " + number(e.value) + " (output " + coordsText(p.x, p.y, twoD) +
                        ")";
            }
            break;
        case Op::MultiplyAdd: {
            // The operands are the loads just before it on the same line.
            std::size_t first = i;
            while (first > 0 && i - first < 2 && mine[first - 1].op == Op::Load && mine[first - 1].line == e.line)
                --first;
            const std::string_view source = sourceLine(kernelSource(kernelOf(t.plan)), e.line);
            const std::string sum = accumulatorName(source);
            std::string names, values;
            for (std::size_t j = first; j < i; ++j) {
                names += (j > first ? " * " : "") + element(mine[j].array, mine[j].index);
                values += (j > first ? " * " : "") + number(mine[j].value);
            }
            // Operands held in registers (no load on this line) are shown as the source writes them.
            text += sum + " += " + (names.empty() ? addendText(source) : names + " = " + values) + " -> " + sum +
                    " = " + number(e.value);
            break;
        }
        case Op::Barrier: {
            unsigned n = 0;
            for (std::size_t j = 0; j <= i; ++j)
                n += mine[j].op == Op::Barrier ? 1 : 0;
            text +=
                "__syncthreads() (barrier " + std::to_string(n) + "): waits until every thread of the block is here";
            break;
        }
        case Op::LoadOutside:
        case Op::StoreOutside: {
            // Through a 2D array, the subscripts as written (the flattened index may lie inside).
            const Subscript2D at = subscriptsOf(t, e.array, e.index);
            const auto [outside, size] = outsideElement(t, e.array, e.index);
            text += std::string(e.op == Op::LoadOutside ? "reads " : "writes ") +
                    (at.rows > 0 ? subscriptedName(arrayName(t, e.array, at.part), at) + ", outside the array: " +
                                       subscriptPastItsExtent(at)
                                 : outside + ", outside the array (" + std::to_string(size) + " elements)") +
                    ": not done (" + (e.op == Op::LoadOutside ? "the load gives 0" : "the store is dropped") + ")";
            break;
        }
    }
    return text;
}

// [SECTION] The whole trace

namespace {

// Makes any trace one the replay can index, leaving out what it cannot
// place: a trace read from a file or from a kernel's process is checked
// before it gets here (trace_io.hpp, own/worker_protocol.hpp), and this is
// the wall behind those checks. A block no launch makes (a side of 0, more
// than kMaxReplayThreads threads) or a footprint past 2^26 cells leaves no
// block to replay; tiles past 4096 are drawn as one output per thread; a
// shared array past 2^16 elements, or an output of more than 4 channels,
// is left unindexed; blocks outside the grid or out of order are left out;
// events of a thread past the block, of an unknown op or array, are left
// out, and the rest put in thread order.
Trace replayable(Trace t) {
    LaunchPlan& p = t.plan;
    if (p.outTile < 0 || p.inTile < 0 || p.outTile > 4096 || p.inTile > 4096) p.outTile = p.inTile = 0;
    ArrayInfo& shared = t.arrays[kArrayShared];
    if (shared.size < 0 || shared.size > 65536) shared.size = 0;
    const int channels = t.arrays[kArrayOutput].channels;
    const unsigned threads = replayThreads(p.block);
    const bool twoD = t.dims() == 2;
    const long long radius = p.radius;
    const long long edgeX = std::max<long long>({p.outTile, p.block.x, 1});
    const long long edgeY = twoD ? std::max<long long>({p.outTile, p.block.y, 1}) : 1;
    const long long cells = (edgeX + 2 * radius) * (edgeY + (twoD ? 2 * radius : 0));
    if (threads == 0 || p.grid.count() == 0 || radius < 0 || radius > 4096 || cells > (1ll << 26) || channels > 4) {
        t.blocks.clear();
        return t;
    }
    // Past 2^30 a block's cells would not fit the geometry's ints.
    constexpr long long kReach = 1ll << 30;
    std::vector<BlockEvents> kept;
    long long previous = -1;
    for (BlockEvents& b : t.blocks) {
        if (b.block.x >= p.grid.x || b.block.y >= p.grid.y || b.block.z >= p.grid.z) continue;
        if ((b.block.x + 1ll) * edgeX + 2 * radius >= kReach || (b.block.y + 1ll) * edgeY + 2 * radius >= kReach)
            continue;
        const long long linear =
            static_cast<long long>(b.block.x) +
            static_cast<long long>(p.grid.x) * (b.block.y + static_cast<long long>(p.grid.y) * b.block.z);
        if (linear <= previous) continue;
        previous = linear;
        std::erase_if(b.events, [&](const Event& e) {
            const bool memory = e.op != Op::MultiplyAdd && e.op != Op::Barrier;
            return e.thread >= threads || static_cast<unsigned>(e.op) >= kOpCount ||
                   (memory ? e.array >= kArrayCount : (e.array >= kArrayCount && e.array != kArrayNone));
        });
        auto byThread = [](const Event& x, const Event& y) { return x.thread < y.thread; };
        if (!std::is_sorted(b.events.begin(), b.events.end(), byThread))
            std::stable_sort(b.events.begin(), b.events.end(), byThread);
        kept.push_back(std::move(b));
    }
    t.blocks = std::move(kept);
    return t;
}

}  // namespace

TraceModel::TraceModel(Trace trace) : m_trace(std::make_unique<const Trace>(replayable(std::move(trace)))) {
    m_blocks.reserve(m_trace->blocks.size());
    for (std::size_t b = 0; b < m_trace->blocks.size(); ++b) {
        m_blocks.push_back(std::make_unique<BlockReplay>(*m_trace, b));
        const BlockReplay& r = *m_blocks.back();
        m_counts.blocks.push_back(r.counters());
        m_counts.interior.push_back(r.geometry().interior ? 1 : 0);
        m_counts.totals += r.counters();
        if (r.geometry().interior) {
            m_counts.interiorTotals += r.counters();
            ++m_counts.interiorBlocks;
        }
    }
}

std::optional<std::size_t> TraceModel::findBlock(Dim3 block) const {
    if (m_trace->plan.grid.z == 1)
        block.z = 0;  // blockIdx.z of a 2D grid is 0 (Dim3's default z is 1)
    // Blocks are in linear order: binary search.
    const unsigned key = m_trace->linearBlock(block);
    auto it = std::lower_bound(m_trace->blocks.begin(), m_trace->blocks.end(), key,
                               [&](const BlockEvents& b, unsigned k) { return m_trace->linearBlock(b.block) < k; });
    if (it == m_trace->blocks.end() || !(it->block == block))
        return std::nullopt;
    return static_cast<std::size_t>(it - m_trace->blocks.begin());
}

std::vector<std::uint32_t> TraceModel::inputReadCounts() const {
    const int size = std::max(0, m_trace->arrays[kArrayInput].size);
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(size), 0);
    for (const BlockEvents& b : m_trace->blocks)
        for (const Event& e : b.events)
            if (e.op == Op::Load && e.array == kArrayInput && e.index >= 0 && e.index < size)
                ++counts[e.index];
    return counts;
}

std::size_t TraceModel::ghostCellCount() const {
    std::unordered_set<long long> cells;
    for (const auto& r : m_blocks) {
        const Rect& fp = r->geometry().footprint;
        for (int y = fp.y0; y < fp.y1; ++y)
            for (int x = fp.x0; x < fp.x1; ++x)
                if (r->cellKind(x, y) == CellKind::Ghost &&
                    (r->ghostRefsOfCell(x, y) > 0 || r->zeroStoresOfCell(x, y) > 0))
                    cells.insert((static_cast<long long>(y) << 32) ^ static_cast<unsigned>(x));
    }
    return cells.size();
}

}  // namespace tilescope
