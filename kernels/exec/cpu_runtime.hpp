// What a kernel sees when it runs on the CPU: threadIdx, blockIdx, blockDim
// and gridDim, a Recorder that appends events to the running block's trace,
// and __syncthreads() as a real barrier between fibers.
//
// All fibers of a block run on one OS thread, and the executor sets
// threadIdx before it resumes each fiber, so threadIdx can be a plain
// thread_local variable: reading it costs no more than reading any global.
// (`constinit` says that no dynamic initialisation is needed, so that the
// compiler reads them directly instead of through an initialising wrapper.)
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/barrier_drop.hpp"
#include "core/dim3.hpp"
#include "trace/event.hpp"

namespace tilescope::cpu {

extern thread_local constinit Dim3 threadIdx;
extern thread_local constinit Dim3 blockIdx;
extern thread_local constinit Dim3 blockDim;
extern thread_local constinit Dim3 gridDim;

// A launch that asks for more shared memory than reserved, or a trace over
// budget: thrown inside the faulting thread's fiber, caught at its entry.
// (An access outside an array is not a fault: it is noted and skipped, and
// the thread carries on; see OutsideAccess.)
struct KernelFault {
    enum class Kind { SharedMemory, TraceBudget } kind;
    std::uint8_t array = kArrayNone;
    int index = 0;
    int size = 0;
    unsigned line = 0;
};

// The first access outside its array a block made, and how many it made.
struct OutsideAccess {
    std::uint64_t count = 0;
    unsigned thread = 0;
    std::uint8_t array = kArrayNone;
    int index = 0;
    int size = 0;
    unsigned line = 0;
    Subscript2D at;  // through a 2D array: its subscripts as written
};

// The state of the block running on this OS thread.
struct BlockState {
    bool tracing = false;
    const BarrierDrop* drop = nullptr;  // the classroom race demonstration
    OutsideAccess outside;
    unsigned current = 0;         // linear index of the running thread
    std::size_t eventLimit = 0;   // a block may record at most this many events
    std::vector<Event> events;    // in execution order
    std::vector<std::uint16_t> phase;  // barriers passed, per thread
    std::vector<float> shared;    // the block's dynamic shared memory
    float scratch = 0.0f;
    void (*wait)(unsigned line) = nullptr;  // suspends the running thread at a barrier
};

extern thread_local constinit BlockState* t_block;

struct CpuRecorder {
    // Inlined into every access of a kernel: untraced, it costs one test.
    static void record(Op op, std::uint8_t array, int index, float value, unsigned line) {
        BlockState& b = *t_block;
        if (b.tracing) append(b, op, array, index, value, line);
    }
    // Out of line, so that the inlined test above stays small.
    [[gnu::noinline]] static void append(BlockState& b, Op op, std::uint8_t array, int index, float value,
                                         unsigned line) {
        if (b.events.size() >= b.eventLimit) throw KernelFault{KernelFault::Kind::TraceBudget};
        b.events.push_back(Event{index, value, static_cast<std::uint16_t>(b.current), static_cast<std::uint16_t>(line),
                                 b.phase[b.current], op, array});
    }
    static float add(float sum, float term) { return sum + term; }
    static float* sharedMemory(int floats, unsigned line) {
        BlockState& b = *t_block;
        if (floats < 0 || static_cast<std::size_t>(floats) > b.shared.size())
            throw KernelFault{KernelFault::Kind::SharedMemory, kArrayShared, floats,
                              static_cast<int>(b.shared.size()), line};
        return b.shared.data();
    }
    static void fault(std::uint8_t array, int index, int size, unsigned line, Subscript2D at = {}) {
        OutsideAccess& o = t_block->outside;
        if (o.count++ == 0) {
            o.thread = t_block->current;
            o.array = array;
            o.index = index;
            o.size = size;
            o.line = line;
            o.at = at;
        }
    }
    static float& scratch() { return t_block->scratch; }
};

inline void syncthreads(unsigned line) {
    BlockState& b = *t_block;
    if (b.drop && b.drop->drops(line)) return;  // as if the line were not there
    CpuRecorder::record(Op::Barrier, kArrayNone, -1, 0.0f, line);
    ++b.phase[b.current];
    b.wait(line);
}

}  // namespace tilescope::cpu
