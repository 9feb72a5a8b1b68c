// expect-exit: 2
// expect-args: run --input {source}/assets/book_n_1_to_7.npy --mask {mask1d:0} -o {tmp}/out.npy
// expect-output: division_by_zero.cu:29: the kernel crashed
// expect-output: block (0), thread (0)
// expect-output: division by zero
// expect-output: line 29
//
// division_by_zero.cu -- the tiled 1D kernel picks the halo cell each
// thread loads with tx % n... and a mask of radius 0 has n = 0: an integer
// division by zero, which stops the program on a CPU (SIGFPE) and gives
// garbage on a GPU. The message names the block and thread, and says what
// the crash was (the worker's signal), not only that it crashed.

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
    int haloSlot = tx % n;                  // which halo cell this thread loads

    if (tx >= TILE_SIZE - n) {
        int left = (bx - 1) * TILE_SIZE + TILE_SIZE - n + haloSlot;
        N_ds[haloSlot] = (left < 0) ? 0.0f : N[left];
    }
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0f;
    if (tx < n) {
        int right = (bx + 1) * TILE_SIZE + haloSlot;
        N_ds[n + TILE_SIZE + haloSlot] = (right >= Width) ? 0.0f : N[right];
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
