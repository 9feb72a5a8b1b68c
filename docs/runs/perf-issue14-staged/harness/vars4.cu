#include "harness.hpp"
#include "staged.cuh"
#include "stg.cuh"
#include "stg2.cuh"
#include "stg3.cuh"
#include "stg4.cuh"
template <class K>
Var rg4(std::string name, int r, K k, int bx, int by, int py, int strip) {
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
#define G(NAME, R_, BX, BY, PY, S) v.push_back(rg4("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, PY, S))
void add_xs4(std::vector<Var>& v) {
    extern float hostMask[225]; CK(cudaMemcpyToSymbol(xs::G_c, hostMask, 225 * 4));
    G(pf1k, 4, 16, 16, 4, 1); G(pf2k, 4, 16, 16, 4, 1); G(pf500, 4, 16, 16, 4, 1); G(pf1k, 4, 16, 8, 4, 1); G(pf2k, 4, 16, 8, 4, 1);
    G(pd1k, 4, 16, 8, 8, 1); G(pd500, 4, 16, 8, 8, 1);
    G(sg2, 4, 16, 8, 8, 2); G(sg3, 4, 16, 8, 8, 3); G(sg2, 4, 16, 4, 8, 2); G(sg2, 4, 32, 4, 8, 2);
    G(se2, 4, 16, 8, 4, 2); G(se2, 4, 8, 8, 4, 2); G(se2, 4, 16, 4, 4, 2); G(se2, 4, 32, 4, 4, 2); G(se3, 4, 16, 8, 4, 3); G(se2, 4, 32, 8, 4, 2);
    G(se2, 1, 16, 8, 4, 2); G(se2, 2, 16, 8, 4, 2); G(se2, 3, 16, 8, 4, 2); G(se2, 5, 16, 8, 4, 2); G(se2, 7, 16, 8, 4, 2);
    G(pf1k, 1, 16, 16, 4, 1); G(pf1k, 2, 16, 16, 4, 1); G(pf1k, 3, 16, 16, 4, 1);
}
