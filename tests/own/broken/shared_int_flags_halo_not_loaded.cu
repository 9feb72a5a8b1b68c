// expect-exit: 1
// expect-args: check --size 1000 --radius 2
// expect-output: uninitialised reads
// expect-output: uninitialised read on tile, line 32: 150
// expect-output: uninitialised read on inside, line 32: 150
// expect-no-output: tile, inside
//
// shared_int_flags_halo_not_loaded.cu -- the kernel of
// good/conv1d_shared_int_flags_student.cu whose loading loop stops at TILE:
// the right halo of both the float tile and the int flag array is never
// written, and the threads at the block's right end read it.

#include <cuda_runtime.h>

#define TILE 64
#define MAX_R 8

__global__ void conv1d_flags(const float* N, const float* M, float* P, int r, int width)
{
    __shared__ float tile[TILE + 2 * MAX_R];
    __shared__ int inside[TILE + 2 * MAX_R];
    int i = blockIdx.x * TILE + threadIdx.x;
    for (int s = threadIdx.x; s < TILE; s += TILE) {
        int k = blockIdx.x * TILE + s - r;
        inside[s] = (k >= 0 && k < width) ? 1 : 0;
        tile[s] = inside[s] ? N[k] : 0.0f;
    }
    __syncthreads();
    if (i < width) {
        float sum = 0.0f;
        for (int j = 0; j < 2 * r + 1; j++)
            sum += M[j] * tile[threadIdx.x + j] * inside[threadIdx.x + j];
        P[i] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_flags<<<(width + TILE - 1) / TILE, TILE>>>(N, M, P, r, width);
}
