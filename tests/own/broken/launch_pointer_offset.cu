// expect-exit: 2
// expect-output: launch_pointer_offset.cu:30: pointer arithmetic (`+` on const float *) in host code
// expect-output-lines: 1
//
// launch_pointer_offset.cu -- launch() skips the ghost cells by starting
// the kernel r elements into N (and computing width - 2r outputs): the
// kernel gets a pointer into the middle of N, which TileScope cannot follow.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_valid(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float Pvalue = 0.0f;
        for (int j = 0; j < 2 * r + 1; j++) {
            Pvalue += M[j] * N[i - r + j];
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    int outputs = width - 2 * r;
    dim3 block(BLOCK_SIZE);
    dim3 grid((outputs + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_valid<<<grid, block>>>(N + r, M, P + r, r, outputs);
}
