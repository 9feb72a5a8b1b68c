// expect-exit: 2
// expect-output: unsupported_shfl_down_sync.cu:29:
// expect-output: warp-level primitives (__shfl_down_sync) are not supported
// expect-output-lines: 1
//
// unsupported_shfl_down_sync.cu -- the basic 1D kernel fetches its right
// neighbour's input from a register with a warp shuffle instead of from N.
// Refused with the reason (warp-level primitives are not supported), not as
// an unknown name: __shfl_down_sync is CUDA's own.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float mine = (i < width) ? N[i] : 0.0f;
    if (i < width) {
        float Pvalue = 0.0f;
        int start = i - r;
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = start + j;
            if (k >= 0 && k < width) {
                Pvalue += M[j] * N[k];
            }
        }
        // one more tap from the neighbour, r = 1 only
        float right = __shfl_down_sync(0xffffffff, mine, 1);
        Pvalue = Pvalue + 0.0f * right;
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
