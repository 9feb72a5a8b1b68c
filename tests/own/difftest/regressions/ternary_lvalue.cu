// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// The conditional operator as the left side of an assignment: both operands
// are float lvalues, so `(c ? s[t] : P[i]) = x` stores into the one chosen.
// Even threads store 2 * N[i] into s[t] (P[i] = 0.25 + 2 * N[i]), odd ones
// into P[i] (P[i] = 2 * N[i] + 0.5). TileScope (when this was found) refused the file: "lvalue
// required as left operand of assignment".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3e800780  (0.25005722)
// expect: P[1] = 0xbfa00000  (-1.25)
// expect: P[2] = 0x3e80e2d1  (0.251730472)
// expect: P[3] = 0xbfa986f7  (-1.3244313)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = 0.5f;
    if (i < width) {
        P[i] = 0.25f;
        (t % 2 == 0 ? s[t] : P[i]) = 2.0f * N[i];
        P[i] = P[i] + s[t];
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
