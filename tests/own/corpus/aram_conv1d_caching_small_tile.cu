// expect-exit: 1
// expect-args: check --size 1000 --radius 2
// expect-output: store to N_ds[16] (16 elements), line 44
// expect-output: out of bounds on N_ds, line 56
// expect-output: out of bounds on N, line 44
// expect-output: out of bounds on P, line 63
//
// aram_conv1d_caching_small_tile.cu -- a real kernel, kept as written.
// From: github.com/AramBughdaryan/cuda, day_23/conv_with_l2_cache.cu,
//       commit 3fc681078c0eed6f099a35526086a9b658a485f5.
// Copyright (c) 2025 Aram Bughdaryan. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: bug, three of them. PMPP's 1D tiled kernel that leaves the halo
// to the caches, but:
//  - the shared tile is N_ds[TILE_SIZE] with TILE_SIZE 16, while the
//    launch uses 256-thread blocks, so threads 16..255 store N_ds[16..255]
//    past its end (and the loop reads those cells back);
//  - N_ds[threadIdx.x] = N[i] has no i < Width test: the last block reads
//    N[1000..1023];
//  - P[i] = Pvalue has no i < Width test either: it stores P[1000..1023].
// The mask width is fixed by #define MAX_MASK_WIDTH 5 (radius 2).
//
// Kept from the original: the macros, the constant array M and the kernel.
// The launch is the original's: cudaMemcpyToSymbol(M, h_M, MAX_MASK_WIDTH
// * sizeof(float)), int blockSize = 256, numBlocks = (Width + blockSize -
// 1) / blockSize, the kernel given MAX_MASK_WIDTH as its Mask_Width, then
// cudaDeviceSynchronize. launch()'s parameter M hides the constant array M,
// so the copy names it ::M; const_cast because launch() receives const N.
// Dropped: the timing, the host arrays, main(), "../helpers/cuda_helpers.h".

#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 5
#define TILE_SIZE 16
__constant__ float M[MAX_MASK_WIDTH];


__global__ void convolution_1D_tiled_caching_kernel(float *N, float *P, int Mask_Width, int Width) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;

    __shared__ float N_ds[TILE_SIZE]; // N_ds[5]
    
    N_ds[threadIdx.x] = N[i];

    __syncthreads();

    int This_tile_start_point = blockIdx.x * blockDim.x;
    int Next_tile_start_point = (blockIdx.x + 1) * blockDim.x;
    int N_start_point = i - (Mask_Width/2);
    float Pvalue = 0;
    for (int j = 0; j < Mask_Width; j++){
        int N_index = N_start_point + j;
        if (N_index >= 0 && N_index < Width){
            if (N_index >= This_tile_start_point && N_index < Next_tile_start_point){
                Pvalue += N_ds[threadIdx.x + j - (Mask_Width/2)] * M[j];
            }
            else{
                Pvalue += N[N_index] * M[j];
            }
        }
    }
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    cudaMemcpyToSymbol(::M, M, MAX_MASK_WIDTH * sizeof(float));

    int blockSize = 256;
    int numBlocks = (width + blockSize - 1) / blockSize;

    convolution_1D_tiled_caching_kernel<<<numBlocks, blockSize>>>(const_cast<float*>(N), P, MAX_MASK_WIDTH, width);
    cudaDeviceSynchronize();
}
