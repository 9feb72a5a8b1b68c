// expect-exit: 1
// expect-output: your conv2d_tiled (helper_kernel_declared_first.cu)
// expect-output: shared race (read after write) on tile, lines 44 -> 58
// expect-output: wrong result: out(0,0) =
// expect-no-output: clear_output
// expect-no-output: scratch
//
// helper_kernel_declared_first.cu -- a helper kernel the launch never uses
// comes first in the file; launch() launches the tiled kernel below it,
// which is missing its __syncthreads(). The report names the launched
// kernel, its output array and its shared array, never the helper's.

#include <cuda_runtime.h>

#define IN_TILE 16
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

// zeroes an output (left over from an earlier exercise)
__global__ void clear_output(float* buffer, int count)
{
    __shared__ float scratch[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    scratch[threadIdx.x % 64] = 0.0f;
    if (i < count) buffer[i] = scratch[threadIdx.x % 64];
}

__global__ void conv2d_tiled(const float* image, float* out, int r, int width, int height)
{
    __shared__ float tile[IN_TILE][IN_TILE];

    int maskWidth = 2 * r + 1;
    int outTile = IN_TILE - 2 * r;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int bx = blockIdx.x;
    int by = blockIdx.y;

    int col = bx * outTile + tx - r;
    int row = by * outTile + ty - r;

    if (row >= 0 && row < height && col >= 0 && col < width) {
        tile[ty][tx] = image[row * width + col];
    } else {
        tile[ty][tx] = 0.0f;
    }
    // the tile is loaded... (but nobody waits for the other threads)

    int tileCol = tx - r;
    int tileRow = ty - r;
    if (tileCol >= 0 && tileCol < outTile && tileRow >= 0 && tileRow < outTile) {
        if (row < height && col < width) {
            float Pvalue = 0.0f;
            for (int i = 0; i < maskWidth; i++) {
                for (int j = 0; j < maskWidth; j++) {
                    int k = i * maskWidth + j;
                    Pvalue += Mc[k / MAX_MASK_WIDTH][k % MAX_MASK_WIDTH] * tile[tileRow + i][tileCol + j];
                }
            }
            out[row * width + col] = Pvalue;
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
