// Host-side CUDA helpers shared by the plain and instrumented executions:
// every runtime call is checked and turned into an Error (never exit()),
// because the app must survive a failing GPU and say why.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "core/planner.hpp"
#include "core/result.hpp"

namespace tilescope::cuda {

// The Error of a failed CUDA call, named by `what`. When the failure has
// cost the process its CUDA context (a fault in a kernel), it also marks the
// GPU unavailable (gpuInfo()) and says so in the message.
Error cudaFailure(cudaError_t status, const char* what);

// `TS_CUDA_TRY(call)` returns an Error from the enclosing function when the
// call fails.
#define TS_CUDA_TRY(call)                                                  \
    do {                                                                   \
        cudaError_t ts_status_ = (call);                                   \
        if (ts_status_ != cudaSuccess) return cudaFailure(ts_status_, #call); \
    } while (false)

// A device allocation that frees itself.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    ~DeviceBuffer() {
        if (m_data) cudaFree(m_data);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    cudaError_t allocate(std::size_t count) {
        m_count = count;
        return cudaMalloc(&m_data, (count ? count : 1) * sizeof(T));
    }
    cudaError_t upload(const T* host, std::size_t count) {
        return count ? cudaMemcpy(m_data, host, count * sizeof(T), cudaMemcpyHostToDevice) : cudaSuccess;
    }
    cudaError_t download(T* host, std::size_t count) const {
        return count ? cudaMemcpy(host, m_data, count * sizeof(T), cudaMemcpyDeviceToHost) : cudaSuccess;
    }
    T* get() const { return m_data; }
    std::size_t size() const { return m_count; }

private:
    T* m_data = nullptr;
    std::size_t m_count = 0;
};

// A pair of CUDA events around a piece of GPU work.
class GpuTimer {
public:
    GpuTimer() {
        cudaEventCreate(&m_start);
        cudaEventCreate(&m_stop);
    }
    ~GpuTimer() {
        cudaEventDestroy(m_start);
        cudaEventDestroy(m_stop);
    }
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;
    void start() { cudaEventRecord(m_start); }
    void stop() { cudaEventRecord(m_stop); }
    float millis() {
        float ms = 0.0f;
        cudaEventSynchronize(m_stop);
        cudaEventElapsedTime(&ms, m_start, m_stop);
        return ms;
    }

private:
    cudaEvent_t m_start{};
    cudaEvent_t m_stop{};
};

// The arrays of one launch, already in GPU memory.
struct DeviceArrays {
    const float* N = nullptr;
    int nSize = 0;
    const float* mask = nullptr;  // for the kernels that take the mask by pointer
    int maskSize = 0;
    float* P = nullptr;
    int pSize = 0;
};

// The plain kernels (cuda_plain.cu), for executePlain and the benchmark
// (cuda_bench.cu): the mask into constant memory (M and F_c), and one launch
// on the default stream, asynchronous, returning the launch's own error.
cudaError_t uploadPlainMask(const LaunchPlan& plan, const float* hostMask);
cudaError_t launchPlain(const LaunchPlan& plan, const DeviceArrays& arrays);

// A GPU that fails on purpose, for the tests of what TileScope does then: a
// kernel of 32 threads that stores through a null pointer (an illegal
// address, which costs the process its CUDA context). The failure tests
// launch it directly; with TILESCOPE_GPU_FAULT=1 in the environment, the
// process's first plain launch (executePlain) runs it in place of the
// convolution, so that the app's fallback to the CPU can be drawn
// (tests/gpu_ui_test.cpp, scripts/gpu-ui.sh). Returns the launch's error.
cudaError_t launchFaultingKernel();

#ifdef __CUDACC__
// Launches `kernel` over the plan's grid with the plan's dynamic shared
// memory, asking for more than the default 48 KB per block when the tile
// needs it; returns the launch's error.
template <class Kernel, class... Params>
cudaError_t launchOnGrid(const LaunchPlan& plan, Kernel kernel, Params... params) {
    if (plan.sharedBytes > 48 * 1024) {
        cudaError_t s = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(plan.sharedBytes));
        if (s != cudaSuccess) return s;
    }
    const dim3 grid(plan.grid.x, plan.grid.y, plan.grid.z);
    const dim3 block(plan.block.x, plan.block.y, plan.block.z);
    kernel<<<grid, block, plan.sharedBytes>>>(params...);
    return cudaGetLastError();
}
#endif

}  // namespace tilescope::cuda
