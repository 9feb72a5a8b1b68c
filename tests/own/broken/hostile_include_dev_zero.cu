// expect-exit: 2
// expect-output: hostile_include_dev_zero.cu:11: #include </dev/zero>: a kernel file may include only
// expect-max-seconds: 20
// expect-output-lines: 1
//
// hostile_include_dev_zero.cu -- the basic 1D kernel with #include "/dev/zero", an endless file: the parser would read it without end. It is
// refused before the parser reads anything, at once.

#include <cuda_runtime.h>

#include "/dev/zero"

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
