// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// difftest-tags: intrinsic-rn intrinsic-rn-scoped scoped-call
// CUDA's correctly rounded intrinsics named with ::, as any global function may
// be: P[i] = ::__fadd_rn(N[i], 0.1f) * 2 + ::__fmul_rn(N[i], 3.0f). TileScope
// (when this was found) refused the file: "'::__fadd_rn' has not been declared;
// did you mean '__fadd_rn'?" (the CPU compile of the translation). The same
// for ::__fsub_rn, ::__fmul_rn, ::__fdiv_rn, ::__frcp_rn, ::__fsqrt_rn and
// ::__fmaf_rn; ::fmaf is accepted.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3e4cf24d  (0.200143054)
// expect: P[1] = 0xc085999a  (-4.17500019)
// expect: P[2] = 0x3e513ae4  (0.204326212)
// expect: P[3] = 0xc08b8df4  (-4.36107826)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) P[i] = ::__fadd_rn(N[i], 0.1f) * 2.0f + ::__fmul_rn(N[i], 3.0f);
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
