// The problem detector: what went wrong in a launch, found in its trace. The
// same code reads a trace from the CPU executor and one from the instrumented
// GPU run (or a trace file), so a problem is named the same way on both.
//
// What it finds, per block and over the grid:
//   - shared-memory races: within one barrier phase of one block, an element
//     written by one thread and read or written by another, with no
//     __syncthreads() between them;
//   - uninitialised reads: a shared element no thread of the block has
//     written by then, or an output element read before any thread wrote it;
//   - accesses outside an array (recorded by the executions, never made);
//   - global races: an element of N or P stored by one thread and read by
//     another that nothing orders after it (another block, or the same phase);
//     and two threads storing the same element;
//   - barrier mismatches: threads that skip a __syncthreads() others reach,
//     or wait at different ones;
//   - wrong results: outputs that differ from the float64 reference beyond
//     float32 rounding (given the output and the reference).
//
// Order of a race. The trace keeps each thread's program order, not the
// order threads ran in (the GPU's is not reproducible). A race is named by
// the replay order the app steps through (trace/steps.hpp): when the write's
// step comes first, it is a read after write (the reader may see the old
// value); when the read's comes first, a write after read (the writer may
// overwrite what the reader still needs). Across blocks nothing orders the
// two, and the race is unordered.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/image.hpp"
#include "trace/trace.hpp"

namespace tilescope {

enum class ProblemKind : std::uint8_t {
    SharedRace,         // two threads, one element of shared memory, no barrier between
    UninitialisedRead,  // a read of an element nobody wrote
    OutOfBounds,        // an access outside its array
    GlobalRace,         // a store to N or P and another thread's read of it, unordered
    DuplicateStore,     // two threads store the same element of global memory
    BarrierMismatch,    // threads skip a barrier others reach, or wait at different ones
    WrongResult,        // an output that differs from the float64 reference
};
constexpr int kProblemKindCount = 7;
const char* problemKindName(ProblemKind k);   // "shared race", as `check` prints it
const char* problemKindKey(ProblemKind k);    // "shared_race", as the JSON names it
const char* problemKindTitle(ProblemKind k);  // "Races in shared memory", a heading

enum class HazardOrder : std::uint8_t {
    None,
    ReadAfterWrite,
    WriteAfterRead,
    WriteAfterWrite,
    Unordered,  // accesses of two blocks: nothing orders them
};
const char* hazardOrderName(HazardOrder o);  // "read after write"

constexpr std::size_t kNoBlock = std::numeric_limits<std::size_t>::max();

// One access of a problem: an event of a traced block.
struct ProblemAccess {
    std::size_t block = kNoBlock;  // index into Trace::blocks; kNoBlock: none
    std::uint32_t event = 0;       // index into that block's events
    unsigned thread = 0;           // linear thread index in the block
    unsigned line = 0;
    std::uint32_t step = 0;        // replay step (trace/steps.hpp)
    Op op = Op::Load;
    bool valid() const { return block != kNoBlock; }
};

struct ProblemReport {
    ProblemKind kind = ProblemKind::SharedRace;
    HazardOrder order = HazardOrder::None;
    std::uint8_t array = kArrayNone;
    int index = -1;  // the element, in the trace's layout of `array`
    // An access outside a 2D array: its subscripts as written and the array's
    // extents (at.rows 0: none). `index` is then -1: it names no element.
    Subscript2D subscripts;
    // Where a kernel declares several arrays in shared memory (the trace's
    // SharedParts), the one this problem is about: the array its element is
    // in, or, for an access outside, the one it went through (by its
    // subscripts) or the one it is nearest past the end of. -1: not one of
    // several.
    int part = -1;
    // Races: `first` is the access that comes first in the replay (the writer
    // of a read after write), `second` the other; the problem happens at
    // `second`. One-access problems use `first` only. Barrier mismatches:
    // `first` reaches the barrier, `second` is a thread that does not.
    ProblemAccess first, second;
    std::uint32_t threads = 1;  // barrier mismatches: how many threads skip it
    // Barrier mismatches: the threads that skip it have returned, their
    // events ended before it (`second`, if valid, is the last event of the
    // first of them); false when `second` waits at another barrier.
    bool returned = false;
    // Wrong results: where, what the kernel gave, what it should have.
    int x = 0, y = 0, channel = 0;
    float got = 0.0f;
    double expected = 0.0;
    // The access that matters to the app: where to jump to.
    const ProblemAccess& at() const { return second.valid() ? second : first; }
};

// Problems of one kind between the same two source lines: what to fix.
struct ProblemGroup {
    ProblemKind kind = ProblemKind::SharedRace;
    HazardOrder order = HazardOrder::None;
    std::uint8_t array = kArrayNone;
    int part = -1;  // one of several shared arrays (ProblemReport::part); -1: the whole array
    unsigned firstLine = 0, secondLine = 0;  // secondLine 0: a one-access problem
    std::uint64_t count = 0;
};

struct ProblemSet {
    std::vector<ProblemGroup> groups;  // every problem counted once, by kind, then lines
    std::vector<ProblemReport> items;  // by kind, then block, then step; at most kMaxPerKind of each kind
    std::array<std::uint64_t, kProblemKindCount> counts{};  // every problem found, per kind
    double largestError = 0.0;  // wrong results: the largest |got - expected|
    static constexpr std::size_t kMaxPerKind = 20000;

