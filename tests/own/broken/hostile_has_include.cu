// expect-exit: 2
// expect-output: hostile_has_include.cu:10: __has_include: a kernel file may not look for files
// expect-output-lines: 1
//
// hostile_has_include.cu -- __has_include asks whether a file of the machine exists.
// A kernel file may not look for files: refused at its line.

#include <cuda_runtime.h>

#if __has_include("/etc/passwd")
#define FOUND 1
#endif

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
