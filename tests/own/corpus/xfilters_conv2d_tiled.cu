// expect-exit: 0
// expect-args: check --size 45x37 --radius 1
// also-args: check --size 70x20 --radius 1
// expect-output: no problems
// expect-no-output: wrong result
//
// xfilters_conv2d_tiled.cu -- a real kernel, kept as written.
// From: github.com/tgautam03/xFilters, profiling/tiled_gpu.cu,
//       commit 022b90a31746047df22000d2d0c1f05846ac6ed4.
// Copyright (c) 2025 Tushar Gautam. MIT License: see NOTICE.md in this folder.
//
// Verdict: right. PMPP's "block = input tile" kernel with
// macros for the tile sizes: 16 x 16 threads load the input tile (0 for
// ghost cells), the inner 14 x 14 compute, the mask is a flat __constant__
// array of (2 * FILTER_RADIUS + 1)^2 floats, FILTER_RADIUS = 1, and the
// inner loops carry #pragma unroll.
//
// Kept from the original: the macros, d_F and the kernel. The launch is
// the original's: cudaMemcpyToSymbol(d_F, F, ...), dim3 dim_block
// (INPUT_TILE_DIM, INPUT_TILE_DIM, 1) and a grid of ceil(n / (float)
// OUTPUT_TILE_DIM). The original pads every image to a square of side
// new_size and passes it as both n_rows and n_cols; here x gets width and
// y height, and the kernel gets (height, width) as (n_rows, n_cols).
// const_cast because launch() receives const N. Dropped: main(), stb image
// I/O, timing, cudaMalloc/cudaMemcpy, the cuda_check error macro.

#include <cuda_runtime.h>

#define FILTER_RADIUS 1
#define INPUT_TILE_DIM 16
#define OUTPUT_TILE_DIM (INPUT_TILE_DIM - 2*FILTER_RADIUS)

__constant__ float d_F[(2*FILTER_RADIUS+1)*(2*FILTER_RADIUS+1)];

__global__ void gpu_conv2d_tiled_kernel(float *d_N_ptr, float *d_P_ptr, int n_rows, int n_cols)
{
    // Which output element this thread works on
    int out_col = blockIdx.x*OUTPUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
    int out_row = blockIdx.y*OUTPUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;

    // Allocate shared memory
    __shared__ float N_sh[INPUT_TILE_DIM][INPUT_TILE_DIM];

    // Checking for ghost cells and loading tiles into shared memory
    if (out_row >= 0 && out_row < n_rows && out_col >= 0 && out_col < n_cols)
        N_sh[threadIdx.y][threadIdx.x] = d_N_ptr[out_row*n_cols + out_col];
    else
        N_sh[threadIdx.y][threadIdx.x] = 0.0f;
    
    // Ensure all elements are loaded
    __syncthreads();

    // Computing output elements
    int tile_col = threadIdx.x - FILTER_RADIUS;
    int tile_row = threadIdx.y - FILTER_RADIUS;
    
    // Check if output element is valid
    if (out_row >= 0 && out_row < n_rows && out_col >= 0 && out_col < n_cols) 
    {
        // Checking for threads outside the tile bounds
        if (tile_row >= 0 && tile_row < OUTPUT_TILE_DIM && tile_col >= 0 && tile_col < OUTPUT_TILE_DIM) 
        {
            // Result (in thread register)
            float p_val = 0.0f;
            
            // Loop over elements of the filter array
            #pragma unroll
            for (int f_row = 0; f_row < 2*FILTER_RADIUS+1; f_row++) 
            {
                #pragma unroll
                for (int f_col = 0; f_col < 2*FILTER_RADIUS+1; f_col++) 
                {
                    // Input element (in shared memory) to filter element mapping
                    int in_row = tile_row + f_row;
                    int in_col = tile_col + f_col;
                
                    p_val += d_F[f_row*(2*FILTER_RADIUS+1) + f_col] * N_sh[in_row][in_col];
                }
            }

            // Storing the final result
            d_P_ptr[out_row*n_cols + out_col] = p_val;
        }
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(d_F, M, (2*FILTER_RADIUS+1)*(2*FILTER_RADIUS+1)*sizeof(float));

    dim3 dim_block(INPUT_TILE_DIM, INPUT_TILE_DIM, 1);
    dim3 dim_grid(ceil(width/(float)(OUTPUT_TILE_DIM)), ceil(height/(float)(OUTPUT_TILE_DIM)), 1);

    gpu_conv2d_tiled_kernel<<<dim_grid, dim_block>>>(const_cast<float*>(N), P, height, width);
}
