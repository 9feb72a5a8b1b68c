// conv2d_tiled_pitched: Figures 7.17-7.21 (3rd edition) and the Teaching Kit
// slides "2D convolution: tile boundaries". The image is stored row by row
// with a pitch (row stride, in floats) that may exceed width * channels, so
// that each row starts on a DRAM burst boundary; pixels are interleaved
// channel by channel. The block is BLOCK_WIDTH = O_TILE_WIDTH + Mask_Width - 1
// wide: every thread loads one input element and the first O_TILE_WIDTH
// threads in each direction compute an output. The mask comes through a
// `const float * __restrict__` pointer, which lets the compiler read it
// through the read-only (constant) cache.
//
// Corrected from the book: row_i = row_o - Mask_Width/2 + 1 shifts the tile
// by one (the input tile starts Mask_Width/2 before the output tile, Figure
// 7.18); there is no __syncthreads() between loading Ns and reading it; the
// result is written into the input `data`, with width instead of the pitch;
// M is indexed as M[i][j] though it is a pointer; `const float __restrict__ *M`
// puts the qualifier on the wrong side; `_TILE_WIDTH` and the slides'
// `0_TILE_WIDTH` (a zero) are typos for O_TILE_WIDTH; only one channel is
// handled (the text suggests a loop over channels, which is done here).
TS_KERNEL void conv2d_tiled_pitched(Global<float> P, Global<const float> N, int height, int width, int pitch,
                                    int channels, int Mask_Width, Restrict<float> M)
{
    const int BLOCK_WIDTH = blockDim.x;
    const int O_TILE_WIDTH = BLOCK_WIDTH - (Mask_Width - 1);
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row_o = blockIdx.y * O_TILE_WIDTH + ty;
    int col_o = blockIdx.x * O_TILE_WIDTH + tx;
    int row_i = row_o - Mask_Width / 2;
    int col_i = col_o - Mask_Width / 2;

    SharedArray2D<float> Ns(BLOCK_WIDTH, BLOCK_WIDTH);  // book: __shared__ float Ns[BLOCK_WIDTH][BLOCK_WIDTH]
    for (int c = 0; c < channels; c++) {
        if ((row_i >= 0) && (row_i < height) && (col_i >= 0) && (col_i < width)) {
            Ns[ty][tx] = N[row_i * pitch + col_i * channels + c];
        } else {
            Ns[ty][tx] = 0.0f;
        }
        __syncthreads();  // this channel's tile is complete before any thread reads it

        if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {
            Accumulator output = 0.0f;
            for (int i = 0; i < Mask_Width; i++) {
                for (int j = 0; j < Mask_Width; j++) {
                    output += M[i * Mask_Width + j] * Ns[i + ty][j + tx];
                }
            }
            if (row_o < height && col_o < width) {
                P[row_o * pitch + col_o * channels + c] = output;
            }
        }
        __syncthreads();  // every thread has finished reading Ns before the next channel overwrites it
    }
}
