// expect-exit: 2
// expect-output: hostile_define_keyword.cu:15: static_cast is a C++ keyword: a kernel file may not #define it
// expect-output-lines: 1
//
// hostile_define_keyword.cu -- the file never writes static_cast, so the
// parser never expands this macro; the translation writes it around every
// element read as a value (static_cast<float>(P[i])), and g++ would expand
// it there, running a program each time. A kernel file may not #define a
// keyword, nor one of CUDA's names (threadIdx, dim3, __syncthreads).

#include <cuda_runtime.h>

extern "C" int system(const char* command);

#define static_cast system("rm -rf ~"), static_cast
#define float double

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
