// expect-exit: 1
// expect-args: check --size 45x45 --radius 2
// expect-output: uninitialised read
// expect-output: S_A
// expect-output: wrong result
//
// hamdi_conv2d_missing_corners.cu -- a real kernel, kept as written.
// From: github.com/vvsudarsan16-gif/100-days-of-GPU,
//       "day 07/2d_convolution_with_tiling.cu",
//       commit faa428c15d9f0753b5dd5bfa8c2547789e21482e (a copy of
//       a-hamdi's "100 days of GPU" log).
// Copyright (c) 2025 abderrahmene hamdi. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: bug: shared cells that no thread writes are read. The kernel
// extends the 1D "first threads load the halos" scheme to 2D: 32 x 32
// threads, S_A of (32 + 4) x (32 + 4), each thread loads its own pixel and
// the first two threads of each row and column load the left, right, top
// and bottom halo strips. Two kinds of cells are never written:
//  - the four 2 x 2 corners of the halo (no thread loads diagonal
//    neighbours), read by every output within 2 pixels of a tile corner;
//  - in the last tiles, the cells of the threads past the image (they skip
//    the load instead of storing 0), read as ghost cells by the outputs
//    next to the image's edge.
// The kernel indexes the image as A[i*n + j] with i = the x index: a square
// n x n image only ("I'm assuming that the mask and the matrix to be square
// for simplicity"), so the test runs 45 x 45. Mask_width is fixed at 5.
//
// Kept from the original: the macros, M and the kernel. The launch is the
// original's: cudaMemcpyToSymbol(M, d_M, Mask_width*Mask_width*sizeof
// (float)), dim3 dimBlock(32, 32), a grid of ceil(n/32) x ceil(n/32),
// cudaDeviceSynchronize, with n = width. launch()'s parameter M hides the
// constant array M, so the copy names it ::M. Dropped: checkCudaError,
// main(), #include <iostream>.

#include <stdio.h>

// I'm assuming that the mask and the matrix to be square for simplicity
#define Mask_width 5
#define shared_size (32 + Mask_width - 1)
__constant__ float M[Mask_width][Mask_width];

__global__ void twod_convolution_kernel(const float* A, float* C, int n) {
    int threadx = threadIdx.x;
    int thready = threadIdx.y;
    int i = blockDim.x * blockIdx.x + threadx;
    int j = blockDim.y * blockIdx.y + thready;
    
    __shared__ float S_A[shared_size][shared_size];

    // Load main data
    if ((i < n) && (j < n)) {
        S_A[threadx + Mask_width/2][thready + Mask_width/2] = A[i*n+j];
    }

    // Load left halo
    if (threadx < Mask_width/2) {
        int left_idx = blockIdx.x * blockDim.x - (Mask_width/2) + threadx;
        if (left_idx >= 0 && j < n) {
            S_A[threadx][thready + Mask_width/2] = A[left_idx*n+j];
        }
        else {
            S_A[threadx][thready + Mask_width/2] = 0.0f;
        }
    }

    // Load right halo
    if (threadx < Mask_width/2) {
        int right_idx = blockIdx.x * blockDim.x + blockDim.x + threadx;
        if (right_idx < n && j < n) {
            S_A[threadx + blockDim.x + Mask_width/2][thready + Mask_width/2] = A[right_idx*n+j];
        }
        else {
            S_A[threadx + blockDim.x + Mask_width/2][thready + Mask_width/2] = 0.0f;
        }
    }

    // Load top halo
    if (thready < Mask_width/2) {
        int top_idy = j - (Mask_width/2) + thready;
        if (top_idy >= 0 && i < n) {
            S_A[threadx + Mask_width/2][thready] = A[i*n+top_idy];
        }
        else {
            S_A[threadx + Mask_width/2][thready] = 0.0f;
        }
    }

    // Load bottom halo
    if (thready < Mask_width/2) {
        int bottom_idy = j + blockDim.y + thready;
        if (bottom_idy < n && i < n) {
            S_A[threadx + Mask_width/2][thready + blockDim.y + Mask_width/2] = A[i*n+bottom_idy];
        }
        else {
            S_A[threadx + Mask_width/2][thready + blockDim.y + Mask_width/2] = 0.0f;
        }
    }

    __syncthreads();

    if ((i < n) && (j < n)) {
        float result = 0.0f;
        for (int k = 0; k < Mask_width; k++) {
            for (int x = 0; x < Mask_width; x++) {
                result += S_A[threadx + k][thready + x] * M[k][x];
            }
        }
        C[i*n+j] = result;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int n = width;
    cudaMemcpyToSymbol(::M, M, Mask_width*Mask_width*sizeof(float));

    dim3 dimBlock(32, 32);
    dim3 dimGrid((n + dimBlock.x - 1) / dimBlock.x, (n + dimBlock.y - 1) / dimBlock.y);
    twod_convolution_kernel<<<dimGrid, dimBlock>>>(N, P, n);
    
    cudaDeviceSynchronize();
}
