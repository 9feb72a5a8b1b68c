// expect-exit: 2
// expect-output: shared_array_size_overflow.cu:
// expect-output-any: 17179869184 bytes|48 KB
// expect-no-output: crashed
// expect-output-lines: 1
//
// shared_array_size_overflow.cu -- the tiled 2D kernel with its input tile
// sized "for any image": 65536 x 65536 floats, 16 GiB of shared memory a
// block. A block may have 48 KB, so this is refused as
// too_much_shared_memory.cu is. (2^32 floats once wrapped to 0 in an int:
// the launch then looked as if it used no shared memory, and the kernel
// crashed in the worker instead.)

#include <cuda_runtime.h>

#define IN_TILE 16
#define MAX_MASK_WIDTH 15
#define MAX_IMAGE 65536                     // "room for any image"

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2d_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_ds[MAX_IMAGE][MAX_IMAGE];

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
