// expect-exit: 2
// expect-output: forgot_global.cu:32:34: error: kernel call to non-global function 'conv1d_basic'
// expect-output-lines: 1
//
// forgot_global.cu -- the basic 1D kernel without __global__: launch()
// launches a plain function.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
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
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
