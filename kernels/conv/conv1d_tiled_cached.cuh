// conv1d_tiled_cached: Figures 7.13 and 7.14 (3rd edition), a simpler tiled
// 1D convolution. Only the tile's own elements go to shared memory; halo
// cells are read from N in global memory, where they are likely to be in the
// L2 cache because the neighbouring block has just loaded them as its own.
//
// Corrected from the book: Figure 7.14 never writes its result (P[i] = Pvalue
// is missing), the tile is loaded with N[i] even when i >= Width, and every
// thread writes P[i] even past the end of the array.
TS_KERNEL void conv1d_tiled_cached(Global<const float> N, Global<float> P, int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    SharedArray<float> N_ds(blockDim.x);  // book: N_ds[TILE_SIZE]
    N_ds[threadIdx.x] = (i < Width) ? N[i] : 0;

    __syncthreads();  // the whole tile is in N_ds before threads read their neighbours' elements

    int This_tile_start_point = blockIdx.x * blockDim.x;
    int Next_tile_start_point = (blockIdx.x + 1) * blockDim.x;
    int N_start_point = i - (Mask_Width / 2);
    if (i < Width) {
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
        P[i] = Pvalue;
    }
}
