// exercise_08.cu -- PMPP, 3rd edition, chapter 7, exercise 8
//
//     "Revise the 1D kernel in Figure 7.6 to perform 2D convolution. Add
//      more width parameters to the kernel declaration as needed."
//
// Starts from Figure 7.6 (see warmup_1d.cu): one thread per output element,
// the mask M passed by pointer. Now N and P are images of Height rows and
// Width columns, stored row by row (row-major), and M is a square mask of
// Mask_Width x Mask_Width elements, also row-major, with Mask_Width = 2n+1.
// Each thread computes one output pixel:
//
//     P[row*Width + col] = sum over i, j = 0 .. Mask_Width-1 of
//                          M[i*Mask_Width + j] * N[(row-n+i)*Width + (col-n+j)]
//
// Input pixels outside the image (row-n+i or col-n+j out of range) are ghost
// cells and count as 0 (Figure 7.5). The mask is not flipped: this weighted
// sum is what the book calls convolution (Figure 7.4).
//
// Already written: the launch (blocks of 16 x 16 threads and a 2D grid with
// enough blocks to cover the image, so the last column and the last row of
// blocks may stick out past the image) and the kernel's declaration, with the
// extra parameter Height. The kernel body is yours; the TODOs give the steps.
//
// Done means: TileScope's check says the output is right for several radii
// (0 to 7) and for an image whose width and height are not multiples of 16.
// As long as it is wrong, the check shows which pixels differ from the
// reference.

#include <cuda_runtime.h>

#define BLOCK_WIDTH 16

__global__ void convolution_2D_basic_kernel(const float* N, const float* M, float* P,
                                            int Mask_Width, int Width, int Height)
{
    // TODO 1: the column (x) and the row (y) of this thread's output pixel,
    //         from blockIdx, blockDim and threadIdx, like i in Figure 7.6.
    //
    // TODO 2: threads outside the image (col >= Width or row >= Height) must
    //         not write anything.
    //
    // TODO 3: float Pvalue = 0.0f; then two nested loops over the mask rows i
    //         and the mask columns j. The window starts n = Mask_Width/2 rows
    //         above and n columns left of the output pixel. Skip the ghost
    //         cells, and add M[i*Mask_Width + j] times the N pixel to Pvalue.
    //
    // TODO 4: P[row*Width + col] = Pvalue;
}

// Host side: N, M and P are already on the device. r is the mask radius: the
// mask is (2r+1) x (2r+1).
void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (height + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    convolution_2D_basic_kernel<<<grid, block>>>(N, M, P, 2 * r + 1, width, height);
}
