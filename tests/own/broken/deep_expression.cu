// expect-exit: 2
// expect-args: check --size 8x8 --radius 1
// expect-output: deep_expression.cu:52: this is nested more than 256 levels deep
// expect-output-lines: 1
// expect-no-output: crashed
//
// deep_expression.cu -- the basic 2D kernel adds 0 to each output, written
// as x - x + x - x ..., 32768 terms that 16 #defines of 20 lines make. The
// expression is 32768 levels deep: reading it took more stack than the
// parser's thread had (8 MB), and tilescope itself crashed (SIGSEGV); from
// about 10000 terms on, so did the translator's walk over the syntax tree.
// nvcc compiles it. TileScope reads the file on a thread with room for it,
// and its walk over the syntax tree stops at 256 levels: the file is refused
// at the line of the deep expression, with a line and without a crash.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

// ZERO is x - x + x - x ... , 2^15 terms: one expression 32768 deep.
#define Z0 x - x
#define Z1 Z0 + Z0
#define Z2 Z1 + Z1
#define Z3 Z2 + Z2
#define Z4 Z3 + Z3
#define Z5 Z4 + Z4
#define Z6 Z5 + Z5
#define Z7 Z6 + Z6
#define Z8 Z7 + Z7
#define Z9 Z8 + Z8
#define Z10 Z9 + Z9
#define Z11 Z10 + Z10
#define Z12 Z11 + Z11
#define Z13 Z12 + Z12
#define Z14 Z13 + Z13
#define ZERO (Z14)

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
    int x = col;
    int zero = ZERO;

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
        P[row * width + col] = Pvalue + zero;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
