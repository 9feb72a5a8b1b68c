// expect-exit: 2
// expect-args: check --size 1000 --radius 1
// expect-output: template_two_instantiations.cu:20: k is used at <64> and at <128>: a kernel file's template is written out at one set of arguments; write a function of its own for each
// expect-output-lines: 1
//
// template_two_instantiations.cu -- a kernel template launched at two block
// sizes: each launch would be a kernel of its own, which a kernel file writes
// as two functions.

#include <cuda_runtime.h>
template <int B>
__global__ void k(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * B + threadIdx.x;
    if (i < width) P[i] = N[i] * M[r];
}
void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<64><<<(width + 63) / 64, 64>>>(N, M, P, r, width);
    k<128><<<(width + 127) / 128, 128>>>(N, M, P, r, width);
}
