// conv2d_fast with the middle input rows in a rolled loop (smaller code)
#pragma once
namespace xv {
template <int r, int B>
__device__ __forceinline__ void rowsRolled(const float* N, int width, int row0, int col0, float (&P)[4][4]) {
    constexpr int MD = 2 * r + 1;
    constexpr int H4 = (r + 3) / 4;
    constexpr int W = 4 * (2 * H4 + 1);
    constexpr int SKEW = 4 * H4 - r;
    static_assert((MD - 3) % B == 0, "B must divide the steady rows");
    const float* rowp = N + (row0 - r) * width + (col0 - 4 * H4);
    auto load = [&](float (&w)[W]) {
#pragma unroll
        for (int k = 0; k < 2 * H4 + 1; k++) {
            float4 v = ld4(rowp + 4 * k);
            w[4 * k] = v.x; w[4 * k + 1] = v.y; w[4 * k + 2] = v.z; w[4 * k + 3] = v.w;
        }
        rowp += width;
    };
    // first three rows: output rows 0..dy only
#pragma unroll
    for (int dy = 0; dy < 3; dy++) {
        float w[W]; load(w);
#pragma unroll
        for (int j = 0; j <= dy; j++)
#pragma unroll
            for (int fc = 0; fc < MD; fc++) {
                float f = G_c[dy - j][fc];
#pragma unroll
                for (int c = 0; c < 4; c++) P[j][c] += f * w[SKEW + c + fc];
            }
    }
    // middle rows: every output row of the patch; B rows a trip
#pragma unroll 1
    for (int dy0 = 3; dy0 < MD; dy0 += B) {
#pragma unroll
        for (int b = 0; b < B; b++) {
            float w[W]; load(w);
#pragma unroll
            for (int j = 0; j < 4; j++)
#pragma unroll
                for (int fc = 0; fc < MD; fc++) {
                    float f = G_c[dy0 + b - j][fc];
#pragma unroll
                    for (int c = 0; c < 4; c++) P[j][c] += f * w[SKEW + c + fc];
                }
        }
    }
    // last three rows
#pragma unroll
    for (int dy = MD; dy < MD + 3; dy++) {
        float w[W]; load(w);
#pragma unroll
        for (int j = dy - MD + 1; j < 4; j++)
#pragma unroll
            for (int fc = 0; fc < MD; fc++) {
                float f = G_c[dy - j][fc];
#pragma unroll
                for (int c = 0; c < 4; c++) P[j][c] += f * w[SKEW + c + fc];
            }
    }
}

template <int r, int B>
__global__ void kroll(const float* __restrict__ N, float* Out, int width, int height) {
    int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
    if (col0 >= width || row0 >= height) return;
    float P[4][4];
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
        for (int c = 0; c < 4; c++) P[j][c] = 0.f;
    constexpr int HALO = 4 * ((r + 3) / 4);
    bool interior = row0 - r >= 0 && row0 + 4 + r <= height && col0 - HALO >= 0 && col0 + 4 + HALO <= width;
    if (interior) rowsRolled<r, B>(N, width, row0, col0, P);
    else rows<r, true, 0, 0>(N, width, height, row0, col0, P);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        int row = row0 + j;
        if (row >= height) break;
        *reinterpret_cast<float4*>(Out + row * width + col0) = make_float4(P[j][0], P[j][1], P[j][2], P[j][3]);
    }
}
}  // namespace xv
