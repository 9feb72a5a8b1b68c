// expect-exit: 1
// expect-args: check --size 45x37 --radius 2
// expect-output: out of bounds
// expect-output: thread (31,0), load of N_s[2][32]: column 32 of 32 columns, line 70
// expect-output: out of bounds on N_s, line 70: 2695
// expect-output: wrong result on P, line 80: 1665
//
// yanis_conv2d_cached_halo_offsets.cu -- a real kernel, written after the
// original (not a copy): its names, constructs, structure and mistakes are
// the original's; no text of it is reproduced.
// From: github.com/yanis-falaki/pmpp, ch7/tiled_cached_halos_convolution.cu,
//       commit b35fcd0f7243842e61f7f909a0da76c599b78b5a.
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: bug: two index mistakes in PMPP's tiled kernel that reads the
// halo through the caches (blocks of TILE_DIM x TILE_DIM = output tiles,
// F_c a 5 x 5 __constant__ array).
//  - The "inside the tile" test is right (threadIdx.x - FILTER_RADIUS +
//    fCol is unsigned: a negative value wraps and fails the < TILE_DIM
//    half), but the shared read under it, N_s[threadIdx.y + fRow]
//    [threadIdx.x + fCol], forgets to subtract FILTER_RADIUS: every thread
//    reads the tile 2 rows and 2 columns down and to the right of where
//    it should, and the threads of the last two rows and columns of a
//    block read past the tile (threadIdx.x = 31, fCol = 1: column 32 of
//    32 columns).
//  - The halo read from N, N[(row - FILTER_RADIUS + fRow) * width + col -
//    FILTER_RADIUS - fCol], subtracts fCol where it must add it: outside
//    the tile it takes the column mirrored about col - 2. Its guard tests
//    the right column, so the read stays inside N.
// At 45 x 37 every output is wrong.
//
// Kept from the original: FILTER_RADIUS, TILE_DIM, F_c[2*FILTER_RADIUS+1]
// [2*FILTER_RADIUS+1] and the kernel. The original file holds no host
// code; launch() is the one the kernel is written for:
// cudaMemcpyToSymbol(F_c, M, ...) of the 5 x 5 mask, blocks of TILE_DIM x
// TILE_DIM, a grid of ceil(width / TILE_DIM) x ceil(height / TILE_DIM);
// const_cast because launch() receives const N. The radius is the
// #define's, 2.

#include <cuda_runtime.h>

#define FILTER_RADIUS 2
#define TILE_DIM 32

__constant__ float F_c[2*FILTER_RADIUS+1][2*FILTER_RADIUS+1];

__global__ void convolution_cached_tiled_2D_const_mem_kernel(float* N, float* P, int width, int height) {

    int col = blockIdx.x*TILE_DIM + threadIdx.x;
    int row = blockIdx.y*TILE_DIM + threadIdx.y;

    // The block's own tile, zero past the image
    __shared__ float N_s[TILE_DIM][TILE_DIM];
    if (row < height && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row*width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0;
    }
    __syncthreads();

    // One output per thread inside the image
    if (col < width && row < height) {
        float Pvalue = 0.0f;
        for (int fRow = 0; fRow < 2*FILTER_RADIUS+1; ++fRow) {
            for (int fCol = 0; fCol < 2*FILTER_RADIUS+1; ++fCol) {
                if (threadIdx.x - FILTER_RADIUS + fCol >= 0 &&
                    threadIdx.x - FILTER_RADIUS + fCol < TILE_DIM &&
                    threadIdx.y - FILTER_RADIUS + fRow >= 0 &&
                    threadIdx.y - FILTER_RADIUS + fRow < TILE_DIM) {
                        Pvalue += F_c[fRow][fCol] * N_s[threadIdx.y + fRow][threadIdx.x + fCol];
                    }
                else if (row - FILTER_RADIUS + fRow >= 0 &&
                         row - FILTER_RADIUS + fRow < height &&
                         col - FILTER_RADIUS + fCol >= 0 &&
                         col - FILTER_RADIUS + fCol < width) {
                            Pvalue += F_c[fRow][fCol] * N[(row - FILTER_RADIUS + fRow)*width + col - FILTER_RADIUS - fCol];
                         }
            }
        }
        P[row*width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(F_c, M, (2*FILTER_RADIUS+1) * (2*FILTER_RADIUS+1) * sizeof(float));

    dim3 dimBlock(TILE_DIM, TILE_DIM);
    dim3 dimGrid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);
    convolution_cached_tiled_2D_const_mem_kernel<<<dimGrid, dimBlock>>>(const_cast<float*>(N), P, width, height);
    cudaDeviceSynchronize();
}