    std::uint64_t total() const {
        std::uint64_t n = 0;
        for (std::uint64_t c : counts) n += c;
        return n;
    }
    std::uint64_t count(ProblemKind k) const { return counts[static_cast<std::size_t>(k)]; }
    bool clean() const { return total() == 0; }
    // "2 shared races, 16 wrong results" (empty when clean).
    std::string summary() const;
};

// The output of the launch and what it should be, to find wrong results.
// `output` is the run's result (all channels); `reference` the float64
// convolution of the same input, same layout; `tolerance` the float32
// rounding allowed per element.
struct ResultCheck {
    const Image* output = nullptr;
    std::span<const double> reference;
    double tolerance = 0.0;
};

// Finds every problem in `trace` (and, given `results`, in the output).
ProblemSet detectProblems(const Trace& trace, const ResultCheck* results = nullptr);

// One line in words: "shared race (read after write) in block (0,0): thread
// (3,2) reads N_s[2][4] at line 31, step 12, written by thread (4,2) at line
// 20, step 5; no __syncthreads() between them".
std::string describeProblem(const Trace& trace, const ProblemReport& p);

// One line, as `tilescope check` and `tilescope grade` print a problem:
// "shared race (read after write): block (0,0), threads (3,1) -> (4,1),
// N_s[1][5], lines 20 -> 31, steps 14 -> 22".
std::string problemLine(const Trace& trace, const ProblemReport& p);

// The name of an element as the kernel writes it: N_s[2][4], P[37].
std::string elementName(const Trace& trace, std::uint8_t array, int index);
// The element a problem names: elementName's, but for an access outside one
// of several shared arrays the element as written and the slot it reached
// ("inside[78], past its 78 elements: tile[0]'s slot").
std::string problemElementName(const Trace& trace, const ProblemReport& p);

// An access outside a 2D array, as its event records it (event.hpp's
// subscriptIndex): the subscripts as written, and the array's rows and
// columns from the trace. rows 0: the event's index is no such record.
Subscript2D subscriptsOf(const Trace& trace, std::uint8_t array, std::int32_t index);

// An access outside its array, by its index in the trace's layout: the
// element as written and the size of the array it is outside of (one of
// several shared arrays: the one it is nearest past the end of).
std::pair<std::string, int> outsideElement(const Trace& trace, std::uint8_t array, int index);
// An array as the kernel calls it: `part` of shared memory by its own name
// (`inside`, not `tile, inside`), any other by the trace's.
std::string arrayName(const Trace& trace, std::uint8_t array, int part = -1);
// A group's array, as arrayName.
std::string groupArrayName(const Trace& trace, const ProblemGroup& group);

}  // namespace tilescope
