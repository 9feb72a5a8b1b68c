// expect-exit: 1
// expect-output: wrong result: P(0,0) = 0, reference
// expect-output: wrong result on P, line 50
// expect-no-output: out of bounds
// expect-no-output: shared race
//
// wrong_mask_index.cu -- the tiled 2D kernel reading the mask as Mc[i][j]:
// launch() copies the (2r+1) x (2r+1) mask flat to the start of Mc, so mask
// element (i, j) is float i*(2r+1) + j of Mc, which Mc[i][j] is not (a row
// of Mc holds MAX_MASK_WIDTH floats).

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
                    Pvalue += Mc[i][j] * N_ds[tileRow + i][tileCol + j];
                }
            }
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
