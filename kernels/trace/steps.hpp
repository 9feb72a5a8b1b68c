// The replay order of one block's events (see trace_index.hpp): inside a
// barrier phase, step k holds every thread's k-th event of that phase; then
// one barrier step holds the threads' barriers. The replay model and the
// problem detector both number steps this way, so a problem's step is the
// step the app jumps to.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/dim3.hpp"
#include "trace/event.hpp"

namespace tilescope {

struct BlockSteps {
    std::vector<std::uint32_t> threadBegin;     // threads + 1: each thread's first event (events grouped by thread)
    std::vector<std::uint32_t> stepOf;          // per event
    std::vector<std::uint32_t> phaseOf;         // per event: barriers its thread passed before it
    std::vector<std::uint32_t> phaseFirstStep;  // phases + 1
    std::vector<char> phaseHasBarrier;          // per phase
    std::uint32_t steps() const { return phaseFirstStep.back(); }
};

// The most threads a replayed block may have (a thread's index is 16 bits).
constexpr unsigned kMaxReplayThreads = 65536;

// The threads of a block of `block`, for the replay: 0 when a side is 0 or
// there are more than kMaxReplayThreads (counted without wrapping), so that
// a block no launch makes is replayed as one without threads.
unsigned replayThreads(Dim3 block);

// `events` grouped by ascending thread, each thread's in program order.
// Any other events are borne: an event of a thread past `threads` (or past
// kMaxReplayThreads) belongs to no thread and is put in the first step;
// events out of order give steps that mean little, never a fault.
BlockSteps replaySteps(std::span<const Event> events, unsigned threads);

}  // namespace tilescope
