// round 5: an L2 prefetch (cp.async.bulk.prefetch.L2) of the tile of the block AHEAD blocks later; strips with PY = 8
#pragma once
namespace xs {
template <int r, int PY>
__device__ __forceinline__ void prefetchAhead(const float* N, int W, int H, int ahead) {
    constexpr int HALO = 4 * ((r + 3) / 4);
    int linear = blockIdx.y * gridDim.x + blockIdx.x + ahead;
    if (linear >= gridDim.x * gridDim.y) return;
    int bxI = linear % gridDim.x, byI = linear / gridDim.x;
    int th = PY * blockDim.y + 2 * r;
    int row = threadIdx.y * blockDim.x + threadIdx.x;
    if (row >= th) return;
    int y = byI * PY * blockDim.y - r + row;
    if (y < 0 || y >= H) return;
    int x0 = max(0, bxI * 4 * (int)blockDim.x - HALO), x1 = min(W, (bxI + 1) * 4 * (int)blockDim.x + HALO);
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(N + (size_t)y * W + x0), "r"((x1 - x0) * 4) : "memory");
}
template <int r, int PY, int AHEAD>
__device__ __forceinline__ void onePf(const float* N, float* P, int W, int H) {
    extern __shared__ float4 smem4[];
    const int outX0 = blockIdx.x * 4 * blockDim.x, outY0 = blockIdx.y * PY * blockDim.y;
    stage3<r, PY>(smem4, N, W, H, outX0, outY0);
    commit();
    prefetchAhead<r, PY>(N, W, H, AHEAD);
    waitGroup<0>(); __syncthreads();
    compute3<r, PY>(smem4, P, W, H, outX0, outY0);
}
template <int r, int PY, int S>
__device__ __forceinline__ void stripPY(const float* N, float* P, int W, int H) {
    constexpr int HALO4 = (r + 3) / 4;
    extern __shared__ float4 smem4[];
    const int tileFloat4s = (blockDim.x + 2 * HALO4) * (PY * blockDim.y + 2 * r);
    const int outX0 = blockIdx.x * 4 * blockDim.x, tileH = PY * blockDim.y;
    const int tilesY = (H + tileH - 1) / tileH, t0 = blockIdx.y * S, tN = min(S, tilesY - t0);
    stage3<r, PY>(smem4, N, W, H, outX0, t0 * tileH);
    commit();
    for (int t = 0; t < tN; t++) {
        if (t + 1 < tN) {
            stage3<r, PY>(smem4 + ((t + 1) & 1) * tileFloat4s, N, W, H, outX0, (t0 + t + 1) * tileH);
            commit(); waitGroup<1>();
        } else {
            waitGroup<0>();
        }
        __syncthreads();
        compute3<r, PY>(smem4 + (t & 1) * tileFloat4s, P, W, H, outX0, (t0 + t) * tileH);
        __syncthreads();
    }
}
template <int r> __global__ void __maxnreg__(32) pf1k(const float* N, float* P, int W, int H) { onePf<r, 4, 1056>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) pf2k(const float* N, float* P, int W, int H) { onePf<r, 4, 2112>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) pf500(const float* N, float* P, int W, int H) { onePf<r, 4, 528>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) pd1k(const float* N, float* P, int W, int H) { onePf<r, 8, 1056>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) pd500(const float* N, float* P, int W, int H) { onePf<r, 8, 528>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) sg2(const float* N, float* P, int W, int H) { stripPY<r, 8, 2>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) sg3(const float* N, float* P, int W, int H) { stripPY<r, 8, 3>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) se3(const float* N, float* P, int W, int H) { stripPY<r, 4, 3>(N, P, W, H); }
}  // namespace xs
