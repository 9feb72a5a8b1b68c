// expect-exit: 0
// expect-args: check --size 45x37 --radius 1
// also-args: check --size 70x20 --radius 1
// expect-output: no problems
// expect-no-output: wrong result
//
// chinmaydk99_conv2d_cached.cu -- a real kernel, written after the
// original (not a copy): its names, constructs and structure are the
// original's; no text of it is reproduced.
// From: github.com/chinmaydk99/100-Days-Of-CUDA, Day-7/Cached2DConv.cu,
//       commit ec9b758878ed326936cfe8c6866cbbf2c9dc447e.
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: right. PMPP's tiled kernel with the halo read through the
// caches: blocks of TILE_DIM x TILE_DIM = output tiles, the block's own
// tile in N_s (zero past the image), each tap read from N_s when s_row and
// s_col fall inside the tile, else from N behind the ghost test. s_row and
// s_col are computed as threadIdx.y + fRow - FILTER_RADIUS, an unsigned
// expression assigned to int, which gives the negative offsets the test
// needs.
//
// Kept from the original: TILE_DIM, FILTER_RADIUS, F in constant memory
// and the kernel. The launch is main()'s: cudaMemcpyToSymbol(F, h_F,
// filterSize), dim3 blockDim(TILE_DIM, TILE_DIM) and dim3 gridDim(...)
// (locals that hide CUDA's blockDim and gridDim in the host function), a
// grid of ceil(WIDTH / TILE_DIM) x ceil(HEIGHT / TILE_DIM), then
// cudaDeviceSynchronize; WIDTH and HEIGHT (32 x 32 in the original) are
// launch()'s width and height; const_cast because launch() receives const
// N. The radius is the #define's, 1. Dropped: WIDTH, HEIGHT,
// convolution_cpu(), the comparison, main(), <iostream>.

#include <cuda_runtime.h>

#define TILE_DIM 32
#define FILTER_RADIUS 1

// The filter, in constant memory
__constant__ float F[(2*FILTER_RADIUS+1)*(2*FILTER_RADIUS+1)];


__global__ void conv2DCached(float *N, float *P, int width, int height) {
    // This thread's output
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    // The block's own tile, without halo
    __shared__ float N_s[TILE_DIM][TILE_DIM];

    if (row < height && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    }

    __syncthreads();

    // Outputs inside the image only
    if (col < width && row < height) {
        float Pvalue = 0.0f;

        for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
            for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
                // The tap's place in the tile
                int s_row = threadIdx.y + fRow - FILTER_RADIUS;
                int s_col = threadIdx.x + fCol - FILTER_RADIUS;

                if (s_row >= 0 && s_row < TILE_DIM && s_col >= 0 && s_col < TILE_DIM) {
                    Pvalue += F[fRow*(2*FILTER_RADIUS+1) + fCol] * N_s[s_row][s_col];
                } else {
                    // Outside the tile: from N, zero past the image
                    int g_row = row + fRow - FILTER_RADIUS;
                    int g_col = col + fCol - FILTER_RADIUS;
                    if (g_row >= 0 && g_row < height && g_col >= 0 && g_col < width) {
                        Pvalue += F[fRow*(2*FILTER_RADIUS+1) + fCol] * N[g_row * width + g_col];
                    }
                }
            }
        }
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int filterSize = (2*FILTER_RADIUS+1)*(2*FILTER_RADIUS+1)*sizeof(float);

    cudaMemcpyToSymbol(F, M, filterSize);

    dim3 blockDim(TILE_DIM, TILE_DIM);
    dim3 gridDim((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);

    conv2DCached<<<gridDim, blockDim>>>(const_cast<float*>(N), P, width, height);
    cudaDeviceSynchronize();
}
