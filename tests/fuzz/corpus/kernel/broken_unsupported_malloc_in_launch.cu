// expect-exit: 2
// expect-output: unsupported_malloc_in_launch.cu:36:
// expect-output: malloc is not needed: launch() receives N, M and P already in device memory
// expect-output-lines: 1
//
// unsupported_malloc_in_launch.cu -- launch() allocates room for the output
// with malloc, as a C program would, and launches into it. Refused with the
// reason (launch() gets its arrays ready-made), not as an unknown name:
// malloc is C's own, from the stdlib.h the file includes.

#include <cuda_runtime.h>
#include <stdlib.h>

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
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    float* out = (float*)malloc(width * sizeof(float));
    conv1d_basic<<<grid, block>>>(N, M, out, r, width);
    free(out);
}
