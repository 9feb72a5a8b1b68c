// expect-exit: 2
// expect-output: wrong_type_sqrt_of_shared_row.cu:32:
// expect-output: no matching function for call to
// expect-output: sqrt(__shared__ float[])
// expect-no-output: tilescope::
// expect-no-output: ::Row
// expect-no-output: SharedArray
// expect-output-lines: 1
//
// wrong_type_sqrt_of_shared_row.cu -- a tile in shared memory read with one
// subscript of its two: N_s[ty] is a row, and sqrt() of it no number. The
// compiler's message names the row as CUDA's type, not TileScope's.

#include <cuda_runtime.h>

#define BLOCK_X 16
#define BLOCK_Y 16

__global__ void conv2d_basic(const float* N, const float* M, float* P,
                             int r, int width, int height)
{
    __shared__ float N_s[BLOCK_Y][BLOCK_X];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * BLOCK_X + tx;
    int row = blockIdx.y * BLOCK_Y + ty;
    bool inside = row < height && col < width;

    N_s[ty][tx] = inside ? N[row * width + col] : 0.0f;
    __syncthreads();

    if (inside)
        P[row * width + col] = sqrt(N_s[ty]) * M[r * (2 * r + 1) + r];
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);
}
