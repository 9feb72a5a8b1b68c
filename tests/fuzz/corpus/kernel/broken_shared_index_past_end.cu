// expect-exit: 1
// expect-args: check --size 1000 --radius 5
// expect-output: out of bounds: block (0), thread (2), store to N_ds[71] (71 elements), line 38
// expect-output: load of N_ds[71] (71 elements), line 46
//
// shared_index_past_end.cu -- the tiled 1D kernel with its shared array one
// halo too short: TILE_SIZE + MAX_MASK_WIDTH / 2 leaves room for the left
// halo only, so the right halo is stored past the end of N_ds.

#include <cuda_runtime.h>

#define TILE_SIZE 64
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH];

__global__ void conv1d_tiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH / 2];

    int tx = threadIdx.x;
    int bx = blockIdx.x;
    int i = bx * TILE_SIZE + tx;
    int n = Mask_Width / 2;

    // left halo
    int halo_index_left = (bx - 1) * TILE_SIZE + tx;
    if (tx >= TILE_SIZE - n) {
        N_ds[tx - (TILE_SIZE - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    }

    // internal cells
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0f;

    // right halo
    int halo_index_right = (bx + 1) * TILE_SIZE + tx;
    if (tx < n) {
        N_ds[n + TILE_SIZE + tx] = (halo_index_right >= Width) ? 0.0f : N[halo_index_right];
    }

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
