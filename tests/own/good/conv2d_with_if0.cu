// conv2d_with_if0.cu -- conv2d_basic_student.cu with what students leave in a
// file: a version they gave up on under #if 0, a debugging print under an
// #ifdef of a name the file does not define, and a choice made by a #define.
// What the parser skipped is not compiled (it would not compile: an
// undeclared name, a missing semicolon), and every line keeps its number.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8
#define USE_HELPER 1

#if 0
// The first try: one block per row, and it never compiled.
__global__ void conv2d_rows(const float* N, const float* M, float* P, int r, int width)
{
    int col = threadIdx.x
    P[col] = undeclared(N, M, r);
}
#endif

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
#if USE_HELPER
                if (inImage(inRow, inCol, width, height)) {
#else
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
#endif
                    Pvalue += M[i * maskWidth + j] * N[inRow * width + inCol];
                }
            }
        }
#ifdef DEBUG_PRINT
        printf("(%d, %d): %f\n", row, col, Pvalue)
#endif
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
