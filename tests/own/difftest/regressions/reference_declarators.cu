// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// Two references to elements in one declaration, as C++ allows:
// `const float& a = s[t], &b = s[t + 32];` Both follow the stores after them:
// P[i] = 1 + 2 = 3. TileScope (when this was found) refused the file:
// "declare one reference to an array element per declaration", a limit
// docs/own-kernel.md does not list.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x40400000  (3)
// expect: P[1] = 0x40400000  (3)
// expect: P[2] = 0x40400000  (3)
// expect: P[3] = 0x40400000  (3)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < width) ? N[i] : 0.0f;
    s[t + 32] = 0.0f;
    if (i < width) {
        const float& a = s[t], &b = s[t + 32];
        s[t] = 1.0f;
        s[t + 32] = 2.0f;
        P[i] = a + b;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
