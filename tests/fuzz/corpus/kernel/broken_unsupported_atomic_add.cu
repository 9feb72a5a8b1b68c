// expect-exit: 2
// expect-output: unsupported_atomic_add.cu:29:
// expect-output: atomics (atomicAdd) are not supported
// expect-output-lines: 1
//
// unsupported_atomic_add.cu -- the basic 2D kernel adds each product to P
// with atomicAdd, "in case two threads write the same pixel". Refused with
// the reason (atomics are not supported), not as an unknown name: atomicAdd
// is CUDA's own.

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
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                    atomicAdd(&P[row * width + col], M[i * maskWidth + j] * N[inRow * width + inCol]);
                }
            }
        }
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
