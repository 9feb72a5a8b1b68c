// expect-exit: 1
// expect-output: out of bounds: block (0,0), thread (0,0), load of N[2147483647] (3072 elements), line 30
// expect-output: accesses out of bounds
// expect-no-output: no problems
//
// oob_read_64bit_index.cu -- the basic 2D kernel reading N 2^33 elements
// past the pixel it means, through a 64-bit index. Taken at its full value,
// the index is far outside N (an index past 2^31 - 1 is named N[2147483647]),
// never wrapped to 32 bits, where it would be the pixel itself.

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
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width)
                    Pvalue += M[i * maskWidth + j] * N[(1LL << 33) + inRow * width + inCol];
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
