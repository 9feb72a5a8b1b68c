// expect-exit: 2
// expect-output: hostile_include_computed.cu:12: #include SECRET: a kernel file may include only
// expect-no-output: root
// expect-output-lines: 1
//
// hostile_include_computed.cu -- an #include of a macro (a computed include) that names a
// file of the machine. Refused at the #include, whatever the macro holds.

#include <cuda_runtime.h>

#define SECRET "/etc/passwd"
#include SECRET

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
