// expect-exit: 2
// expect-args: check --size 256x16 --radius 7
// expect-output: nvidia_conv_rows_separable.cu:45:
// expect-output: cooperative_groups.h
// expect-output-lines: 1
//
// nvidia_conv_rows_separable.cu -- a real kernel, written after the
// original (not a copy): its names, constructs and structure are the
// original's.
// From: github.com/NVIDIA/cuda-samples,
//       Samples/2_Concepts_and_Techniques/convolutionSeparable/
//       convolutionSeparable.cu (convolutionRowsKernel),
//       commit ca37378cb454b74e3979fa7a14c110045d3c4437, and
//       convolutionSeparable_common.h (KERNEL_RADIUS, KERNEL_LENGTH),
//       commit eddc6fd7e1f18ef436eaf36cefcd67db993fcc24.
// Copyright (c) 2022, NVIDIA CORPORATION. BSD 3-Clause License: see
// NOTICE.md in this folder.
//
// Verdict: refused, by design. The row pass of NVIDIA's separable
// convolution: 16 x 4 threads, each computing ROWS_RESULT_STEPS = 8
// outputs 16 columns apart, from a shared row of (8 + 2) * 16 floats
// loaded with one halo step each side, the barrier taken through a
// cooperative-groups thread_block. It is the signal-processing
// convolution (c_Kernel[KERNEL_RADIUS - j], the mask read flipped) along
// rows only, and relies on its host code's asserts (width a multiple of
// 128, height of 4). It moves the source and destination pointers to the
// thread's first element (d_Src += baseY * pitch + baseX). TileScope
// accepts none of <cooperative_groups.h>, the namespace alias or the
// pointer arithmetic (docs/own-kernel.md, "What is supported": other
// headers, namespaces, pointer arithmetic), and check must stop at the
// first, the #include, before anything runs. KERNEL_RADIUS is 8, one
// more than the largest radius TileScope offers.
//
// Kept from the original: KERNEL_RADIUS, KERNEL_LENGTH, the ROWS_*
// macros, c_Kernel, the kernel with its #pragma unroll loops and
// cg::sync(cta). The launch is setConvolutionKernel() and
// convolutionRowsGPU(): cudaMemcpyToSymbol(c_Kernel, M, KERNEL_LENGTH *
// sizeof(float)), a grid of imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X)
// x imageH / ROWS_BLOCKDIM_Y blocks of ROWS_BLOCKDIM_X x ROWS_BLOCKDIM_Y,
// the pitch equal to the width; const_cast because launch() receives
// const N. Dropped: the asserts, helper_cuda.h and getLastCudaError, the
// column pass, the CPU reference and main().

#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

// The row filter's weights.
__constant__ float c_Kernel[KERNEL_LENGTH];

#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

__global__ void convolutionRowsKernel(float *d_Dst, float *d_Src, int imageW,
                                      int imageH, int pitch) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float
      s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) *
                              ROWS_BLOCKDIM_X];

  // Left edge of the halo this thread starts at.
  const int baseX =
      (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X +
      threadIdx.x;
  const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;

  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;

  // The tile's own columns.
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        d_Src[i * ROWS_BLOCKDIM_X];
  }

  // Left halo, zero left of the image.
#pragma unroll
  for (int i = 0; i < ROWS_HALO_STEPS; i++) {
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
  }

  // Right halo, zero right of the image.
#pragma unroll
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS;
       i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++) {
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
  }

  cg::sync(cta);

#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    float sum = 0;

#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
      sum += c_Kernel[KERNEL_RADIUS - j] *
             s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
    }

    d_Dst[i * ROWS_BLOCKDIM_X] = sum;
  }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  cudaMemcpyToSymbol(c_Kernel, M, KERNEL_LENGTH * sizeof(float));

  dim3 blocks(width / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X),
              height / ROWS_BLOCKDIM_Y);
  dim3 threads(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);

  convolutionRowsKernel<<<blocks, threads>>>(P, const_cast<float*>(N), width, height,
                                             width);
}
