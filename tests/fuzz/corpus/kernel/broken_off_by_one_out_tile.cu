// expect-exit: 1
// expect-args: check --size 64x48 --radius 3
// expect-output: wrong result: P(50,0) = 0, reference
// expect-output: never written
// expect-no-output: out of bounds
//
// off_by_one_out_tile.cu -- the tiled 2D kernel is right, but launch()
// computes the output tile as IN_TILE - r instead of IN_TILE - 2r: the grid
// is too small, and the outputs of the last columns and rows of tiles are
// never written. (With r = 1 and a 64-pixel-wide image the grid happens to
// be large enough; r = 3 shows it.)

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
        if (row < height && col < width) {
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
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int maskWidth = 2 * r + 1;
    int outTile = IN_TILE - r;              // outputs per block
    cudaMemcpyToSymbol(Mc, M, maskWidth * maskWidth * sizeof(float));

    dim3 block(IN_TILE, IN_TILE);
    dim3 grid((width + outTile - 1) / outTile, (height + outTile - 1) / outTile);
    conv2d_tiled<<<grid, block>>>(N, P, r, width, height);
}
