// expect-exit: 1
// expect-args: check --size 1000 --radius 7
// expect-output: out of bounds: block (0), thread (14), store to inside[78] (78 elements), line 30
// expect-output: accesses out of bounds
// expect-output: out of bounds on inside, line 31: 16
// expect-output: out of bounds on tile, line 31: 16
// expect-no-output: inside, tile
//
// shared_int_flags_past_end.cu -- the kernel of
// good/conv1d_shared_int_flags_student.cu with its shared arrays sized for a
// radius of 7 and a loading loop that runs one element too far (`<=` where
// `<` belongs): at radius 7 the threads that load the last slot store to
// tile[78] and inside[78], one past the end of arrays of 78. The two arrays
// lie side by side in the block's shared memory; each is named by itself
// (inside[78], not an element of the tile after it), and line 31's accesses
// past each array are counted apart, each on its own array.

#include <cuda_runtime.h>

#define TILE 64
#define MAX_R 7

__global__ void conv1d_flags(const float* N, const float* M, float* P, int r, int width)
{
    __shared__ int inside[TILE + 2 * MAX_R];
    __shared__ float tile[TILE + 2 * MAX_R];
    int i = blockIdx.x * TILE + threadIdx.x;
    for (int s = threadIdx.x; s <= TILE + 2 * r; s += TILE) {
        int k = blockIdx.x * TILE + s - r;
        inside[s] = (k >= 0 && k < width) ? 1 : 0;
        tile[s] = inside[s] ? N[k] : 0.0f;
    }
    __syncthreads();
    if (i < width) {
        float sum = 0.0f;
        for (int j = 0; j < 2 * r + 1; j++)
            sum += M[j] * tile[threadIdx.x + j] * inside[threadIdx.x + j];
        P[i] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_flags<<<(width + TILE - 1) / TILE, TILE>>>(N, M, P, r, width);
}
