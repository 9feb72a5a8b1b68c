// expect-exit: 2
// expect-output: unsupported_pointer_arithmetic.cu:28: pointer variable rowN
// expect-output: index the kernel's arrays directly
// expect-output-lines: 1
//
// unsupported_pointer_arithmetic.cu -- the basic 2D kernel takes a pointer
// to the start of each input row, as in C.

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
            int inRow = row - r + i;
            if (inRow < 0 || inRow >= height) {
                continue;
            }
            const float* rowN = N + inRow * width;
            for (int j = 0; j < maskWidth; j++) {
                int inCol = col - r + j;
                if (inCol >= 0 && inCol < width) {
                    Pvalue += M[i * maskWidth + j] * rowN[inCol];
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
