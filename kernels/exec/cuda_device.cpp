// Which GPU is there, and its limits (the ones chapter 7 talks about); and
// what a failing CUDA call means for the rest of the process.
#include <cuda_runtime.h>

#include <mutex>

#include "exec/backends.hpp"
#include "exec/cuda_support.hpp"

namespace tilescope::cuda {

namespace {

GpuInfo ask() {
    GpuInfo info;
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        // The common cases in words a student without a GPU understands.
        const std::string cuda = cudaGetErrorString(status);
        if (status == cudaErrorNoDevice)
            info.reason = "no NVIDIA GPU was found (" + cuda + ")";
        else if (status == cudaErrorInsufficientDriver)
            info.reason = "no NVIDIA driver, or one older than this build of CUDA needs (" + cuda + ")";
        else
            info.reason = "no usable CUDA device (" + cuda + ")";
        cudaGetLastError();  // clear the error so later calls start clean
        return info;
    }
    if (count == 0) {
        info.reason = "no CUDA device is present";
        return info;
    }
    cudaDeviceProp prop{};
    status = cudaGetDeviceProperties(&prop, 0);
    if (status != cudaSuccess) {
        info.reason = std::string("cannot read the GPU's properties (") + cudaGetErrorString(status) + ")";
        return info;
    }
    info.available = true;
    info.limits.name = prop.name;
    info.limits.maxThreadsPerBlock = prop.maxThreadsPerBlock;
    info.limits.maxThreadsPerSm = prop.maxThreadsPerMultiProcessor;
    info.limits.maxBlocksPerSm = prop.maxBlocksPerMultiProcessor;
    info.limits.sharedPerBlock = prop.sharedMemPerBlock;
    info.limits.sharedPerBlockOptin = prop.sharedMemPerBlockOptin;
    info.limits.sharedPerSm = prop.sharedMemPerMultiprocessor;
    info.limits.constantBytes = prop.totalConstMem;
    info.limits.l2Bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.limits.smCount = prop.multiProcessorCount;
    return info;
}

// The GPU as first found, and the fault that ended its use, if any. Read by
// the UI thread and the runners' threads alike.
std::mutex g_mutex;
std::string g_lost;  // empty: the context is usable

}  // namespace

GpuInfo gpuInfo() {
    static const GpuInfo found = ask();
    std::lock_guard lock(g_mutex);
    if (g_lost.empty() || !found.available)
        return found;
    GpuInfo info = found;
    info.available = false;
    info.reason = g_lost;
    return info;
}

Error cudaFailure(cudaError_t status, const char* what) {
    std::string message = std::string(what) + ": " + cudaGetErrorString(status);
    // Most errors belong to the call that returned them (out of memory, an
    // invalid launch configuration) and the next call starts clean. A fault
    // in a kernel (an illegal address, a trap) is "sticky": it poisons the
    // context, and every CUDA call of this process fails from then on. A
    // synchronisation after clearing the error tells the two apart.
    cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        message += "; the GPU's context is lost until TileScope is started again";
        std::lock_guard lock(g_mutex);
        if (g_lost.empty())
            g_lost = "the GPU stopped working (" + std::string(cudaGetErrorString(status)) +
                     "); start TileScope again to use it";
    }
    return Error{ExitCode::BackendUnavailable, message};
}

}  // namespace tilescope::cuda
