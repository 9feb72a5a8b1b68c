// expect-exit: 2
// expect-args: check --size 64x48 --radius 2
// expect-output: constant_array_too_small.cu:53: cudaMemcpyToSymbol copies 100 bytes into Mc, which holds 36 bytes
// expect-output-lines: 1
//
// constant_array_too_small.cu -- the tiled 2D kernel with its constant
// array sized for the 3 x 3 mask of the exercise it was written for; run
// with a 5 x 5 mask, launch() copies 25 floats into room for 9.

#include <cuda_runtime.h>

#define IN_TILE 16
#define MAX_MASK_WIDTH 15
#define MASK_DIM 3

__constant__ float Mc[MASK_DIM * MASK_DIM];

__global__ void conv2d_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_ds[IN_TILE][IN_TILE];

    int maskWidth = 2 * r + 1;
    int outTile = IN_TILE - 2 * r;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * outTile + tx - r;
    int row = blockIdx.y * outTile + ty - r;

    if (row >= 0 && row < height && col >= 0 && col < width) {
        N_ds[ty][tx] = N[row * width + col];
    } else {
        N_ds[ty][tx] = 0.0f;
    }
    __syncthreads();

    int tileCol = tx - r;
    int tileRow = ty - r;
    if (tileCol >= 0 && tileCol < outTile && tileRow >= 0 && tileRow < outTile && row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                Pvalue += Mc[i * maskWidth + j] * N_ds[tileRow + i][tileCol + j];
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int maskWidth = 2 * r + 1;
    int outTile = IN_TILE - 2 * r;
    cudaMemcpyToSymbol(Mc, M, maskWidth * maskWidth * sizeof(float));

    dim3 block(IN_TILE, IN_TILE);
    dim3 grid((width + outTile - 1) / outTile, (height + outTile - 1) / outTile);
    conv2d_tiled<<<grid, block>>>(N, P, r, width, height);
}
