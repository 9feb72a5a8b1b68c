// expect-exit: 1
// expect-args: check --size 64x48 --radius 1
// expect-output: wrong result
// expect-output: never written
// expect-no-output: out of bounds
//
// huicongyao_conv2d_tiled.cu -- a real kernel, kept as written.
// From: github.com/huicongyao/PMPP, 7_4_conv2d_tiled.cu,
//       commit ba01868ee7be27a4648b49cbbd234c78e3f5446d.
// Copyright (c) 2024 Huicong Yao. MIT License: see NOTICE.md in this folder.
//
// Verdict: bug, in the launch. The kernel is PMPP's "block = input tile"
// tiled kernel: 32 x 32 threads load a 32 x 32 input tile and
// the inner 30 x 30 compute outputs, so each block covers OUT_TILE_DIM = 30
// outputs per side. The host code sizes the grid with blockSize.x (32)
// instead of OUT_TILE_DIM: ceil(64 / 32) = 2 blocks cover only 60 columns,
// and columns 60..63 of a 64-wide image are never written. (The original
// ran 200 x 200, where 7 blocks of 30 happen to reach 210; 45 x 37 would
// hide the bug too.) The radius is fixed by constexpr FILTER_RADIUS = 1.
//
// Kept from the original: the constexpr constants, F_c and the kernel. The
// launch is the original's: cudaMemcpyToSymbol(F_c, ...), dim3 blockSize
// (IN_TILE_DIM, IN_TILE_DIM), the grid from blockSize.x and blockSize.y,
// cudaDeviceSynchronize; const_cast because launch() receives const N.
// Dropped: main(), the host reference, UnifiedPtr ("utils.hpp").

#include <cuda_runtime.h>

constexpr int FILTER_RADIUS = 1;
constexpr int IN_TILE_DIM =  32;
constexpr int FILTER_SIZE =  (2 * (FILTER_RADIUS) + 1) * (2 * (FILTER_RADIUS) + 1);
constexpr int OUT_TILE_DIM =  ((IN_TILE_DIM) - 2 * (FILTER_RADIUS));

__constant__ float F_c[FILTER_SIZE];
__global__ void convolution_tiled_2D_const_mem_kernel(float *N, float *P,
                                                      int width, int height) {
    int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
    int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;
    // loading input tile
    __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];
    if (row >= 0 && row < height && col >= 0 && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0.0;
    }
    __syncthreads();
    // Calculating output elements
    int tileCol = threadIdx.x - FILTER_RADIUS;
    int tileRow = threadIdx.y - FILTER_RADIUS;
    // turing off the threads at the edges of the block
    if (col >= 0 && col < width && row >= 0 && row < height) {
        if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0
            && tileRow < OUT_TILE_DIM) {
            float Pvalue = 0.0f;
            for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
                for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
                    Pvalue += F_c[fRow * (2 * FILTER_RADIUS + 1) + fCol] * N_s[tileRow + fRow][tileCol + fCol];
                }
            }
            P[row * width + col] = Pvalue;
        }
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(F_c, M, (2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1) * sizeof(float));


    dim3 blockSize(IN_TILE_DIM, IN_TILE_DIM);
    dim3 gridSize((width + blockSize.x - 1) / blockSize.x,
                  (height + blockSize.y - 1) / blockSize.y);

    convolution_tiled_2D_const_mem_kernel<<<gridSize, blockSize>>> (const_cast<float*>(N), P, width, height);

    cudaDeviceSynchronize();
}
