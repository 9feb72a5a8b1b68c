// expect-exit: 2
// expect-output: hostile_cast_from_function.cu:24: a cast of int (*)(const char *, ...) to long
// expect-output-lines: 1
//
// hostile_cast_from_function.cu -- launch() reads printf's address as a
// number, where the C library lies in memory, the first step to any of its
// functions. A kernel file calls functions by their name and holds no
// pointer to one: refused at the cast.

#include <cuda_runtime.h>

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
    long where = (long)printf;
    printf("the C library is at %lx\n", where);
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
