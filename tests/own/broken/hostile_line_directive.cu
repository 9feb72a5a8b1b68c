// expect-exit: 2
// expect-output: hostile_line_directive.cu:23: #line is not supported in a kernel file: the lines TileScope names, in the trace and in every message, are the file's own
// expect-output-lines: 1
//
// hostile_line_directive.cu -- #line makes the parser and the compilers
// number the lines that follow as it says: every recorded event, every
// barrier and every message would name a line the file does not have
// (70000 does not fit the trace's 16 bits and would wrap to 4464), or a
// line of another file. The lines TileScope names are the file's own.

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

#line 70000 "someone_elses.cu"
void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
