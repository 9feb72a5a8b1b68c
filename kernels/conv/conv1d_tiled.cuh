// conv1d_tiled: Figure 7.11 (3rd edition), tiled 1D convolution with halo
// cells. The block loads its input tile into shared memory: n left halo
// cells, blockDim.x internal cells and n right halo cells (n = Mask_Width/2).
// Ghost cells are stored as 0, so the multiply-add loop needs no test.
//
// Corrected from the book: the listing never writes its result (the text's
// P[i] = Pvalue is missing after the loop; here P[i] is written if i < Width);
// the internal cells are loaded unchecked, past the end of N in the last block.
// Requires n <= blockDim.x: the halo is loaded by n threads of the block.
TS_KERNEL void conv1d_tiled(Global<const float> N, Global<float> P, int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    SharedArray<float> N_ds(blockDim.x + Mask_Width - 1);  // book: N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1]
    int n = Mask_Width / 2;

    // Left halo: the last n threads load the last n elements of the previous tile.
    int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n) {
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : N[halo_index_left];
    }

    // Internal cells: one per thread.
    N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0;

    // Right halo: the first n threads load the first n elements of the next tile.
    int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n) {
        N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0 : N[halo_index_right];
    }

    __syncthreads();  // every cell of N_ds, halos included, is loaded before any thread reads its neighbours'

    if (i < Width) {
        Accumulator Pvalue = 0;
        for (int j = 0; j < Mask_Width; j++) {
            Pvalue += N_ds[threadIdx.x + j] * M[j];
        }
        P[i] = Pvalue;
    }
}
