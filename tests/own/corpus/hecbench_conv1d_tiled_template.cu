// expect-exit: 2
// expect-args: check --size 4096 --radius 2
// expect-output-any: hecbench_conv1d_tiled_template.cu:56:|hecbench_conv1d_tiled_template.cu:57:
// expect-output: `template
// expect-output: is not supported in a kernel file
// expect-output-lines: 1
//
// hecbench_conv1d_tiled_template.cu -- a real kernel, kept as written.
// From: github.com/zjin-lcf/HeCBench, src/convolution1D-cuda/main.cu,
//       commit 1a140e8988841757490f1bc2afd3d02207c05e67.
// Copyright (c) 2020-2023, Zheming Jin. BSD 3-Clause License: see
// NOTICE.md in this folder.
//
// Verdict: refused, by design. As CUDA, with its own host code, the kernel
// is right: it is PMPP's 1D tiled kernel with halo cells (Fig. 7.11 of the
// 3rd edition), the left halo loaded by the last n threads as
// `halo_left < 0 ? 0 : in[halo_left]`, the centre by every thread, the
// right halo by the first n threads, into a dynamic shared buffer of
// blockDim.x + MAX_MASK_WIDTH - 1 elements. It has no i < input_width
// test: it relies on its main(), which rounds the width up to a multiple
// of 1024 and launches input_width / bs blocks, so the test runs 4096
// elements. But it is written once for every element type: the kernel is
// a function template, the mask a variable template (mask<T>, filled with
// cudaMemcpyToSymbol(mask<T>, ...)), and the shared buffer is unsigned
// char reached through a pointer, T *tile = reinterpret_cast<T*>(smem).
// Templates are outside what TileScope accepts (docs/own-kernel.md, "What
// is supported"), and check must say so at the first one, the mask's
// `template<typename T>` (line 56; TileScope names the line of the
// declaration it introduces, 57), without running anything.
//
// Kept from the original: the reference comment, MAX_MASK_WIDTH,
// MAX_BLOCK_SIZE, the mask and the conv1d_tiled kernel. The launch is one
// pass of the original's "conv1D tiling" loop for T = float, with the block
// size bs = 256 (the loop tries 64 to 1024): cudaMemcpyToSymbol(mask<T>,
// h_mask, mask_width * sizeof(T)), dim3 grids (input_width / bs), dim3
// blocks (bs), sm_bytes = (bs + MAX_MASK_WIDTH - 1) * sizeof(T), the launch
// <<< grids, blocks, sm_bytes, 0 >>>, then cudaDeviceSynchronize;
// mask_width = 2r + 1. Dropped: GPU_CHECK, the conv1d and
// conv1d_tiled_caching kernels, reference(), the timing, the FP64 and
// INT16 runs, main(), <assert.h>, <chrono>.

/*
  Reference
  Chapter 7 in Programming massively parallel processors,
  A hands-on approach (D. Kirk and W. Hwu)
 */

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 10
#define MAX_BLOCK_SIZE 1024

template<typename T>
__constant__ T mask [MAX_MASK_WIDTH];

template<typename T>
__global__
void conv1d_tiled(const T *__restrict__ in,
                        T *__restrict__ out,
                  const int input_width,
                  const int mask_width)
{
  extern __shared__ unsigned char smem[]; // TILE_SIZE + MAX_MASK_WIDTH - 1;
  T *tile = reinterpret_cast<T*>(smem);
  int i = threadIdx.x + blockIdx.x * blockDim.x;

  int n = mask_width / 2;  // last n cells of the previous tile

  // load left cells 
  int halo_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x >= blockDim.x - n)
     tile[threadIdx.x - (blockDim.x - n)] = halo_left < 0 ? 0 : in[halo_left];

  // load center cells
  tile[n + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];

  // load right cells
  int halo_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x < n)
     tile[threadIdx.x + blockDim.x + n] = halo_right >= input_width ? 0 : in[halo_right];

  __syncthreads();

  T s = 0;
  for (int j = 0; j < mask_width; j++)
    s += tile[threadIdx.x + j] * mask<T>[j];

  out[i] = s;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
  int input_width = width;
  int mask_width = 2 * r + 1;
  int bs = 256;

  cudaMemcpyToSymbol(mask<float>, M, mask_width * sizeof(float));

  dim3 grids (input_width / bs);
  dim3 blocks (bs);
  size_t sm_bytes = (bs + MAX_MASK_WIDTH - 1) * sizeof(float);
  conv1d_tiled <<< grids, blocks, sm_bytes, 0 >>> (N, P, input_width, mask_width);
  cudaDeviceSynchronize();
}
