// expect-exit: 1
// expect-args: check --size 997 --radius 1
// expect-output: out of bounds on output_array, line 64: 3
// expect-output: (997 elements), line 64
//
// kathsucurry_conv1d_basic.cu -- a real kernel, kept as written.
// From: github.com/kathsucurry/programming_massively_parallel_processors,
//       chapter_07/convolution_1d.cu,
//       commit a49a8ed8811e9cf5b6d3a252e9cd58109e0b7acc.
// Copyright (c) 2025 Kathleen Sucipto. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: bug: output_array[out_index] = out_value has no out_index <
// length guard. The grid is ceil(length / 4) blocks of BLOCK_SIZE = 4
// threads; the original's 12 elements fill them exactly, but 997 elements
// leave threads 997..999 of the last block storing past the end of P. The
// reads are guarded. The constant array holds 2 * FILTER_RADIUS + 1 = 3
// floats, so the test runs radius 1 (the kernel's radius parameter could
// ask for more than CONST_FILTER holds).
//
// Kept from the original: the macros, CONST_FILTER and the kernel. The
// launch is the body of the original's runConvolution1D():
// cudaMemcpyToSymbol(CONST_FILTER, filter_h, size_filter) with size_filter
// = (2*radius+1) * sizeof(float), dim3 dimBlock(BLOCK_SIZE), dim3
// dimGrid(ceil(length / (BLOCK_SIZE * 1.0))); const_cast because launch()
// receives const N. Dropped: cudaMalloc/cudaMemcpy/cudaFree, main().

#include <stdio.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 4
#define FILTER_RADIUS 1

// Declare the filter array that utilizes constant memory.
__constant__ float CONST_FILTER[2*FILTER_RADIUS+1];


/**
 *  Perform 1D convolution.
 */
__global__
void Convolution1DBasicKernel(
    float* input_array,
    float* output_array,
    int radius,
    int length
) {
    int out_index = blockIdx.x * blockDim.x + threadIdx.x;
    float out_value = 0.0f;

    for (int conv_index = -radius; conv_index < radius+1; conv_index++) {
        // Obtain the index of the input array.
        int input_index = out_index + conv_index;

        // Obtain the index of the filter.
        int filter_index = conv_index + radius;

        // Check the boundary.
        if (input_index >= 0 && input_index < length) {
            out_value += CONST_FILTER[filter_index]*input_array[input_index];
        }
    }

    output_array[out_index] = out_value;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    // Get size in bytes.
    size_t size_filter = (2*r+1) * sizeof(float);

    cudaMemcpyToSymbol(CONST_FILTER, M, size_filter);

    // Invoke kernel.
    dim3 dimBlock(BLOCK_SIZE);
    dim3 dimGrid(ceil(width / (BLOCK_SIZE * 1.0)));
    Convolution1DBasicKernel<<<dimGrid, dimBlock>>>(
        const_cast<float*>(N),
        P,
        r,
        width
    );
}
