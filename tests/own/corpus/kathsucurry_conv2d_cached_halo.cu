// expect-exit: 0
// expect-args: check --size 45x37 --radius 1
// also-args: check --size 70x20 --radius 1
// expect-output: no problems
// expect-no-output: wrong result
//
// kathsucurry_conv2d_cached_halo.cu -- a real kernel, kept as written.
// From: github.com/kathsucurry/programming_massively_parallel_processors,
//       chapter_07/convolution_2d_tiled_cached_halo.cu,
//       commit a49a8ed8811e9cf5b6d3a252e9cd58109e0b7acc.
// Copyright (c) 2025 Kathleen Sucipto. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: right. PMPP's tiled kernel that leaves the halo to the caches,
// with tiny 4 x 4 tiles (BLOCK_SIZE 4) and a 2D constant mask of
// (2 * FILTER_RADIUS + 1)^2 floats, FILTER_RADIUS = 1. The threads outside
// the image return after the barrier. The "inside the tile" test compares
// threadIdx.x + conv_col >= 0, an unsigned expression: for conv_col = -1
// and threadIdx.x = 0 it wraps to a huge value, so ">= 0" is always true
// but "< TILE_DIM" is false and the cell is read from global memory, which
// is still the right value.
//
// Kept from the original: the macros, CONST_FILTER and the kernel. The
// launch is the body of the original's runConvolution2D():
// cudaMemcpyToSymbol(CONST_FILTER, filter_h, size_filter), dim3 dimBlock
// (BLOCK_SIZE, BLOCK_SIZE), dim3 dimGrid(ceil(width / (TILE_DIM * 1.0)),
// ceil(height / (TILE_DIM * 1.0))); const_cast because launch() receives
// const N. Dropped: cudaMalloc/cudaMemcpy/cudaFree, main().

#include <stdio.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 4
#define FILTER_RADIUS 1

#define TILE_DIM BLOCK_SIZE

// Declare the filter array that utilizes constant memory.
__constant__ float CONST_FILTER[2*FILTER_RADIUS+1][2*FILTER_RADIUS+1];


/**
 *  Perform tiled 2D convolution with caching for halos; corresponds to figure 7.15.
 */
__global__
void Convolution2DTiledKernelWithHaloCaching(
    float* input_array,
    float* output_array,
    int width,
    int height
) {
    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;
    
    // Load input tile.
    __shared__ float shared_array[TILE_DIM][TILE_DIM];
    // No need to check if row/col >=0 since they will always be positive.
    if (row < height && col < width)
        shared_array[threadIdx.y][threadIdx.x] = input_array[row * width + col];
    else
        shared_array[threadIdx.y][threadIdx.x] = 0.0f;
    
    __syncthreads();

    // Calculate output elements.
    // Turn off the threads at the edges of the block.
    if (!(col < width && row < height))
        return;

    float out_value = 0.0f;
    for (int conv_row = -FILTER_RADIUS; conv_row <= FILTER_RADIUS; ++conv_row) {
        for (int conv_col = -FILTER_RADIUS; conv_col <= FILTER_RADIUS; ++conv_col) {
            // Obtain the cell index of the filter.
            int filter_row = conv_row + FILTER_RADIUS;
            int filter_col = conv_col + FILTER_RADIUS;

            // Check for halo cells.
            if (threadIdx.x + conv_col >= 0 &&
                threadIdx.x + conv_col < TILE_DIM &&
                threadIdx.y + conv_row >= 0 &&
                threadIdx.y + conv_row < TILE_DIM) {
                    out_value += CONST_FILTER[filter_row][filter_col] * shared_array[threadIdx.y + conv_row][threadIdx.x + conv_col];
            } else {
                // Check for boundary edges.
                if (row + conv_row >= 0 &&
                    row + conv_row < height &&
                    col + conv_col >=0 &&
                    col + conv_col < width) {
                        out_value += CONST_FILTER[filter_row][filter_col] * input_array[(row + conv_row)* width + col + conv_col];
                }
            }
        }
    }
    output_array[row * width + col] = out_value;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    // Get size in bytes.
    size_t size_filter = (2*FILTER_RADIUS+1) * (2*FILTER_RADIUS+1) * sizeof(float);

    cudaMemcpyToSymbol(CONST_FILTER, M, size_filter);

    // Invoke kernel.
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(ceil(width / (TILE_DIM * 1.0)), ceil(height / (TILE_DIM * 1.0)));
    Convolution2DTiledKernelWithHaloCaching<<<dimGrid, dimBlock>>>(
        const_cast<float*>(N),
        P,
        width,
        height
    );
}
