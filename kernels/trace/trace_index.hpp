// The replay model of a trace: everything the app draws for a chosen block at
// a chosen replay step, precomputed once per block so that each question is
// answered in O(1) or O(log n).
//
// Replay order. Inside a barrier phase (the events between two
// __syncthreads()), step k holds every thread's k-th event of that phase, as a
// SIMT machine would issue them; then one barrier step holds all the threads'
// barrier events, so barriers separate phases. Within a step, events go by
// ascending thread, so one warp's events of a step are contiguous. A replay
// position ("cursor") c in [0, events] means: the first c events of that order
// have happened. Stepping moves the cursor by a whole step, one warp's part of
// a step, or one event; jumps go to a phase or to a thread's next event.
//
// Questions answered per block and cursor:
//   - the block's tiles, halo and ghost cells (geometry(), cellKind(), ghostHandling());
//   - which input cells the block has loaded from global memory so far and
//     how often (loadsOfCell / loadsOfCellBefore: the heat map);
//   - each thread's state (loading, computing, waiting at the barrier,
//     switched off for the output, idle, done; idle lanes of the last warp);
//   - a thread's events so far (the cells it loaded) and its current event;
//   - shared memory contents (value, where it came from, ghost zeros);
//   - the output values written so far;
//   - counters per thread and block, and an event in words.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "trace/classify.hpp"
#include "trace/counters.hpp"
#include "trace/trace.hpp"

namespace tilescope {

using Cursor = std::uint32_t;  // replay position: how many events have happened

enum class Granularity : std::uint8_t {
    Step,      // every thread of the block, lockstep
    WarpStep,  // one warp's part of a step
    Event,     // one event of one thread
    // The selected thread's warp's memory requests, one at a time
    // (trace/warp_requests.hpp): the app steps through them; the replay
    // alone, which has no requests, moves by WarpStep for it.
    WarpRequest,
};

enum class ThreadState : std::uint8_t {
    NotStarted,        // cursor 0: nothing has happened yet
    Loading,           // staging the input tile (a load of N for shared memory, or the store)
    Computing,         // reading operands, multiply-adds, writing P
    WaitingAtBarrier,  // done with this phase, waiting for the others at __syncthreads()
    AtBarrier,         // passing the barrier in this step
    SwitchedOff,       // loaded its tile cell but computes no output
    Idle,              // a thread that does nothing at all
    Done,              // finished its work
    IdleLane,          // not a thread: an unused lane of the last warp
};
const char* threadStateName(ThreadState state);

enum class GhostHandling : std::uint8_t {
    None,        // not a ghost cell, or one the block never touched
    StoredZero,  // the block stored 0 for it in shared memory (and multiplies by it)
    Skipped,     // a computing thread's tap fell on it and the kernel skipped the load
};
const char* ghostHandlingName(GhostHandling h);

struct StepInfo {
    Cursor begin = 0, end = 0;       // replay positions [begin, end)
    std::uint16_t phase = 0;         // barriers passed before this step
    std::uint16_t indexInPhase = 0;  // k: each thread's k-th event of the phase (barrier step: the last)
    bool barrier = false;
};

struct ThreadSummary {
    ThreadRole role = ThreadRole::Idle;
    int output = -1;  // index into P of the thread's first output element; -1 when it writes none
    Counters counters;
};

struct SharedValue {
    float value = 0.0f;
    int source = -1;                    // the element of N the value was loaded from; -1 for a stored constant
    CellKind kind = CellKind::Outside;  // what the input cell it stands for is to the block
    std::uint32_t event = 0;            // the store, as an index into the block's events
    std::uint32_t stores = 0;           // stores to this element so far (the pitched kernel reuses it per channel)
};

class BlockReplay {
public:
    // Points into `trace`, which must outlive it (TraceModel sees to that).
    BlockReplay(const Trace& trace, std::size_t blockIndex);

    // [SECTION] The block
    const Trace& trace() const { return *m_trace; }
    std::size_t blockIndex() const { return m_blockIndex; }
    Dim3 block() const { return m_geometry.block; }
    const BlockGeometry& geometry() const { return m_geometry; }
    std::span<const Event> events() const { return {m_events->data(), m_events->size()}; }
    const Counters& counters() const { return m_counters; }
    // Bytes this replay model holds beyond the events themselves.
    std::size_t memoryBytes() const;

    // [SECTION] Replay order
    Cursor size() const { return static_cast<Cursor>(m_order.size()); }  // the last cursor
    std::uint32_t eventAt(Cursor position) const { return m_order[position]; }
    Cursor positionOf(std::uint32_t event) const { return m_position[event]; }
    std::uint32_t stepCount() const { return static_cast<std::uint32_t>(m_steps.size()); }
    const StepInfo& step(std::uint32_t s) const { return m_steps[s]; }
    std::uint32_t stepAt(Cursor position) const;  // the step holding the event at `position` (< size())
    std::uint32_t phaseCount() const { return static_cast<std::uint32_t>(m_phaseFirstStep.size()) - 1; }
    Cursor phaseBegin(std::uint32_t phase) const;  // the cursor at the start of a phase

    // [SECTION] Stepping (all O(log n)); each returns the new cursor
    Cursor next(Cursor c, Granularity g) const;
    Cursor previous(Cursor c, Granularity g) const;
    // Just past the thread's next event at or after c; nullopt when it has none left.
    std::optional<Cursor> nextOfThread(Cursor c, unsigned thread) const;
    // Just before the thread's last event that happened before c; nullopt when none.
    std::optional<Cursor> previousOfThread(Cursor c, unsigned thread) const;

