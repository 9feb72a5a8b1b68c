#include "harness.hpp"
#include "staged.cuh"
#include "stg.cuh"
#include "stg2.cuh"
#include "stg3.cuh"
template <class K>
Var rg3(std::string name, int r, K k, int bx, int by, int py, int strip) {
    int halo4 = (r + 3) / 4;
    size_t smem = (size_t)(bx + 2 * halo4) * 16 * (py * by + 2 * r) * (strip > 1 ? 2 : 1);
    CK(cudaFuncSetAttribute((const void*)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    return Var{name + " b" + std::to_string(bx) + "x" + std::to_string(by), r,
               [=](const float* N, float* P, int W, int H) {
                   int ty = ((H + py - 1) / py + by - 1) / by;
                   dim3 blk(bx, by), grd(((W + 3) / 4 + bx - 1) / bx, (ty + strip - 1) / strip);
                   k<<<grd, blk, smem>>>(N, P, W, H);
               }, regsOf(k)};
}
#define C(NAME, R_, BX, BY) v.push_back(rg3("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, 4, 1))
#define D(NAME, R_, BX, BY) v.push_back(rg3("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, 8, 1))
#define E(NAME, R_, BX, BY, S) v.push_back(rg3("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, 4, S))
void add_xs3(std::vector<Var>& v) {
    extern float hostMask[225]; CK(cudaMemcpyToSymbol(xs::G_c, hostMask, 225 * 4));
    E(se2, 4, 16, 8, 2);
}
