// expect-exit: 2
// expect-output: unsupported_new_in_launch.cu:30: new and delete are not supported
// expect-output-lines: 1
//
// unsupported_new_in_launch.cu -- launch() allocates a host copy of the
// mask with new, "to flip it first".

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
    float* flipped = new float[2 * r + 1];
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
    delete[] flipped;
}
