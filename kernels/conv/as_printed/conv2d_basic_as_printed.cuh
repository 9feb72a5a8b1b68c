// conv2d_basic_as_printed: Figure 7.7 (4th edition) as the book prints it,
// its defect kept. The corrected kernel is conv/conv2d_basic.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (N and F read-only), `float Pvalue` is an Accumulator; inRow
// and inCol, used without a declaration, are declared int; F[fRow][fCol] and
// P[outRow][outCol] index pointers as 2D arrays and are written with their
// row strides, F[fRow*(2*r+1) + fCol] and P[outRow*width + outCol] (as
// Figure 7.9 writes P).
//
// The defect that stays: every thread writes P, with no test that its output
// lies inside the image. When the image is not a whole number of blocks, the
// threads of the partial blocks at the right and bottom write anyway:
// P[outRow*width + outCol] with outCol >= width lands in the next row, on an
// element its own thread also writes (two threads store one element, and the
// last store wins), and the threads of the last rows write past the end of P.
TS_KERNEL void conv2d_basic_as_printed(Global<const float> N, Global<const float> F, Global<float> P,
                                       int r, int width, int height)
{
    int outCol = blockIdx.x * blockDim.x + threadIdx.x;
    int outRow = blockIdx.y * blockDim.y + threadIdx.y;
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
