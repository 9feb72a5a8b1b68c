// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// difftest-tags: shared3d shared3d-unit
// A three-dimensional __shared__ array whose middle extent is 1
// (__shared__ float s[2][1][33], a plane per channel of one row each), each
// thread writing and reading its own slots: P[i] = 2 * N[i] + 3. TileScope
// (when this was found) failed to compile its translation: "kernel.cu:LINE:
// error: no match for 'operator[]' in 's.__shared__ float[]::operator[](Index(0,
// ...))[0]' (operand types are '__shared__ float[]::Element' {aka 'float&'} and
// 'int')": the array is indexed as if it had two dimensions. [1][2][33],
// [2][33][1] and [2][2][33] are run right.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x404000f0  (3.00005722)
// expect: P[1] = 0x3fa00000  (1.25)
// expect: P[2] = 0x40401c5a  (3.00173044)
// expect: P[3] = 0x3f967909  (1.1755687)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    __shared__ float s[2][1][33];
    s[0][0][t] = 2.0f;
    s[1][0][t] = 3.0f;
    if (i < width) P[i] = s[0][0][t] * N[i] + s[1][0][t];
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
