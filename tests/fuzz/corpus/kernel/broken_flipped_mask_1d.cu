// expect-exit: 1
// expect-output: mask: generated 3 wide, asymmetric (its mirror image is not equal to it)
// expect-output: wrong result: P(0) =
// expect-output: wrong result on P, line 26
// expect-no-output: out of bounds
//
// flipped_mask_1d.cu -- the basic 1D kernel reading the mask back to front:
// M[2r - j] with N[i - r + j], convolution as signal processing defines it.
// The book's kernel (and TileScope's reference) multiplies N[i - r + j] by
// M[j]. The two agree for a symmetric mask such as the book's 3 4 5 4 3, so
// `check --radius` generates one whose mirror image differs.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float Pvalue = 0.0f;
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = i - r + j;
            if (k >= 0 && k < width) Pvalue += M[2 * r - j] * N[k];
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
