// expect-exit: 0
// expect-args: check --size 1000 --radius 1
// expect-output: no problems
// expect-no-output: crashed
//
// hostile_libc_macro_alloca.cu -- the file's own __device__ function is
// named alloca, its name in brackets so that no macro is called there. The
// parser sees a call of it. g++ compiles the file after the C library's
// headers, where alloca(n) is a macro for __builtin_alloca(n): it would
// compile a builtin the parser never saw, a gigabyte taken from the stack
// of a thread. Every name the file uses is freed of such a macro before its
// text, so what g++ compiles is the function the parser read, and the
// kernel is right.

#include <cuda_runtime.h>

__device__ int (alloca)(int n) { return n > 0 ? 0 : 1; }

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float Pvalue = 0.0f + alloca(1 << 30);
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
