// conv2d_tiled_pitched_as_printed: Figures 7.19, 7.20 and 7.21 (3rd edition)
// as the book prints them, one kernel in three parts, its defects kept. One
// channel, as the listing (the text says so). The corrected kernel is
// conv/conv2d_tiled_pitched.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...>, `float output` is an Accumulator; `const float __restrict__ *M`
// is `const float * __restrict__ M` (Restrict<float>); `_TILE_WIDTH` is
// O_TILE_WIDTH; the loop counters i and j, used without a declaration, are
// declared int; M[i][j] indexes a pointer as a 2D array and is
// M[i*Mask_Width + j]; MASK_WIDTH is the Mask_Width the kernel is given; the
// tile Ns, which the figures use without declaring it, is a SharedArray2D of
// BLOCK_WIDTH x BLOCK_WIDTH; and `data`, a name the kernel does not have, is
// N, its only input. BLOCK_WIDTH and O_TILE_WIDTH (#defines in the book's
// program) come from the launch, as in the corrected kernel: the block is
// BLOCK_WIDTH = O_TILE_WIDTH + Mask_Width - 1 threads on a side.
//
// The defects that stay:
// - row_i = row_o - Mask_Width/2 + 1 (and col_i) shift the input tile by one:
//   every output is computed around the pixel one below and one to the right;
// - there is no __syncthreads() between filling Ns and reading it: a thread
//   may read tile elements that other threads have not written yet;
// - the result goes into the input: data[row_o*width + col_o] = output is a
//   store to N, while other blocks (and threads of the same block) still read
//   N; and it uses width where the rows are pitch floats apart. P is never
//   written. N is the launch's own copy of the input (on the CPU and on the
//   GPU alike), so the caller's image is untouched.
TS_KERNEL void conv2d_tiled_pitched_as_printed(Global<float> P, Global<float> N, int height, int width, int pitch,
                                               int channels, int Mask_Width, Restrict<float> M)
{
    const int BLOCK_WIDTH = blockDim.x;                       // book: #define BLOCK_WIDTH
    const int O_TILE_WIDTH = BLOCK_WIDTH - (Mask_Width - 1);  // book: #define O_TILE_WIDTH
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row_o = blockIdx.y * O_TILE_WIDTH + ty;
    int col_o = blockIdx.x * O_TILE_WIDTH + tx;

    int row_i = row_o - Mask_Width / 2 + 1;
    int col_i = col_o - Mask_Width / 2 + 1;

    SharedArray2D<float> Ns(BLOCK_WIDTH, BLOCK_WIDTH);  // not printed: __shared__ float Ns[BLOCK_WIDTH][BLOCK_WIDTH]
    if ((row_i >= 0) && (row_i < height) &&
        (col_i >= 0) && (col_i < width)) {
        Ns[ty][tx] = N[row_i * pitch + col_i];
    } else {
        Ns[ty][tx] = 0.0f;
    }

    Accumulator output = 0.0f;
    if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {
        for (int i = 0; i < Mask_Width; i++) {
            for (int j = 0; j < Mask_Width; j++) {
                output += M[i * Mask_Width + j] * Ns[i + ty][j + tx];
            }
        }

        if (row_o < height && col_o < width)
            N[row_o * width + col_o] = output;
    }
}
