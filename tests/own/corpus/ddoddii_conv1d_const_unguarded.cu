// expect-exit: 1
// expect-args: check --size 1000 --radius 2
// expect-output: out of bounds on P, line 68: 24
// expect-output: (1000 elements)
// expect-no-output: wrong result
//
// ddoddii_conv1d_const_unguarded.cu -- a real kernel, written after the
// original (not a copy): its names, constructs, structure and mistakes are
// the original's; no text of it is reproduced.
// From: github.com/ddoddii/Multicore-GPU-Programming,
//       convolution/1d_kernel_constant.cu,
//       commit 4376d97454bb4b0835e5e9f2e835a9322ba036c7.
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: bug: P[i] = Pvalue has no i < Width guard. PMPP's basic 1D
// kernel with the mask M in constant memory (room for MAX_MASK_WIDTH =
// 10), one output a thread, ghost cells 0 behind the read's guard. The
// window is MASK_WIDTH = 5 wide, the #define, whatever Mask_Width the
// launch passes. The grid is ceil(width / 256) blocks of 256 threads; the
// original's 10 elements leave 246 threads of its one block storing past
// the end of P, and 1000 elements leave threads 1000..1023 doing so. The
// outputs inside the array are right.
//
// Kept from the original: the parameter comment, MAX_MASK_WIDTH,
// MASK_WIDTH, M in constant memory and the kernel. The launch is main()'s:
// cudaMemcpyToSymbol(M, h_M, maskWidth * sizeof(float)) with maskWidth =
// MASK_WIDTH, blockSize = 256, gridSize = (width + blockSize - 1) /
// blockSize, the launch with maskWidth and width, cudaGetLastError.
// launch()'s parameter M hides the constant array M, so the copy names it
// ::M; const_cast because launch() receives const N. The radius is
// MASK_WIDTH's, 2. Dropped: checkCudaError(), the host arrays, the
// allocation and copies, the printing, main(), <iostream>.

#include "cuda_runtime.h"
#include "device_launch_parameters.h"
#include <stdio.h>

/*
 N          : the input array
 M          : the mask
 P          : the output array
 Mask_Width : the mask's size
 Width      : the size of the input and output arrays
*/

#define MAX_MASK_WIDTH 10
#define MASK_WIDTH 5

// The mask, in constant memory
__constant__ float M[MAX_MASK_WIDTH];

__global__ void convolution_1D_basic_kernel(float *N, float *P, int Mask_Width, int Width)
{
    // This thread's output
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    float Pvalue = 0;
    // MASK_WIDTH is 2*n + 1
    int N_start_point = i - (MASK_WIDTH / 2);
    for (int j = 0; j < MASK_WIDTH; j++)
    {
        // Ghost cells count as 0
        if (N_start_point + j >= 0 && N_start_point + j < Width)
        {
            Pvalue += N[N_start_point + j] * M[j];
        }
    }
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    const int maskWidth = MASK_WIDTH;

    cudaMemcpyToSymbol(::M, M, maskWidth * sizeof(float));

    int blockSize = 256;
    int gridSize = (width + blockSize - 1) / blockSize;

    convolution_1D_basic_kernel<<<gridSize, blockSize>>>(const_cast<float*>(N), P, maskWidth, width);

    cudaGetLastError();
}
