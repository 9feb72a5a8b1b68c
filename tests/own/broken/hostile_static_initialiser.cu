// expect-exit: 2
// expect-output: hostile_static_initialiser.cu:18: global constant blocksPerRow is not a constant expression
// expect-output-lines: 1
//
// hostile_static_initialiser.cu -- a global constant whose initialiser calls
// a function: the call runs when the kernel's object is loaded, before
// launch() and before the worker's system-call filter. A global constant is
// a number the compiler computes: refused at its line.

#include <cuda_runtime.h>

int sideEffect()
{
    printf("running before launch()\n");
    return 16;
}

const int blocksPerRow = sideEffect();

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
    conv1d_basic<<<(width + blocksPerRow - 1) / blocksPerRow, blocksPerRow>>>(N, M, P, r, width);
}
