// expect-exit: 2
// expect-args: check --size 5000 --radius 1
// expect-output: block_of_2048_threads.cu:34: <<<(3), (2048)>>>: a block of 2048 threads; CUDA allows at most 1024
// expect-output-lines: 1
//
// block_of_2048_threads.cu -- the basic 1D kernel with blocks of 2048
// threads "to use the whole SM": a block holds at most 1024 threads, so a
// GPU refuses this launch.

#include <cuda_runtime.h>

#define BLOCK_SIZE 2048

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
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
