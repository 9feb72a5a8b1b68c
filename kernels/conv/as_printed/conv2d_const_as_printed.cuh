// conv2d_const_as_printed: Figure 7.9 (4th edition) as the book prints it,
// its defect kept. The filter is F_c in constant memory
// (conv/constant_memory.cuh). The corrected kernel is conv/conv2d_const.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (N read-only), `float Pvalue` is an Accumulator; inRow and
// inCol are declared int; the listing reads F, which is F_c here (the 4th
// edition's in-text declaration calls the constant array F, Figures 7.12 and
// 7.15 call it F_c).
//
// The defect that stays: no test that the output lies inside the image
// before P[outRow*width + outCol] = Pvalue. Threads of the partial blocks at
// the right edge (outCol >= width) store into the next row, on an element
// another thread stores too; those of the last rows write past the end of P.
TS_KERNEL void conv2d_const_as_printed(Global<const float> N, Global<float> P, int r, int width, int height)
{
    int outCol = blockIdx.x * blockDim.x + threadIdx.x;
    int outRow = blockIdx.y * blockDim.y + threadIdx.y;
    Accumulator Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
        for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
            int inRow = outRow - r + fRow;
            int inCol = outCol - r + fCol;
            if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                Pvalue += F_c[fRow][fCol] * N[inRow * width + inCol];
            }
        }
    }
    P[outRow * width + outCol] = Pvalue;
}
