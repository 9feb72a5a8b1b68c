// conv2d_fast variants: check against float64, then time (events, warm-up, median), inputs rotated.
#include <cstdio>
#include <cstring>
#include <set>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <algorithm>
#include <vector>
#include <string>
#include "harness.hpp"
void upload_p0(const float*); void add_p0(std::vector<Var>&);
void upload_p1(const float*); void add_p1(std::vector<Var>&);
void upload_p2(const float*); void add_p2(std::vector<Var>&);
void upload_p3(const float*); void add_p3(std::vector<Var>&);
void upload_tree(const float*); void add_tree(std::vector<Var>&);
void upload_xs(const float*); void add_xs(std::vector<Var>&); void add_xs2(std::vector<Var>&); void add_xs3(std::vector<Var>&); void add_xs4(std::vector<Var>&); void add_xs5(std::vector<Var>&);

__host__ __device__ inline float inputValue(uint32_t index, uint32_t seed) {
    uint32_t x = index * 0x9E3779B9u ^ (seed * 0x85EBCA6Bu + 0x165667B1u);
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    return static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
__global__ void fillInput(float* d, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) d[i] = inputValue((uint32_t)i, seed);
}
__global__ void countNan(const float* d, size_t n, unsigned long long* c) {
    unsigned long long k = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) k += d[i] != d[i];
    atomicAdd(c, k);
}
static float mask[15][15];
double refAt(int r, uint32_t seed, int W, int H, int y, int x, double* absSum = nullptr) {
    double s = 0, a = 0;
    for (int i = -r; i <= r; i++) for (int j = -r; j <= r; j++) {
        int yy = y + i, xx = x + j;
        if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
        double t = (double)mask[i + r][j + r] * inputValue((uint32_t)(yy * W + xx), seed);
        s += t; a += fabs(t);
    }
    if (absSum) *absSum = a;
    return s;
}
int main(int argc, char** argv) {
    const char* only = getenv("ONLY");      // substring filter on names
    const char* onlyR = getenv("ONLY_R");   // comma list of radii
    int reps = getenv("REPS") ? atoi(getenv("REPS")) : 100;
    bool sizes = getenv("SIZES") != nullptr;  // also time the project kernel at other shapes
    std::vector<Var> vars;
    const size_t cap = (size_t)8448 * 8192;
    float *in[2], *out[2];
    for (int i = 0; i < 2; i++) { CK(cudaMalloc(&in[i], cap * 4)); CK(cudaMalloc(&out[i], cap * 4)); }
    unsigned long long* dcount; CK(cudaMalloc(&dcount, 8));
    srand(7);
    for (int i = 0; i < 15; i++) for (int j = 0; j < 15; j++) mask[i][j] = (rand() / (float)RAND_MAX) * 2 - 1;
    upload_xs(&mask[0][0]); upload_p0(&mask[0][0]); upload_p1(&mask[0][0]); upload_p2(&mask[0][0]); upload_p3(&mask[0][0]);
    add_xs3(vars); add_p0(vars); add_p1(vars); add_p2(vars); add_p3(vars);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto timeIt = [&](auto launch, int n) {
        std::vector<float> t;
        for (int i = 0; i < 3; i++) launch(i & 1);
        for (int i = 0; i < n; i++) { cudaEventRecord(e0); launch(i & 1); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms); }
        CK(cudaGetLastError());
        std::sort(t.begin(), t.end()); return t[t.size() / 2];
    };
    auto fill = [&](int W, int H) { for (int i = 0; i < 2; i++) fillInput<<<4096, 256>>>(in[i], (size_t)W * H, 1234 + i); CK(cudaDeviceSynchronize()); };
    int W = 8192, H = 8192; size_t n = (size_t)W * H;
    fill(W, H);
    float copy = timeIt([&](int i) { cudaMemcpyAsync(out[i], in[i], n * 4, cudaMemcpyDeviceToDevice); }, reps);
    const double peak = 132.0 * 128 * 2 * 1.98e9;
    printf("copy %.4f ms\n", copy);
    auto check = [&](Var& v, int W, int H, double& maxerr) {
        CK(cudaMemset(out[0], 0xff, (size_t)W * H * 4));
        v.launch(in[0], out[0], W, H); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemset(dcount, 0, 8)); countNan<<<1024, 256>>>(out[0], (size_t)W * H, dcount);
        unsigned long long nan; CK(cudaMemcpy(&nan, dcount, 8, cudaMemcpyDeviceToHost));
        std::vector<std::pair<int,int>> P;
        int ys[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 63, 64, 95, 96, H / 2, H - 9, H - 8, H - 5, H - 4, H - 3, H - 2, H - 1};
        int xs[] = {0, 1, 3, 4, 5, 7, 8, 9, 63, 64, 95, 96, W / 2, W - 9, W - 8, W - 5, W - 4, W - 3, W - 2, W - 1};
        for (int y : ys) for (int x : xs) P.push_back({y, x});
        for (int i = 0; i < 400; i++) P.push_back({rand() % H, rand() % W});
        int bad = 0; maxerr = 0;
        for (auto& p : P) {
            float g; CK(cudaMemcpy(&g, out[0] + (size_t)p.first * W + p.second, 4, cudaMemcpyDeviceToHost));
            double absSum;
            double ref = refAt(v.r, 1234, W, H, p.first, p.second, &absSum);
            double err = fabs(g - ref) / absSum;  // error relative to the sum of |terms|
            if (!(err < 1e-5)) bad++;
            maxerr = std::max(maxerr, err);
        }
        return nan == 0 && bad == 0;
    };
    int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 1;
    std::vector<std::vector<float>> times(vars.size());
    std::vector<int> okv(vars.size(), -1);
    for (int round = 0; round < rounds; round++) {
        for (size_t vi = 0; vi < vars.size(); vi++) {
            auto& v = vars[vi];
            if (only && v.name.find(only) == std::string::npos) continue;
            if (onlyR && !strstr(onlyR, std::to_string(v.r).c_str())) continue;
            double maxerr = 0;
            if (round == 0) {
                double e2 = 0;
                if (v.name.find("unal") != std::string::npos)
                    okv[vi] = check(v, W, H, maxerr) && check(v, 8190, 1001, e2) && check(v, 1030, 203, e2) && check(v, 1031, 99, e2);
                else
                    okv[vi] = check(v, W, H, maxerr) && check(v, 8004, 7001, e2) && check(v, 1028, 200, e2);
                maxerr = std::max(maxerr, e2);
            }
            float ms = timeIt([&](int i) { v.launch(in[i], out[i], W, H); }, reps);
            times[vi].push_back(ms);
            int md = 2 * v.r + 1;
            printf("%d %-40s regs %3d  %.4f ms  copy%% %5.1f  fma%% %5.1f  %s (err %.1e)\n", round, v.name.c_str(), v.regs, ms,
                   100 * copy / ms, 100 * (2.0 * md * md * n / (ms * 1e-3)) / peak, okv[vi] ? "ok" : "BAD", maxerr);
            fflush(stdout);
        }
    }
    printf("\nsummary over %d rounds (median of rounds; min..max)  copy %.4f ms\n", rounds, copy);
    for (size_t vi = 0; vi < vars.size(); vi++) {
        auto t = times[vi];
        if (t.empty()) continue;
        std::sort(t.begin(), t.end());
        float med = t[t.size() / 2];
        int md = 2 * vars[vi].r + 1;
        printf("S %-40s regs %3d  %.4f ms (%.4f..%.4f)  copy%% %5.1f  fma%% %5.1f  %s\n", vars[vi].name.c_str(), vars[vi].regs, med,
               t.front(), t.back(), 100 * copy / med, 100 * (2.0 * md * md * n / (med * 1e-3)) / peak, okv[vi] ? "ok" : "BAD");
    }
    if (sizes) {
        // tail: the first variant of each radius (the project kernel at the launcher's block) at other shapes
        int shapes[][2] = {{8192, 8192}, {8448, 7936}, {8448, 8064}, {8192, 8128}, {8192, 7936}};
        std::set<int> seen;
        for (auto& v : vars) {
            if (v.name.find("project") == std::string::npos) continue;
            if (v.r != 4 && v.r != 7) continue;
            if (!seen.insert(v.r).second) continue;
            if (onlyR && !strstr(onlyR, std::to_string(v.r).c_str())) continue;
            for (auto& s : shapes) {
                fill(s[0], s[1]);
                double maxerr; bool ok = check(v, s[0], s[1], maxerr);
                float ms = timeIt([&](int i) { v.launch(in[i], out[i], s[0], s[1]); }, reps);
                printf("SIZE %-32s %5dx%-5d  %.4f ms  ns/Mpx %.3f  %s\n", v.name.c_str(), s[0], s[1], ms,
                       ms * 1e6 / ((double)s[0] * s[1]), ok ? "ok" : "BAD");
            }
        }
    }
}
