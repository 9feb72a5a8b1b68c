// expect-exit: 1
// expect-args: check --size 62x59 --radius 2
// expect-output: wrong result
// expect-output: never written
// expect-no-output: out of bounds
//
// mustafasegf_conv2d_tiled.cu -- a real kernel, kept as written.
// From: github.com/mustafasegf/cuda-100-days-challange, day-012/convolution.cu
//       ("Kernel 3"), commit 2f0e85e3fe12c22e46baead0a333d91dfefd0803.
// Copyright (c) 2025 Mustafa Zaki Assagaf. MIT License: see NOTICE.md in
// this folder.
//
// Verdict: bug, in the launch. The kernel is PMPP's "block = input tile"
// kernel: 32 x 32 threads per input tile, OUT_TILE_DIM = 28
// outputs per block and side. main() launches it with the same grid as the
// basic kernels, ceil(width / TILE_DIM) blocks of TILE_DIM = 32, so each
// row of blocks covers 28 * ceil(w / 32) columns: on 62 x 59, 56 columns and
// 56 rows, and the last 6 columns and 3 rows are never written.
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

// Kernel 3: Tiled Shared Memory + Constant Memory
#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 2 * FILTER_RADIUS)
__constant__ float F_c[(2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1)];
__global__ void convolution_tiled_2D_const_mem_kernel(float *N, float *P,
                                                      int width, int height) {
  int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
  int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;

  __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];

  if (row >= 0 && row < height && col >= 0 && col < width)
    N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
  else
    N_s[threadIdx.y][threadIdx.x] = 0.0f;

  __syncthreads();

  int tileCol = threadIdx.x - FILTER_RADIUS;
  int tileRow = threadIdx.y - FILTER_RADIUS;

  if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 &&
      tileRow < OUT_TILE_DIM && col >= 0 && col < width && row >= 0 &&
      row < height) {
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
      for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
        Pvalue += F_c[fRow * (2 * FILTER_RADIUS + 1) + fCol] *
                  N_s[tileRow + fRow][tileCol + fCol];
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

  convolution_tiled_2D_const_mem_kernel<<<gridSize, blockSize>>>(
      const_cast<float*>(N), P, width, height);
  cudaDeviceSynchronize();
}
