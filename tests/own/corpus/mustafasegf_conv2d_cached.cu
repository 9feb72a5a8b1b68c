// expect-exit: 0
// expect-args: check --size 45x37 --radius 2
// also-args: check --size 70x20 --radius 2
// expect-output: no problems
// expect-no-output: wrong result
//
// mustafasegf_conv2d_cached.cu -- a real kernel, kept as written.
// From: github.com/mustafasegf/cuda-100-days-challange, day-012/convolution.cu
//       ("Kernel 4"), commit 2f0e85e3fe12c22e46baead0a333d91dfefd0803.
// Copyright (c) 2025 Mustafa Zaki Assagaf. MIT License: see NOTICE.md in
// this folder.
//
// Verdict: right. PMPP's tiled kernel with the halo read through the
// caches: 32 x 32 blocks = output tiles, the tile in shared
// memory, everything outside it read from N behind a ghost test. localRow
// and localCol are computed as threadIdx.y - FILTER_RADIUS + fRow, an
// unsigned expression assigned to int, which gives the negative offsets
// the "inside the tile" test needs. This kernel, unlike Kernel 3, is
// launched with the grid it is written for.
//
// Kept from the original: the macros, F_c and the kernel. The launch is
// the original's: cudaMemcpyToSymbol(F_c, h_filter, filter_size), dim3
// blockSize(TILE_DIM, TILE_DIM), a grid of ceil(width/TILE_DIM) x
// ceil(height/TILE_DIM), cudaDeviceSynchronize; const_cast because
// launch() receives const N. The radius is the #define's, 2. Dropped: the
// other kernels and F_const, main(), timing.

#include <cuda_runtime.h>

#define FILTER_RADIUS 2
#define TILE_DIM 32
#define FILTER_WIDTH (2 * FILTER_RADIUS + 1)

__constant__ float F_c[(2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1)];

// Kernel 4: Cached Global with Fallback
__global__ void convolution_cached_tiled_2D_const_mem_kernel(float *N, float *P,
                                                             int width,
                                                             int height) {
  int col = blockIdx.x * TILE_DIM + threadIdx.x;
  int row = blockIdx.y * TILE_DIM + threadIdx.y;

  __shared__ float N_s[TILE_DIM][TILE_DIM];

  if (row < height && col < width)
    N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
  else
    N_s[threadIdx.y][threadIdx.x] = 0.0f;

  __syncthreads();

  if (col < width && row < height) {
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
      for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
        int localRow = threadIdx.y - FILTER_RADIUS + fRow;
        int localCol = threadIdx.x - FILTER_RADIUS + fCol;
        if (localRow >= 0 && localRow < TILE_DIM && localCol >= 0 &&
            localCol < TILE_DIM) {
          Pvalue += F_c[fRow * (2 * FILTER_RADIUS + 1) + fCol] *
                    N_s[localRow][localCol];
        } else {
          int globalRow = row - FILTER_RADIUS + fRow;
          int globalCol = col - FILTER_RADIUS + fCol;
          if (globalRow >= 0 && globalRow < height && globalCol >= 0 &&
              globalCol < width) {
            Pvalue += F_c[fRow * (2 * FILTER_RADIUS + 1) + fCol] *
                      N[globalRow * width + globalCol];
          }
        }
      }
    }
    P[row * width + col] = Pvalue;
  }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  const size_t filter_size = FILTER_WIDTH * FILTER_WIDTH * sizeof(float);

  cudaMemcpyToSymbol(F_c, M, filter_size);

  dim3 blockSize(TILE_DIM, TILE_DIM);
  dim3 gridSize((width + TILE_DIM - 1) / TILE_DIM,
                (height + TILE_DIM - 1) / TILE_DIM);

  convolution_cached_tiled_2D_const_mem_kernel<<<gridSize, blockSize>>>(
      const_cast<float*>(N), P, width, height);
  cudaDeviceSynchronize();
}
