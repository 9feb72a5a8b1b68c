// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// CUDA's float overloads of the maths functions are global: ::abs(x),
// ::floor(x), ::sqrt(x) and ::fmin(x, y) of floats are floats, as abs(x),
// floor(x), ... are. So `::abs(N[i]) * 0.1f` is a float product and
// `::floor(x) * 0.3f + ::sqrt(fabsf(x)) * 0.3f` is computed in float.
// TileScope (when this was found) called the C library's ::abs(int), which
// truncates, and ::floor(double), ::sqrt(double), ::fmin(double, double),
// which take the sums into double.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3b0baa38  (0.00213111751)
// expect: P[1] = 0xbf9034c7  (-1.12661064)
// expect: P[2] = 0x3c4fca0f  (0.0126824519)
// expect: P[3] = 0xbf941457  (-1.15687072)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float x = N[i] * 1.7f;
        P[i] = ::abs(x) * 0.1f + ::floor(x) * 0.3f + ::sqrt(fabsf(x)) * 0.3f + ::fmin(x, 0.5f) * 0.7f;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
