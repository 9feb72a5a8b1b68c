// expect-exit: 2
// expect-output: include_outside_file.cu:12: #include </etc/passwd>: a kernel file may include only CUDA's and C's own headers
// expect-no-output: root:
// expect-output-lines: 1
//
// include_outside_file.cu -- the basic 1D kernel with a file of the machine
// included by its path, as a hostile submission might. It is refused at its
// #include before anything the parser made of the included text is shown:
// no line of the included file reaches the message.

#include <cuda_runtime.h>
#include "/etc/passwd"

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
