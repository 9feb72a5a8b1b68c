// expect-exit: 1
// expect-args: check --size 45x45 --radius 1
// expect-output: uninitialised read
// expect-output: shared_mem
// expect-output: wrong result
// expect-output: 1541 wrong results
// expect-output: Launching kernel with grid (12, 12) and block (4, 4)...
// expect-no-output: out of bounds
//
// anamvarm_conv2d_no_halo.cu -- a real kernel, kept as written.
// From: github.com/anamvarm/cuda-2d-convolution, convolution.cu,
//       commit e32f1ee308b5493d4d62a7b844ea945316ff02ba.
// Copyright (c) 2025 anamvarm. MIT License: see NOTICE.md in this folder.
//
// Verdict: bug: the halo is never loaded, so shared cells that no thread
// writes are read, and every output on the border of a 4 x 4 tile is wrong.
// The kernel declares shared_mem of (BLOCK_DIM + MASK_DIM - 1)^2 = 6 x 6
// floats for the tile and its halo, but the 4 x 4 threads of a block each
// store only their own pixel, at [thread_y + halo][thread_x + halo]: the
// ring of halo cells around the tile is never written (the README promises
// "Halo Loading", the code has none). The "within shared memory bounds"
// test of the loop is always true, so the outputs next to a tile edge read
// the ring's uninitialised cells instead of their neighbours in the next
// tile (or the zero ghost cells at the image's edge). Only the 2 x 2 centre
// of each tile is right: at 45 x 45, 22 x 22 = 484 of the 2025 outputs, so
// 1541 are wrong. The mask is MASK_DIM = 3 wide (radius 1), in a flat
// constant array; the matrix is square (mat_width x mat_width), so the test
// runs 45 x 45.
//
// Kept from the original: MASK_DIM, BLOCK_DIM, mask_mat and the kernel,
// with its comments. The launch is the original's main(): the mask copied
// to constant memory (the body of its uploadMaskToConstantMemory() helper,
// cudaMemcpyToSymbol(mask_mat, host_mask, MASK_DIM * MASK_DIM *
// sizeof(float))), dim3 block_dimensions(BLOCK_DIM, BLOCK_DIM), a grid of
// ceil(mat_size / BLOCK_DIM) squared, the printf announcing the launch, the
// launch with mask_size = MASK_DIM and its cudaGetLastError check (which
// returns instead of freeing the host and device arrays); mat_size
// = width, const_cast because launch() receives const N. Dropped: the
// helper function itself, the host matrices, their printing, the Laplacian
// host mask, cudaMalloc/cudaMemcpy/cudaFree, main(), <cuda.h>.

#include <stdio.h>
#include <stdlib.h>

#define MASK_DIM 3       // Dimension of the convolution mask (3x3)
#define BLOCK_DIM 4      // Dimension of the thread block (4x4 threads per block)

// Constant memory declaration for the convolution mask - cached for all threads
__constant__ float mask_mat[MASK_DIM * MASK_DIM];

/**
 * @brief CUDA kernel for 2D convolution using shared memory
 * @param input_mat Pointer to input matrix in global memory
 * @param output_mat Pointer to output matrix in global memory
 * @param mat_width Width of the square input/output matrix
 * @param mask_width Width of the square convolution mask
 * 
 * @details Each thread block processes a tile of the input matrix and utilizes
 * shared memory to minimize global memory accesses. The kernel handles halo
 * regions for correct convolution at tile boundaries.
 */
__global__ void convo(float* input_mat, float* output_mat, int mat_width, int mask_width) {
    // Shared memory declaration for tile data + halo regions
    __shared__ float shared_mem[BLOCK_DIM + MASK_DIM - 1][BLOCK_DIM + MASK_DIM - 1];

    // Thread indices within block
    int thread_x = threadIdx.x;
    int thread_y = threadIdx.y;
    
    // Global indices within the entire matrix
    int global_x = blockIdx.x * BLOCK_DIM + thread_x;
    int global_y = blockIdx.y * BLOCK_DIM + thread_y;
    
    // Halo size (number of pixels needed from neighboring tiles)
    int halo = mask_width / 2;

    // Position in shared memory (offset by halo size)
    int shared_x = thread_x + halo;
    int shared_y = thread_y + halo;

    // Load main tile data into shared memory
    if (global_x < mat_width && global_y < mat_width) {
        shared_mem[shared_y][shared_x] = input_mat[global_y * mat_width + global_x];
    } else {
        // Pad with zeros if out of bounds
        shared_mem[shared_y][shared_x] = 0.0f;
    }
    
    // Synchronize to ensure all threads have loaded their data
    __syncthreads();

    // Only threads that correspond to valid output elements perform computation
    if (thread_x < BLOCK_DIM && thread_y < BLOCK_DIM && 
        global_x < mat_width && global_y < mat_width) {
        
        float accumulation = 0.0f;
        
        // Perform convolution using the shared memory tile
        for (int i = -halo; i <= halo; ++i) {
            for (int j = -halo; j <= halo; ++j) {
                int shared_i = shared_y + i;
                int shared_j = shared_x + j;
                
                // Ensure we're within shared memory bounds
                if (shared_i >= 0 && shared_i < BLOCK_DIM + MASK_DIM - 1 && 
                    shared_j >= 0 && shared_j < BLOCK_DIM + MASK_DIM - 1) {
                    
                    // Accumulate: input value * mask weight
                    accumulation += shared_mem[shared_i][shared_j] * 
                                   mask_mat[(i + halo) * mask_width + (j + halo)];
                }
            }
        }
        
        // Write result to global memory
        output_mat[global_y * mat_width + global_x] = accumulation;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    // Matrix and mask dimensions
    int mat_size = width;
    int mask_size = MASK_DIM;

    cudaError_t err;

    // Upload mask to constant memory
    cudaMemcpyToSymbol(mask_mat, M, MASK_DIM * MASK_DIM * sizeof(float));

    // Configure kernel launch parameters
    dim3 block_dimensions(BLOCK_DIM, BLOCK_DIM);
    dim3 grid_dimensions((mat_size + BLOCK_DIM - 1) / BLOCK_DIM, 
                         (mat_size + BLOCK_DIM - 1) / BLOCK_DIM);

    // Launch convolution kernel
    printf("Launching kernel with grid (%d, %d) and block (%d, %d)...\n",
           grid_dimensions.x, grid_dimensions.y, 
           block_dimensions.x, block_dimensions.y);
    
    convo<<<grid_dimensions, block_dimensions>>>(const_cast<float*>(N), P, mat_size, mask_size);
    
    // Check for kernel launch errors
    err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("Kernel launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
}
