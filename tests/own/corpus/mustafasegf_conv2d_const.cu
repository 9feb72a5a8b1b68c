// expect-exit: 1
// expect-args: check --size 45x37 --radius 2
// expect-output: out of bounds on P, line 50
// expect-output: duplicate store (between blocks) on P
//
// mustafasegf_conv2d_const.cu -- a real kernel, kept as written.
// From: github.com/mustafasegf/cuda-100-days-challange, day-012/convolution.cu
//       ("Kernel 2"), commit 2f0e85e3fe12c22e46baead0a333d91dfefd0803.
// Copyright (c) 2025 Mustafa Zaki Assagaf. MIT License: see NOTICE.md in
// this folder.
//
// Verdict: bug: the same unguarded store as Kernel 1 (see
// mustafasegf_conv2d_basic.cu): with the mask moved to constant memory
// (F_const, sized for FILTER_RADIUS = 2) the store P[outRow * width +
// outCol] still has no outRow < height && outCol < width test, so on
// 45 x 37 the threads of the partial blocks store past the end of P.
//
// Kept from the original: the macros, F_const and the kernel. The launch
// is the original's: cudaMemcpyToSymbol(F_const, h_filter, filter_size)
// with filter_size = FILTER_WIDTH * FILTER_WIDTH * sizeof(float), dim3
// blockSize(TILE_DIM, TILE_DIM), a grid of ceil(width/TILE_DIM) x
// ceil(height/TILE_DIM), cudaDeviceSynchronize; const_cast because
// launch() receives const N. The radius is the #define's, 2. Dropped: the
// other kernels and F_c, main(), timing.

#include <cuda_runtime.h>

#define FILTER_RADIUS 2
#define TILE_DIM 32
#define FILTER_WIDTH (2 * FILTER_RADIUS + 1)

// Kernel 2: Using Constant Memory
__constant__ float F_const[FILTER_WIDTH * FILTER_WIDTH];
__global__ void convolution_2D_const_mem_kernel(float *N, float *P, int r,
                                                int width, int height) {
  int outCol = blockIdx.x * blockDim.x + threadIdx.x;
  int outRow = blockIdx.y * blockDim.y + threadIdx.y;
  float Pvalue = 0.0f;

  for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
    for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
      int inRow = outRow - r + fRow;
      int inCol = outCol - r + fCol;

      if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
        Pvalue += F_const[fRow * (2 * r + 1) + fCol] * N[inRow * width + inCol];
      }
    }
  }
  P[outRow * width + outCol] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  const size_t filter_size = FILTER_WIDTH * FILTER_WIDTH * sizeof(float);

  cudaMemcpyToSymbol(F_const, M, filter_size);

  dim3 blockSize(TILE_DIM, TILE_DIM);
  dim3 gridSize((width + TILE_DIM - 1) / TILE_DIM,
                (height + TILE_DIM - 1) / TILE_DIM);

  convolution_2D_const_mem_kernel<<<gridSize, blockSize>>>(const_cast<float*>(N), P, r,
                                                           width, height);
  cudaDeviceSynchronize();
}
