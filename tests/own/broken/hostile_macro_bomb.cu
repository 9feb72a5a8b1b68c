// expect-exit: 2
// expect-output: hostile_macro_bomb.cu:19: L4 expands to about 131071 tokens, more than the 100000 a kernel file's macro may make
// expect-output-lines: 1
// expect-max-seconds: 10
//
// hostile_macro_bomb.cu -- about 2 KB of #defines, each macro sixteen of the
// one before: L8 is 16^8, four billion tokens. Expanding it took the parser
// to 9.5 GB of memory before anything could stop it, on the teacher's
// machine, with or without a sandbox around it. The macros are measured from
// their text before the parser starts: L4, the first to make more than
// 100000 tokens, is refused at its line.

#include <cuda_runtime.h>

#define L0 Pvalue
#define L1 L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0 + L0
#define L2 L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1 + L1
#define L3 L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2 + L2
#define L4 L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3 + L3
#define L5 L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4 + L4
#define L6 L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5 + L5
#define L7 L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6 + L6
#define L8 L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7 + L7

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue + 0.0f * (L8);
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
