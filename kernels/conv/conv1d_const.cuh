// conv1d_const: Figure 7.8 (3rd edition), the same kernel with the mask M in
// constant memory (declared in constant_memory.cuh, filled by the host with
// cudaMemcpyToSymbol). Each multiply-add now reads one element of N from
// global memory instead of two, so the arithmetic per global load doubles.
//
// Corrected from the book: the same missing `i < Width` check as Figure 7.6,
// and the listing reuses the name convolution_1D_basic_kernel.
TS_KERNEL void conv1d_const(Global<const float> N, Global<float> P, int Mask_Width, int Width)
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
