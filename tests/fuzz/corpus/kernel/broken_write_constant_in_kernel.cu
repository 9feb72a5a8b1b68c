// expect-exit: 2
// expect-output: write_constant_in_kernel.cu:37:
// expect-output: a kernel writes Mc, a __constant__ array: constant memory is read-only to kernels
// expect-output-lines: 1
//
// write_constant_in_kernel.cu -- the tiled 1D kernel loads the mask into
// constant memory itself, from the kernel. Constant memory is read-only for
// a kernel: only the host writes it (cudaMemcpyToSymbol). The C++ compiler
// finds it once the file is translated.

#include <cuda_runtime.h>

#define TILE_SIZE 64
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH];

__global__ void conv1d_tiled(const float* N, const float* M, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];

    int tx = threadIdx.x;
    int bx = blockIdx.x;
    int i = bx * TILE_SIZE + tx;
    int n = Mask_Width / 2;

    int halo_index_left = (bx - 1) * TILE_SIZE + tx;
    if (tx >= TILE_SIZE - n) {
        N_ds[tx - (TILE_SIZE - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    }
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0f;
    int halo_index_right = (bx + 1) * TILE_SIZE + tx;
    if (tx < n) {
        N_ds[n + TILE_SIZE + tx] = (halo_index_right >= Width) ? 0.0f : N[halo_index_right];
    }
    if (tx < Mask_Width) {
        Mc[tx] = M[tx];                     // the mask into constant memory
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
    dim3 block(TILE_SIZE);
    dim3 grid((width + TILE_SIZE - 1) / TILE_SIZE);
    conv1d_tiled<<<grid, block>>>(N, M, P, 2 * r + 1, width);
}
