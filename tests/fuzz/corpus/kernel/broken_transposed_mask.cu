// expect-exit: 1
// expect-args: check --size 64x48 --radius 2
// expect-output: mask: generated 5x5, asymmetric (no flip or transpose of it is equal to it)
// expect-output: wrong result: P(0,0) =
// expect-output: wrong result on P, line 50
// expect-no-output: out of bounds
// expect-no-output: shared race
//
// transposed_mask.cu -- the tiled 2D kernel with the mask in constant memory,
// its row and column swapped: the launch copies mask element (i, j) flat to
// float i*(2r+1) + j of Mc, and the kernel reads float j*(2r+1) + i for it. A mask
// equal to its transpose (a box blur, a Gaussian, the book's Figure 7.4) hides
// the mistake; the mask `check --radius` generates does not.

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
                int k = j * maskWidth + i;  // should be i * maskWidth + j: where the flat copy put mask (i, j)
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
