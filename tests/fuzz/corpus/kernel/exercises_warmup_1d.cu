// warmup_1d.cu -- warm-up: 1D convolution, one thread per output element
//
// Starts from Figure 7.6 of PMPP, 3rd edition, chapter 7 ("A 1D convolution
// kernel with boundary condition handling"). The mask M comes to the kernel
// through a pointer, like N and P.
//
// The task. Each thread computes one output element:
//
//     P[i] = N[i-n]*M[0] + N[i-n+1]*M[1] + ... + N[i+n]*M[2n]
//
// with n = Mask_Width/2 (Mask_Width = 2n+1 is always odd). Near the two ends
// of the array some of these N elements do not exist: they are the ghost
// cells of Section 7.1 (Figure 7.3). They count as 0, so the thread simply
// skips them. Write the loop marked TODO, with its ghost-cell test.
//
// Already written: the launch (one thread per output element, BLOCK_SIZE
// threads per block, enough blocks to cover Width), the index i, the
// accumulator and the final write. Figure 7.6 lets every thread write P[i];
// here the body is guarded by i < Width, because when Width is not a multiple
// of BLOCK_SIZE the last block has threads past the end of the array.
//
// Done means: TileScope's check says the output is right for several radii
// (0 to 7) and for a width that is not a multiple of BLOCK_SIZE. As long as
// it is wrong, the check shows which outputs differ from the reference.
//
// Hint: in Figure 7.3, P[1] needs one ghost cell and P[0] two (exercise 1 of
// Section 7.8 asks for the value of P[0]).

#include <cuda_runtime.h>

#define BLOCK_SIZE 64

__global__ void convolution_1D_basic_kernel(const float* N, const float* M, float* P,
                                            int Mask_Width, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Width) {
        float Pvalue = 0.0f;

        // TODO: the window of P[i] starts n = Mask_Width/2 elements left of i
        //       (N_start_point in Figure 7.6). For j = 0 .. Mask_Width-1,
        //       add N[N_start_point + j] * M[j] to Pvalue, but only when
        //       N_start_point + j is inside N (>= 0 and < Width).

        P[i] = Pvalue;
    }
}

// Host side: N, M and P are already on the device. r is the mask radius, so
// the mask has 2r+1 elements.
void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    convolution_1D_basic_kernel<<<grid, block>>>(N, M, P, 2 * r + 1, width);
}
