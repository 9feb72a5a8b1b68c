// expect-exit: 2
// expect-output: hostile_extern_c_system.cu:26: system is declared in the file but not defined in it
// expect-output-lines: 1
//
// hostile_extern_c_system.cu -- the file declares C's system() itself and launch() calls it:
// the compiler would link it to the C library's, and run a shell command on
// the machine that checks the kernel. A function the file declares but does
// not define is refused at the call.

#include <cuda_runtime.h>

extern "C" int system(const char* command);

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
    system("echo hello");
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
