// conv1d_basic_as_printed: Figure 7.6 (3rd edition) as the book prints it,
// its defect kept, so that `tilescope check` can show what it does. The
// corrected kernel is conv/conv1d_basic.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (N and M read-only), and `float Pvalue` is an Accumulator.
//
// The defect that stays: P[i] = Pvalue is written by every thread, with no
// `i < Width` test. The grid has a whole number of blocks, so when Width is
// not a multiple of blockDim.x the threads of the last block with i >= Width
// write past the end of P (their loads are all skipped as ghost cells).
TS_KERNEL void conv1d_basic_as_printed(Global<const float> N, Global<const float> M, Global<float> P,
                                       int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Accumulator Pvalue = 0;
    int N_start_point = i - (Mask_Width / 2);
    for (int j = 0; j < Mask_Width; j++) {
        if (N_start_point + j >= 0 && N_start_point + j < Width) {
            Pvalue += N[N_start_point + j] * M[j];
        }
    }
    P[i] = Pvalue;
}
