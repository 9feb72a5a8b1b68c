// expect-exit: 2
// expect-output: too_much_shared_memory_two_arrays.cu:59: <<<(5, 4), (16, 16)>>>: 65536 bytes of shared memory a block; a block may have 48 KB
// expect-output-lines: 1
//
// too_much_shared_memory_two_arrays.cu -- the tiled 2D kernel with two
// shared arrays of 32 KB each, the input tile and a copy "for later": each
// fits, but together they are 64 KB of shared memory a block, more than the
// 48 KB a block may have. Refused at the launch, with its configuration.

#include <cuda_runtime.h>

#define IN_TILE 16
#define MAX_TILE 128
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2d_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_ds[MAX_TILE / 2][MAX_TILE];
    __shared__ float spare[MAX_TILE / 2][MAX_TILE];

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
                int k = i * maskWidth + j;
                Pvalue += Mc[k / MAX_MASK_WIDTH][k % MAX_MASK_WIDTH] * N_ds[tileRow + i][tileCol + j];
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
