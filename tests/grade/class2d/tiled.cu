// conv2d_tiled_student.cu -- tiled 2D convolution, mask in 2D constant memory.
//
// The block is the INPUT tile (IN_TILE x IN_TILE threads, as in Figures
// 7.19-7.21): every thread loads one input pixel into N_ds (0 for a ghost
// cell), then only the inner OUT_TILE x OUT_TILE threads compute an output;
// the r threads along each edge are switched off. OUT_TILE = IN_TILE - 2r
// depends on the radius, so kernel and launch both compute it at run time
// (r = 7 leaves 2 x 2 outputs per block).
//
// The launch copies the (2r+1) x (2r+1) mask flat to the start of Mc, so mask
// element (i, j) is float number i*(2r+1) + j of Mc, not Mc[i][j].

#include <cuda_runtime.h>

#define IN_TILE 16
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2d_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_ds[IN_TILE][IN_TILE];

    int maskWidth = 2 * r + 1;
    int outTile = IN_TILE - 2 * r;          // outputs per block in x and in y
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int bx = blockIdx.x;
    int by = blockIdx.y;

    // the pixel this thread loads: the input tile starts r before the output tile
    int col = bx * outTile + tx - r;
    int row = by * outTile + ty - r;

    if (row >= 0 && row < height && col >= 0 && col < width) {
        N_ds[ty][tx] = N[row * width + col];
    } else {
        N_ds[ty][tx] = 0.0f;                // ghost cell
    }
    __syncthreads();                        // the whole input tile is loaded

    // the same thread's place in the output tile; edge threads are switched off
    int tileCol = tx - r;
    int tileRow = ty - r;
    if (tileCol >= 0 && tileCol < outTile && tileRow >= 0 && tileRow < outTile) {
        if (row < height && col < width) {
            float Pvalue = 0.0f;
            for (int i = 0; i < maskWidth; i++) {
                for (int j = 0; j < maskWidth; j++) {
                    int k = i * maskWidth + j;  // where the flat copy put mask (i, j)
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
    int outTile = IN_TILE - 2 * r;
    cudaMemcpyToSymbol(Mc, M, maskWidth * maskWidth * sizeof(float));

    dim3 block(IN_TILE, IN_TILE);
    dim3 grid((width + outTile - 1) / outTile, (height + outTile - 1) / outTile);
    conv2d_tiled<<<grid, block>>>(N, P, r, width, height);
}
