// expect-exit: 1
// expect-args: check --size 45x37 --radius 2
// expect-output: out of bounds on d_output, line 94: 531
// expect-output: duplicate store (between blocks) on d_output, lines 94 -> 94: 108
// expect-output: wrong result on d_output, line 94
//
// packt_conv2d_shared_clamped_unguarded.cu -- a real kernel, written after
// the original (not a copy): its names, constructs, structure and mistakes
// are the original's; no text of it is reproduced.
// From: github.com/PacktPublishing/Learn-CUDA-Programming,
//       07_parallel_programming_pattern/02_convolution/convolution.cu
//       (convolution_kernel_v2), commit
//       8759338190b85d0fb6277a4e5482a1d683468aa6.
// Licence: none found (no LICENSE file in the index it was read from).
// See NOTICE.md in this folder.
//
// Verdict: bug: the store has no guard. The book's shared-memory kernel:
// blocks of BLOCK_DIM x BLOCK_DIM = 16 x 16, each loading the 3 x 3 blocks
// around its own into s_input[48][48] (nine loads a thread, each position
// clamped into the image with min/max), and the filter, from global
// memory, into s_filter[16][16]; then each thread sums its (2r+1)^2
// window out of s_input. The indices are right for every mask the
// assert allows (filter_size < BLOCK_DIM: radius 7 at most).
// But the store d_output[idx_y * num_col + idx_x] is unguarded: it relies
// on its main(), whose image is 2048 x 2048. At 45 x 37 the threads past
// the right edge (idx_x 45..47) store into the first columns of the next
// row, which the threads of those columns also write, and the rows past
// the bottom (idx_y 37..47) store past the end of P.
// The kernel also treats the border its own way: it clamps (replicates
// the edge pixel), as its CPU reference does, where PMPP's convolution
// and TileScope's reference take the ghost cells as 0, so the outputs
// within r of the edge differ from TileScope's reference as well.
//
// Kept from the original: BLOCK_DIM, MAX_FILTER_LENGTH, the kernel with
// its static_casts and the '\' that continues the s_input store. The
// launch is convolution_gpu(): dim3 dimBlock(BLOCK_DIM, BLOCK_DIM), a grid
// of ceil(num_col / BLOCK_DIM) x ceil(num_row / BLOCK_DIM), filter_size =
// 2r + 1; const_cast because launch() receives const N and M. Dropped: the
// kernel's assert(filter_size < BLOCK_DIM) (<assert.h>; it holds for
// every radius TileScope offers), convolution_kernel_v1 (not launched),
// checkCudaErrors, the host reference, the timers, main(), the helper
// headers.

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_DIM   16
#define MAX_FILTER_LENGTH 128

__global__ void
convolution_kernel_v2(float *d_output, float *d_input, float *d_filter, int num_row, int num_col, int filter_size)
{
    int idx_x = blockDim.x * blockIdx.x + threadIdx.x;
    int idx_y = blockDim.y * blockIdx.y + threadIdx.y;

    __shared__ float s_filter[BLOCK_DIM][BLOCK_DIM];
    __shared__ float s_input[BLOCK_DIM*3][BLOCK_DIM*3];

    // the filter, one element a thread
    if (threadIdx.y * filter_size + threadIdx.x < filter_size * filter_size)
        s_filter[threadIdx.y][threadIdx.x] = d_filter[threadIdx.y * filter_size + threadIdx.x];

    // this block and the eight around it, clamped into the image
    for (int row = -1; row <= 1; row++) {
        for (int col = -1; col <= 1; col++) {
            int image_row = min(max(idx_y + row * blockDim.y, 0), static_cast<int>(num_row - 1));
            int image_col = min(max(idx_x + col * blockDim.x, 0), static_cast<int>(num_col - 1));

            s_input[threadIdx.y + (row + 1) * BLOCK_DIM][threadIdx.x + (col + 1) * BLOCK_DIM] = \
                static_cast<float>(d_input[image_row * num_col + image_col]);
        }
    }

    __syncthreads();

    float result = 0.f;
    // the window around this thread's pixel
    for (int filter_row = -filter_size / 2; filter_row <= filter_size / 2; ++filter_row)
    {
        for (int filter_col = -filter_size / 2; filter_col <= filter_size / 2; ++filter_col)
        {
            int image_row = threadIdx.y + BLOCK_DIM + filter_row;
            int image_col = threadIdx.x + BLOCK_DIM + filter_col;

            float image_value = static_cast<float>(s_input[image_row][image_col]);
            float filter_value = s_filter[filter_row + filter_size / 2][filter_col + filter_size / 2];

            result += image_value * filter_value;
        }
    }

    d_output[idx_y * num_col + idx_x] = result;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int num_row = height;
    int num_col = width;
    int filter_size = 2 * r + 1;

    dim3 dimBlock(BLOCK_DIM, BLOCK_DIM);
    dim3 dimGrid((num_col + BLOCK_DIM - 1) / BLOCK_DIM, (num_row + BLOCK_DIM - 1) / BLOCK_DIM);
    convolution_kernel_v2<<<dimGrid, dimBlock>>>(P, const_cast<float*>(N), const_cast<float*>(M), num_row, num_col, filter_size);
}
