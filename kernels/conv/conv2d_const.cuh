// conv2d_const: Figure 7.9 (4th edition) and §7.3 of the notes, the basic 2D
// kernel with the filter in constant memory (F_c, constant_memory.cuh).
//
// Corrected from the book: inRow and inCol are not declared; threads outside
// the image write past the end of P. The listing's F is the text's own name for
// the constant array; F_c, the name used here, first appears in Figure 7.12.
TS_KERNEL void conv2d_const(Global<const float> N, Global<float> P, int r, int width, int height)
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
                    Pvalue += F_c[fRow][fCol] * N[inRow * width + inCol];
                }
            }
        }
        P[outRow * width + outCol] = Pvalue;
    }
}
