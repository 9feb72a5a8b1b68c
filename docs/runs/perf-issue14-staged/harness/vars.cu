#include <cstring>
#include "harness.hpp"
#include "staged.cuh"
template <class K>
Var sgrid(std::string name, int r, K k, int bx, int by, int strip, size_t smem) {
    CK(cudaFuncSetAttribute((const void*)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    return Var{name + " b" + std::to_string(bx) + "x" + std::to_string(by) + " s" + std::to_string(strip), r,
               [=](const float* N, float* P, int W, int H) {
                   int ty = ((H + 3) / 4 + by - 1) / by;
                   dim3 blk(bx, by), grd(((W + 3) / 4 + bx - 1) / bx, (ty + strip - 1) / strip);
                   k<<<grd, blk, smem>>>(N, P, W, H);
               }, regsOf(k)};
}
#define S1(R, BX, BY) v.push_back(sgrid("r" #R " st1", R, xs::staged1<R, BX, BY>, BX, BY, 1, xs::Geo<R, BX, BY>::FLOATS * 4))
#define SSB(R, BX, BY, ST, MB) v.push_back(sgrid("r" #R " strip lb" #MB, R, xs::stagedStrip<R, BX, BY, ST, MB>, BX, BY, ST, 2 * xs::Geo<R, BX, BY>::FLOATS * 4))
#define S1B(R, BX, BY, MB) v.push_back(sgrid("r" #R " st1 lb" #MB, R, xs::staged1<R, BX, BY, MB>, BX, BY, 1, xs::Geo<R, BX, BY>::FLOATS * 4))
#define SS(R, BX, BY, ST) v.push_back(sgrid("r" #R " strip", R, xs::stagedStrip<R, BX, BY, ST>, BX, BY, ST, 2 * xs::Geo<R, BX, BY>::FLOATS * 4))
float hostMask[225];
void upload_xs(const float* m) { memcpy(hostMask, m, 900); CK(cudaMemcpyToSymbol(xs::G_c, m, 225 * 4)); }
void add_xs(std::vector<Var>& v) {
}
