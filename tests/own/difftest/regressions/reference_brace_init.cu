// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// A reference to an element initialised with braces, `float& e{s[t]};`, is
// the element itself, as `float& e = s[t];` is: P[i] = N[i] + 1.
// TileScope (when this was found) refused the file: "cannot bind non-const
// lvalue reference of type 'float&' to an rvalue of type 'float'".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3f8000f0  (1.00002861)
// expect: P[1] = 0x3e000000  (0.125)
// expect: P[2] = 0x3f801c5a  (1.00086522)
// expect: P[3] = 0x3db3c848  (0.0877843499)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < width) ? N[i] : 0.0f;
    if (i < width) {
        float& e{s[t]};
        e += 1.0f;
        P[i] = s[t];
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
