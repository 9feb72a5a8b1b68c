// expect-exit: 1
// expect-output: barrier mismatch: block (0,0), thread (1,1) at the barrier of line 48, 60 threads never reach it (thread (0,0) returned after line 36)
// expect-no-output: at the barrier of line 36
//
// syncthreads_in_output_tile_if.cu -- the tiled kernel with a second
// __syncthreads() inside the output tile's if: the threads of the tile's
// edge (16 x 16 - 14 x 14 = 60 of them at r = 1) pass the first barrier,
// skip the if and return, and never reach the second.

#include <cuda_runtime.h>

#define IN_TILE 16
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2d_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_ds[IN_TILE][IN_TILE];

    int maskWidth = 2 * r + 1;
    int outTile = IN_TILE - 2 * r;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int bx = blockIdx.x;
    int by = blockIdx.y;

    int col = bx * outTile + tx - r;
    int row = by * outTile + ty - r;

    if (row >= 0 && row < height && col >= 0 && col < width) {
        N_ds[ty][tx] = N[row * width + col];
    } else {
        N_ds[ty][tx] = 0.0f;
    }
    __syncthreads();

    int tileCol = tx - r;
    int tileRow = ty - r;
    if (tileCol >= 0 && tileCol < outTile && tileRow >= 0 && tileRow < outTile) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int k = i * maskWidth + j;
                Pvalue += Mc[k / MAX_MASK_WIDTH][k % MAX_MASK_WIDTH] * N_ds[tileRow + i][tileCol + j];
            }
        }
        __syncthreads();    // every output is computed
        if (row < height && col < width) {
            P[row * width + col] = Pvalue;
        }
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
