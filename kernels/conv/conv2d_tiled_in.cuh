// conv2d_tiled_in: Figure 7.12 (4th edition), tiled 2D convolution where the
// block is the size of the INPUT tile. Every thread loads one input element
// (0 for a ghost cell) into N_s; then only the inner OUT_TILE_DIM x
// OUT_TILE_DIM threads compute an output: the r threads along each edge of
// the block are switched off for the output.
//
// Corrected from the book: `shared N_s[...]` lacks __shared__ and its type;
// the loop reads F although the constant array is F_c.
TS_KERNEL void conv2d_tiled_in(Global<const float> N, Global<float> P, int r, int width, int height)
{
    const int IN_TILE_DIM = blockDim.x;
    const int OUT_TILE_DIM = IN_TILE_DIM - 2 * r;
    int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - r;
    int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - r;

    // loading input tile
    SharedArray2D<float> N_s(IN_TILE_DIM, IN_TILE_DIM);  // book: __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM]
    if (row >= 0 && row < height && col >= 0 && col < width) {
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    } else {
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    }
    __syncthreads();  // the input tile is complete before any thread reads its neighbours' elements

    // Calculating output elements
    int tileCol = threadIdx.x - r;
    int tileRow = threadIdx.y - r;
    // turning off the threads at the edges of the block
    if (col >= 0 && col < width && row >= 0 && row < height) {
        if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 && tileRow < OUT_TILE_DIM) {
            Accumulator Pvalue = 0.0f;
            for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
                for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
                    Pvalue += F_c[fRow][fCol] * N_s[tileRow + fRow][tileCol + fCol];
                }
            }
            P[row * width + col] = Pvalue;
        }
    }
}
