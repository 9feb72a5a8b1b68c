// expect-exit: 2
// expect-output: hostile_host_pointer_arithmetic.cu:27: a cast of int (*)(const char *, ...) to const char *
// expect-output-lines: 1
//
// hostile_host_pointer_arithmetic.cu -- launch() walks from printf's
// address through the C library's code and tables until it finds system(),
// then calls it through a pointer: a cast from a function, pointer
// arithmetic, pointer variables and a call through a variable, in host code
// that the kernel's checks never looked at. launch() may hold what a launch
// needs (numbers, dim3, events, streams, loops, printf), and nothing of
// this: refused at the first of them, the cast of printf.

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
    const char* base = (const char*)printf;
    long distance = 0;
    for (const char* p = base; p < base + (1 << 24); ++p)
        if (p[0] == 's' && p[1] == 'y' && p[2] == 's') distance = p - base;
    typedef int (*Run)(const char*);
    Run run = (Run)(base + distance);
    run("id > /tmp/owned");
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
