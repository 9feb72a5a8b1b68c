// expect-exit: 0
// expect-args: check --size 45x37 --radius 1
// also-args: check --size 70x20 --radius 1
// expect-output: no problems
// expect-no-output: wrong result
//
// huicongyao_conv2d_cached.cu -- a real kernel, kept as written.
// From: github.com/huicongyao/PMPP,
//       7_5_conv2d_tiled_with_cache_for_halo_and_const_mem.cu,
//       commit ba01868ee7be27a4648b49cbbd234c78e3f5446d.
// Copyright (c) 2024 Huicong Yao. MIT License: see NOTICE.md in this folder.
//
// Verdict: right. PMPP's tiled kernel that leaves the halo to the caches:
// 32 x 32 blocks = output tiles, only the tile itself in shared memory,
// halo cells read from N behind a ghost test. The author casts
// threadIdx to int (static_cast<int>) before subtracting FILTER_RADIUS,
// so the "inside the tile" test is a signed comparison. The radius is
// fixed by constexpr FILTER_RADIUS = 1.
//
// Kept from the original: the constexpr constants, F_c and the kernel
// (with its backslash line continuation). The launch is the original's:
// cudaMemcpyToSymbol(F_c, ...), dim3 blockSize(TILE_DIM, TILE_DIM), a grid
// of ceil(width/32) x ceil(height/32); const_cast because launch()
// receives const N. Dropped: main(), cudaMalloc/cudaMemcpy, the host
// reference.

#include <cuda_runtime.h>
constexpr int FILTER_RADIUS = 1;
constexpr int TILE_DIM =  32;
constexpr int FILTER_DIM = (2 * (FILTER_RADIUS) + 1);
constexpr int FILTER_SIZE =  FILTER_DIM * FILTER_DIM;

__constant__ float F_c[FILTER_SIZE];

__global__ void convolution_cached_tiled_2D_const_mem_kernel( float *N,
                                                              float *P, int width, int height) {
    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;
    // loading input tile
    __shared__ float N_s[TILE_DIM][TILE_DIM];
    if (row < height && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0.0;
    }
    __syncthreads();
    // Calculating output elements
    // turing off the threads at the edges of the block
    if (col < width && row < height) {
        float Pvalue = 0.0f;
        for (int fRow = 0; fRow < FILTER_DIM; fRow++) {
            for (int fCol = 0; fCol < FILTER_DIM; fCol++) {
                // shared mem
                if (static_cast<int>(threadIdx.x) - FILTER_RADIUS + fCol >= 0 &&
                    static_cast<int>(threadIdx.x) - FILTER_RADIUS + fCol < TILE_DIM &&
                    static_cast<int>(threadIdx.y) - FILTER_RADIUS + fRow >= 0 &&
                    static_cast<int>(threadIdx.y) - FILTER_RADIUS + fRow < TILE_DIM ) {
                    Pvalue += F_c[fRow * FILTER_DIM + fCol] * N_s[threadIdx.y - FILTER_RADIUS + fRow][threadIdx.x - FILTER_RADIUS + fCol];

                }
                    // use cache of global mem
                else {
                    if (row - FILTER_RADIUS + fRow >= 0 &&
                        row - FILTER_RADIUS + fRow < height &&
                        col - FILTER_RADIUS + fCol >= 0 &&
                        col - FILTER_RADIUS + fCol < width) {
                        Pvalue += F_c[fRow * FILTER_DIM + fCol] * \
                            N[(row - FILTER_RADIUS + fRow) * width + col - FILTER_RADIUS + fCol];
                    }
                }
            }
        }
        P[row * width + col] = Pvalue;
    }

}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(F_c, M, (2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1) * sizeof(float));


    dim3 blockSize(TILE_DIM, TILE_DIM);
    dim3 gridSize((width + blockSize.x - 1) / blockSize.x,
                  (height + blockSize.y - 1) / blockSize.y);

    convolution_cached_tiled_2D_const_mem_kernel<<<gridSize, blockSize>>> (const_cast<float*>(N), P, width, height);
}
