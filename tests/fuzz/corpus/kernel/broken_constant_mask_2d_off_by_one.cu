// expect-exit: 1
// expect-args: check --size 16x16 --radius 7 --all
// expect-output: load of Mc[0][15]: column 15 of 15 columns, line 36
// expect-output: load of Mc[15][0]: row 15 of 15 rows, line 36
// expect-output: load of Mc[15][15]: row 15 of 15 rows, column 15 of 15 columns, line 36
// expect-output: out of bounds on Mc, line 36: 3008
// expect-no-output: wrong result
// expect-no-output: elements)
//
// constant_mask_2d_off_by_one.cu -- the basic 2D kernel with the mask in 2D
// constant memory, its loops running to i <= maskWidth and j <= maskWidth:
// at r = 7 the mask fills Mc[15][15], and the last pass of each loop reads
// Mc[i][15] and Mc[15][j], past the last column and the last row. The loads
// give 0, so the outputs come out right; `check` still names each load, as
// written: Mc[0][15] flattens to 15, which is Mc[1][0], inside the array.

#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2d_const(const float* N, float* P, int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int maskWidth = 2 * r + 1;

    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i <= maskWidth; i++) {        // should be i < maskWidth
            for (int j = 0; j <= maskWidth; j++) {    // and j < maskWidth
                int inRow = row - r + i;
                int inCol = col - r + j;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                    Pvalue += Mc[i][j] * N[inRow * width + inCol];
                }
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(Mc, M, (2 * r + 1) * (2 * r + 1) * sizeof(float));
    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    conv2d_const<<<grid, block>>>(N, P, r, width, height);
}
