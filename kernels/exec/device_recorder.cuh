// The device side of the instrumented build: where a thread records its
// events (DeviceRecorder, the Recorder of traced_types.hpp) and the barrier
// that records itself. Compiled by nvcc in cuda_instrumented.cu and by NVRTC
// for a student's kernel (own/own_gpu.cpp); both include it inside namespace
// tilescope::instrumented, after device_trace.hpp.
//
// (No include guard and no includes: textually part of a mode.)

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
    static __device__ void fault(std::uint8_t array, int index, int size, unsigned line, Subscript2D at = {}) {
        atomicAdd(&g_trace.fault->count, 1ULL);
        if (atomicCAS(&g_trace.fault->set, 0, 1) == 0) {
            g_trace.fault->block = linearBlock();
            g_trace.fault->thread = linearThread();
            g_trace.fault->array = array;
            g_trace.fault->index = index;
            g_trace.fault->size = size;
            g_trace.fault->line = line;
            g_trace.fault->at = at;
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

