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

#include "core/kernel_catalogue.hpp"
#include "core/kernel_table.hpp"
#include "exec/backends.hpp"
#include "exec/cuda_support.hpp"
#include "trace/fault.hpp"

namespace tilescope::instrumented {

#include "exec/device_trace.hpp"
#include "exec/device_recorder.cuh"

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
                                                  hostFault.size, hostFault.line, hostFault.at);
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
