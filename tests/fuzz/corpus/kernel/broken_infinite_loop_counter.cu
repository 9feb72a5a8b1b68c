// expect-exit: 2
// expect-args: stats --size 64x48 --radius 1 --time-limit 2
// expect-max-seconds: 10
// expect-output: stopped after 2 s, the time limit
// expect-output: block (0,0), thread (0,0)
// expect-output-any: at line 28|at line 29|at line 30|at line 31|at line 32|at line 33
//
// infinite_loop_counter.cu -- the inner loop of the basic 2D kernel
// increments i instead of j: j never changes, so j < maskWidth stays true
// and the loop never ends. The message names the line the thread was
// running when it was stopped: one of the loop's.

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
            for (int j = 0; j < maskWidth; i++) {
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
