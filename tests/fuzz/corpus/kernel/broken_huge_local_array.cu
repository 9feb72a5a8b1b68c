// expect-exit: 2
// expect-args: trace --size 64x48 --radius 1 -o {tmp}/trace.json
// expect-output: huge_local_array.cu:21: the kernel crashed
// expect-output: block (0,0), thread (0,0)
// expect-output: (SIGSEGV)
//
// huge_local_array.cu -- the basic 2D kernel first copies its window into a
// local array "big enough for any image": 1024 x 1024 floats (4 MB) per
// thread, more than a GPU thread's local memory may hold (512 KB); on the
// CPU the thread's stack overflows. The message says what the crash was
// (a segmentation fault on the stack), not only that it crashed.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8
#define MAX_SIDE 1024

__global__ void conv2d_basic(const float* N, const float* M, float* P,
                             int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;
    float window[MAX_SIDE * MAX_SIDE];

    if (row < height && col < width) {
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                    window[i * MAX_SIDE + j] = N[inRow * width + inCol];
                } else {
                    window[i * MAX_SIDE + j] = 0.0f;
                }
            }
        }
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                Pvalue += M[i * maskWidth + j] * window[i * MAX_SIDE + j];
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
