// expect-exit: 0
// expect-args: check --size 45x37 --radius 3
// also-args: check --size 70x20 --radius 7
// expect-output: no problems
// expect-no-output: wrong result
//
// aic101_conv2d_shared.cu -- a real kernel, kept as written.
// From: github.com/AIComputing101/gpu-programming-101,
//       modules/module6/examples/01_convolution_cuda.cu,
//       commit 797435cf4bc7e9e3013c3e57d848b5f5436c56f9.
// Copyright (c) 2025 GPU Programming 101. MIT License: see NOTICE.md in
// this folder.
//
// Verdict: right. The "block = output tile" kernel with the mask by
// pointer and the input tile in dynamic shared memory (extern __shared__,
// sized by the launch to (16 + kernel_size - 1)^2 floats). The 16 x 16
// threads load the (16 + 2r)^2 tile in strides of TILE_SIZE (2 x 2 of them
// up to radius 8), 0 for ghost cells, then each computes one output. Tile
// sizes are const int globals. The second run uses radius 7, the largest.
//
// Kept from the original: BLOCK_SIZE, TILE_SIZE and the kernel. The launch
// is the 2D part of the original's benchmark_conv2d(): dim3
// block_size(BLOCK_SIZE, BLOCK_SIZE), shared_size = TILE_SIZE +
// kernel_size - 1, shared_mem_size = shared_size * shared_size *
// sizeof(float), a tile_grid of ceil(width/TILE_SIZE) x
// ceil(height/TILE_SIZE), the launch with shared_mem_size as its third
// value; kernel_size = 2r + 1, const_cast because launch() receives const N
// and M. Dropped: the other kernels, the Timer class, the benchmarks, the
// CUDA_CHECK macro, main().

#include <cuda_runtime.h>

// Constants
const int BLOCK_SIZE = 16;
const int TILE_SIZE = 16;
// const int MAX_KERNEL_SIZE = 31; // Unused, commented out

/**
 * Optimized 2D convolution with shared memory tiling
 */
__global__ void conv2d_shared(float *input, float *kernel, float *output,
                            int width, int height, int kernel_size) {
    extern __shared__ float shared_input[];
    
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE_SIZE + tx;
    int row = blockIdx.y * TILE_SIZE + ty;
    
    int half_kernel = kernel_size / 2;
    int shared_width = TILE_SIZE + kernel_size - 1;
    
    // Load input data into shared memory with halo
    for (int dy = 0; dy < shared_width; dy += TILE_SIZE) {
        for (int dx = 0; dx < shared_width; dx += TILE_SIZE) {
            int shared_row = ty + dy;
            int shared_col = tx + dx;
            
            if (shared_row < shared_width && shared_col < shared_width) {
                int input_row = blockIdx.y * TILE_SIZE + shared_row - half_kernel;
                int input_col = blockIdx.x * TILE_SIZE + shared_col - half_kernel;
                
                int shared_idx = shared_row * shared_width + shared_col;
                
                if (input_row >= 0 && input_row < height && 
                    input_col >= 0 && input_col < width) {
                    int input_idx = input_row * width + input_col;
                    shared_input[shared_idx] = input[input_idx];
                } else {
                    shared_input[shared_idx] = 0.0f;
                }
            }
        }
    }
    
    __syncthreads();
    
    // Perform convolution
    if (col < width && row < height) {
        float sum = 0.0f;
        
        for (int ky = 0; ky < kernel_size; ky++) {
            for (int kx = 0; kx < kernel_size; kx++) {
                int shared_row = ty + half_kernel + ky - half_kernel;
                int shared_col = tx + half_kernel + kx - half_kernel;
                int shared_idx = shared_row * shared_width + shared_col;
                int kernel_idx = ky * kernel_size + kx;
                
                sum += shared_input[shared_idx] * kernel[kernel_idx];
            }
        }
        
        int output_idx = row * width + col;
        output[output_idx] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    const int kernel_size = 2 * r + 1;

    dim3 block_size(BLOCK_SIZE, BLOCK_SIZE);

    // Benchmark shared memory 2D convolution
    int shared_size = TILE_SIZE + kernel_size - 1;
    int shared_mem_size = shared_size * shared_size * sizeof(float);
    
    dim3 tile_grid((width + TILE_SIZE - 1) / TILE_SIZE,
                   (height + TILE_SIZE - 1) / TILE_SIZE);
    
    conv2d_shared<<<tile_grid, block_size, shared_mem_size>>>(const_cast<float*>(N), const_cast<float*>(M), P, width, height, kernel_size);
}
