// Experimental variants of conv2d_fast (plain CUDA only).
#pragma once
#include <cuda_runtime.h>
namespace xv {
__constant__ float G_c[15][15];

// MASKMODE 0: G_c[][] as C++; 1: per-use asm ld.const (hoping ptxas folds into FFMA operand)
template <int r, int MASKMODE>
__device__ __forceinline__ float maskAt(int fr, int fc) {
    if constexpr (MASKMODE == 0) return G_c[fr][fc];
    else {
        float v;
        asm volatile("ld.const.f32 %0, [%1];" : "=f"(v) : "l"(&G_c[fr][fc]));
        return v;
    }
}

__device__ __forceinline__ float4 ld4(const float* p) {
    float4 v;
    asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}

// ADDR 0: index inRow*width+inCol per load (as the project); 1: running row index += width;
//      2: running row pointer
template <int r, bool CHECKED, int ADDR, int MASKMODE>
__device__ __forceinline__ void rows(const float* N, int width, int height, int row0, int col0, float (&P)[4][4]) {
    constexpr int MD = 2 * r + 1;
    constexpr int H4 = (r + 3) / 4;
    constexpr int W = 4 * (2 * H4 + 1);
    constexpr int SKEW = 4 * H4 - r;
    const int inCol0 = col0 - 4 * H4;
    int rowIdx = (row0 - r) * width + inCol0;
    const float* rowPtr = N + rowIdx;
#pragma unroll
    for (int dy = 0; dy < 4 + 2 * r; dy++) {
        int inRow = row0 - r + dy;
        if (!(CHECKED && (inRow < 0 || inRow >= height))) {
            float w[W] = {};
#pragma unroll
            for (int k = 0; k < 2 * H4 + 1; k++) {
                int inCol = inCol0 + 4 * k;
                if (CHECKED && (inCol < 0 || inCol >= width)) continue;
                float4 v;
                if (ADDR == 0 || CHECKED) v = ld4(N + (inRow * width + inCol));
                else if (ADDR == 1) v = ld4(N + (rowIdx + 4 * k));
                else v = ld4(rowPtr + 4 * k);
                w[4 * k] = v.x; w[4 * k + 1] = v.y; w[4 * k + 2] = v.z; w[4 * k + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < 4; j++) {
                int fr = dy - j;
                if (fr < 0 || fr >= MD) continue;
#pragma unroll
                for (int fc = 0; fc < MD; fc++) {
                    float f = maskAt<r, MASKMODE>(fr, fc);
#pragma unroll
                    for (int c = 0; c < 4; c++) P[j][c] += f * w[SKEW + c + fc];
                }
            }
        }
        rowIdx += width;
        rowPtr += width;
    }
}

template <int r, int ADDR, int MASKMODE>
__device__ __forceinline__ void patch(const float* N, float* Out, int width, int height, int col0, int row0) {
    float P[4][4];
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
        for (int c = 0; c < 4; c++) P[j][c] = 0.f;
    constexpr int HALO = 4 * ((r + 3) / 4);
    bool interior = row0 - r >= 0 && row0 + 4 + r <= height && col0 - HALO >= 0 && col0 + 4 + HALO <= width;
    if (interior) rows<r, false, ADDR, MASKMODE>(N, width, height, row0, col0, P);
    else rows<r, true, ADDR, MASKMODE>(N, width, height, row0, col0, P);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        int row = row0 + j;
        if (row >= height) break;
        *reinterpret_cast<float4*>(Out + row * width + col0) = make_float4(P[j][0], P[j][1], P[j][2], P[j][3]);
    }
}

// plain grid, no launch bounds
template <int r, int ADDR, int MASKMODE>
__global__ void kgrid(const float* __restrict__ N, float* Out, int width, int height) {
    int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
    if (col0 >= width || row0 >= height) return;
    patch<r, ADDR, MASKMODE>(N, Out, width, height, col0, row0);
}
// plain grid with launch bounds
template <int r, int ADDR, int MASKMODE, int NT, int MINB>
__global__ void __launch_bounds__(NT, MINB) kgridlb(const float* __restrict__ N, float* Out, int width, int height) {
    int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
    if (col0 >= width || row0 >= height) return;
    patch<r, ADDR, MASKMODE>(N, Out, width, height, col0, row0);
}

// persistent: 1D grid of blocks; tiles (tilesX x tilesY) visited block-stride
template <int r, int ADDR, int MASKMODE>
__global__ void kpersist(const float* __restrict__ N, float* Out, int width, int height, int tilesX, int tiles) {
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        int ty = t / tilesX, tx = t - ty * tilesX;
        int col0 = (tx * blockDim.x + threadIdx.x) * 4;
        int row0 = (ty * blockDim.y + threadIdx.y) * 4;
        if (col0 < width && row0 < height) patch<r, ADDR, MASKMODE>(N, Out, width, height, col0, row0);
    }
}
}  // namespace xv
