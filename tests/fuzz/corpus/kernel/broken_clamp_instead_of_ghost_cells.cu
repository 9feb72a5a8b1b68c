// expect-exit: 1
// expect-output: wrong result: P(0) = 
// expect-output: wrong result: P(999) = 
// expect-output: : 2 wrong results
// expect-no-output: out of bounds
//
// clamp_instead_of_ghost_cells.cu -- the basic 1D kernel clamps the index
// into the array instead of skipping ghost cells: near the two ends it
// repeats N[0] and N[width-1] where the book's ghost cells are 0. Every
// access stays inside N; only the first r and the last r outputs differ
// from the reference (P(0) and P(999) for r = 1). (min and max of two
// ints, as CUDA's device code has them, must give the smaller and the
// larger of the two.)

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float Pvalue = 0.0f;
        int start = i - r;
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = min(max(start + j, 0), width - 1);   // stay inside N
            Pvalue += M[j] * N[k];
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
