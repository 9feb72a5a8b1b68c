// expect-exit: 1
// expect-output: duplicate store (between blocks): blocks (0,0) -> (1,0), threads (8,0) -> (0,0), P[8], lines 33 -> 33
// expect-output: never written
//
// duplicate_store.cu -- the basic 2D kernel with blockDim.y where
// blockDim.x belongs in the column index: the blocks of a row start 8
// columns apart instead of 32, so neighbouring blocks compute (and store)
// the same outputs twice, and the right part of the image is never written.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

__global__ void conv2d_basic(const float* N, const float* M, float* P,
                             int r, int width, int height)
{
    int col = blockIdx.x * blockDim.y + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;

    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                    Pvalue += M[i * maskWidth + j] * N[inRow * width + inCol];
                }
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
