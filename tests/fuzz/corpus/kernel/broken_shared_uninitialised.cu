// expect-exit: 1
// expect-args: check --size 1000 --radius 2
// expect-output: uninitialised read: block (0), thread (63), N_ds[66], line 42
// expect-output: uninitialised reads
//
// shared_uninitialised.cu -- the tiled 1D kernel that loads the left halo
// and the internal cells but forgets the right halo: the last n threads of
// each block read N_ds cells that no thread wrote.

#include <cuda_runtime.h>

#define TILE_SIZE 64
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH];

__global__ void conv1d_tiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];

    int tx = threadIdx.x;
    int bx = blockIdx.x;
    int i = bx * TILE_SIZE + tx;
    int n = Mask_Width / 2;

    // left halo: the last n threads load the last n cells of the previous tile
    int halo_index_left = (bx - 1) * TILE_SIZE + tx;
    if (tx >= TILE_SIZE - n) {
        N_ds[tx - (TILE_SIZE - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    }

    // internal cells: one per thread
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0f;

    // (the right halo comes from the next block, so nothing to do here)

    __syncthreads();

    if (i < Width) {
        float Pvalue = 0.0f;
        for (int j = 0; j < Mask_Width; j++) {
            Pvalue += N_ds[tx + j] * Mc[j];
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    int maskWidth = 2 * r + 1;
    cudaMemcpyToSymbol(Mc, M, maskWidth * sizeof(float));

    dim3 block(TILE_SIZE);
    dim3 grid((width + TILE_SIZE - 1) / TILE_SIZE);
    conv1d_tiled<<<grid, block>>>(N, P, maskWidth, width);
}
