// expect-exit: 2
// expect-output: wrong_type_floor_of_block_dim.cu:21:
// expect-output: no matching function for call to
// expect-output: floor(dim3&)
// expect-no-output: tilescope::
// expect-no-output: Dim3
// expect-output-lines: 1
//
// wrong_type_floor_of_block_dim.cu -- floor() of blockDim itself, where
// blockDim.x was meant. The compiler's message names CUDA's dim3, not the
// type TileScope's CPU executor gives blockDim.

#include <cuda_runtime.h>

#define BLOCK 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    int half = floor(blockDim) / 2;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue + 0.0f * half;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + BLOCK - 1) / BLOCK, BLOCK>>>(N, M, P, r, width);
}
