// expect-exit: 1
// expect-args: check --size 64x64 --radius 3
// expect-output: out of bounds on result, line 90: 3072
// expect-output: duplicate store (between blocks) on result, lines 90 -> 90: 64
// expect-output: wrong result on result, never written: 4032
// expect-output: wrong result on result, line 90: 64
//
// coffeebeforearch_conv2d_const_no_blockidx.cu -- a real kernel, written
// after the original (not a copy): its names, constructs, structure and
// mistakes are the original's; no text of it is reproduced.
// From: github.com/CoffeeBeforeArch/cuda_programming,
//       convolution/2d_constant_memory/convolution.cu,
//       commit 3d14802d690cb1ff1027591dfdd81961cb95bdc9.
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: bug, several. A 7 x 7 mask in constant memory over a square
// N x N matrix, one output a thread, blocks of 16 x 16:
//  - the thread's position is row = threadIdx.y * blockDim.y + gridDim.y
//    (and col likewise): blockIdx is never used, so every block computes
//    the same 256 positions, 16 apart, offset by the grid's size. At 64 x
//    64 (4 x 4 blocks) those are rows and columns 4, 20, ..., 244, and
//    the store result[row * N + col] has no guard: in each block the 192
//    threads with row past 63 store past the end of P, the 64 others
//    (rows 4 to 52, a column past 63 landing in a later row) store into
//    the same 64 elements as every other block (duplicate stores between
//    blocks), and the other 4032 outputs are never written;
//  - start_r += i and start_c += j accumulate instead of offsetting
//    (start_c is never reset for the next row of the mask), and the range
//    tests are > 0 instead of >= 0, so even the 64 outputs written are
//    sums of the wrong pixels. The reads themselves stay inside the
//    matrix.
// The mask is 7 x 7, so the test runs radius 3; the matrix is square, so
// it runs 64 x 64.
//
// Kept from the original: MASK_DIM, MASK_OFFSET, mask[7 * 7] in constant
// memory, the kernel, the launch of main(): THREADS = 16, BLOCKS = (N +
// THREADS - 1) / THREADS, dim3 block_dim(THREADS, THREADS), dim3
// grid_dim(BLOCKS, BLOCKS), cudaMemcpyToSymbol(mask, h_mask, bytes_m)
// with N = width. Adapted: the matrix, result, mask and the accumulator
// temp are int in the original; TileScope's arrays are float, so they are
// float here (the indexing, the only thing wrong, is untouched). Dropped:
// init_matrix(), the allocation and copies, the copy back (of bytes_m
// bytes), main(), <iostream>, <assert.h>, using namespace std.

#include <stdlib.h>

// 7 x 7 convolutional mask
#define MASK_DIM 7

// How far the mask hangs over the matrix
#define MASK_OFFSET (MASK_DIM / 2)

// The mask, in constant memory
__constant__ float mask[7 * 7];

// 2D convolution of an N x N matrix
__global__ void convolution_2d(float *matrix, float *result, int N){
    // The thread's position in the matrix
    int row = threadIdx.y * blockDim.y + gridDim.y;
    int col = threadIdx.x * blockDim.x + gridDim.x;

    // Top-left corner of the window
    int start_r = row - MASK_OFFSET;
    int start_c = col - MASK_OFFSET;

    // The sum
    float temp = 0;

    // Each row of the mask
    for(int i = 0; i < MASK_DIM; i++){
        // Next row
        start_r += i;

        // Inside the matrix?
        if(start_r > 0 && start_r < N){
            // Each column of the mask
            for(int j = 0; j < MASK_DIM; j++){
                // Next column
                start_c += j;

                // Inside the matrix?
                if(start_c > 0 && start_c < N){
                    temp += matrix[start_r * N + start_c] * mask[i * MASK_DIM + j];
                }
            }
        }
    }

    // Store the result
    result[row * N + col] = temp;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int n = width;

    // Size of the mask in bytes
    size_t bytes_m = MASK_DIM * MASK_DIM * sizeof(float);

    cudaMemcpyToSymbol(mask, M, bytes_m);

    // Threads a block side, blocks a grid side
    int THREADS = 16;
    int BLOCKS = (n + THREADS - 1) / THREADS;

    dim3 block_dim(THREADS, THREADS);
    dim3 grid_dim(BLOCKS, BLOCKS);

    convolution_2d<<<grid_dim, block_dim>>>(const_cast<float*>(N), P, n);
}
