// exercise_09.cu -- PMPP, 3rd edition, chapter 7, exercise 9
//
//     "Revise the tiled 1D kernel in Figure 7.8 to perform 2D convolution.
//      Keep in mind that the host code also needs to be changed to declare a
//      2D M array in the constant memory. Pay special attention to the
//      increased usage of shared memory. Also, the N_ds needs to be declared
//      as a 2D shared memory array."
//
// About the wording: Figure 7.8 is not a tiled kernel. It is the basic 1D
// kernel of Figure 7.6 with the mask moved to constant memory (Section 7.3),
// and it has no N_ds. The sentences about shared memory and N_ds repeat
// exercise 10, which starts from the tiled kernel of Figure 7.11 (see
// exercise_10.cu). So this exercise does what Figure 7.8 does, in 2D: your
// kernel of exercise 8, with the mask read from a 2D array in constant memory
// instead of through a pointer parameter. TileScope's errata list notes this
// slip in the book too.
//
// The result is the same as in exercise 8: P[row*Width + col] is the sum of
// mask element (i, j) times N[(row-n+i)*Width + (col-n+j)], with n =
// Mask_Width/2 and the ghost cells outside the image counting as 0.
//
// Already written: the 2D constant array Mc, sized for the largest mask
// TileScope uses (r = 7, 15 x 15), and the launch. The launch copies the mask
// into Mc with cudaMemcpyToSymbol and no longer passes M to the kernel: like
// in Figure 7.8, the kernel reads Mc as a global variable.
//
// About the mask in constant memory: cudaMemcpyToSymbol copies the
// Mask_Width*Mask_Width floats of the mask to the start of Mc, one after the
// other, row after row, with no gaps. A row of Mc holds MAX_MASK_WIDTH (15)
// floats, so mask row i starts at Mc[i][0] only when Mask_Width is 15. Mask
// element (i, j) is float number k = i*Mask_Width + j from the start of Mc,
// and that is Mc[k / MAX_MASK_WIDTH][k % MAX_MASK_WIDTH]. (Mc[i][j] is right
// for r = 7 only: try it with r = 1 and see what the check shows.)
//
// Done means: TileScope's check says the output is right for several radii
// (0 to 7) and for an image whose width and height are not multiples of 16.
// As long as it is wrong, the check shows which pixels differ from the
// reference.

#include <cuda_runtime.h>

#define BLOCK_WIDTH 16
#define MAX_MASK_WIDTH 15

__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void convolution_2D_const_kernel(const float* N, float* P,
                                            int Mask_Width, int Width, int Height)
{
    // TODO 1: start from your kernel body of exercise 8: output column and
    //         row, the test that switches off threads outside the image, the
    //         two mask loops with the ghost-cell test, the final write.
    //
    // TODO 2: read the mask element (i, j) from Mc instead of M. Read "About
    //         the mask in constant memory" above before you write Mc[i][j].
}

// Host side: N, M and P are already on the device. r is the mask radius: the
// mask is (2r+1) x (2r+1).
void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int maskWidth = 2 * r + 1;
    cudaMemcpyToSymbol(Mc, M, maskWidth * maskWidth * sizeof(float));

    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (height + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    convolution_2D_const_kernel<<<grid, block>>>(N, P, maskWidth, width, height);
}
