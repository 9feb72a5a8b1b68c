// conv1d_basic_student.cu -- 1D convolution, one thread per output element,
// the mask read through a pointer (Figure 7.6, with the i < width guard the
// figure forgets). Ghost cells outside N count as 0 and are skipped.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {                        // the last block may stick out past the end
        float Pvalue = 0.0f;
        int start = i - r;                  // leftmost input element of the window
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = start + j;
            if (k >= 0 && k < width) {      // skip ghost cells
                Pvalue += M[j] * N[k];
            }
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
