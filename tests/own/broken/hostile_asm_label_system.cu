// expect-exit: 2
// expect-output: hostile_asm_label_system.cu:14: asm is not supported in a kernel file
// expect-output-lines: 1
//
// hostile_asm_label_system.cu -- an asm label makes the file's own
// declaration of run() the C library's system(): launch() would run a shell
// command on the machine that checks the kernel, the compiler linking the
// call to the C library's function. No asm is a kernel file's, neither
// inline assembly nor a label: refused at its line, before anything is
// compiled.

#include <cuda_runtime.h>

int run(const char* command) asm("system");

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
    int (*call)(const char*) = run;
    call("cat /root/.ssh/id_rsa > /tmp/stolen");
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
