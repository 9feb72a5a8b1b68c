// conv2d_basic: Figure 7.7 (4th edition) and §7.2 of the notes, 2D
// convolution with boundary checks. One thread per output element; the
// (2r+1) x (2r+1) filter F is read from global memory; ghost cells are
// skipped.
//
// Corrected from the book: inRow and inCol are used without being declared;
// F and P are pointers but are indexed as 2D arrays (F[fRow][fCol],
// P[outRow][outCol]); threads outside the image (partial blocks at the right
// and bottom edges) write past the end of P.
TS_KERNEL void conv2d_basic(Global<const float> N, Global<const float> F, Global<float> P,
                            int r, int width, int height)
{
    int outCol = blockIdx.x * blockDim.x + threadIdx.x;
    int outRow = blockIdx.y * blockDim.y + threadIdx.y;
    if (outRow < height && outCol < width) {
        Accumulator Pvalue = 0.0f;
        for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
            for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
                int inRow = outRow - r + fRow;
                int inCol = outCol - r + fCol;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                    Pvalue += F[fRow * (2 * r + 1) + fCol] * N[inRow * width + inCol];
                }
            }
        }
        P[outRow * width + outCol] = Pvalue;
    }
}
