// expect-exit: 1
// expect-args: check --size 45x37 --radius 2
// expect-output: out of bounds on P, line 50
// expect-output: duplicate store (between blocks) on P
//
// mustafasegf_conv2d_basic.cu -- a real kernel, kept as written.
// From: github.com/mustafasegf/cuda-100-days-challange, day-012/convolution.cu
//       ("Kernel 1"), commit 2f0e85e3fe12c22e46baead0a333d91dfefd0803.
// Copyright (c) 2025 Mustafa Zaki Assagaf. MIT License: see NOTICE.md in
// this folder.
//
// Verdict: bug: the store P[outRow * width + outCol] = Pvalue has no
// outRow < height && outCol < width guard. The original ran a 16384 x
// 16384 image (a multiple of the 32 x 32 block), which hides it; on 45 x 37
// the threads of the partial blocks store past the last pixel of P (rows
// 37..63), and those past the right edge write into the next row's pixels.
//
// Kept from the original: the macros and the kernel. The launch is the
// original's: dim3 blockSize(TILE_DIM, TILE_DIM), a grid of
// ceil(width/TILE_DIM) x ceil(height/TILE_DIM), cudaDeviceSynchronize. The
// original passes the host array h_filter as the mask (a second bug, on the
// host side, that launch() cannot reproduce: M is already on the device);
// const_cast because launch() receives const N and M. Dropped: the other
// three kernels of the file (see mustafasegf_conv2d_const.cu, _tiled.cu,
// _cached.cu), main(), timing, the unused run_and_time_kernel().

#include <cuda_runtime.h>

#define FILTER_RADIUS 2
#define TILE_DIM 32
#define FILTER_WIDTH (2 * FILTER_RADIUS + 1)

// Kernel 1: Basic 2D Convolution
__global__ void convolution_2D_basic_kernel(float *N, float *F, float *P, int r,
                                            int width, int height) {
  int outCol = blockIdx.x * blockDim.x + threadIdx.x;
  int outRow = blockIdx.y * blockDim.y + threadIdx.y;
  float Pvalue = 0.0f;

  for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
    for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
      int inRow = outRow - r + fRow;
      int inCol = outCol - r + fCol;

      if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
        Pvalue += F[fRow * (2 * r + 1) + fCol] * N[inRow * width + inCol];
      }
    }
  }
  P[outRow * width + outCol] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  dim3 blockSize(TILE_DIM, TILE_DIM);
  dim3 gridSize((width + TILE_DIM - 1) / TILE_DIM,
                (height + TILE_DIM - 1) / TILE_DIM);

  convolution_2D_basic_kernel<<<gridSize, blockSize>>>(
      const_cast<float*>(N), const_cast<float*>(M), P, r, width, height);
  cudaDeviceSynchronize();
}
