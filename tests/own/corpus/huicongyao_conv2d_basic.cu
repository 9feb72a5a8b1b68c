// expect-exit: 0
// expect-args: check --size 45x37 --radius 3
// also-args: check --size 70x20 --radius 1
// expect-output: no problems
// expect-no-output: wrong result
//
// huicongyao_conv2d_basic.cu -- a real kernel, kept as written.
// From: github.com/huicongyao/PMPP, 7_1_2d_conv_simple.cu,
//       commit 0bce8a9f7f9448dd7df04d0acf14429346695cd7.
// Copyright (c) 2024 Huicong Yao. MIT License: see NOTICE.md in this folder.
//
// Verdict: right. The PMPP 4th-edition basic 2D kernel, the
// mask passed by pointer and indexed fRow * (2r+1) + fCol, ghost cells
// skipped by the inRow/inCol test, and the store guarded by
// outRow < height && outCol < width. Non-const float* N and F.
//
// Kept from the original: the kernel. The launch is the original's
// (16 x 16 blocks, a grid of ceil(width/16) x ceil(height/16), local dim3
// variables named blockDim and gridDim, cudaDeviceSynchronize after the
// launch); const_cast because launch() receives const N and M and the
// kernel takes float*; dropped: main(), the host reference and UnifiedPtr
// ("utils.hpp").

#include <cuda_runtime.h>

__global__ void convolution_2D_basic_kernel(float *N, float *F, float *P,
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
    if (outRow < height && outCol < width)
        P[outRow * width + outCol] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    // Define grid and block dimensions
    dim3 blockDim(16, 16);
    dim3 gridDim((width + blockDim.x - 1) / blockDim.x, (height + blockDim.y - 1) / blockDim.y);

    // Launch the CUDA convolution kernel
    convolution_2D_basic_kernel<<<gridDim, blockDim>>>(const_cast<float*>(N), const_cast<float*>(M), P, r, width, height);

    // Synchronize the device to ensure the kernel finishes
    cudaDeviceSynchronize();
}
