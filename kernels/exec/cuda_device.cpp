// Which GPU is there, and its limits (the ones chapter 7 talks about).
#include <cuda_runtime.h>

#include "exec/backends.hpp"

namespace tilescope::cuda {

namespace {

GpuInfo ask() {
    GpuInfo info;
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        info.reason = std::string("no usable CUDA device (") + cudaGetErrorString(status) + ")";
        cudaGetLastError();  // clear the sticky error so later calls start clean
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
    info.limits.sharedPerBlock = prop.sharedMemPerBlock;
    info.limits.sharedPerBlockOptin = prop.sharedMemPerBlockOptin;
    info.limits.constantBytes = prop.totalConstMem;
    info.limits.l2Bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.limits.smCount = prop.multiProcessorCount;
    return info;
}

}  // namespace

const GpuInfo& gpuInfo() {
    static const GpuInfo info = ask();
    return info;
}

}  // namespace tilescope::cuda
