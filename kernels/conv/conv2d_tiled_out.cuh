// conv2d_tiled_out: §7.4 of the notes, first strategy, and the slides'
// "how do 16 threads copy 36 pixels?": the block is the size of the OUTPUT
// tile, so every thread computes one output, but the input tile is larger by
// r on every side. Threads copy it in passes: in the first pass each thread
// copies the element at its own position; the threads whose position plus
// blockDim still falls inside the input tile copy the right strip, the bottom
// strip and the corner in further passes. The tile size depends on r, so it
// lives in dynamic shared memory (the slides' `extern __shared__` array with
// the size given at launch).
//
// Corrected from the slides: their loads assume a 3x3 filter (halo 1, "+ 2"
// in the row stride) and read outside the image at its edges; here the halo
// is r and ghost cells are stored as 0.
TS_KERNEL void conv2d_tiled_out(Global<const float> N, Global<float> P, int r, int width, int height)
{
    const int OUT_TILE_DIM = blockDim.x;  // and the tile's height: the block is square (the launcher's edge x edge)
    const int IN_TILE_DIM = OUT_TILE_DIM + 2 * r;
    int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x;
    int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y;

    SharedArray2D<float> N_s(IN_TILE_DIM, IN_TILE_DIM);
    for (int sRow = threadIdx.y; sRow < IN_TILE_DIM; sRow += blockDim.y) {
        for (int sCol = threadIdx.x; sCol < IN_TILE_DIM; sCol += blockDim.x) {
            int inRow = blockIdx.y * OUT_TILE_DIM + sRow - r;
            int inCol = blockIdx.x * OUT_TILE_DIM + sCol - r;
            if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                N_s[sRow][sCol] = N[inRow * width + inCol];
            } else {
                N_s[sRow][sCol] = 0.0f;
            }
        }
    }
    __syncthreads();  // all passes of all threads are done: centre, halo strips and corner are in N_s

    if (row < height && col < width) {
        Accumulator Pvalue = 0.0f;
        for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
            for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
                Pvalue += F_c[fRow][fCol] * N_s[threadIdx.y + fRow][threadIdx.x + fCol];
            }
        }
        P[row * width + col] = Pvalue;
    }
}
