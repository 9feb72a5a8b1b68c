// expect-exit: 2
// expect-output: unsupported_device_global_variable.cu:12: __device__ variable ghostCount: global device variables are not supported
// expect-output-lines: 1
//
// unsupported_device_global_variable.cu -- the basic 1D kernel counts the
// ghost cells it skips in a __device__ global variable.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__device__ int ghostCount = 0;

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
            } else {
                ghostCount = ghostCount + 1;
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
