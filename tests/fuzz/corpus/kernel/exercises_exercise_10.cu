// exercise_10.cu -- PMPP, 3rd edition, chapter 7, exercise 10
//
//     "Revise the tiled 1D kernel in Figure 7.11 to perform 2D convolution.
//      Keep in mind that the host code also needs to be changed to declare a
//      2D M array in the constant memory. Pay special attention to the
//      increased usage of shared memory. Also, the N_ds needs to be declared
//      as a 2D shared memory array."
//
// Starts from Figure 7.11: each block computes one output tile, one output
// per thread. First the block loads its input tile into shared memory N_ds:
// the tile's own (internal) cells plus n halo cells on each side, with
// n = Mask_Width/2 and ghost cells stored as 0, so that the multiply-add loop
// needs no test. After a barrier each thread computes its output from N_ds.
//
// In 2D the block is the output tile, TILE_WIDTH x TILE_WIDTH threads, and
// the input tile is (TILE_WIDTH + 2n) x (TILE_WIDTH + 2n): n halo rows above
// and below, n halo columns left and right, and the four corners. Your kernel:
//   1. declares N_ds as a 2D __shared__ array big enough for the largest
//      mask, [TILE_WIDTH + MAX_MASK_WIDTH - 1][TILE_WIDTH + MAX_MASK_WIDTH - 1].
//      That is the "increased usage of shared memory": 30 x 30 floats
//      (3600 bytes) for 16 x 16 outputs, where the 1D tile needed 16 + 14.
//   2. loads the whole input tile, 0 for the ghost cells. The tile has more
//      elements than the block has threads, so some threads load several:
//      either generalise Figure 7.11 (edge threads load the halo cells; do
//      not forget the corners) or let each thread walk through the tile in
//      steps of TILE_WIDTH rows and columns.
//   3. waits with __syncthreads() until the whole tile is loaded.
//   4. computes its output from N_ds and Mc, and writes it if the pixel is
//      inside the image.
// Mind what Figure 7.11 forgets: the listing never writes P[i], and it loads
// its internal cell without checking that the cell is inside N.
//
// The result is the same as in exercises 8 and 9: P[row*Width + col] is the
// sum of mask element (i, j) times N[(row-n+i)*Width + (col-n+j)], ghost
// cells counting as 0.
//
// About the mask in constant memory (as in exercise 9): the launch copies the
// Mask_Width*Mask_Width floats of the mask to the start of Mc, row after row,
// with no gaps, so mask element (i, j) is float number k = i*Mask_Width + j of
// Mc: Mc[k / MAX_MASK_WIDTH][k % MAX_MASK_WIDTH]. Mc[i][j] is right for r = 7
// only.
//
// Done means: TileScope's check says the output is right for several radii
// (0 to 7) and for an image whose width and height are not multiples of
// TILE_WIDTH. As long as it is wrong, the check shows which pixels differ
// from the reference; a missing __syncthreads() shows up as a race between
// threads of a block.

#include <cuda_runtime.h>

#define TILE_WIDTH 16
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void convolution_2D_tiled_kernel(const float* N, float* P,
                                            int Mask_Width, int Width, int Height)
{
    // TODO 1: declare the 2D shared array N_ds (see step 1 above).
    //
    // TODO 2: the output pixel of this thread: row = blockIdx.y*TILE_WIDTH +
    //         threadIdx.y, col likewise with x. The input tile starts n rows
    //         above and n columns left of the output tile.
    //
    // TODO 3: load the input tile into N_ds (0 for ghost cells). Every thread
    //         takes part, also threads whose output pixel is outside the image.
    //
    // TODO 4: __syncthreads();
    //
    // TODO 5: if the output pixel is inside the image: float Pvalue = 0.0f;
    //         loop over the mask, Pvalue += mask element (i, j) *
    //         N_ds[threadIdx.y + i][threadIdx.x + j]; then write P.
}

// Host side: N, M and P are already on the device. r is the mask radius: the
// mask is (2r+1) x (2r+1).
void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int maskWidth = 2 * r + 1;
    cudaMemcpyToSymbol(Mc, M, maskWidth * maskWidth * sizeof(float));

    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
    convolution_2D_tiled_kernel<<<grid, block>>>(N, P, maskWidth, width, height);
}
