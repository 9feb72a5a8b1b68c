// expect-exit: 1
// expect-output: out of bounds: block (0,0), thread (3,3), load of tile[422] (392 elements), line 34
// expect-output: accesses out of bounds
//
// shared_3d_plane_past_its_end.cu -- the kernel of
// good/conv2d_shared_3d_student.cu reading plane CHANNELS (2) of a tile
// that has planes 0 and 1: past the end of the 3-D shared array.

#include <cuda_runtime.h>

#define MAX_R 3
#define OUT_TILE 8
#define IN_TILE (OUT_TILE + 2 * MAX_R)
#define CHANNELS 2

__global__ void conv2d_shared_3d(const float* N, const float* M, float* P, int r, int width, int height)
{
    __shared__ float tile[CHANNELS][IN_TILE][IN_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * OUT_TILE + tx - MAX_R;
    int row = blockIdx.y * OUT_TILE + ty - MAX_R;
    float v = 0.0f;
    if (row >= 0 && row < height && col >= 0 && col < width) v = N[row * width + col];
    tile[0][ty][tx] = v;
    tile[1][ty][tx] = 0.5f * v;
    __syncthreads();

    int oy = ty - MAX_R, ox = tx - MAX_R;
    if (oy >= 0 && oy < OUT_TILE && ox >= 0 && ox < OUT_TILE && row < height && col < width) {
        int maskWidth = 2 * r + 1;
        float sum = 0.0f;
        for (int i = 0; i < maskWidth; i++)
            for (int j = 0; j < maskWidth; j++) {
                float both = tile[0][ty - r + i][tx - r + j] + 2.0f * tile[CHANNELS][ty - r + i][tx - r + j];
                sum += M[i * maskWidth + j] * (0.5f * both);
            }
        P[row * width + col] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(IN_TILE, IN_TILE);
    dim3 grid((width + OUT_TILE - 1) / OUT_TILE, (height + OUT_TILE - 1) / OUT_TILE);
    conv2d_shared_3d<<<grid, block>>>(N, M, P, r, width, height);
}
