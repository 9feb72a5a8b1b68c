// Execution (b): the kernels as instrumented CUDA. The kernel bodies are the
// same files as the plain build; here their names are the recording wrappers
// of traced_types.hpp with a device recorder, which appends every load, store,
// multiply-add and barrier of every thread to a buffer in GPU memory. The
// host then sorts the buffer into each thread's program order, giving the
// same trace the CPU executor records.
#define TS_FN __device__ __forceinline__
#include "exec/traced_types.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <vector>

#include "api/kernels.hpp"
#include "exec/backends.hpp"
#include "exec/cuda_support.hpp"
#include "exec/fault.hpp"

namespace tilescope::instrumented {

// One event as the GPU writes it: the block and the thread's own sequence
// number travel with it, because threads append to the buffer in whatever
// order the hardware runs them.
struct DeviceEvent {
    unsigned block;
    unsigned seq;
    Event event;
};

// Per thread: its place in its own program order, and what the hardware
// says about where and when it ran.
struct ThreadCursor {
    unsigned seq;
    unsigned phase;
    unsigned sm;
    unsigned warp;
    unsigned long long firstNs;
    unsigned long long lastNs;
};

__device__ __forceinline__ unsigned smId() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}
__device__ __forceinline__ unsigned warpSlot() {
    unsigned id;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(id));
    return id;
}
__device__ __forceinline__ unsigned long long globalTimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

struct DeviceFault {
    unsigned long long count;  // accesses outside an array (recorded, never made)
    int set;
    unsigned block;
    unsigned thread;
    int array;
    int index;
    int size;
    unsigned line;
};

struct DeviceTrace {
    DeviceEvent* events;
    unsigned long long capacity;
    unsigned long long* count;
    ThreadCursor* cursors;              // one per thread of the grid
    const unsigned char* tracedBlocks;  // one flag per block
    DeviceFault* fault;
    int sharedFloats;                   // the dynamic shared memory of the launch
    unsigned dropBarrier[8];            // the barriers left out, one bit per line (core/barrier_drop.hpp)
};

__constant__ DeviceTrace g_trace;
__device__ float g_scratch;
extern __shared__ float dynamicShared[];

__device__ __forceinline__ unsigned linearBlock() {
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
__device__ __forceinline__ unsigned linearThread() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ ThreadCursor& cursor() {
    return g_trace.cursors[linearBlock() * (blockDim.x * blockDim.y * blockDim.z) + linearThread()];
}

struct DeviceRecorder {
    static __device__ void record(Op op, std::uint8_t array, int index, float value, unsigned line) {
        const unsigned block = linearBlock();
        ThreadCursor& c = cursor();
        const unsigned long long now = globalTimer();
        if (c.firstNs == 0) {
            c.firstNs = now;
            c.sm = smId();
            c.warp = warpSlot();
        }
        c.lastNs = now;
        if (!g_trace.tracedBlocks[block]) return;
        unsigned long long slot = atomicAdd(g_trace.count, 1ULL);
        if (slot < g_trace.capacity) {
            g_trace.events[slot] = DeviceEvent{block, c.seq,
                                               Event{index, value, static_cast<std::uint16_t>(linearThread()),
                                                     static_cast<std::uint16_t>(line),
                                                     static_cast<std::uint16_t>(c.phase), op, array}};
        }
        ++c.seq;
    }
    // __fadd_rn is never fused with the preceding multiply: the sum is rounded
    // exactly as on the CPU, so traces of both executions agree bit for bit.
    static __device__ float add(float sum, float term) { return __fadd_rn(sum, term); }
    static __device__ float* sharedMemory(int floats, unsigned line) {
        if (floats > g_trace.sharedFloats) fault(kArrayShared, floats, g_trace.sharedFloats, line);
        return dynamicShared;
    }
    static __device__ void fault(std::uint8_t array, int index, int size, unsigned line) {
        atomicAdd(&g_trace.fault->count, 1ULL);
        if (atomicCAS(&g_trace.fault->set, 0, 1) == 0) {
            g_trace.fault->block = linearBlock();
            g_trace.fault->thread = linearThread();
            g_trace.fault->array = array;
            g_trace.fault->index = index;
            g_trace.fault->size = size;
            g_trace.fault->line = line;
        }
    }
    static __device__ float& scratch() { return g_scratch; }
};

__device__ void syncthreads(unsigned line) {
    if ((g_trace.dropBarrier[line / 32] >> (line % 32)) & 1u) return;  // left out: as if the line were not there
    DeviceRecorder::record(Op::Barrier, kArrayNone, -1, 0.0f, line);
    ++cursor().phase;
    (__syncthreads)();  // the parentheses call the real barrier, not this macro
}

using Recorder = DeviceRecorder;
#include "exec/traced_language.inl"

#define TS_KERNEL __global__
#define __syncthreads() ::tilescope::instrumented::syncthreads(__LINE__)
#include "conv/all_kernels.inc"
#undef __syncthreads
#undef TS_KERNEL

namespace {
#include "exec/launch_table.inl"
}  // namespace

}  // namespace tilescope::instrumented

