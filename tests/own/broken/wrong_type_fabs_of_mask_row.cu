// expect-exit: 2
// expect-output: wrong_type_fabs_of_mask_row.cu:28:
// expect-output: no matching function for call to
// expect-output: fabs(__constant__ float [7])
// expect-no-output: tilescope::
// expect-no-output: ::Row
// expect-no-output: ConstantArray
// expect-output-lines: 1
//
// wrong_type_fabs_of_mask_row.cu -- the size of the centre weight of a mask
// in constant memory, taken of a row (F_c[r]) where an element (F_c[r][r])
// was meant. The compiler's message names the row as CUDA's type, not
// TileScope's.

#include <cuda_runtime.h>

#define MAX_MASK 7
#define BLOCK 16

__constant__ float F_c[MAX_MASK][MAX_MASK];

__global__ void conv2d_basic(const float* N, float* P, int r, int width, int height)
{
    int col = blockIdx.x * BLOCK + threadIdx.x;
    int row = blockIdx.y * BLOCK + threadIdx.y;
    if (row >= height || col >= width) return;
    int w = 2 * r + 1;
    float centre = fabs(F_c[r]);
    float Pvalue = 0.0f;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++) {
            int y = row - r + i, x = col - r + j;
            if (y >= 0 && y < height && x >= 0 && x < width) Pvalue += F_c[i][j] * N[y * width + x];
        }
    P[row * width + col] = Pvalue / centre;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(F_c, M, (2 * r + 1) * (2 * r + 1) * sizeof(float));
    dim3 block(BLOCK, BLOCK);
    dim3 grid((width + BLOCK - 1) / BLOCK, (height + BLOCK - 1) / BLOCK);
    conv2d_basic<<<grid, block>>>(N, P, r, width, height);
}
