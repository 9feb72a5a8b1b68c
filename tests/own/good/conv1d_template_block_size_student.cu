// conv1d_template_block_size_student.cu -- the basic 1D kernel with its block
// size as a template parameter, as in CUDA's samples, given at the launch
// (conv1d_basic<128>).

#include <cuda_runtime.h>

template <int BLOCK_SIZE>
__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (i < width) {
        float Pvalue = 0.0f;
        int start = i - r;
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = start + j;
            if (k >= 0 && k < width) {
                Pvalue += M[j] * N[k];
            }
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(128);
    dim3 grid((width + 127) / 128);
    conv1d_basic<128><<<grid, block>>>(N, M, P, r, width);
}
