// expect-exit: 1
// expect-output: out of bounds: block (0), thread (0), load of A[-1] (1000 elements), line 22
// expect-output: load of A[1000] (1000 elements), line 22
// expect-output: out of bounds on A, line 22
// expect-no-output: N[
//
// launch_casts_its_arrays.cu -- a 1D kernel written, as many are, with
// float* for all its arrays, so launch() passes its const float* N as
// (float*)N; the kernel forgets the ghost cells at both ends. The accesses
// outside the input are named by the kernel's own name for it, A.

#include <cuda_runtime.h>

#define BLOCK 128

__global__ void conv1d(float* A, float* F, float* B, int r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j <= 2 * r; j++)
            sum += F[j] * A[i - r + j];
        B[i] = sum;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d<<<(width + BLOCK - 1) / BLOCK, BLOCK>>>((float*)N, (float*)(M), P, r, width);
}
