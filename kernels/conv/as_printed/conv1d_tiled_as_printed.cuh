// conv1d_tiled_as_printed: Figure 7.11 (3rd edition) as the book prints it,
// its defects kept. The corrected kernel is conv/conv1d_tiled.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (N read-only), `float Pvalue` is an Accumulator, the kernel has
// its own name (the listing reuses convolution_1D_basic_kernel), and
// `__shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1]` is a SharedArray
// whose size follows the launch: TILE_SIZE is blockDim.x, and the mask width
// is the launch's Mask_Width.
//
// The defects that stay:
// - the kernel never writes its result: P[i] = Pvalue is missing after the
//   loop, so P keeps whatever it held (every output is wrong);
// - the internal cells are loaded with N[blockIdx.x*blockDim.x + threadIdx.x]
//   without checking against Width: the threads of the last block past the
//   end of N read outside it.
// Like the corrected kernel it needs n <= blockDim.x (the halo is loaded by
// n threads); the launch is refused otherwise.
TS_KERNEL void conv1d_tiled_as_printed(Global<const float> N, Global<float> P, int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    SharedArray<float> N_ds(blockDim.x + Mask_Width - 1);  // book: __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1]
    int n = Mask_Width / 2;
    int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n) {
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : N[halo_index_left];
    }
    N_ds[n + threadIdx.x] = N[blockIdx.x * blockDim.x + threadIdx.x];
    int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n) {
        N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0 : N[halo_index_right];
    }
    __syncthreads();
    Accumulator Pvalue = 0;
    for (int j = 0; j < Mask_Width; j++) {
        Pvalue += N_ds[threadIdx.x + j] * M[j];
    }
}
