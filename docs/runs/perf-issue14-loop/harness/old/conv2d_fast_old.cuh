// conv2d_fast: not a figure of the book, but where chapter 7 leads on a
// current GPU (an H100). Same problem as conv2d_const: one channel, zero
// boundary (ghost cells are 0), mask of radius r <= 7 in constant memory.
//
// Why the tiled kernels of §7.4-7.5 stop short on such a GPU: they read one
// element of N_s and one of F_c for every multiply-add. An SM's shared memory
// and L1 deliver about 128 bytes per clock (32 floats), while its 128 FP32
// lanes do 128 multiply-adds per clock: a kernel that loads a float per tap is
// held to a quarter of the arithmetic rate, and from about 9x9 up it is slower
// than reading the image from DRAM once. Four changes move the limit:
//
// 1. Thread coarsening: each thread computes a PATCH x PATCH patch of outputs
//    (4 x 4) instead of one. Neighbouring outputs share most of their inputs,
//    so one value loaded into a register feeds up to 4 x 4 multiply-adds.
// 2. A sliding window in registers: the thread walks down the PATCH + 2r input
//    rows its patch needs. It loads one row at a time into `window`
//    (PATCH + 2r values, in registers) and adds that row into each of the
//    (up to) PATCH output rows that need it. Every input value is loaded once
//    per thread, and there is no shared memory and no __syncthreads(): the
//    halo a thread shares with its neighbours comes from the L1 cache, as in
//    conv2d_tiled_cached.
// 3. Vectorised loads and stores: one load4 moves four floats in a single
//    16-byte instruction, so a warp reads 512 contiguous bytes at once; fewer
//    instructions, and more bytes in flight to hide DRAM's latency. That needs
//    16-byte alignment: every row must start at a multiple of 4 floats, so
//    the kernel is compiled twice, ALIGNED (width % 4 == 0: float4 loads and
//    stores) and not (one float at a time), and the launcher picks one.
// 4. The radius is a template parameter (instantiated for 0..7, chosen at run
//    time by the launcher). Every loop bound is then a compile-time constant,
//    the loops unroll completely (TS_UNROLL), `window` and `Pvalue` become
//    registers, and F_c[fRow][fCol] has a constant address: the compiler
//    reads mask values into uniform registers (shared by the warp, one ULDC
//    instruction per two values) and uses each as an operand of the
//    multiply-adds. On an H100 that is one mask instruction per ~35 FFMAs at
//    15x15, where conv2d_const loads the mask for every tap.
//
// The block is blockDim.x x blockDim.y threads and covers an output tile of
// PATCH * blockDim.x x PATCH * blockDim.y elements.
constexpr int PATCH = 4;  // outputs per thread in each direction (one float4 wide)

