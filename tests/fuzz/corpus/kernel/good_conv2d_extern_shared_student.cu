// conv2d_extern_shared_student.cu -- tiled 2D convolution with the input tile
// in dynamically sized shared memory.
//
// The block is the OUTPUT tile (BLOCK_W x BLOCK_H threads, one output each).
// Its input tile is (BLOCK_H + 2r) rows of (BLOCK_W + 2r) pixels: more pixels
// than threads, so each thread loads several, stepping through the tile by
// the block's size. The tile's size depends on r, which is only known at run
// time, so it is declared extern and the launch passes its size in bytes.
// The mask stays in global memory, read through M.

#include <cuda_runtime.h>

#define BLOCK_W 16
#define BLOCK_H 8

__global__ void conv2d_extern_shared(const float* N, const float* __restrict__ M, float* P,
                                     int r, int width, int height)
{
    extern __shared__ float tile[];         // tileH x tileW floats, row by row

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int bx = blockIdx.x;                    // signed copies: bx * bw - r may be negative
    int by = blockIdx.y;
    int bw = blockDim.x;
    int bh = blockDim.y;
    int tileW = bw + 2 * r;
    int tileH = bh + 2 * r;
    int maskWidth = 2 * r + 1;

    // first input pixel of the tile: r up and r left of the first output
    int startCol = bx * bw - r;
    int startRow = by * bh - r;

    for (int y = ty; y < tileH; y += bh) {
        for (int x = tx; x < tileW; x += bw) {
            int inRow = startRow + y;
            int inCol = startCol + x;
            if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                tile[y * tileW + x] = N[inRow * width + inCol];
            } else {
                tile[y * tileW + x] = 0.0f;  // ghost cell
            }
        }
    }
    __syncthreads();                        // the whole tile is loaded

    int col = bx * bw + tx;
    int row = by * bh + ty;
    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                // output (ty, tx) sits at (ty + r, tx + r) in the tile
                Pvalue += M[i * maskWidth + j] * tile[(ty + i) * tileW + (tx + j)];
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int tileW = BLOCK_W + 2 * r;
    int tileH = BLOCK_H + 2 * r;
    int bytes = tileW * tileH * sizeof(float);

    dim3 block(BLOCK_W, BLOCK_H);
    dim3 grid((width + BLOCK_W - 1) / BLOCK_W, (height + BLOCK_H - 1) / BLOCK_H);
    conv2d_extern_shared<<<grid, block, bytes>>>(N, M, P, r, width, height);
}
