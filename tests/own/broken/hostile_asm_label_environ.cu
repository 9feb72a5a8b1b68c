// expect-exit: 2
// expect-output: hostile_asm_label_environ.cu:12: asm is not supported in a kernel file
// expect-output-lines: 1
//
// hostile_asm_label_environ.cu -- an extern variable named through an asm
// label is the C library's environ: launch() would print the teacher's
// environment (tokens, passwords) into the kernel's output, which a grader
// shows. Refused at its line: no asm, and no extern variable.

#include <cuda_runtime.h>

extern char** const e asm("environ");

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
    for (int k = 0; e[k]; ++k) printf("%s\n", e[k]);
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
