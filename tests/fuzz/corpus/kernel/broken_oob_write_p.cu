// expect-exit: 1
// expect-args: check --size 64x47 --radius 1
// expect-output: out of bounds: block (0,5), thread (0,7), store to P[3008] (3008 elements), line 34
// expect-output: accesses out of bounds
//
// oob_write_p.cu -- the basic 2D kernel with the row/col guard around the
// loop only: the threads of the last blocks, past the image, still write
// P[row * width + col]. 64x47 pixels with 32x8 blocks: the last block row
// sticks out by one row.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

__global__ void conv2d_basic(const float* N, const float* M, float* P,
                             int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;

    float Pvalue = 0.0f;
    if (row < height && col < width) {
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width)
                    Pvalue += M[i * maskWidth + j] * N[inRow * width + inCol];
            }
        }
    }
    P[row * width + col] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
