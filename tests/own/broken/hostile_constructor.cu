// expect-exit: 2
// expect-output: hostile_constructor.cu:18: __attribute__((constructor)) is not supported in a kernel file
// expect-output-lines: 1
//
// hostile_constructor.cu -- a function marked __attribute__((constructor))
// runs when the kernel's object is loaded, before the worker's system-call
// filter is installed and before launch() is called: it forks, runs a
// shell and opens a socket. The kernel itself is right. Attributes come from
// a short list (__restrict__, __launch_bounds__, __align__, unused and
// CUDA's own): refused at its line, before anything is compiled.

#include <cuda_runtime.h>

extern "C" int fork();
extern "C" int execl(const char* path, const char* arg, ...);
extern "C" int socket(int domain, int type, int protocol);

__attribute__((constructor)) void early()
{
    if (fork() == 0) execl("/bin/sh", "sh", "-c", "echo owned > /tmp/owned", (char*)0);
    socket(2, 1, 0);
}

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
