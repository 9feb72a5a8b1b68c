// conv1d_tiled_cached_as_printed: Figure 7.14 (3rd edition; its loop is
// Figure 7.13) as the book prints it, its defects kept. The corrected kernel
// is conv/conv1d_tiled_cached.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (N read-only), `float Pvalue` is an Accumulator, the kernel has
// its own name (the listing reuses convolution_1D_basic_kernel), and
// `__shared__ float N_ds[TILE_SIZE]` is a SharedArray of blockDim.x elements
// (TILE_SIZE is the block).
//
// The defects that stay:
// - the kernel never writes its result: Figure 7.13 ends with P[i] = Pvalue,
//   Figure 7.14 leaves it out, so P keeps whatever it held;
// - the tile is loaded with N_ds[threadIdx.x] = N[i] without checking
//   i < Width: the threads of the last block past the end of N read outside it.
TS_KERNEL void conv1d_tiled_cached_as_printed(Global<const float> N, Global<float> P, int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    SharedArray<float> N_ds(blockDim.x);  // book: __shared__ float N_ds[TILE_SIZE]
    N_ds[threadIdx.x] = N[i];
    __syncthreads();
    int This_tile_start_point = blockIdx.x * blockDim.x;
    int Next_tile_start_point = (blockIdx.x + 1) * blockDim.x;
    int N_start_point = i - (Mask_Width / 2);
    Accumulator Pvalue = 0;
    for (int j = 0; j < Mask_Width; j++) {
        int N_index = N_start_point + j;
        if (N_index >= 0 && N_index < Width) {
            if ((N_index >= This_tile_start_point) && (N_index < Next_tile_start_point)) {
                Pvalue += N_ds[threadIdx.x + j - (Mask_Width / 2)] * M[j];
            } else {
                Pvalue += N[N_index] * M[j];
            }
        }
    }
}
