// expect-exit: 0
// expect-args: check --size 45x37 --radius 1
// also-args: check --size 70x20 --radius 1
// expect-output: no problems
// expect-no-output: wrong result
//
// huicongyao_conv2d_const.cu -- a real kernel, kept as written.
// From: github.com/huicongyao/PMPP, 7_3_conv2d_with_const_caching.cu,
//       commit bc2037bc2530c715606b7edbb188ce9c604bae12.
// Copyright (c) 2024 Huicong Yao. MIT License: see NOTICE.md in this folder.
//
// Verdict: right at radius 1, the radius the file is written for. The
// basic 2D kernel with the mask in constant memory: the
// constant array F is sized by #define FILTER_RADIUS 1 (3 x 3 floats) and
// indexed flat, fRow * (2r+1) + fCol. The kernel takes r as a parameter,
// but F only holds a 3 x 3 mask: at a larger radius the launch's
// cudaMemcpyToSymbol would copy more than F holds, so the test runs the
// radius of the #define.
//
// Kept from the original: FILTER_RADIUS, F and the kernel (its
// commented-out printf too). The launch is the original's: 16 x 16 blocks,
// local dim3 variables named blockDim and gridDim, cudaMemcpyToSymbol(F,
// ..., sizeof(float) * (2 * r + 1) * (2 * r + 1)) before the launch, then
// cudaDeviceSynchronize; const_cast because launch() receives const N and
// the kernel takes float*. Dropped: main(), the host reference, UnifiedPtr.

#include <cuda_runtime.h>
#define FILTER_RADIUS 1
__constant__ float F[(2 * FILTER_RADIUS + 1)*(2 * FILTER_RADIUS + 1)];

__global__ void convolution_2D_const_mem_kernel(float *N, float *P,
                                                int r, int width, int height) {
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
//     printf("%f\n", Pvalue);
    if (outRow < height && outCol < width)
        P[outRow * width + outCol] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    // Launch kernel
    dim3 blockDim(16, 16);
    dim3 gridDim((width + blockDim.x - 1) / blockDim.x, (height + blockDim.y - 1) / blockDim.y);
    cudaMemcpyToSymbol(F, M, sizeof(float) * (2 * r + 1) * (2 * r + 1));
    convolution_2D_const_mem_kernel<<<gridDim, blockDim>>>(const_cast<float*>(N),  P, r, width, height);
    cudaDeviceSynchronize();
}
