#include "harness.hpp"
#include "staged.cuh"
#include "stg.cuh"
#include "stg2.cuh"
#include "stg3.cuh"
#include "stg5.cuh"
template <class K>
Var rg5(std::string name, int r, K k, int bx, int by, int parts) {
    int halo4 = (r + 3) / 4;
    size_t smem = (size_t)(bx + 2 * halo4) * 16 * (4 * by * parts + 2 * r);
    CK(cudaFuncSetAttribute((const void*)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    return Var{name + " b" + std::to_string(bx) + "x" + std::to_string(by), r,
               [=](const float* N, float* P, int W, int H) {
                   int band = 4 * by * parts;
                   dim3 blk(bx, by), grd(((W + 3) / 4 + bx - 1) / bx, (H + band - 1) / band);
                   k<<<grd, blk, smem>>>(N, P, W, H);
               }, regsOf(k)};
}
#define H1(NAME, R_, BX, BY) v.push_back(rg5("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, 1))
#define H2(NAME, R_, BX, BY) v.push_back(rg5("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, 2))
#define H3(NAME, R_, BX, BY) v.push_back(rg5("r" #R_ " " #NAME, R_, xs::NAME<R_>, BX, BY, 3))
void add_xs5(std::vector<Var>& v) {
    extern float hostMask[225]; CK(cudaMemcpyToSymbol(xs::G_c, hostMask, 225 * 4));
    H2(h2_32, 4, 16, 8); v.push_back(rg5("r4 h2_32 pad23k", 4, xs::h2_32<4>, 16, 8, 2)); { auto& b = v.back(); auto k = xs::h2_32<4>; b.launch = [=](const float* N, float* P, int W, int H) { dim3 blk(16, 8), grd(((W + 3) / 4 + 15) / 16, (H + 63) / 64); k<<<grd, blk, 23 * 1024 + 512>>>(N, P, W, H); }; }
    H2(h2_32, 4, 8, 4); H2(h2_32, 4, 16, 4); H2(h2_32, 5, 16, 8); H2(h2_32, 3, 24, 12);
}
