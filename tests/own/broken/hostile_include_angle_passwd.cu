// expect-exit: 2
// expect-output: hostile_include_angle_passwd.cu:11: #include </etc/passwd>: a kernel file may include only
// expect-no-output: root
// expect-output-lines: 1
//
// hostile_include_angle_passwd.cu -- the basic 1D kernel with #include </etc/passwd>, a file of the machine in angle brackets. Refused before the
// parser reads it: no word of it reaches the message.

#include <cuda_runtime.h>

#include </etc/passwd>

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
