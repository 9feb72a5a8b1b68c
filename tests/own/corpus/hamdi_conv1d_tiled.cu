// expect-exit: 0
// expect-args: check --size 1000 --radius 2
// expect-output: no problems
// expect-no-output: wrong result
//
// hamdi_conv1d_tiled.cu -- a real kernel, kept as written.
// From: github.com/vvsudarsan16-gif/100-days-of-GPU,
//       "day 07/one_d_convolution_with_tiling.cu",
//       commit faa428c15d9f0753b5dd5bfa8c2547789e21482e (a copy of
//       a-hamdi's "100 days of GPU" log).
// Copyright (c) 2025 abderrahmene hamdi. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: right. A tiled 1D kernel with halo cells in the "first threads
// load both halos" style: S_A holds 32 + Mask_width - 1 floats, every
// thread loads its own element (if i < n), the first Mask_width/2 threads
// load the left and the right halo (0 outside the array), and the sum
// skips the taps whose global index is outside 0..n-1, so the cells the
// last block never loads are never read. blockIdx.x * blockDim.x -
// (Mask_width/2) + threadId is computed in unsigned arithmetic; stored in
// an int it is -2 and -1 for block 0, which the left_idx >= 0 test
// rejects. Mask_width is fixed at 5 (radius 2).
//
// Kept from the original: Mask_width, M and the kernel. The launch is the
// original's: cudaMemcpyToSymbol(M, d_M, Mask_width*sizeof(float)), dim3
// dimBlock(32), dim3 dimGrid((n + dimBlock.x - 1) / dimBlock.x),
// cudaDeviceSynchronize. launch()'s parameter M hides the constant array
// M, so the copy names it ::M. Dropped: checkCudaError, main().

#include <cuda_runtime.h>
#define Mask_width 5  
__constant__ float M[Mask_width];

__global__ void oned_convolution_tiling_kernel(const float* A, float* C, int n) {
    int threadId = threadIdx.x;
    int i = blockDim.x * blockIdx.x + threadId;
    
    __shared__ float S_A[32 + Mask_width - 1];
    
    // Load main data
    if (i < n) {
        S_A[threadId + Mask_width/2] = A[i];
    }
    
    // Load left halo
    if (threadId < Mask_width/2) {
        int left_idx = blockIdx.x * blockDim.x - (Mask_width/2) + threadId;
        if (left_idx >= 0) {
            S_A[threadId] = A[left_idx];
        }
        else {
            S_A[threadId] = 0.0f;
        }
    }
    
    // Load right halo
    if (threadId < Mask_width/2) {
        int right_idx = blockIdx.x * blockDim.x + blockDim.x + threadId;
        if (right_idx < n) {
            S_A[threadId + blockDim.x + Mask_width/2] = A[right_idx];
        }
        else {
            S_A[threadId + blockDim.x + Mask_width/2] = 0.0f;
        }
    }
    
    __syncthreads();
    
    if (i < n) {
        float result = 0.0f;
        for (int k = 0; k < Mask_width; k++) {
            int idx = threadId + k;
            if ((i + k - Mask_width/2) >= 0 && (i + k - Mask_width/2) < n) {
                result += S_A[idx] * M[k];
            }
        }
        C[i] = result;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
  cudaMemcpyToSymbol(::M,M,Mask_width*sizeof(float));
  dim3 dimBlock(32);
  dim3 dimGrid((width + dimBlock.x - 1) / dimBlock.x);
  oned_convolution_tiling_kernel<<<dimGrid, dimBlock>>>(N,P,width);
  cudaDeviceSynchronize();
}
