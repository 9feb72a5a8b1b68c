// expect-exit: 1
// expect-output: out of bounds: block (0,0), thread (0,0), load of N[-65] (3072 elements), line 25
// expect-output: accesses out of bounds
//
// oob_read_no_ghost_test.cu -- the basic 2D kernel without the ghost-cell
// test: the threads near the image's edges read N outside the image (before
// its first pixel and past its last).

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

__global__ void conv2d_basic(const float* N, const float* M, float* P,
                             int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;

    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                Pvalue += M[i * maskWidth + j] * N[(row - r + i) * width + (col - r + j)];
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
