// conv1d_tiled_student.cu -- tiled 1D convolution with halo cells
// (Figure 7.11), the mask in constant memory (Figure 7.8).
//
// Each block computes TILE_SIZE outputs. It first loads its input tile into
// N_ds: n left halo cells, TILE_SIZE internal cells, n right halo cells
// (n = Mask_Width/2), with 0 for ghost cells. Fixed from the figure: the
// internal load checks i < Width, and the result is written (only for
// i < Width). The halo is loaded by n threads, so TILE_SIZE must be >= n (7).

#include <cuda_runtime.h>

#define TILE_SIZE 64
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH];

__global__ void conv1d_tiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];

    int tx = threadIdx.x;
    int bx = blockIdx.x;                    // signed, so that bx - 1 can be -1
    int i = bx * TILE_SIZE + tx;
    int n = Mask_Width / 2;

    // left halo: the last n threads load the last n cells of the previous tile
    int halo_index_left = (bx - 1) * TILE_SIZE + tx;
    if (tx >= TILE_SIZE - n) {
        N_ds[tx - (TILE_SIZE - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    }

    // internal cells: one per thread
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0f;

    // right halo: the first n threads load the first n cells of the next tile
    int halo_index_right = (bx + 1) * TILE_SIZE + tx;
    if (tx < n) {
        N_ds[n + TILE_SIZE + tx] = (halo_index_right >= Width) ? 0.0f : N[halo_index_right];
    }

    __syncthreads();                        // the whole tile is in N_ds

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
