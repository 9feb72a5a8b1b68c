// round 6: the tile staged in PARTS commit groups (part 0: the rows the first band of patches needs, then the rows
// each further band adds); each thread computes one 4x4 patch per band, band p waiting only for groups 0..p.
#pragma once
namespace xs {
template <int r>
__device__ __forceinline__ void stageRows(float4* tile, const float* N, int W, int H, int outX0, int inY0, int rowBegin, int rowEnd) {
    constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4;
    const int bx = blockDim.x, by = blockDim.y;
    const int tw4 = bx + 2 * HALO4;
    int x = outX0 + 4 * threadIdx.x;
    bool colIn = x < W;
    int row = rowBegin + threadIdx.y;
    int y = inY0 + row;
    int idx = y * W + x;
    float4* dst = tile + row * tw4 + HALO4 + threadIdx.x;
#pragma unroll 4
    for (; row < rowEnd; row += by) {
        bool in = colIn && (unsigned)y < (unsigned)H;
        cpAsync16p(dst, N + idx, in);
        y += by; idx += by * W; dst += by * tw4;
    }
    int tid = threadIdx.y * bx + threadIdx.x;
    for (int i = tid; i < 2 * HALO4 * (rowEnd - rowBegin); i += bx * by) {
        int hrow = rowBegin + i / (2 * HALO4), k = i % (2 * HALO4);
        int c = k < HALO4 ? k : bx + k;
        int hx = outX0 - HALO + 4 * c, hy = inY0 + hrow;
        bool in = (unsigned)hx < (unsigned)W && (unsigned)hy < (unsigned)H;
        cpAsync16p(tile + hrow * tw4 + c, N + (hy * W + hx), in);
    }
}
template <int r, int PARTS>
__device__ __forceinline__ void partsBody(const float* N, float* P, int W, int H) {
    extern __shared__ float4 smem4[];
    const int band = 4 * blockDim.y;
    const int outX0 = blockIdx.x * 4 * blockDim.x, outY0 = blockIdx.y * PARTS * band;
    const int inY0 = outY0 - r;
#pragma unroll
    for (int p = 0; p < PARTS; p++) {
        stageRows<r>(smem4, N, W, H, outX0, inY0, p == 0 ? 0 : p * band + 2 * r, (p + 1) * band + 2 * r);
        commit();
    }
#pragma unroll 1
    for (int p = 0; p < PARTS; p++) {
        if (PARTS - 1 - p == 2) waitGroup<2>();
        if (PARTS - 1 - p == 1) waitGroup<1>();
        if (PARTS - 1 - p == 0) waitGroup<0>();
        __syncthreads();
        const int tw4 = blockDim.x + 2 * ((r + 3) / 4);
        compute3<r, 4>(smem4 + p * band * tw4, P, W, H, outX0, outY0 + p * band);
    }
}
template <int r> __global__ void __maxnreg__(32) h1_32(const float* N, float* P, int W, int H) { partsBody<r, 1>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) h2_32(const float* N, float* P, int W, int H) { partsBody<r, 2>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) h3_32(const float* N, float* P, int W, int H) { partsBody<r, 3>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(40) h1_40(const float* N, float* P, int W, int H) { partsBody<r, 1>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(40) h2_40(const float* N, float* P, int W, int H) { partsBody<r, 2>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(48) h1_48(const float* N, float* P, int W, int H) { partsBody<r, 1>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(48) h2_48(const float* N, float* P, int W, int H) { partsBody<r, 2>(N, P, W, H); }
template <int r> __global__ void h2(const float* N, float* P, int W, int H) { partsBody<r, 2>(N, P, W, H); }
}  // namespace xs
