// round 4: staging with 32-bit indices and an unrolled row loop; PY output rows per thread; strips of tiles
// double-buffered.
#pragma once
namespace xs {
template <int r, int PY>
__device__ __forceinline__ void stage3(float4* tile, const float* N, int W, int H, int outX0, int outY0) {
    constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4;
    const int bx = blockDim.x, by = blockDim.y;
    const int tw4 = bx + 2 * HALO4, th = PY * by + 2 * r;
    const int inY0 = outY0 - r;
    int x = outX0 + 4 * threadIdx.x;
    bool colIn = x < W;
    int y = inY0 + threadIdx.y;
    int idx = y * W + x;
    const int step = by * W;
    float4* dst = tile + threadIdx.y * tw4 + HALO4 + threadIdx.x;
    const int dstep = by * tw4;
#pragma unroll 4
    for (int row = threadIdx.y; row < th; row += by) {
        bool in = colIn && (unsigned)y < (unsigned)H;
        cpAsync16p(dst, N + idx, in);
        y += by; idx += step; dst += dstep;
    }
    int tid = threadIdx.y * bx + threadIdx.x;
    for (int i = tid; i < 2 * HALO4 * th; i += bx * by) {
        int row = i / (2 * HALO4), k = i % (2 * HALO4);
        int c = k < HALO4 ? k : bx + k;
        int hx = outX0 - HALO + 4 * c, hy = inY0 + row;
        bool in = (unsigned)hx < (unsigned)W && (unsigned)hy < (unsigned)H;
        cpAsync16p(tile + row * tw4 + c, N + (hy * W + hx), in);
    }
}
template <int r, int PY>
__device__ __forceinline__ void row3(const float4* rowp, int dy, float (&acc)[PY][4]) {
    constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4, MD = 2 * r + 1, SKEW = HALO - r;
    float w[4 * (2 * HALO4 + 1)];
#pragma unroll
    for (int k = 0; k < 2 * HALO4 + 1; k++) {
        float4 v = rowp[k];
        w[4 * k] = v.x; w[4 * k + 1] = v.y; w[4 * k + 2] = v.z; w[4 * k + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < PY; j++) {
        int fRow = dy - j;
        if (fRow < 0 || fRow >= MD) continue;
#pragma unroll
        for (int fc = 0; fc < MD; fc++) {
            float f = G_c[fRow][fc];
#pragma unroll
            for (int c = 0; c < 4; c++) acc[j][c] += f * w[SKEW + c + fc];
        }
    }
}
template <int r, int PY>
__device__ __forceinline__ void compute3(const float4* tile, float* P, int W, int H, int outX0, int outY0) {
    constexpr int HALO4 = (r + 3) / 4, ROWS = PY + 2 * r;
    const int tw4 = blockDim.x + 2 * HALO4;
    float acc[PY][4] = {};
    const float4* base = tile + PY * threadIdx.y * tw4 + threadIdx.x;
    if constexpr (r >= 6 && PY == 4) {
#pragma unroll
        for (int dy = 0; dy < 3; dy++) row3<r, PY>(base + dy * tw4, dy, acc);
        constexpr int LOOPED = (ROWS - 6) / 4 * 4;
#pragma unroll 1
        for (int d0 = 3; d0 < 3 + LOOPED; d0 += 4) {
#pragma unroll
            for (int k = 0; k < 4; k++) row3<r, PY>(base + (d0 + k) * tw4, d0 + k, acc);
        }
#pragma unroll
        for (int dy = 3 + LOOPED; dy < ROWS; dy++) row3<r, PY>(base + dy * tw4, dy, acc);
    } else {
#pragma unroll
        for (int dy = 0; dy < ROWS; dy++) row3<r, PY>(base + dy * tw4, dy, acc);
    }
    int col0 = outX0 + 4 * threadIdx.x, row0 = outY0 + PY * threadIdx.y;
    if (col0 >= W) return;
#pragma unroll
    for (int j = 0; j < PY; j++) {
        if (row0 + j >= H) break;
        *reinterpret_cast<float4*>(P + (size_t)(row0 + j) * W + col0) = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
    }
}
template <int r, int PY>
__device__ __forceinline__ void one3(const float* N, float* P, int W, int H) {
    extern __shared__ float4 smem4[];
    const int outX0 = blockIdx.x * 4 * blockDim.x, outY0 = blockIdx.y * PY * blockDim.y;
    stage3<r, PY>(smem4, N, W, H, outX0, outY0);
    commit(); waitGroup<0>(); __syncthreads();
    compute3<r, PY>(smem4, P, W, H, outX0, outY0);
}
template <int r, int S>
__device__ __forceinline__ void strip3(const float* N, float* P, int W, int H) {
    constexpr int HALO4 = (r + 3) / 4;
    extern __shared__ float4 smem4[];
    const int tileFloat4s = (blockDim.x + 2 * HALO4) * (4 * blockDim.y + 2 * r);
    const int outX0 = blockIdx.x * 4 * blockDim.x, tileH = 4 * blockDim.y;
    const int tilesY = (H + tileH - 1) / tileH, t0 = blockIdx.y * S, tN = min(S, tilesY - t0);
    stage3<r, 4>(smem4, N, W, H, outX0, t0 * tileH);
    commit();
    for (int t = 0; t < tN; t++) {
        if (t + 1 < tN) {
            stage3<r, 4>(smem4 + ((t + 1) & 1) * tileFloat4s, N, W, H, outX0, (t0 + t + 1) * tileH);
            commit(); waitGroup<1>();
        } else {
            waitGroup<0>();
        }
        __syncthreads();
        compute3<r, 4>(smem4 + (t & 1) * tileFloat4s, P, W, H, outX0, (t0 + t) * tileH);
        __syncthreads();
    }
}
template <int r> __global__ void __maxnreg__(32) sc32(const float* N, float* P, int W, int H) { one3<r, 4>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(40) sc40(const float* N, float* P, int W, int H) { one3<r, 4>(N, P, W, H); }
template <int r> __global__ void sc(const float* N, float* P, int W, int H) { one3<r, 4>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(56) sd56(const float* N, float* P, int W, int H) { one3<r, 8>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) sd64(const float* N, float* P, int W, int H) { one3<r, 8>(N, P, W, H); }
template <int r> __global__ void sd(const float* N, float* P, int W, int H) { one3<r, 8>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) se2(const float* N, float* P, int W, int H) { strip3<r, 2>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) se4(const float* N, float* P, int W, int H) { strip3<r, 4>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(40) sf4(const float* N, float* P, int W, int H) { strip3<r, 4>(N, P, W, H); }
}  // namespace xs
