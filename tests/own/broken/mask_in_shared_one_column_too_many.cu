// expect-exit: 1
// expect-args: check --size 16x16 --radius 2 --all
// expect-output: load of M_s[0][5]: column 5 of 5 columns, line 44
// expect-output: load of N_s[0][12]: column 12 of 12 columns, line 44
// expect-output: out of bounds on M_s, line 44: 
// expect-output: out of bounds on N_s, line 44: 
// expect-no-output: N_s, M_s
//
// mask_in_shared_one_column_too_many.cu -- a tiled 2D kernel that copies the
// mask into shared memory beside the input tile, a pattern students write
// when they have not met constant memory yet, with the inner loop's bound
// written `j <= w` where `j < w` belongs. Each tap of the last column reads
// M_s[i][5] of a 5 x 5 mask and, for the threads of the tile's last column,
// N_s[ty + i][12] of a 12 x 12 tile. The two arrays lie one after the other
// in the block's shared memory, so M_s[0][5] flattens to M_s[1][0], inside;
// `check` names each access by the array it went through, with that array's
// own rows and columns, and counts the two arrays' accesses apart.

#include <cuda_runtime.h>

#define TILE 8
#define MAX_MASK 5

__global__ void conv2d_mask_in_shared(const float* N, const float* M, float* P, int r, int width, int height)
{
    __shared__ float N_s[TILE + MAX_MASK - 1][TILE + MAX_MASK - 1];
    __shared__ float M_s[MAX_MASK][MAX_MASK];
    int tx = threadIdx.x, ty = threadIdx.y;
    int w = 2 * r + 1;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    if (ty < w && tx < w) M_s[ty][tx] = M[ty * w + tx];
    for (int y = ty; y < TILE + 2 * r; y += TILE)
        for (int x = tx; x < TILE + 2 * r; x += TILE) {
            int gy = blockIdx.y * TILE + y - r;
            int gx = blockIdx.x * TILE + x - r;
            N_s[y][x] = (gy >= 0 && gy < height && gx >= 0 && gx < width) ? N[gy * width + gx] : 0.0f;
        }
    __syncthreads();
    if (row < height && col < width) {
        float sum = 0.0f;
        for (int i = 0; i < w; i++)
            for (int j = 0; j <= w; j++)
                sum += M_s[i][j] * N_s[ty + i][tx + j];
        P[row * width + col] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(TILE, TILE);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    conv2d_mask_in_shared<<<grid, block>>>(N, M, P, r, width, height);
}
