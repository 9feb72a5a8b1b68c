// conv2d_tiled_cached_as_printed: Figure 7.15 (4th edition) as the book
// prints it, its defects kept. The corrected kernel is
// conv/conv2d_tiled_cached.cuh.
//
// Mended only so that it compiles here: `global void convolution cached tiled
// 2D const mem kernel` gets its underscores and one name; `syncthreads()`
// gets its underscores; `__shared__ N_s[TILE_DIM][TILE_DIM]`, which lacks its
// type, is a SharedArray2D; the pointers are the project's Global<...> (N
// read-only) and `float Pvalue` is an Accumulator; the loop reads F, which is
// F_c; the one closing brace too many is gone. TILE_DIM (#define TILE_DIM 32)
// and FILTER_RADIUS (a #define too) come from the launch, as in the corrected
// kernel: TILE_DIM is blockDim.x, and FILTER_RADIUS is the radius r the
// kernel is given.
//
// The defects that stay:
// - N_s[threadIdx.y+fRow][threadIdx.x+fCol] forgets to subtract FILTER_RADIUS:
//   every tap reads the tile element r rows and r columns past the one it
//   means, and near the right and bottom of the tile past the tile itself;
// - the test `threadIdx.x-FILTER_RADIUS+fCol >= 0` is computed in unsigned
//   arithmetic (threadIdx.x is unsigned) and is always true; the test after
//   it, `< TILE_DIM`, then rejects the wrapped-around values, so between them
//   they still pick the taps inside the tile;
// - there is no else branch: the taps in the halo, which the caches were to
//   serve from N, are dropped.
TS_KERNEL void conv2d_tiled_cached_as_printed(Global<const float> N, Global<float> P, int r, int width, int height)
{
    const int TILE_DIM = blockDim.x;  // book: #define TILE_DIM 32
    const int FILTER_RADIUS = r;      // book: #define FILTER_RADIUS
    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;
    //loading input tile
    SharedArray2D<float> N_s(TILE_DIM, TILE_DIM);  // book: __shared__ N_s[TILE_DIM][TILE_DIM]
    if (row < height && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0.0;
    }
    __syncthreads();
    // Calculating output elements
    // turning off the threads at the edges of the block
    if (col < width && row < height) {
        Accumulator Pvalue = 0.0f;
        for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
            for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
                if (threadIdx.x - FILTER_RADIUS + fCol >= 0 &&
                    threadIdx.x - FILTER_RADIUS + fCol < TILE_DIM &&
                    threadIdx.y - FILTER_RADIUS + fRow >= 0 &&
                    threadIdx.y - FILTER_RADIUS + fRow < TILE_DIM) {
                    Pvalue += F_c[fRow][fCol] * N_s[threadIdx.y + fRow][threadIdx.x + fCol];
                }
            }
        }
        P[row * width + col] = Pvalue;
    }
}
