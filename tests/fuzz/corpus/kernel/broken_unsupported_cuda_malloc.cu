// expect-exit: 2
// expect-output: unsupported_cuda_malloc.cu:35:
// expect-output: cudaMalloc is not needed: launch() receives N, M and P already in device memory
// expect-output-lines: 1
//
// unsupported_cuda_malloc.cu -- launch() does what a whole CUDA program's
// host code does: allocates device memory for N, copies N into it, ... but
// launch() receives N, M and P already in device memory. Refused with that
// reason, not as an unknown name: cudaMalloc is CUDA's own.

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
    float* d_N;
    int bytes = width * sizeof(float);
    cudaMalloc((void**)&d_N, bytes);
    cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice);

    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(d_N, M, P, r, width);
    cudaFree(d_N);
}
