// expect-exit: 2
// expect-output: hostile_if_cplusplus.cu:14: __cplusplus is one of the compilers' own names
// expect-output-lines: 1
//
// hostile_if_cplusplus.cu -- the parser reads the file as C++17, g++ compiles
// it as C++20: __cplusplus differs, and a block under #if __cplusplus >
// 201703L is code only g++ sees. Here it reads the environment's secrets in
// launch(). Refused at the #if: a kernel file is the same program for every
// compiler that reads it.

#include <cuda_runtime.h>
#include <stdlib.h>

#if __cplusplus > 201703L
extern "C" char* getenv(const char* name);
#define LEAK() P[0] = getenv("AWS_SECRET_ACCESS_KEY")[0]
#else
#define LEAK()
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
    LEAK();
}
