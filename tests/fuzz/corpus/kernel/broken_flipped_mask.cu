// expect-exit: 1
// expect-output: mask: generated 3x3, asymmetric (no flip or transpose of it is equal to it)
// expect-output: wrong result: P(0,0) =
// expect-output: wrong result on P, line 38
// expect-no-output: out of bounds
//
// flipped_mask.cu -- the basic 2D kernel reading the mask turned by half a
// turn: M[(2r - i)(2r + 1) + (2r - j)] with N[row - r + i][col - r + j]. That
// is convolution as signal processing defines it; the book (and TileScope's
// reference) multiplies N[row - r + i][col - r + j] by M[i][j]. With a
// symmetric mask (a box blur, a Gaussian) the two agree, which is why `check
// --radius` generates a mask that no flip or transpose leaves unchanged.

#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

__global__ void conv2d_basic(const float* N, const float* M, float* P,
                             int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;

    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i < maskWidth; i++) {
            for (int j = 0; j < maskWidth; j++) {
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                    // mask element (2r - i, 2r - j): flipped left-right and top-bottom
                    Pvalue += M[(2 * r - i) * maskWidth + (2 * r - j)] * N[inRow * width + inCol];
                }
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
