// conv1d_shared_int_flags_student.cu -- the tiled 1D kernel that first
// notes, in a __shared__ int array, which of its tile's elements lie inside
// N (1) and which are ghost cells (0), then multiplies by the flag instead
// of testing the index again: integer shared memory, as flag arrays and
// histograms use it.

#include <cuda_runtime.h>

#define TILE 64
#define MAX_R 8

__global__ void conv1d_flags(const float* N, const float* M, float* P, int r, int width)
{
    __shared__ float tile[TILE + 2 * MAX_R];
    __shared__ int inside[TILE + 2 * MAX_R];
    int i = blockIdx.x * TILE + threadIdx.x;
    for (int s = threadIdx.x; s < TILE + 2 * r; s += TILE) {
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
