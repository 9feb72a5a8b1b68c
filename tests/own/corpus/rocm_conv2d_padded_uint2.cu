// expect-exit: 2
// expect-args: check --size 45x37 --radius 2
// expect-output: rocm_conv2d_padded_uint2.cu:50: parameter input_dimensions of convolution is const uint2
// expect-output: uint2 input_dimensions = make_uint2(x, y);
//
// rocm_conv2d_padded_uint2.cu -- a real kernel, written after the original
// (not a copy): its names, constructs and structure are the original's.
// From: github.com/ROCm/rocm-examples, Applications/convolution/main.hip,
//       commit 3d9b6d22765861ad364ccb26e1b5ac2146f638b5.
// Copyright (c) 2023 Advanced Micro Devices, Inc. MIT License: see
// NOTICE.md in this folder.
//
// TileScope's verdict: refused at the uint2 parameter (a launch here
// passes N, M, P and numbers), with the advice to pass its fields and make
// the uint2 in the kernel. With that change (width and height as unsigned
// parameters) it reports the reads past N described below.
//
// Verdict the code deserves: bug, for this launch. The kernel is a function template,
// convolution<MaskWidth = 5>, that takes the image size as a uint2
// parameter and counts in size_t. It has no halo test: it expects an input
// the host has already padded with MaskWidth / 2 zeros on every side
// (main() builds a (w + 4) x (h + 4) copy), reads row y + i of that padded
// array at padded_width = width + 4, and never subtracts the radius. Given
// the w x h input N that launch() receives (and cannot pad: it has no
// cudaMalloc), thread (x, y) reads input[(y + i) * (w + 4) + x + j]: every
// output is taken from the wrong place and, from row 30 on at 45 x 37, the
// reads run past the end of N (the earliest, thread (0, 31) at its fourth
// mask row: input[31 * 49 + 3 * 49] = input[1666], of 1665 elements).
//
// Kept from the original: the mask d_mask[5 * 5] in constant memory, the
// kernel template with its default argument, its size_t indices, the
// early return, the uint2 parameter; the launch's block of 32 x 32, its
// grid of (width + block_size) / block_size blocks a side (one block more
// than needed when the size is a multiple of 32; the guard keeps it
// harmless), the explicit template argument <mask_width>, the launch's
// shared-memory and stream values (the original's hipStreamDefault is
// written 0 here), and the size passed as a braced {width, height}.
// launch() copies its int sizes into unsigned locals first, as main() had
// them, since {int, int} does not narrow into a uint2. The radius is the
// template's, 2. Dropped: the command-line parser, the padding on the
// host, the timing loop and events, convolution_reference(), print_grid(),
// main(), HIP_CHECK, the C++ standard headers.

#include <cuda_runtime.h>

__constant__ float d_mask[5 * 5];

// Convolution of a padded input with the mask in constant memory.
template<size_t MaskWidth = 5>
__global__ void convolution(const float* input, float* output, const uint2 input_dimensions)
{
    const size_t x            = blockDim.x * blockIdx.x + threadIdx.x;
    const size_t y            = blockDim.y * blockIdx.y + threadIdx.y;
    const size_t width        = input_dimensions.x;
    const size_t height       = input_dimensions.y;
    const size_t padded_width = width + (MaskWidth / 2) * 2;

    // Outside the grid domain: nothing to do.
    if(x >= width || y >= height)
        return;

    float        sum              = 0.0f;
    const size_t convolution_base = y * padded_width + x;

    for(size_t mask_index_y = 0; mask_index_y < MaskWidth; ++mask_index_y)
    {
        for(size_t mask_index_x = 0; mask_index_x < MaskWidth; ++mask_index_x)
        {
            const size_t mask_index         = mask_index_y * MaskWidth + mask_index_x;
            const size_t convolution_offset = mask_index_y * padded_width + mask_index_x;
            sum += input[convolution_base + convolution_offset] * d_mask[mask_index];
        }
    }

    output[y * width + x] = sum;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    const unsigned int block_size = 32;
    const unsigned int mask_width = 5;
    const unsigned int w          = width;
    const unsigned int h          = height;

    cudaMemcpyToSymbol(d_mask, M, mask_width * mask_width * sizeof(float));

    const dim3 block_dim(block_size, block_size);
    const dim3 grid_dim((w + block_size) / block_size, (h + block_size) / block_size);

    convolution<mask_width><<<grid_dim, block_dim, 0, 0>>>(N, P, {w, h});
    cudaDeviceSynchronize();
}
