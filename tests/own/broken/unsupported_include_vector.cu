// expect-exit: 2
// expect-output: unsupported_include_vector.cu:10:
// expect-output: #include <vector>: a kernel file may include only CUDA's and C's own headers
// expect-output-lines: 1
//
// unsupported_include_vector.cu -- the launch builds the grid size with a
// std::vector it never really needs.

#include <cuda_runtime.h>
#include <vector>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
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
    std::vector<int> sizes = {BLOCK_SIZE, (width + BLOCK_SIZE - 1) / BLOCK_SIZE};
    conv1d_basic<<<sizes[1], sizes[0]>>>(N, M, P, r, width);
}
