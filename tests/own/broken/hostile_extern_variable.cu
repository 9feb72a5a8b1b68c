// expect-exit: 2
// expect-output: hostile_extern_variable.cu:12: extern variable environ
// expect-output-lines: 1
//
// hostile_extern_variable.cu -- the file declares the C library's environ
// itself, and launch() prints the teacher's environment (tokens, passwords)
// into the kernel's output. A variable defined elsewhere is none of a
// kernel file's: refused at the declaration.

#include <cuda_runtime.h>

extern char** const environ;

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
    printf("%s\n", environ[0]);
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
