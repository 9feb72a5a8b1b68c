// Execution (a): the kernels as plain CUDA. Every name in a kernel body is the
// raw CUDA thing here (plain_language.cuh), so this is what the book's
// listings compile to, corrected.
#include "exec/plain_language.cuh"

#include <cuda_runtime.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "core/kernel_catalogue.hpp"
#include "core/kernel_table.hpp"
#include "core/planner.hpp"
#include "exec/backends.hpp"
#include "exec/cuda_support.hpp"

namespace tilescope::plain {

// The barriers a run leaves out (core/barrier_drop.hpp), one bit per source
// line; all clear unless a run asks. Every thread of a block reads the same
// bit, so the branch never diverges.
__constant__ unsigned g_dropBarrier[8];
__device__ __forceinline__ void barrier(unsigned line) {
    if (!((g_dropBarrier[line / 32] >> (line % 32)) & 1u)) (__syncthreads)();
}

#define __syncthreads() ::tilescope::plain::barrier(__LINE__)
#include "conv/all_kernels.inc"
#undef __syncthreads

namespace {
Global<const float> globalIn(const float* p, int, ArrayId) { return p; }
Global<float> globalOut(float* p, int) { return p; }
// The input made writable for a listing that stores into it (launch_table.inl says why that is safe).
Global<float> globalInOut(const float* p, int, ArrayId) { return const_cast<float*>(p); }
const float* restrictIn(const float* p, int) { return p; }  // becomes the kernel's __restrict__ parameter
#define TS_FAST_MENU 1  // conv2d_fast's tuning menu runs here, and only here (launch_table.inl)
#include "exec/launch_table.inl"
#undef TS_FAST_MENU
}  // namespace

}  // namespace tilescope::plain

namespace tilescope::cuda {

namespace {
__global__ void storeThroughNull(float* p) {
    p[threadIdx.x] = 1.0f;
}

// TILESCOPE_GPU_FAULT=1: the process's first plain launch faults instead of
// running its kernel (see cuda_support.hpp).
bool faultAsked() {
    static std::atomic<bool> used{false};
    const char* v = std::getenv("TILESCOPE_GPU_FAULT");
    return v && v[0] == '1' && v[1] == '\0' && !used.exchange(true);
}
}  // namespace

cudaError_t launchFaultingKernel() {
    storeThroughNull<<<1, 32>>>(nullptr);
    return cudaGetLastError();
}

cudaError_t uploadPlainMask(const LaunchPlan& plan, const float* hostMask) {
    float m[plain::MAX_MASK_WIDTH];
    float f[plain::MAX_MASK_WIDTH][plain::MAX_MASK_WIDTH];
    plain::fillConstantMask(plan, hostMask, m, f);
    cudaError_t status = cudaMemcpyToSymbol(plain::M, m, sizeof(m));
    if (status != cudaSuccess) return status;
    return cudaMemcpyToSymbol(plain::F_c, f, sizeof(f));
}

cudaError_t uploadPlainBarrierDrop(const BarrierDrop& drop) {
    const std::array<std::uint32_t, 8> bits = drop.bits();
    return cudaMemcpyToSymbol(plain::g_dropBarrier, bits.data(), sizeof(bits));
}

cudaError_t launchPlain(const LaunchPlan& plan, const DeviceArrays& d) {
    plain::KernelArgs args{d.N, d.nSize, d.mask, d.maskSize, d.P, d.pSize};
    return plain::launchKernel(plan, args,
                               [&](auto kernel, auto... params) { return launchOnGrid(plan, kernel, params...); });
}

Result<double> executePlain(const LaunchPlan& plan, const HostArrays& a, const BarrierDrop& drop) {
    if (!gpuInfo().available) return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
    DeviceBuffer<float> N, P, mask;
    TS_CUDA_TRY(N.allocate(a.nSize));
    TS_CUDA_TRY(P.allocate(a.pSize));
    TS_CUDA_TRY(mask.allocate(a.maskSize));
    TS_CUDA_TRY(N.upload(a.N, a.nSize));
    TS_CUDA_TRY(mask.upload(a.mask, a.maskSize));
    TS_CUDA_TRY(cudaMemset(P.get(), 0, a.pSize * sizeof(float)));
    TS_CUDA_TRY(uploadPlainMask(plan, a.mask));
    TS_CUDA_TRY(uploadPlainBarrierDrop(drop));

    // The events go into the stream around the launch alone; setting a
    // kernel's attribute before it is host work and adds nothing between them.
    GpuTimer timer;
    timer.start();
    cudaError_t launched = faultAsked() ? launchFaultingKernel()
                                        : launchPlain(plan, DeviceArrays{N.get(), a.nSize, mask.get(), a.maskSize,
                                                                         P.get(), a.pSize});
    timer.stop();
    if (launched != cudaSuccess) return cudaFailure(launched, "kernel launch");
    TS_CUDA_TRY(cudaDeviceSynchronize());
    double millis = timer.millis();
    TS_CUDA_TRY(P.download(a.P, a.pSize));
    if (drop.any()) TS_CUDA_TRY(uploadPlainBarrierDrop(BarrierDrop{}));  // the next launch keeps its barriers
    return millis;
}

}  // namespace tilescope::cuda
