// expect-exit: 1
// expect-args: check --size 1024 --radius 3
// expect-output: load of array[1024]
// expect-output: out of bounds on array, line 79: 6
// expect-output: wrong result on result, line 91: 1024
//
// coffeebeforearch_conv1d_tiled_padded.cu -- a real kernel, written after
// the original (not a copy): its names, constructs, structure and mistakes
// are the original's; no text of it is reproduced.
// From: github.com/CoffeeBeforeArch/cuda_programming,
//       convolution/1d_tiled/convolution.cu,
//       commit 52d0cd4b7ee4e4d96e74157de4749e9b212c85a2.
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: bug, for this launch. A 1D tiled kernel with a 7-element mask
// in constant memory and the tile in dynamic shared memory (blockDim.x +
// 6 elements): each thread loads array[tid] into s_array[threadIdx.x],
// the first 6 threads also load the 6 elements after the block, and
// result[tid] = sum of s_array[threadIdx.x + j] * mask[j]. There are no
// ghost cells and no index is shifted by the radius: the kernel expects
// an input its host has padded with 3 zeros on each side (main() builds
// an n + 6 array), so that array[tid + j] is the element j - 3 from tid.
// Given the unpadded N that launch() receives (and cannot pad: it has no
// cudaMalloc), every output is the window 3 elements to the right of
// where it should be, and the last block's halo loads read array[1024]
// to array[1029], past the end of N's 1024 elements. There is no guard
// on tid either: the original's n is 2^20, a multiple of the 256 threads
// a block; the test keeps to such a size.
//
// Kept from the original: MASK_LENGTH, mask[MASK_LENGTH] in constant
// memory, the kernel with its extern __shared__ tile, the launch of
// main(): THREADS = 256, GRID = (n + THREADS - 1) / THREADS, SHMEM =
// (THREADS + r * 2) * sizeof(...), <<<GRID, THREADS, SHMEM>>>,
// cudaMemcpyToSymbol(mask, h_mask, bytes_m) with n = width. Adapted: the
// arrays, the mask, the shared tile and temp are int in the original;
// TileScope's arrays are float, so they are float here. The radius is the
// mask's, 3. Dropped: verify_result(), the padding, allocation and copies,
// main(), <iostream>, <assert.h>, using namespace std.

#include <stdlib.h>

// Length of the mask
#define MASK_LENGTH 7

// The mask, in constant memory
__constant__ float mask[MASK_LENGTH];

// 1D convolution: each thread computes one output
//   array  = the padded input
//   result = the output
//   n      = the number of outputs
__global__ void convolution_1d(float *array, float *result, int n){
    // Global thread index
    int tid = blockIdx.x * blockDim.x + threadIdx.x;

    // Everything the block needs, halo included
    extern __shared__ float s_array[];

    // r: padding on each side
    int r = MASK_LENGTH / 2;

    // d: padding in all
    int d = 2 * r;

    // Elements of the shared tile
    int n_padded = blockDim.x + d;

    // Where a thread's second element goes in the tile
    int offset = threadIdx.x + blockDim.x;

    // And where it comes from
    int g_offset = blockDim.x * blockIdx.x + offset;

    // First element: one a thread
    s_array[threadIdx.x] = array[tid];

    // Second element: the first d threads
    if(offset < n_padded){
        s_array[offset] = array[g_offset];
    }
    __syncthreads();

    // The sum
    float temp = 0;

    for(int j = 0; j < MASK_LENGTH; j++){
        temp += s_array[threadIdx.x + j] * mask[j];
    }

    // Store it
    result[tid] = temp;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    int n = width;

    // Bytes of the mask
    size_t bytes_m = MASK_LENGTH * sizeof(float);

    cudaMemcpyToSymbol(mask, M, bytes_m);

    // Threads a block, blocks
    int THREADS = 256;
    int GRID = (n + THREADS - 1) / THREADS;

    // The tile and its halo on each side
    size_t SHMEM = (THREADS + (MASK_LENGTH / 2) * 2) * sizeof(float);

    convolution_1d<<<GRID, THREADS, SHMEM>>>(const_cast<float*>(N), P, n);
}
