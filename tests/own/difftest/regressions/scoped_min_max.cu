// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// ::min and ::max, CUDA's global overloads (crt/math_functions.h), of floats
// and of ints: P[i] = fminf(x, 0.5) + fmaxf(x, 0.25) + min(t, 3).
// TileScope (when this was found) refused the file: "'::min' has not been
// declared".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3e800660  (0.250048637)
// expect: P[1] = 0xbe733338  (-0.237500072)
// expect: P[2] = 0x40101819  (2.2514708)
// expect: P[3] = 0x3fd9807a  (1.69923329)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < width) {
        float x = N[i] * 1.7f;
        P[i] = ::min(x, 0.5f) + ::max(x, 0.25f) + ::min(t, 3);
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
