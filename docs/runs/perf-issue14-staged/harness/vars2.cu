#include "harness.hpp"
#include "staged.cuh"
#include "stg.cuh"
#include "stg2.cuh"
template <class K>
Var rgrid(std::string name, int r, K k, int bx, int by) {
    int halo4 = (r + 3) / 4;
    size_t smem = (size_t)(bx + 2 * halo4) * 16 * (4 * by + 2 * r);
    CK(cudaFuncSetAttribute((const void*)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    return Var{name + " b" + std::to_string(bx) + "x" + std::to_string(by), r,
               [=](const float* N, float* P, int W, int H) {
                   dim3 blk(bx, by), grd(((W + 3) / 4 + bx - 1) / bx, ((H + 3) / 4 + by - 1) / by);
                   k<<<grd, blk, smem>>>(N, P, W, H);
               }, regsOf(k)};
}
#define R(NAME, R_, BX, BY) v.push_back(rgrid("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY))
void add_xs2(std::vector<Var>& v) {
    extern float hostMask[225]; CK(cudaMemcpyToSymbol(xs::G_c, hostMask, 225 * 4));
}
