// expect-exit: 1
// expect-args: check --size 1000 --radius 2
// expect-output: out of bounds on P, line 41: 24
// expect-output: (1000 elements), line 41
// expect-no-output: out of bounds on N
//
// aram_conv1d_const.cu -- a real kernel, kept as written.
// From: github.com/AramBughdaryan/cuda, day_20/convolution_with_constant_mem.cu,
//       commit 40cbe3f88086b947188650f58c0f0c553da7cb4d.
// Copyright (c) 2025 Aram Bughdaryan. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: bug: P[i] = Pvalue has no i < Width guard. The original ran
// Width = 4096 * 32, a multiple of its 256-thread blocks; with 1000
// elements the last block's threads 1000..1023 store past the end of P.
// (The reads are guarded: N_start_point + j is tested against 0 and Width.)
// The mask width is fixed by #define MAX_MASK_WIDTH 5 (radius 2).
//
// Kept from the original: MAX_MASK_WIDTH, the constant array M and the
// kernel. The launch is the original's: cudaMemcpyToSymbol(M, h_M,
// MAX_MASK_WIDTH * sizeof(float)), int blockSize = 256, numBlocks =
// (Width + blockSize - 1) / blockSize, then cudaDeviceSynchronize. launch()'s
// parameter M hides the constant array M, so the copy names it ::M;
// const_cast because launch() receives const N. Dropped: the timing, the
// host arrays, main(), "../helpers/cuda_helpers.h".

#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 5
__constant__ float M[MAX_MASK_WIDTH];

__global__ void convolution_1D_basic_kernel(float *N, float *P, int Width){
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = 0;
    int N_start_point = i - (MAX_MASK_WIDTH/2);
    for (int j = 0; j < MAX_MASK_WIDTH; j++){
        if (N_start_point + j >= 0 && N_start_point + j < Width){
            Pvalue += N[N_start_point + j] * M[j];
        }
    }
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    cudaMemcpyToSymbol(::M, M, MAX_MASK_WIDTH * sizeof(float));

    int blockSize = 256;
    int numBlocks = (width + blockSize - 1) / blockSize;

    convolution_1D_basic_kernel<<<numBlocks, blockSize>>>(const_cast<float*>(N), P, width);
    cudaDeviceSynchronize();
}