namespace tilescope::cuda {

namespace {

// One instrumented launch with room for `capacity` events; returns how many
// the threads wanted to write.
Result<unsigned long long> launchOnce(const LaunchPlan& plan, const HostArrays& a,
                                      const std::vector<unsigned char>& tracedBlocks, unsigned long long capacity,
                                      const BarrierDrop& drop, std::vector<instrumented::DeviceEvent>& events,
                                      std::vector<instrumented::ThreadCursor>& threadCursors, LaunchFaults& faults) {
    using namespace instrumented;
    const std::size_t threads = static_cast<std::size_t>(plan.grid.count()) * plan.block.count();
    DeviceBuffer<float> N, P, mask;
    DeviceBuffer<DeviceEvent> deviceEvents;
    DeviceBuffer<unsigned long long> count;
    DeviceBuffer<ThreadCursor> cursors;
    DeviceBuffer<unsigned char> traced;
    DeviceBuffer<DeviceFault> fault;
    TS_CUDA_TRY(N.allocate(a.nSize));
    TS_CUDA_TRY(P.allocate(a.pSize));
    TS_CUDA_TRY(mask.allocate(a.maskSize));
    TS_CUDA_TRY(deviceEvents.allocate(capacity));
    TS_CUDA_TRY(count.allocate(1));
    TS_CUDA_TRY(cursors.allocate(threads));
    TS_CUDA_TRY(traced.allocate(tracedBlocks.size()));
    TS_CUDA_TRY(fault.allocate(1));
    TS_CUDA_TRY(N.upload(a.N, a.nSize));
    TS_CUDA_TRY(mask.upload(a.mask, a.maskSize));
    TS_CUDA_TRY(traced.upload(tracedBlocks.data(), tracedBlocks.size()));
    TS_CUDA_TRY(cudaMemset(P.get(), 0, a.pSize * sizeof(float)));
    TS_CUDA_TRY(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
    TS_CUDA_TRY(cudaMemset(cursors.get(), 0, threads * sizeof(ThreadCursor)));
    TS_CUDA_TRY(cudaMemset(fault.get(), 0, sizeof(DeviceFault)));

    float m[MAX_MASK_WIDTH];
    float f[MAX_MASK_WIDTH][MAX_MASK_WIDTH];
    fillConstantMask(plan, a.mask, m, f);
    TS_CUDA_TRY(cudaMemcpyToSymbol(M, m, sizeof(m)));
    TS_CUDA_TRY(cudaMemcpyToSymbol(F_c, f, sizeof(f)));
    DeviceTrace trace{deviceEvents.get(), capacity,     count.get(), cursors.get(), traced.get(), fault.get(),
                      static_cast<int>(plan.sharedBytes / sizeof(float)), {}};
    const std::array<std::uint32_t, 8> dropBits = drop.bits();
    std::copy(dropBits.begin(), dropBits.end(), trace.dropBarrier);
    TS_CUDA_TRY(cudaMemcpyToSymbol(g_trace, &trace, sizeof(trace)));

    KernelArgs args{N.get(), a.nSize, mask.get(), a.maskSize, P.get(), a.pSize};
    cudaError_t launched = launchKernel(
        plan, args, [&](auto kernel, auto... params) { return launchOnGrid(plan, kernel, params...); });
    if (launched != cudaSuccess) return cudaFailure(launched, "instrumented kernel launch");
    TS_CUDA_TRY(cudaDeviceSynchronize());

    DeviceFault hostFault{};
    TS_CUDA_TRY(fault.download(&hostFault, 1));
    faults = LaunchFaults{};
    if (hostFault.set) {
        // The first to arrive on the GPU; the trace names every one.
        Dim3 block{hostFault.block % plan.grid.x, (hostFault.block / plan.grid.x) % plan.grid.y, 1};
        faults.outside = hostFault.count;
        faults.firstOutside = describeOutOfBounds(plan, block, hostFault.thread,
                                                  static_cast<std::uint8_t>(hostFault.array), hostFault.index,
                                                  hostFault.size, hostFault.line);
    }
    unsigned long long wanted = 0;
    TS_CUDA_TRY(count.download(&wanted, 1));
    if (wanted <= capacity) {
        events.resize(wanted);
        TS_CUDA_TRY(deviceEvents.download(events.data(), wanted));
        TS_CUDA_TRY(P.download(a.P, a.pSize));
        threadCursors.resize(threads);
        TS_CUDA_TRY(cursors.download(threadCursors.data(), threads));
    }
    return wanted;
}

// Per block: the SM and warp slots its threads reported, and the span from
// its earliest to its latest recorded event. Threads that recorded nothing
// (a block with no work) leave firstNs at 0 and are left out.
std::vector<BlockHardware> hardwareOf(const LaunchPlan& plan, const std::vector<instrumented::ThreadCursor>& cursors) {
    const unsigned threads = plan.block.count();
    const unsigned warps = (threads + 31) / 32;
    std::vector<BlockHardware> blocks(plan.grid.count());
    for (unsigned b = 0; b < blocks.size(); ++b) {
        BlockHardware& h = blocks[b];
        h.block = Dim3{b % plan.grid.x, (b / plan.grid.x) % plan.grid.y, b / (plan.grid.x * plan.grid.y)};
        h.warpIds.assign(warps, 0);
        for (unsigned t = 0; t < threads; ++t) {
            const instrumented::ThreadCursor& c = cursors[static_cast<std::size_t>(b) * threads + t];
            if (c.firstNs == 0) continue;
            if (h.startNs == 0 || c.firstNs < h.startNs) h.startNs = c.firstNs;
            if (c.lastNs > h.endNs) h.endNs = c.lastNs;
            h.sm = c.sm;
            if (t % 32 == 0) h.warpIds[t / 32] = c.warp;
        }
    }
    return blocks;
}

}  // namespace

Result<InstrumentedRun> executeInstrumented(const LaunchPlan& plan, const HostArrays& a, const TraceOptions& options) {
    if (!gpuInfo().available) return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
    const unsigned blockCount = plan.grid.count();
    std::vector<unsigned char> traced(blockCount, options.blocks.empty() && !options.none ? 1 : 0);
    for (const Dim3& b : options.blocks) {
        const unsigned z = plan.grid.z == 1 ? 0 : b.z;  // see sameBlock()
        if (b.x < plan.grid.x && b.y < plan.grid.y && z < plan.grid.z)
            traced[b.x + plan.grid.x * (b.y + plan.grid.y * z)] = 1;
    }

    // A first launch with a modest buffer learns how many events the launch
    // makes; a second, sized exactly, runs only when the first was too small.
    std::vector<instrumented::DeviceEvent> events;
    std::vector<instrumented::ThreadCursor> cursors;
    LaunchFaults faults;
    unsigned long long capacity = std::min<unsigned long long>(options.eventBudget, 1ULL << 22);
    capacity = std::max<unsigned long long>(capacity, 1);
    auto wanted = launchOnce(plan, a, traced, capacity, options.drop, events, cursors, faults);
    if (!wanted) return wanted.error();
    if (*wanted > options.eventBudget) return badInput(traceBudgetMessage(options.eventBudget));
    if (*wanted > capacity) {
        wanted = launchOnce(plan, a, traced, *wanted, options.drop, events, cursors, faults);
        if (!wanted) return wanted.error();
    }

    std::sort(events.begin(), events.end(), [](const instrumented::DeviceEvent& x, const instrumented::DeviceEvent& y) {
        if (x.block != y.block) return x.block < y.block;
        if (x.event.thread != y.event.thread) return x.event.thread < y.event.thread;
        return x.seq < y.seq;
    });
    TracedBlocks blocks;
    for (unsigned b = 0; b < blockCount; ++b) {
        if (!traced[b]) continue;
        blocks.push_back(BlockEvents{Dim3{b % plan.grid.x, (b / plan.grid.x) % plan.grid.y, b / (plan.grid.x * plan.grid.y)}, {}});
    }
    std::size_t next = 0;
    for (const instrumented::DeviceEvent& e : events) {
        Dim3 block{e.block % plan.grid.x, (e.block / plan.grid.x) % plan.grid.y, e.block / (plan.grid.x * plan.grid.y)};
        while (next < blocks.size() && !(blocks[next].block == block)) ++next;
        if (next == blocks.size()) break;
        blocks[next].events.push_back(e.event);
    }
    return InstrumentedRun{std::move(blocks), hardwareOf(plan, cursors), std::move(faults)};
}

}  // namespace tilescope::cuda
