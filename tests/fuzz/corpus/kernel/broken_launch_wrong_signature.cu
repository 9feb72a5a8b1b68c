// expect-exit: 2
// expect-output: launch_wrong_signature.cu:30: launch() must have exactly this signature: void launch(const float* N, const float* M, float* P, int r, int width, int height) (2D), or void launch(const float* N, const float* M, float* P, int r, int width) (1D)
// expect-output-lines: 1
//
// launch_wrong_signature.cu -- launch() takes the mask width instead of the
// radius, and its arrays without const.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int Mask_Width, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float Pvalue = 0.0f;
        int start = i - Mask_Width / 2;
        for (int j = 0; j < Mask_Width; j++) {
            int k = start + j;
            if (k >= 0 && k < width) {
                Pvalue += M[j] * N[k];
            }
        }
        P[i] = Pvalue;
    }
}

// Mask_Width = 2r + 1

void launch(float* N, float* M, float* P, int Mask_Width, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, Mask_Width, width);
}
