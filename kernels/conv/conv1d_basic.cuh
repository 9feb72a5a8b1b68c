// conv1d_basic: Figure 7.6 (3rd edition), 1D convolution with boundary
// condition handling. One thread computes one output element P[i]; the mask
// M is read from global memory. Ghost cells (N elements before 0 or at Width
// and beyond) are skipped, which is the same as multiplying them by 0.
//
// Corrected from the book: the listing writes P[i] for every thread, but the
// last block is rarely full, so threads with i >= Width would write past the
// end of P. Here they do nothing.
TS_KERNEL void conv1d_basic(Global<const float> N, Global<const float> M, Global<float> P,
                            int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Width) {
        Accumulator Pvalue = 0;
        int N_start_point = i - (Mask_Width / 2);
        for (int j = 0; j < Mask_Width; j++) {
            if (N_start_point + j >= 0 && N_start_point + j < Width) {
                Pvalue += N[N_start_point + j] * M[j];
            }
        }
        P[i] = Pvalue;
    }
}
