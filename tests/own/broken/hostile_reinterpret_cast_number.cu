// expect-exit: 2
// expect-output: hostile_reinterpret_cast_number.cu:15: reinterpret_cast<float *>: a kernel file may not reinterpret memory
// expect-output-lines: 1
//
// hostile_reinterpret_cast_number.cu -- the basic 1D kernel writes through
// reinterpret_cast<float*>(12345). Refused at its line: a kernel file may not
// reinterpret memory.

#include <cuda_runtime.h>

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    reinterpret_cast<float*>(12345)[i] = 1.0f;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
