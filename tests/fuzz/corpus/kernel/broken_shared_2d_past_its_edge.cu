// expect-exit: 1
// expect-args: check --size 16x16 --radius 1 --all
// expect-output: out of bounds: block (0,0), thread (15,0), load of N_ds[0][16]: column 16 of 16 columns, line 40, step 7
// expect-output: out of bounds: block (0,0), thread (0,15), load of N_ds[16][0]: row 16 of 16 rows, line 40, step
// expect-output: load of N_ds[16][16]: row 16 of 16 rows, column 16 of 16 columns, line 40
// expect-no-output: elements)
//
// shared_2d_past_its_edge.cu -- a tiled 2D kernel whose shared tile holds the
// block's own pixels only, TILE x TILE, with no room for the halo: the taps
// N_ds[ty + i][tx + j] of the threads along the right and bottom edges fall
// past the tile's last column or row. Flattened, N_ds[0][16] is element 16 of
// the 256, which is N_ds[1][0], inside the array; `check` names each access
// as written, and says which subscript is past its extent.

#include <cuda_runtime.h>

#define TILE 16
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2d_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_ds[TILE][TILE];  // should be TILE + 2r a side, with the loads shifted by r

    int maskWidth = 2 * r + 1;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;

    N_ds[ty][tx] = (row < height && col < width) ? N[row * width + col] : 0.0f;
    __syncthreads();

    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int k = i * maskWidth + j;
                Pvalue += Mc[k / MAX_MASK_WIDTH][k % MAX_MASK_WIDTH] * N_ds[ty + i][tx + j];
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(Mc, M, (2 * r + 1) * (2 * r + 1) * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    conv2d_tiled<<<grid, block>>>(N, P, r, width, height);
}
