// round 3: cheap staging. Each thread copies the float4 at its own column in rows ty, ty+by, ...; the 2*HALO4
// halo columns are copied by the first threads of the block (two per row for HALO4 = 1). The zero fill of ghost
// cells uses cp.async's ignore-src predicate: no select, no branch.
#pragma once
namespace xs {
__device__ __forceinline__ void cpAsync16p(void* smem, const float* gmem, bool in) {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 0; cp.async.cg.shared.global.L2::256B [%0], [%1], 16, p; }" ::"r"(s), "l"(gmem), "r"((int)in));
}
template <int r, bool SAFE>
__device__ __forceinline__ void stg2Body(const float* N, float* P, int W, int H) {
    constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4, ROWS = 4 + 2 * r;
    extern __shared__ float4 smem4[];
    const int bx = blockDim.x, by = blockDim.y;
    const int tw4 = bx + 2 * HALO4, th = 4 * by + 2 * r;
    const int outX0 = blockIdx.x * 4 * bx, outY0 = blockIdx.y * 4 * by;
    const int inY0 = outY0 - r;
    {
        // own column
        int x = outX0 + 4 * threadIdx.x;
        bool colIn = x < W;
        int y = inY0 + threadIdx.y;
        const float* src = N + (ptrdiff_t)y * W + x;
        float4* dst = smem4 + threadIdx.y * tw4 + HALO4 + threadIdx.x;
        for (int row = threadIdx.y; row < th; row += by) {
            bool in = colIn && (unsigned)y < (unsigned)H;
            cpAsync16p(dst, SAFE && !in ? N : src, in);
            y += by; src += (ptrdiff_t)by * W; dst += by * tw4;
        }
        // halo columns: 2*HALO4 per row, the block's first threads
        int tid = threadIdx.y * bx + threadIdx.x;
        for (int i = tid; i < 2 * HALO4 * th; i += bx * by) {
            int row = i / (2 * HALO4), k = i % (2 * HALO4);
            int c = k < HALO4 ? k : bx + k;  // tile column (float4s)
            int hx = outX0 - HALO + 4 * c, hy = inY0 + row;
            bool in = (unsigned)hx < (unsigned)W && (unsigned)hy < (unsigned)H;
            cpAsync16p(smem4 + row * tw4 + c, SAFE && !in ? N : N + (ptrdiff_t)hy * W + hx, in);
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
template <int r> __global__ void sb(const float* N, float* P, int W, int H) { stg2Body<r, false>(N, P, W, H); }
template <int r> __global__ void sbsafe(const float* N, float* P, int W, int H) { stg2Body<r, true>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(32) sb32(const float* N, float* P, int W, int H) { stg2Body<r, false>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(40) sb40(const float* N, float* P, int W, int H) { stg2Body<r, false>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(48) sb48(const float* N, float* P, int W, int H) { stg2Body<r, false>(N, P, W, H); }
template <int r> __global__ void __maxnreg__(64) sb64(const float* N, float* P, int W, int H) { stg2Body<r, false>(N, P, W, H); }
}  // namespace xs
