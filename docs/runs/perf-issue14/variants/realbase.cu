// Scratch harness: conv2d_fast variants (patch rows, next-row prefetch, launch bounds, block shape) timed at 8192^2.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cmath>
#include <string>
#include "exec/plain_language.cuh"
namespace tilescope::plain {
#include "conv/constant_memory.cuh"
#include "conv/conv2d_fast.cuh"
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
__constant__ float F_c[15][15];

template <int r, int PR, bool PF, bool CHECKED>
__device__ __forceinline__ void addRows(const float* __restrict__ N, int width, int height, int row0, int col0, float (&P)[PR][4]) {
    constexpr int MD = 2 * r + 1;
    constexpr int H4 = (r + 3) / 4;
    constexpr int W = 4 * (2 * H4 + 1);
    constexpr int SKEW = 4 * H4 - r;
    constexpr int ROWS = PR + 2 * r;
    const int inCol0 = col0 - 4 * H4;
    float win[2][W];
    auto load = [&](int dy, float (&w)[W]) {
        int inRow = row0 - r + dy;
#pragma unroll
        for (int k = 0; k < W; k++) w[k] = 0.f;
        if (CHECKED && (inRow < 0 || inRow >= height)) return;
#pragma unroll
        for (int k = 0; k < 2 * H4 + 1; k++) {
            int inCol = inCol0 + 4 * k;
            if (CHECKED && (inCol < 0 || inCol >= width)) continue;
            float4 v = __ldg(reinterpret_cast<const float4*>(N + inRow * width + inCol));
            w[4 * k] = v.x; w[4 * k + 1] = v.y; w[4 * k + 2] = v.z; w[4 * k + 3] = v.w;
        }
    };
    if (PF) load(0, win[0]);
#pragma unroll
    for (int dy = 0; dy < ROWS; dy++) {
        if (PF) { if (dy + 1 < ROWS) load(dy + 1, win[(dy + 1) & 1]); }
        else load(dy, win[dy & 1]);
        float (&w)[W] = win[dy & 1];
#pragma unroll
        for (int j = 0; j < PR; j++) {
            int fRow = dy - j;
            if (fRow < 0 || fRow >= MD) continue;
#pragma unroll
            for (int fc = 0; fc < MD; fc++) {
                float f = F_c[fRow][fc];
#pragma unroll
                for (int c = 0; c < 4; c++) P[j][c] += f * w[SKEW + c + fc];
            }
        }
    }
}

template <int r, int PR, bool PF, int NT, int MINB>
__global__ void __launch_bounds__(NT, MINB) kvar(const float* __restrict__ N, float* P, int width, int height) {
    int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * PR;
    if (col0 >= width || row0 >= height) return;
    float acc[PR][4];
#pragma unroll
    for (int j = 0; j < PR; j++)
#pragma unroll
        for (int c = 0; c < 4; c++) acc[j][c] = 0.f;
    constexpr int HALO = 4 * ((r + 3) / 4);
    bool interior = row0 - r >= 0 && row0 + PR + r <= height && col0 - HALO >= 0 && col0 + 4 + HALO <= width;
    if (interior) addRows<r, PR, PF, false>(N, width, height, row0, col0, acc);
    else addRows<r, PR, PF, true>(N, width, height, row0, col0, acc);
#pragma unroll
    for (int j = 0; j < PR; j++) {
        int row = row0 + j;
        if (row >= height) break;
        *reinterpret_cast<float4*>(P + row * width + col0) = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
    }
}

template <int r, int PR, bool PF, int NT, int MINB>
__global__ void kvarnb(const float* __restrict__ N, float* P, int width, int height) {
    int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * PR;
    if (col0 >= width || row0 >= height) return;
    float acc[PR][4];
#pragma unroll
    for (int j = 0; j < PR; j++)
#pragma unroll
        for (int c = 0; c < 4; c++) acc[j][c] = 0.f;
    constexpr int HALO = 4 * ((r + 3) / 4);
    bool interior = row0 - r >= 0 && row0 + PR + r <= height && col0 - HALO >= 0 && col0 + 4 + HALO <= width;
    if (interior) addRows<r, PR, PF, false>(N, width, height, row0, col0, acc);
    else addRows<r, PR, PF, true>(N, width, height, row0, col0, acc);
#pragma unroll
    for (int j = 0; j < PR; j++) {
        int row = row0 + j;
        if (row >= height) break;
        *reinterpret_cast<float4*>(P + row * width + col0) = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
    }
}

__host__ __device__ inline float inputValue(uint32_t index, uint32_t seed) {
    uint32_t x = index * 0x9E3779B9u ^ (seed * 0x85EBCA6Bu + 0x165667B1u);
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    return static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
__global__ void fillInput(float* d, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) d[i] = inputValue((uint32_t)i, seed);
}

typedef void (*KFn)(const float*, float*, int, int);
struct Var { std::string name; int r; KFn fn; int bx, by, pr; };

static const int Wd = 8192, Ht = 8192;
static float mask[15][15];

double refAt(int r, uint32_t seed, int y, int x) {
    double s = 0;
    for (int i = -r; i <= r; i++) for (int j = -r; j <= r; j++) {
        int yy = y + i, xx = x + j;
        if (yy < 0 || yy >= Ht || xx < 0 || xx >= Wd) continue;
        s += (double)mask[i + r][j + r] * inputValue((uint32_t)(yy * Wd + xx), seed);
    }
    return s;
}

int main(int argc, char** argv) {
    std::vector<Var> vars;
#define V(R, PR, PF, BX, BY, MINB) vars.push_back({"r" #R " pr" #PR " pf" #PF " b" #BX "x" #BY " minb" #MINB, R, kvar<R, PR, PF, BX * BY, MINB>, BX, BY, PR});
#define VN(R, PR, PF, BX, BY) vars.push_back({"r" #R " pr" #PR " pf" #PF " b" #BX "x" #BY " nobounds", R, kvarnb<R, PR, PF, BX * BY, 0>, BX, BY, PR});
#define SET(R) \
    VN(R, 4, false, 16, 16) VN(R, 4, true, 16, 16) \
    V(R, 4, false, 16, 16, 3) V(R, 4, false, 16, 16, 4) \
    V(R, 4, true, 16, 16, 2) V(R, 4, true, 16, 16, 3) V(R, 4, true, 16, 16, 4) V(R, 4, true, 16, 16, 5) \
    V(R, 4, true, 32, 8, 4) V(R, 4, true, 32, 8, 3) \
    V(R, 8, true, 16, 8, 4) V(R, 8, true, 16, 8, 6) V(R, 8, true, 16, 8, 8) V(R, 8, false, 16, 8, 6) VN(R, 8, true, 16, 8)
    vars.push_back({"real r1", 1, tilescope::plain::conv2d_fast<1, true>, 16, 16, 4});
    vars.push_back({"real r2", 2, tilescope::plain::conv2d_fast<2, true>, 16, 16, 4});
    vars.push_back({"real r4", 4, tilescope::plain::conv2d_fast<4, true>, 16, 16, 4});
    vars.push_back({"real r7", 7, tilescope::plain::conv2d_fast<7, true>, 16, 16, 4});
    size_t n = (size_t)Wd * Ht;
    float *in[2], *out[2];
    for (int i = 0; i < 2; i++) { CK(cudaMalloc(&in[i], n * 4)); CK(cudaMalloc(&out[i], n * 4)); fillInput<<<4096, 256>>>(in[i], n, 1234 + i); }
    srand(7);
    for (int i = 0; i < 15; i++) for (int j = 0; j < 15; j++) mask[i][j] = (rand() / (float)RAND_MAX) * 2 - 1;
    CK(cudaMemcpyToSymbol(F_c, mask, sizeof mask)); CK(cudaMemcpyToSymbol(tilescope::plain::F_c, mask, sizeof mask));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto timeIt = [&](auto launch, int reps) {
        std::vector<float> t;
        for (int i = 0; i < 3; i++) launch(i & 1);
        for (int i = 0; i < reps; i++) { cudaEventRecord(e0); launch(i & 1); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms); }
        CK(cudaGetLastError());
        std::sort(t.begin(), t.end()); return t[t.size() / 2];
    };
    float copy = timeIt([&](int i) { cudaMemcpyAsync(out[i], in[i], n * 4, cudaMemcpyDeviceToDevice); }, 100);
    int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    double peak = 132.0 * 128 * 2 * 1.98e9;
    printf("copy %.4f ms\n", copy);
    std::vector<float> host(4096);
    const char* only = getenv("ONLY_R");
    for (auto& v : vars) {
        if (only && atoi(only) != v.r) continue;
        dim3 blk(v.bx, v.by), grd((Wd / 4 + v.bx - 1) / v.bx, (Ht / v.pr + v.by - 1) / v.by);
        cudaFuncAttributes at; cudaFuncGetAttributes(&at, v.fn);
        // check
        CK(cudaMemset(out[0], 0xff, n * 4));
        v.fn<<<grd, blk>>>(in[0], out[0], Wd, Ht); CK(cudaDeviceSynchronize());
        double maxerr = 0; int bad = 0;
        int pts[][2] = {{0,0},{0,8191},{8191,0},{8191,8191},{1,2},{4095,4095},{8190,3},{5,8188},{63,64},{64,63},{127,128},{3,4000}};
        std::vector<std::pair<int,int>> P; for (auto& p : pts) P.push_back({p[0], p[1]});
        for (int i = 0; i < 500; i++) P.push_back({rand() % Ht, rand() % Wd});
        for (auto& p : P) {
            float g; CK(cudaMemcpy(&g, out[0] + (size_t)p.first * Wd + p.second, 4, cudaMemcpyDeviceToHost));
            double ref = refAt(v.r, 1234, p.first, p.second);
            double err = fabs(g - ref) / (1e-3 + fabs(ref));
            if (!(err < 1e-4)) bad++;
            maxerr = std::max(maxerr, err);
        }
        float ms = timeIt([&](int i) { v.fn<<<grd, blk>>>(in[i], out[i], Wd, Ht); }, 60);
        int md = 2 * v.r + 1;
        printf("%-36s regs %3d  %.4f ms  copy%% %5.1f  fma%% %5.1f  %s\n", v.name.c_str(), at.numRegs, ms, 100 * copy / ms,
               100 * (2.0 * md * md * n / (ms * 1e-3)) / peak, bad ? "BAD" : "ok");
        fflush(stdout);
    }
}
