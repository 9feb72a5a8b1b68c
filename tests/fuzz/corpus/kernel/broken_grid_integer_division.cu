// expect-exit: 1
// expect-output: wrong result: P(896) = 0, reference
// expect-output: never written
// expect-output: : 104 wrong results
//
// grid_integer_division.cu -- the basic 1D kernel launched with
// ceilf(width / BLOCK_SIZE) blocks: width / BLOCK_SIZE is an integer
// division, rounded down before ceilf sees it, so for 1000 elements the grid
// has 7 blocks of 128 threads and the last 104 outputs are never written.
// (ceilf is one of the math functions a kernel file may call.)

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float Pvalue = 0.0f;
        int start = i - r;
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = start + j;
            if (k >= 0 && k < width) {
                Pvalue += M[j] * N[k];
            }
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((unsigned)ceilf(width / BLOCK_SIZE));
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
