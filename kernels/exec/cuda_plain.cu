// Execution (a): the kernels as plain CUDA. Every name in a kernel body is the
// raw CUDA thing here (plain_language.cuh), so this is what the book's
// listings compile to, corrected.
#include "exec/plain_language.cuh"

#include <cuda_runtime.h>

#include "api/kernels.hpp"
#include "exec/backends.hpp"
#include "exec/cuda_support.hpp"

namespace tilescope::plain {

#include "conv/all_kernels.inc"

namespace {
Global<const float> globalIn(const float* p, int, ArrayId) { return p; }
Global<float> globalOut(float* p, int) { return p; }
const float* restrictIn(const float* p, int) { return p; }  // becomes the kernel's __restrict__ parameter
#include "exec/launch_table.inl"
}  // namespace

}  // namespace tilescope::plain

namespace tilescope::cuda {

Result<double> executePlain(const LaunchPlan& plan, const HostArrays& a) {
    if (!gpuInfo().available) return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
    DeviceBuffer<float> N, P, mask;
    TS_CUDA_TRY(N.allocate(a.nSize));
    TS_CUDA_TRY(P.allocate(a.pSize));
    TS_CUDA_TRY(mask.allocate(a.maskSize));
    TS_CUDA_TRY(N.upload(a.N, a.nSize));
    TS_CUDA_TRY(mask.upload(a.mask, a.maskSize));
    TS_CUDA_TRY(cudaMemset(P.get(), 0, a.pSize * sizeof(float)));

    float m[plain::MAX_MASK_WIDTH];
    float f[plain::MAX_MASK_WIDTH][plain::MAX_MASK_WIDTH];
    plain::fillConstantMask(plan, a.mask, m, f);
    TS_CUDA_TRY(cudaMemcpyToSymbol(plain::M, m, sizeof(m)));
    TS_CUDA_TRY(cudaMemcpyToSymbol(plain::F_c, f, sizeof(f)));

    GpuTimer timer;
    plain::KernelArgs args{N.get(), a.nSize, mask.get(), a.maskSize, P.get(), a.pSize};
    cudaError_t launched = plain::launchKernel(plan, args, [&](auto kernel, auto... params) {
        if (plan.sharedBytes > 48 * 1024) {
            cudaError_t s = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(plan.sharedBytes));
            if (s != cudaSuccess) return s;
        }
        dim3 grid(plan.grid.x, plan.grid.y, plan.grid.z);
        dim3 block(plan.block.x, plan.block.y, plan.block.z);
        timer.start();
        kernel<<<grid, block, plan.sharedBytes>>>(params...);
        timer.stop();
        return cudaGetLastError();
    });
    if (launched != cudaSuccess) return cudaFailure(launched, "kernel launch");
    TS_CUDA_TRY(cudaDeviceSynchronize());
    double millis = timer.millis();
    TS_CUDA_TRY(P.download(a.P, a.pSize));
    return millis;
}

}  // namespace tilescope::cuda
