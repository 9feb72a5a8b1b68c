// round 2: runtime blockDim (as in the project), 2D staging loop (each thread its own columns, every by-th row)
#pragma once
namespace xs {
template <int r>
__device__ __forceinline__ void stgRow(const float4* rowp, int dy, float (&acc)[4][4]) {
    constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4, MD = 2 * r + 1, SKEW = HALO - r;
    float w[4 * (2 * HALO4 + 1)];
#pragma unroll
    for (int k = 0; k < 2 * HALO4 + 1; k++) {
        float4 v = rowp[k];
        w[4 * k] = v.x; w[4 * k + 1] = v.y; w[4 * k + 2] = v.z; w[4 * k + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < 4; j++) {
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
template <int r>
__device__ __forceinline__ void stgBody(const float* N, float* P, int W, int H) {
    constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4, ROWS = 4 + 2 * r;
    extern __shared__ float4 smem4[];
    const int bx = blockDim.x, by = blockDim.y;
    const int tw4 = bx + 2 * HALO4, th = 4 * by + 2 * r;
    const int outX0 = blockIdx.x * 4 * bx, outY0 = blockIdx.y * 4 * by;
    const int inX0 = outX0 - HALO, inY0 = outY0 - r;
    for (int c = threadIdx.x; c < tw4; c += bx) {
        int x = inX0 + 4 * c;
        bool colIn = x >= 0 && x < W;
        for (int row = threadIdx.y; row < th; row += by) {
            int y = inY0 + row;
            bool in = colIn && y >= 0 && y < H;
            cpAsync16(smem4 + row * tw4 + c, in ? N + (size_t)y * W + x : N, in);
        }
    }
    commit();
    waitGroup<0>();
    __syncthreads();
    float acc[4][4] = {};
    const float4* base = smem4 + 4 * threadIdx.y * tw4 + threadIdx.x;
    if constexpr (r >= 6) {
#pragma unroll
        for (int dy = 0; dy < 3; dy++) stgRow<r>(base + dy * tw4, dy, acc);
        constexpr int LOOPED = (ROWS - 6) / 4 * 4;
#pragma unroll 1
        for (int d0 = 3; d0 < 3 + LOOPED; d0 += 4) {
#pragma unroll
            for (int k = 0; k < 4; k++) stgRow<r>(base + (d0 + k) * tw4, d0 + k, acc);
        }
#pragma unroll
        for (int dy = 3 + LOOPED; dy < ROWS; dy++) stgRow<r>(base + dy * tw4, dy, acc);
    } else {
#pragma unroll
        for (int dy = 0; dy < ROWS; dy++) stgRow<r>(base + dy * tw4, dy, acc);
    }
    int col0 = outX0 + 4 * threadIdx.x, row0 = outY0 + 4 * threadIdx.y;
    if (col0 >= W) return;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (row0 + j >= H) break;
        *reinterpret_cast<float4*>(P + (size_t)(row0 + j) * W + col0) = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
    }
}
template <int r> __global__ void stg(const float* N, float* P, int W, int H) { stgBody<r>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) stg32(const float* N, float* P, int W, int H) { stgBody<r>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(40) stg40(const float* N, float* P, int W, int H) { stgBody<r>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(48) stg48(const float* N, float* P, int W, int H) { stgBody<r>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) stg64(const float* N, float* P, int W, int H) { stgBody<r>(N, P, W, H); }
}  // namespace xs
