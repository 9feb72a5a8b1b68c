// conv2d_basic_student.cu -- 2D convolution, one thread per output pixel, the
// mask read through a pointer (exercise 8: Figure 7.6 revised for 2D).
// Blocks are 32 x 8 threads; the blocks of the last column and row may stick
// out past the image, so every thread checks its pixel first.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

// 1 when (row, col) is a pixel of the image, 0 for a ghost cell.
__device__ int inImage(int row, int col, int width, int height)
{
    return row >= 0 && row < height && col >= 0 && col < width;
}

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
                int inRow = row - r + i;    // the window is centred on (row, col)
                int inCol = col - r + j;
                if (inImage(inRow, inCol, width, height)) {
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
