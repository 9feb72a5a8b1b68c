// expect-exit: 2
// expect-output: unsupported_struct.cu:13: classes and structs are not supported
// expect-output-lines: 1
//
// unsupported_struct.cu -- the basic 2D kernel keeps the image's size in a
// small struct passed by value.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

struct ImageSize {
    int width;
    int height;
};

__global__ void conv2d_basic(const float* N, const float* M, float* P, int r, ImageSize size)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;

    if (row < size.height && col < size.width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < size.height && inCol >= 0 && inCol < size.width) {
                    Pvalue += M[i * maskWidth + j] * N[inRow * size.width + inCol];
                }
            }
        }
        P[row * size.width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    ImageSize size;
    size.width = width;
    size.height = height;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, size);
}
