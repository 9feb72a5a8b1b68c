// conv2d_tiled_cached: Figure 7.15 (4th edition), tiled 2D convolution that
// leaves the halo to the caches. The block is the size of the tile; each
// thread loads its own element into N_s; taps that fall inside the tile read
// N_s, taps that fall in the halo read N from global memory (which the
// neighbouring blocks have likely brought into L2), ghost cells are skipped.
//
// Corrected from the book: the listing reads N_s[threadIdx.y+fRow][threadIdx.x+fCol],
// forgetting to subtract FILTER_RADIUS; its test `threadIdx.x-FILTER_RADIUS+fCol >= 0`
// is computed in unsigned arithmetic (threadIdx.x is unsigned) and is always
// true; the else branch that reads halo cells from global memory is missing,
// so halo taps are silently dropped; `__shared__ N_s` lacks its type,
// `syncthreads()` and `global` lack their underscores, and there is one
// closing brace too many.
TS_KERNEL void conv2d_tiled_cached(Global<const float> N, Global<float> P, int r, int width, int height)
{
    const int TILE_DIM = blockDim.x;
    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;

    // loading input tile
    SharedArray2D<float> N_s(TILE_DIM, TILE_DIM);  // book: __shared__ float N_s[TILE_DIM][TILE_DIM]
    if (row < height && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    }
    __syncthreads();  // the tile is complete before threads read their neighbours' elements

    // Calculating output elements; threads outside the image are turned off
    if (col < width && row < height) {
        Accumulator Pvalue = 0.0f;
        for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
            for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
                int tileRow = threadIdx.y - r + fRow;  // signed: may be negative
                int tileCol = threadIdx.x - r + fCol;
                if (tileRow >= 0 && tileRow < TILE_DIM && tileCol >= 0 && tileCol < TILE_DIM) {
                    Pvalue += F_c[fRow][fCol] * N_s[tileRow][tileCol];
                } else {
                    int inRow = row - r + fRow;
                    int inCol = col - r + fCol;
                    if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                        Pvalue += F_c[fRow][fCol] * N[inRow * width + inCol];  // halo cell, from the caches
                    }
                }
            }
        }
        P[row * width + col] = Pvalue;
    }
}
