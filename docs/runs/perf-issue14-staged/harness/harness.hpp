#pragma once
#include <cuda_runtime.h>
#include <functional>
#include <string>
#include <vector>
struct Var {
    std::string name;
    int r;
    std::function<void(const float*, float*, int, int)> launch;
    int regs;
};
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1);} } while (0)
template <class K>
int regsOf(K k) { cudaFuncAttributes a; CK(cudaFuncGetAttributes(&a, (const void*)k)); return a.numRegs; }
template <class K>
Var grid2d(std::string name, int r, K k, int bx, int by) {
    return Var{name + " b" + std::to_string(bx) + "x" + std::to_string(by), r,
               [=](const float* N, float* P, int W, int H) {
                   dim3 blk(bx, by), grd(((W + 3) / 4 + bx - 1) / bx, ((H + 3) / 4 + by - 1) / by);
                   k<<<grd, blk>>>(N, P, W, H);
               }, regsOf(k)};
}
template <class K>
Var persist(std::string name, int r, K k, int bx, int by, int blocksPerSm) {
    return Var{name + " b" + std::to_string(bx) + "x" + std::to_string(by) + " persist" + std::to_string(blocksPerSm), r,
               [=](const float* N, float* P, int W, int H) {
                   int tx = ((W + 3) / 4 + bx - 1) / bx, ty = ((H + 3) / 4 + by - 1) / by;
                   k<<<132 * blocksPerSm, dim3(bx, by)>>>(N, P, W, H, tx, tx * ty);
               }, regsOf(k)};
}
