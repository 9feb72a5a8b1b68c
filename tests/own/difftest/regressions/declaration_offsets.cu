// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// (What this file tests is said at its end: its first bytes are counted.)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    //-------------------------------------------------------------------------
    //-------------------------------------------------------------------------
    //-------------------------------------------------------------------------
    //-------------------------------------------------------------------------
    //----------------
    __shared__ float sa[32];
    //-----
    __shared__ float sb[32];
    //---
    __shared__ float sc[32];
    //---
    __shared__ float sd[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sa[t] = (i < width) ? N[i] : 0.0f;
    sb[t] = sa[t] * gridDim.x;
    sc[t] = sb[t] + sb[t];
    sd[t] = sc[t] + sb[t];
    if (i < width) P[i] = sd[t] + sb[t];
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}

// A kernel whose __shared__ arrays are declared with their names at the
// byte offsets where TileScope's parse prelude declares threadIdx,
// blockIdx, blockDim and gridDim (596, 637, 676, 715 when this was found).
// Nothing special in CUDA: P[i] = 4 * N[i] * gridDim.x. TileScope (as it
// was being changed) told declarations apart by their offset, whatever
// their file, and refused the file: "blockDim is used here other than as
// blockDim[...]". Should the prelude change, the file still runs, if no
// longer with its arrays at those offsets.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x38efff8d  (0.000114440081)
// expect: P[1] = 0xc0600000  (-3.5)
// expect: P[2] = 0x3b62d143  (0.0034609593)
// expect: P[3] = 0xc06986f7  (-3.6488626)
