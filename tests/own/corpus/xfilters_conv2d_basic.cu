// expect-exit: 1
// expect-args: check --size 100x30 --radius 2
// expect-output: wrong result
// expect-output: never written
// expect-no-output: out of bounds
//
// xfilters_conv2d_basic.cu -- a real kernel, kept as written.
// From: github.com/tgautam03/xFilters, src/01_gpu_conv2d.cu,
//       commit 431d3f50c340cc2c1f73fc1e6b547f31061d12cd.
// Copyright (c) 2025 Tushar Gautam. MIT License: see NOTICE.md in this folder.
//
// Verdict: bug, in the host function. The kernel is right (the basic 2D
// kernel with the mask by pointer, out_col from x, out_row from y, both
// guarded against n_cols and n_rows). But gpu_conv2d() builds the grid as
// dim3(ceil(n_rows/32), ceil(n_cols/32)): the row count goes to x, the
// column count to y. The project's images are made square before they
// reach the kernel, which hides it; on a 100 x 30 image the grid is 1 x 4
// blocks, so only columns 0..31 are computed and columns 32..99 are never
// written. (45 x 37 would hide it: both round up to 2 blocks.)
//
// Kept from the original: the kernel. launch() is the body of the
// original's gpu_conv2d(d_N_ptr, d_F_ptr, d_P_ptr, r, n_rows, n_cols),
// called with n_rows = height and n_cols = width; const_cast because
// launch() receives const N and M. The kernel's parameter names came from
// include/01_gpu_conv2d.cuh.

#include <cuda_runtime.h>

__global__ void gpu_conv2d_kernel(float *d_N_ptr, float *d_F_ptr, float *d_P_ptr, 
                                int r, int n_rows, int n_cols)
{
    // Which output element this thread works on
    int out_col = blockIdx.x*blockDim.x + threadIdx.x;
    int out_row = blockIdx.y*blockDim.y + threadIdx.y;
    
    // Check if output element is valid
    if (out_row < n_rows && out_col < n_cols) 
    {
        // Result (in thread register)
        float p_val = 0.0f;
        
        // Loop over elements of the filter array
        for (int f_row = 0; f_row < 2*r+1; f_row++) 
        {
            for (int f_col = 0; f_col < 2*r+1; f_col++) 
            {
                // Input element to filter element mapping
                int in_row = out_row + (f_row - r);
                int in_col = out_col + (f_col - r);
                        
                // Boundary check
                if (in_row >= 0 && in_row < n_rows && in_col >= 0 && in_col < n_cols) 
                    p_val += d_F_ptr[f_row*(2*r+1) + f_col] * d_N_ptr[in_row*n_cols + in_col];
                }
        }
        d_P_ptr[out_row*n_cols + out_col] = p_val;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    // Kernel execution
    dim3 dim_block(32, 32, 1);
    dim3 dim_grid(ceil(height/(float)(32)), ceil(width/(float)(32)), 1);

    gpu_conv2d_kernel<<<dim_grid, dim_block>>>(const_cast<float*>(N), const_cast<float*>(M), P, r, height, width);
}