    // [SECTION] Threads
    unsigned threadCount() const { return static_cast<unsigned>(m_threads.size()); }
    unsigned warpCount() const { return (threadCount() + kWarpSize - 1) / kWarpSize; }
    unsigned laneCount() const { return warpCount() * kWarpSize; }  // lanes past threadCount() are idle
    Dim3 threadCoords(unsigned thread) const { return m_trace->threadCoords(thread); }
    const ThreadSummary& thread(unsigned t) const { return m_threads[t]; }
    std::span<const Event> threadEvents(unsigned t) const;
    std::uint32_t threadEventBegin(unsigned t) const { return m_threadBegin[t]; }  // its first event's index
    // How many of the thread's events have happened at cursor c; the events
    // themselves are threadEvents(t).first(that).
    std::uint32_t threadEventsDone(unsigned t, Cursor c) const;
    std::span<const Event> threadEventsBefore(unsigned t, Cursor c) const {
        return threadEvents(t).first(threadEventsDone(t, c));
    }
    // The input cells (of N) the thread has loaded from global memory by
    // cursor c, in its program order; a cell it loaded twice appears twice.
    std::vector<ArrayInfo::Coords> cellsLoadedBy(unsigned t, Cursor c) const;
    // The thread's last event that has happened (index into events()); nullopt before its first.
    std::optional<std::uint32_t> currentEvent(unsigned t, Cursor c) const;
    // `lane` may be past threadCount(): an idle lane of the last warp.
    ThreadState threadState(unsigned lane, Cursor c) const;
    Activity activity(std::uint32_t event) const;
    unsigned threadOf(std::uint32_t event) const { return (*m_events)[event].thread; }

    // [SECTION] Input cells (coordinates of N; see classify.hpp)
    CellKind cellKind(int x, int y) const { return m_geometry.classify(x, y); }
    GhostHandling ghostHandling(int x, int y) const;
    std::uint32_t loadsOfCell(int x, int y) const;  // global loads of N by this block, all channels
    std::uint32_t loadsOfCellBefore(int x, int y, Cursor c) const;
    bool loadedBefore(int x, int y, Cursor c) const { return loadsOfCellBefore(x, y, c) > 0; }
    std::uint32_t ghostRefsOfCell(int x, int y) const;   // taps of computing threads that fell on it
    std::uint32_t zeroStoresOfCell(int x, int y) const;  // zeros stored for it in shared memory

    // [SECTION] Shared memory
    int sharedSize() const { return static_cast<int>(m_sharedBegin.size()) - 1; }
    // The input cell shared element i stands for.
    void sharedCell(int i, int& x, int& y) const { m_geometry.sharedCell(i, x, y); }
    std::optional<SharedValue> sharedAt(int i, Cursor c) const;

    // [SECTION] Output
    // The value written to P at (x, y, channel) by cursor c, if any.
    std::optional<float> outputAt(int x, int y, int channel, Cursor c) const;

    // [SECTION] Words
    // "thread (3,2) of block (1,0), line 19: N_s[2][3] = N[45] = 0.42 (halo)"
    std::string describe(std::uint32_t event) const;

private:
    int cellSlot(int x, int y) const;  // -1 outside the footprint
    Cursor countBefore(const std::vector<std::uint32_t>& events, std::uint32_t begin, std::uint32_t end,
                       Cursor c) const;  // how many of events[begin, end) (replay order) happened before c

    const Trace* m_trace;
    std::size_t m_blockIndex;
    const std::vector<Event>* m_events;
    BlockGeometry m_geometry;
    Counters m_counters;

    std::vector<std::uint32_t> m_threadBegin;  // threadCount + 1
    std::vector<ThreadSummary> m_threads;
    std::vector<std::uint32_t> m_order;     // position -> event
    std::vector<std::uint32_t> m_position;  // event -> position
    std::vector<StepInfo> m_steps;
    std::vector<Cursor> m_stepBegin;              // m_steps[i].begin, for binary search
    std::vector<std::uint32_t> m_phaseFirstStep;  // phaseCount + 1

    // Per footprint cell (row-major over geometry().footprint).
    std::vector<std::uint32_t> m_cellLoadBegin;  // CSR into m_cellLoads
    std::vector<Cursor> m_cellLoads;             // replay positions of loads of N, ascending
    std::vector<std::uint32_t> m_cellGhostRefs;
    std::vector<std::uint32_t> m_cellZeroStores;

    // Per shared element and per output slot: the stores, in replay order.
    std::vector<std::uint32_t> m_sharedBegin;
    std::vector<std::uint32_t> m_sharedStores;  // event indices
    std::vector<std::uint32_t> m_outputBegin;
    std::vector<std::uint32_t> m_outputStores;  // event indices
};

// A whole trace: one BlockReplay per traced block, the counters, and the
// grid-wide heat map. The trace is owned here and never moves, so the
// replays can point into it.
class TraceModel {
public:
    explicit TraceModel(Trace trace);

    const Trace& trace() const { return *m_trace; }
    std::size_t blockCount() const { return m_blocks.size(); }
    const BlockReplay& block(std::size_t i) const { return *m_blocks[i]; }
    std::optional<std::size_t> findBlock(Dim3 block) const;

    const TraceCounts& counts() const { return m_counts; }
    DerivedFigures derived(const Counters& c) const { return derive(c, m_trace->plan); }

    // Global loads of each element of N over all traced blocks (size: the
    // array's size; built on request).
    std::vector<std::uint32_t> inputReadCounts() const;
    // Distinct ghost cells the traced blocks touched (referenced by a tap or stored as 0).
    std::size_t ghostCellCount() const;

private:
    std::unique_ptr<const Trace> m_trace;
    std::vector<std::unique_ptr<BlockReplay>> m_blocks;
    TraceCounts m_counts;
};

}  // namespace tilescope
