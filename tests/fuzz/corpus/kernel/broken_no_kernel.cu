// expect-exit: 2
// expect-output: no_kernel.cu: the file has no __global__ kernel
// expect-output-lines: 1
//
// no_kernel.cu -- the convolution computed on the host, one output after
// the other, in a plain C function: correct, but there is no __global__
// kernel in the file, so nothing runs on the GPU.

#include <cuda_runtime.h>

float convolveAt(const float* N, const float* M, int i, int r, int width)
{
    float Pvalue = 0.0f;
    for (int j = 0; j < 2 * r + 1; j++) {
        int k = i - r + j;
        if (k >= 0 && k < width) {
            Pvalue += M[j] * N[k];
        }
    }
    return Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    for (int i = 0; i < width; i++) {
        P[i] = convolveAt(N, M, i, r, width);
    }
}
