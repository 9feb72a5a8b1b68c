// expect-exit: 2
// expect-args: check --size 1000 --radius 3
// expect-output: aic101_conv1d_shared_pointer.cu:35: pointer variable shared_input
// expect-output-lines: 1
//
// aic101_conv1d_shared_pointer.cu -- a real kernel, kept as written.
// From: github.com/AIComputing101/gpu-programming-101,
//       modules/module6/examples/01_convolution_cuda.cu,
//       commit 797435cf4bc7e9e3013c3e57d848b5f5436c56f9.
// Copyright (c) 2025 GPU Programming 101. MIT License: see NOTICE.md in
// this folder.
//
// Verdict: refused, by design. As CUDA the kernel is right: one dynamic
// shared buffer holds the input tile with its halos and, after it, a copy
// of the mask, reached through a second pointer, float *shared_kernel =
// shared_input + blockDim.x + kernel_size - 1. TileScope follows each
// array through its []: pointer variables are outside what it accepts
// (docs/own-kernel.md, "What is supported"), and check must say so at the
// line, without running anything.
//
// Kept from the original: the kernel. The launch is the 1D part of the
// original's benchmark_conv1d(): dim3 block_size(256), a grid of
// ceil(n/256), shared_mem_size = (block_size.x + kernel_size - 1 +
// kernel_size) * sizeof(float) as the launch's third value; kernel_size =
// 2r + 1, const_cast because launch() receives const N and M.

#include <cuda_runtime.h>

/**
 * Optimized 1D convolution with shared memory
 */
__global__ void conv1d_shared(float *input, float *kernel, float *output,
                            int input_size, int kernel_size) {
    extern __shared__ float shared_mem[];
    float *shared_input = shared_mem;
    float *shared_kernel = shared_input + blockDim.x + kernel_size - 1;
    
    int tid = threadIdx.x;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int half_kernel = kernel_size / 2;
    
    // Load kernel into shared memory (first few threads)
    if (tid < kernel_size) {
        shared_kernel[tid] = kernel[tid];
    }
    
    // Load input data into shared memory with halo regions
    int shared_idx = tid + half_kernel;
    
    // Load center data
    if (idx < input_size) {
        shared_input[shared_idx] = input[idx];
    } else {
        shared_input[shared_idx] = 0.0f;
    }
    
    // Load left halo
    if (tid < half_kernel) {
        int left_idx = blockIdx.x * blockDim.x - half_kernel + tid;
        shared_input[tid] = (left_idx >= 0) ? input[left_idx] : 0.0f;
    }
    
    // Load right halo
    if (tid < half_kernel) {
        int right_idx = (blockIdx.x + 1) * blockDim.x + tid;
        int shared_right_idx = blockDim.x + half_kernel + tid;
        shared_input[shared_right_idx] = (right_idx < input_size) ? input[right_idx] : 0.0f;
    }
    
    __syncthreads();
    
    // Perform convolution
    if (idx < input_size) {
        float sum = 0.0f;
        for (int k = 0; k < kernel_size; k++) {
            sum += shared_input[shared_idx - half_kernel + k] * shared_kernel[k];
        }
        output[idx] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    const int kernel_size = 2 * r + 1;

    dim3 block_size(256);
    dim3 grid_size((width + block_size.x - 1) / block_size.x);

    // Benchmark shared memory 1D convolution
    int shared_mem_size = (block_size.x + kernel_size - 1 + kernel_size) * sizeof(float);

    conv1d_shared<<<grid_size, block_size, shared_mem_size>>>(const_cast<float*>(N), const_cast<float*>(M), P, width, kernel_size);
}
