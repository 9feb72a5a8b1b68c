// expect-exit: 2
// expect-output: unsupported_shared_double.cu:18: __shared__ N_ds is double[78]
// expect-output: shared arrays here are float, int or unsigned arrays
// expect-output-lines: 1
//
// unsupported_shared_double.cu -- the tiled 1D kernel keeps its tile in
// double precision "for accuracy".

#include <cuda_runtime.h>

#define TILE_SIZE 64
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH];

__global__ void conv1d_tiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ double N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];

    int tx = threadIdx.x;
    int bx = blockIdx.x;
    int i = bx * TILE_SIZE + tx;
    int n = Mask_Width / 2;

    int halo_index_left = (bx - 1) * TILE_SIZE + tx;
    if (tx >= TILE_SIZE - n) {
        N_ds[tx - (TILE_SIZE - n)] = (halo_index_left < 0) ? 0.0 : N[halo_index_left];
    }
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0;
    int halo_index_right = (bx + 1) * TILE_SIZE + tx;
    if (tx < n) {
        N_ds[n + TILE_SIZE + tx] = (halo_index_right >= Width) ? 0.0 : N[halo_index_right];
    }
    __syncthreads();

    if (i < Width) {
        double Pvalue = 0.0;
        for (int j = 0; j < Mask_Width; j++) {
            Pvalue += N_ds[tx + j] * Mc[j];
        }
        P[i] = (float)Pvalue;
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
