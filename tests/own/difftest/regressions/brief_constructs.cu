// difftest: dims=1 width=40 height=1 radius=2 barriers=0 seed=regression
// The constructs of the differential test's brief (TileScope's defects fixed
// as the test was written), each one of the terms of P[i]: the conditional
// operator with an element against an int, sum += s[i], s[a] + s[b],
// s[t] + 0.1 in double, a compound assignment with a double right side,
// abs and floor of floats, auto copying an element, const float& and float&
// being the element, and in the launch a prototype, extern "C", ::Mc, dim3
// assigned, bare macros in <<< >>> spaced as Visual Studio writes it.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x405ef3e7  (3.48363662)
// expect: P[1] = 0xc0304445  (-2.75416684)
// expect: P[2] = 0x405f6d19  (3.49103379)
// expect: P[3] = 0xc091f99f  (-4.56172132)
#include <cuda_runtime.h>
#define BS 32
#define MAXW 15

__constant__ float Mc[MAXW];

extern "C" __global__ void k(const float* N, float* P, int r, int width);

extern "C" __global__ void k(const float* N, float* P, int r, int width)
{
    __shared__ float s[2 * BS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < width) ? N[i] * 1.7f : 0.0f;
    s[t + BS] = 0.3f;
    if (i < width) {
        float a = (t % 3) ? 0 : s[t];
        float sum = 0.25f;
        sum += s[t];
        float b = s[t] + s[t + BS];
        float c = s[t] + 0.1;
        float d = N[i];
        d += 0.1 * N[i];
        float e = abs(N[i]) + floor(s[t]) * 0.1f;
        auto v = s[t];
        const float& cr = s[t + BS];
        float& ref = s[t + BS];
        ref = 2.5f;
        s[t] = 9.0f;
        P[i] = a + sum + b + c + d + e + v + cr + ::Mc[2 * r];
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    cudaMemcpyToSymbol(::Mc, M, (2 * r + 1) * sizeof(float));
    dim3 grid;
    grid = dim3((width + BS - 1) / BS);
    k << <grid, BS >> > (N, P, r, width);
}