// Adds the PATCH + 2r input rows that the patch with top-left output (row0,
// col0) needs into its outputs. Input row inRow = row0 - r + dy is tap row
// fRow = dy - j of output row row0 + j, so each row is loaded once and used by
// every output row within r of it. CHECKED: some of the rows or columns may
// lie outside the image, so each load is tested and ghost cells stay 0; for
// an interior patch (almost all of them) the tests and the zeros disappear.
template <int r, bool ALIGNED, bool CHECKED>
TS_FN void addInputRows(Global<const float> N, int width, int height, int row0, int col0,
                        Accumulator (&Pvalue)[PATCH][PATCH])
{
    constexpr int MASK_DIM = 2 * r + 1;
    // The window is made of whole float4s: the thread's own four columns and
    // HALO4 float4s on each side, enough for r halo columns (1 for r <= 4).
    constexpr int HALO4 = (r + 3) / 4;
    constexpr int WINDOW = 4 * (2 * HALO4 + 1);
    constexpr int SKEW = 4 * HALO4 - r;  // window[SKEW + c + fCol] is tap fCol of output column c
    const int inCol0 = col0 - 4 * HALO4;

    TS_UNROLL
    for (int dy = 0; dy < PATCH + 2 * r; dy++) {
        int inRow = row0 - r + dy;
        if (CHECKED && (inRow < 0 || inRow >= height)) continue;  // a row of ghost cells adds 0

        // The interior and the edge versions of this function are different
        // code on the GPU: a warp holding patches of both kinds issues each
        // version's loads for its own lanes. Each load is written twice, on
        // two lines, so that a trace (which knows a load by its line) tells
        // the two instructions apart as well (docs/memory-model.md).
        float window[WINDOW] = {};  // window[k] holds N[inRow][inCol0 + k]; ghost cells stay 0
        if constexpr (ALIGNED) {
            // A float4 starting at a multiple of 4 is entirely inside the row or entirely outside.
            TS_UNROLL
            for (int k = 0; k < 2 * HALO4 + 1; k++) {
                int inCol = inCol0 + 4 * k;
                if (CHECKED && (inCol < 0 || inCol >= width)) continue;  // a float4 of ghost cells stays 0
                Float4 v;
                if constexpr (CHECKED) {
                    v = load4(N, inRow * width + inCol);  // an edge patch: N[inRow*width + inCol] .. N[... + 3]
                } else {
                    v = load4(N, inRow * width + inCol);  // an interior patch: the same four floats
                }
                window[4 * k] = v.x;
                window[4 * k + 1] = v.y;
                window[4 * k + 2] = v.z;
                window[4 * k + 3] = v.w;
            }
        } else {
            // One element at a time, only those the patch needs.
            TS_UNROLL
            for (int k = SKEW; k < SKEW + PATCH - 1 + MASK_DIM; k++) {
                int inCol = inCol0 + k;
                if constexpr (CHECKED) {
                    if (inCol >= 0 && inCol < width) window[k] = N[inRow * width + inCol];  // an edge patch
                } else {
                    window[k] = N[inRow * width + inCol];  // an interior patch
                }
            }
        }

        // Up to PATCH x MASK_DIM x PATCH multiply-adds on values already in
        // registers; the `continue` is decided at compile time once unrolled.
        TS_UNROLL
        for (int j = 0; j < PATCH; j++) {
            int fRow = dy - j;
            if (fRow < 0 || fRow >= MASK_DIM) continue;  // this input row is outside output row j's mask
            TS_UNROLL
            for (int fCol = 0; fCol < MASK_DIM; fCol++) {
                float f = F_c[fRow][fCol];  // one mask value for four outputs
                TS_UNROLL
                for (int c = 0; c < PATCH; c++) Pvalue[j][c] += f * window[SKEW + c + fCol];
            }
        }
    }
}

template <int r, bool ALIGNED>
TS_KERNEL void conv2d_fast(Global<const float> N, Global<float> P, int width, int height)
{
    int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * PATCH;  // the patch's top-left output
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * PATCH;
    if (col0 >= width || row0 >= height) return;  // a patch entirely outside the image

    Accumulator Pvalue[PATCH][PATCH];
    TS_UNROLL
    for (int j = 0; j < PATCH; j++) {
        TS_UNROLL
        for (int c = 0; c < PATCH; c++) Pvalue[j][c] = 0.0f;
    }

    // Interior: every row and float4 the patch reads is inside the image.
    constexpr int HALO = 4 * ((r + 3) / 4);  // halo columns read on each side (whole float4s)
    bool interior = row0 - r >= 0 && row0 + PATCH + r <= height && col0 - HALO >= 0 && col0 + PATCH + HALO <= width;
    if (interior) {
        addInputRows<r, ALIGNED, false>(N, width, height, row0, col0, Pvalue);
    } else {
        addInputRows<r, ALIGNED, true>(N, width, height, row0, col0, Pvalue);
    }

    TS_UNROLL
    for (int j = 0; j < PATCH; j++) {
        int row = row0 + j;
        if (row >= height) break;
        if constexpr (ALIGNED) {
            store4(P, row * width + col0, Float4{Pvalue[j][0], Pvalue[j][1], Pvalue[j][2], Pvalue[j][3]});  // P[..]
        } else {
            TS_UNROLL
            for (int c = 0; c < PATCH; c++) {
                if (col0 + c < width) P[row * width + col0 + c] = Pvalue[j][c];
            }
        }
    }
}
