// conv1d_const_as_printed: Figure 7.8 (3rd edition) as the book prints it,
// its defect kept. The mask M is the constant-memory array of
// conv/constant_memory.cuh. The corrected kernel is conv/conv1d_const.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (N read-only), `float Pvalue` is an Accumulator, and the kernel
// has its own name (the listing reuses convolution_1D_basic_kernel).
//
// The defect that stays: the same as Figure 7.6's, no `i < Width` test
// before P[i] = Pvalue: the threads of the last block with i >= Width write
// past the end of P.
TS_KERNEL void conv1d_const_as_printed(Global<const float> N, Global<float> P, int Mask_Width, int Width)
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
