// conv2d_fast with the block's input tile staged in shared memory by cp.async (zero-filled ghost cells),
// each thread then computing its 4x4 patch from shared memory. STRIP tiles per block down a column,
// double-buffered when STRIP > 1.
#pragma once
namespace xs {
__constant__ __align__(16) float G_c[15][15];

__device__ __forceinline__ void cpAsync16(void* smem, const float* gmem, bool in) {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;" ::"r"(s), "l"(gmem), "r"(in ? 16 : 0));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N>
__device__ __forceinline__ void waitGroup() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

template <int r, int BX, int BY>
struct Geo {
    static constexpr int HALO4 = (r + 3) / 4, HALO = 4 * HALO4;
    static constexpr int TW4 = BX + 2 * HALO4;  // float4s per tile row
    static constexpr int TH = 4 * BY + 2 * r;
    static constexpr int CHUNKS = TW4 * TH;
    static constexpr int FLOATS = CHUNKS * 4;
};

template <int r, int BX, int BY>
__device__ __forceinline__ void issueTile(float* tile, const float* N, int W, int H, int outX0, int outY0) {
    using G = Geo<r, BX, BY>;
    const int tid = threadIdx.y * BX + threadIdx.x;
    const int inX0 = outX0 - G::HALO, inY0 = outY0 - r;
#pragma unroll
    for (int i0 = 0; i0 < G::CHUNKS; i0 += BX * BY) {
        int i = i0 + tid;
        if (G::CHUNKS % (BX * BY) == 0 || i < G::CHUNKS) {
            int ty = i / G::TW4, tx = i - ty * G::TW4;
            int y = inY0 + ty, x = inX0 + 4 * tx;
            bool in = y >= 0 && y < H && x >= 0 && x < W;
            cpAsync16(tile + 4 * i, in ? N + (size_t)y * W + x : N, in);
        }
    }
}

template <int r, int BX, int BY>
__device__ __forceinline__ void addRow(const float* tile, int dy, float (&acc)[4][4]) {
    using G = Geo<r, BX, BY>;
    constexpr int MD = 2 * r + 1;
    constexpr int SKEW = G::HALO - r;
    const float4* row = reinterpret_cast<const float4*>(tile) + (4 * threadIdx.y + dy) * G::TW4 + threadIdx.x;
    float w[4 * (2 * G::HALO4 + 1)];
#pragma unroll
    for (int k = 0; k < 2 * G::HALO4 + 1; k++) {
        float4 v = row[k];
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

template <int r, int BX, int BY>
__device__ __forceinline__ void computeTile(const float* tile, float* P, int W, int H, int outX0, int outY0) {
    constexpr int ROWS = 4 + 2 * r;
    float acc[4][4] = {};
    if constexpr (r >= 6) {
#pragma unroll
        for (int dy = 0; dy < 3; dy++) addRow<r, BX, BY>(tile, dy, acc);
        constexpr int LOOPED = (ROWS - 6) / 4 * 4;
#pragma unroll 1
        for (int d0 = 3; d0 < 3 + LOOPED; d0 += 4) {
#pragma unroll
            for (int k = 0; k < 4; k++) addRow<r, BX, BY>(tile, d0 + k, acc);
        }
#pragma unroll
        for (int dy = 3 + LOOPED; dy < ROWS; dy++) addRow<r, BX, BY>(tile, dy, acc);
    } else {
#pragma unroll
        for (int dy = 0; dy < ROWS; dy++) addRow<r, BX, BY>(tile, dy, acc);
    }
    int col0 = outX0 + 4 * threadIdx.x, row0 = outY0 + 4 * threadIdx.y;
    if (col0 >= W) return;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (row0 + j >= H) break;
        *reinterpret_cast<float4*>(P + (size_t)(row0 + j) * W + col0) = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
    }
}

// one tile per block
template <int r, int BX, int BY, int MINB = 1>
__global__ void __launch_bounds__(BX * BY, MINB) staged1(const float* N, float* P, int W, int H) {
    extern __shared__ float4 smem4[];
    float* tile = reinterpret_cast<float*>(smem4);
    int outX0 = blockIdx.x * 4 * BX, outY0 = blockIdx.y * 4 * BY;
    issueTile<r, BX, BY>(tile, N, W, H, outX0, outY0);
    commit();
    waitGroup<0>();
    __syncthreads();
    computeTile<r, BX, BY>(tile, P, W, H, outX0, outY0);
}

// STRIP tiles per block down a column, double-buffered
template <int r, int BX, int BY, int STRIP, int MINB = 1>
__global__ void __launch_bounds__(BX * BY, MINB) stagedStrip(const float* N, float* P, int W, int H) {
    using G = Geo<r, BX, BY>;
    extern __shared__ float4 smem4[];
    float* buf[2] = {reinterpret_cast<float*>(smem4), reinterpret_cast<float*>(smem4) + G::FLOATS};
    int outX0 = blockIdx.x * 4 * BX;
    int tilesY = (H + 4 * BY - 1) / (4 * BY);
    int t0 = blockIdx.y * STRIP;
    int tN = min(STRIP, tilesY - t0);
    issueTile<r, BX, BY>(buf[0], N, W, H, outX0, t0 * 4 * BY);
    commit();
    for (int t = 0; t < tN; t++) {
        if (t + 1 < tN) {
            issueTile<r, BX, BY>(buf[(t + 1) & 1], N, W, H, outX0, (t0 + t + 1) * 4 * BY);
            commit();
            waitGroup<1>();
        } else {
            waitGroup<0>();
        }
        __syncthreads();
        computeTile<r, BX, BY>(buf[t & 1], P, W, H, outX0, (t0 + t) * 4 * BY);
        __syncthreads();
    }
}
}  // namespace xs
