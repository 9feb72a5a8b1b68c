// conv2d_fast: not a figure of the book, but where chapter 7 leads on a
// current GPU (an H100). Same problem as conv2d_const: one channel, zero
// boundary (ghost cells are 0), mask of radius r <= 7 in constant memory.
//
// Why the tiled kernels of §7.4-7.5 stop short on such a GPU: they read one
// element of N_s and one of F_c for every multiply-add. An SM's shared memory
// and L1 deliver about 128 bytes per clock (32 floats), while its 128 FP32
// lanes do 128 multiply-adds per clock: a kernel that loads a float per tap is
// held to a quarter of the arithmetic rate, and from about 9x9 up it is slower
// than reading the image from DRAM once. Five changes move the limit:
//
// 1. Thread coarsening: each thread computes a PATCH x PATCH patch of outputs
//    (4 x 4) instead of one. Neighbouring outputs share most of their inputs,
//    so one value loaded into a register feeds up to 4 x 4 multiply-adds.
// 2. A sliding window in registers: the thread walks down the PATCH + 2r input
//    rows its patch needs. It loads one row at a time into `window`
//    (PATCH + 2r values, in registers) and adds that row into each of the
//    (up to) PATCH output rows that need it. Every input value is loaded once
//    per thread, and (but see 6) there is no shared memory and no barrier:
//    the halo a thread shares with its neighbours comes from the L1 cache, as
//    in conv2d_tiled_cached.
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
// 5. But not too much code: unrolled completely, a 15x15 mask is 3,900
//    instructions (63 KB) that every warp runs once from start to end; on an
//    H100 the warps then waited for their next instruction to be fetched in
//    about 40% of their cycles. From 13x13 up, the rows in the middle of the
//    patch's input are walked by a loop instead (addInputRows), which halves
//    the code (docs/performance.md).
// 6. But the loads in flight: at 7x7 and 9x9 a thread's multiply-adds and
//    the image's bytes from DRAM both come near their limits (the roofline's
//    corner), and a thread that loads a row and then adds it waits for DRAM
//    in between. There (STAGE_FROM..STAGE_TO) the block first copies its
//    input tile into shared memory with asynchronous copies (copyAsync4: a
//    cp.async of 16 bytes that goes from global to shared memory without a
//    register, a ghost cell written as 0) and computes from shared memory;
//    and its output tile is made of two bands, each with its own input tile,
//    so that all the copies of both are issued at once and the threads add
//    up the first band while the second band's copies are still arriving.
//    Each thread then computes two patches, one per band, and the block is
//    blockDim.x x blockDim.x / 2 threads. At 3x3 and 5x5 the loads alone
//    are the limit and the L1 cache serves them as fast as shared memory
//    would; from 11x11 up the arithmetic is, and the rows' loads hide behind
//    it; both stay as in 1-5.
//
// Each thread computes a PATCH x PATCH patch of outputs, the staged version
// two of them; either way a block covers an output tile of
// PATCH * blockDim.x x PATCH * blockDim.x elements.
constexpr int PATCH = 4;  // outputs per thread in each direction (one float4 wide)
constexpr int STAGE_FROM = 3, STAGE_TO = 4;  // the radii whose input is staged in shared memory (7x7, 9x9)
constexpr int BANDS = 2;                     // bands of output rows in a staged block's tile
// Registers a thread may use up to 9x9 (conv2d_fast_limited, at the end): at
// 32 a staged block of 16 x 8 threads leaves room for 16 such blocks per SM;
// at 3x3 and 5x5, 64 (the most that lets a block have 1024 threads) let the
// compiler keep more rows' loads in flight than it chooses to on its own
// (docs/performance.md). From 11x11 up the compiler's own choice is best.
constexpr int LIMIT_REGISTERS_TO = STAGE_TO;  // the largest radius launched as conv2d_fast_limited
constexpr int STAGED_REGISTERS = 32, DIRECT_REGISTERS = 64;
constexpr bool stagedByModel(int r) { return r >= STAGE_FROM && r <= STAGE_TO; }
constexpr int fastRegisters(bool staged) { return staged ? STAGED_REGISTERS : DIRECT_REGISTERS; }
// Those are the model's choices, measured on an H100. On the GPU it runs on,
// `tilescope bench` times a small menu of shapes (kernels/exec/fast_tuning.hpp):
// the block, staged or not at any radius, and each path's register limit or
// the compiler's own count. The menu runs as plain CUDA only; a trace always
// records the model's shape.

// The multiply-adds of input row dy of a patch, held in `window` (window[k]
// is the input at column col0 - 4 * HALO4 + k, HALO4 float4s left of the
// patch's first column col0), into the outputs it reaches. Input row dy is
// tap row fRow = dy - j of the patch's output row j, so each row is loaded
// once and used by every output row within r of it.
template <int r, int WINDOW>
TS_FN void addWindow(const float (&window)[WINDOW], int dy, Accumulator (&Pvalue)[PATCH][PATCH])
{
    constexpr int MASK_DIM = 2 * r + 1;
    constexpr int SKEW = 4 * ((r + 3) / 4) - r;  // window[SKEW + c + fCol] is tap fCol of output column c
    // Up to PATCH x MASK_DIM x PATCH multiply-adds on values already in
    // registers; where dy is known at compile time, so is the `continue`.
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

// Stores the patch with top-left output (row0, col0), leaving out the rows and
// columns past the image's edge.
template <bool ALIGNED>
TS_FN void storePatch(Global<float> P, int width, int height, int row0, int col0, Accumulator (&Pvalue)[PATCH][PATCH])
{
    if (col0 >= width) return;
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

// Copies one band's input tile into N_s, starting at element `tile`: rows
// inRow0 .. inRow0 + tileRows - 1 of the image, columns inCol0 .. inCol0 +
// 4 * tileWidth4 - 1, as float4s, with asynchronous copies. Inputs outside
// the image are ghost cells: the copy writes 0 for them without reading (its
// index may then lie outside N: it is not used). (unsigned)x < n is
// 0 <= x < n in one comparison: a negative x turns into a very large
// unsigned number. Where rows do not start at a multiple of 4 (not ALIGNED),
// the copies move one float at a time.
template <int r, bool ALIGNED>
TS_FN void stageBand(SharedArray<float> N_s, int tile, Global<const float> N, int width, int height, int inRow0,
                     int inCol0, int tileWidth4, int tileRows)
{
    constexpr int HALO4 = (r + 3) / 4;
    // Thread (tx, ty) copies the float4 above its own patch's first column, in rows ty, ty + blockDim.y, ...:
    // it moves down blockDim.y rows a trip, in the tile (s) and in the image (inRow, i).
    const int col4 = HALO4 + threadIdx.x;  // the tile's float4 column
    const int inCol = inCol0 + 4 * col4;
    int s = tile + (threadIdx.y * tileWidth4 + col4) * 4;
    int inRow = inRow0 + threadIdx.y;
    int i = inRow * width + inCol;
    // Four trips at a time in the plain build: more copies issued per loop test.
    TS_UNROLL_BY(4)
    for (int row = threadIdx.y; row < tileRows; row += blockDim.y) {
        bool rowInside = static_cast<unsigned>(inRow) < static_cast<unsigned>(height);
        if constexpr (ALIGNED) {
            // A float4 starting at a multiple of 4 is entirely inside the row or entirely outside.
            copyAsync4(N_s, s, N, i, rowInside && static_cast<unsigned>(inCol) < static_cast<unsigned>(width));
        } else {
            TS_UNROLL
            for (int k = 0; k < 4; k++)
                copyAsync(N_s, s + k, N, i + k, rowInside && static_cast<unsigned>(inCol + k) < static_cast<unsigned>(width));
        }
        s += blockDim.y * tileWidth4 * 4;
        inRow += blockDim.y;
        i += blockDim.y * width;
    }
    // The 2 * HALO4 halo columns of float4s on either side: the block's first threads, one float4 each.
    // The copies are written out here again, not shared with the loop above: on the GPU they are other
    // instructions, and a trace, which knows an access by its line, tells them apart only on other lines
    // (docs/memory-model.md).
    int thread = threadIdx.y * blockDim.x + threadIdx.x;
    for (int h = thread; h < 2 * HALO4 * tileRows; h += blockDim.x * blockDim.y) {
        int row = h / (2 * HALO4);
        int k = h % (2 * HALO4);
        int haloCol4 = k < HALO4 ? k : blockDim.x + k;  // left of the threads' columns, then right of them
        int haloRow = inRow0 + row, haloCol = inCol0 + 4 * haloCol4;
        int hs = tile + (row * tileWidth4 + haloCol4) * 4, hi = haloRow * width + haloCol;
        bool haloRowInside = static_cast<unsigned>(haloRow) < static_cast<unsigned>(height);
        if constexpr (ALIGNED) {
            copyAsync4(N_s, hs, N, hi, haloRowInside && static_cast<unsigned>(haloCol) < static_cast<unsigned>(width));
        } else {
            TS_UNROLL
            for (int c = 0; c < 4; c++)
                copyAsync(N_s, hs + c, N, hi + c,
                          haloRowInside && static_cast<unsigned>(haloCol + c) < static_cast<unsigned>(width));
        }
    }
}

// Adds input row dy of a patch from the staged tile: N_s[s ..] holds the
// row's inputs from HALO4 float4s left of the patch.
template <int r>
TS_FN void addSharedRow(SharedArray<float> N_s, int s, int dy, Accumulator (&Pvalue)[PATCH][PATCH])
{
    constexpr int HALO4 = (r + 3) / 4;
    float window[4 * (2 * HALO4 + 1)];
    TS_UNROLL
    for (int k = 0; k < 2 * HALO4 + 1; k++) {
        Float4 v = load4(N_s, s + 4 * k);  // four inputs in one 16-byte shared-memory load
        window[4 * k] = v.x;
        window[4 * k + 1] = v.y;
        window[4 * k + 2] = v.z;
        window[4 * k + 3] = v.w;
    }
    addWindow<r>(window, dy, Pvalue);
}

// 7x7 and 9x9 (point 6 above): the block's output tile is BANDS bands of
// PATCH * blockDim.y rows; each band has its own input tile in shared memory.
template <int r, bool ALIGNED>
TS_FN void conv2dFastStaged(Global<const float> N, Global<float> P, int width, int height)
{
    constexpr int HALO4 = (r + 3) / 4;
    const int TILE_W4 = blockDim.x + 2 * HALO4;    // float4s in a row of a band's input tile
    const int TILE_H = PATCH * blockDim.y + 2 * r;  // rows of a band's input tile
    const int TILE = 4 * TILE_W4 * TILE_H;          // floats in a band's input tile
    SharedArray<float> N_s(BANDS * TILE);           // __shared__ float N_s[BANDS][TILE_H][4 * TILE_W4]

    const int bandRows = PATCH * blockDim.y;
    const int tileRow0 = blockIdx.y * BANDS * bandRows;  // the block's first output row
    const int tileCol0 = blockIdx.x * PATCH * blockDim.x;

    // Every copy of both bands is issued now, band 0's as one group and band 1's as the next.
    for (int band = 0; band < BANDS; band++) {
        stageBand<r, ALIGNED>(N_s, band * TILE, N, width, height, tileRow0 + band * bandRows - r,
                              tileCol0 - 4 * HALO4, TILE_W4, TILE_H);
        commitCopies();
    }
    TS_KEEP_LOOP
    for (int band = 0; band < BANDS; band++) {
        // This thread's copies of this band have arrived (those of the next band may not have) ...
        if (band + 1 < BANDS) {
            waitCopies<1>();
        } else {
            waitCopies<0>();
        }
        __syncthreads();  // ... and so have every other thread's: the band's input tile is complete

        Accumulator Pvalue[PATCH][PATCH];
        TS_UNROLL
        for (int j = 0; j < PATCH; j++) {
            TS_UNROLL
            for (int c = 0; c < PATCH; c++) Pvalue[j][c] = 0.0f;
        }
        // The patch's first input row starts PATCH * threadIdx.y rows down the tile, PATCH * threadIdx.x columns in.
        int s = band * TILE + (PATCH * threadIdx.y * TILE_W4 + threadIdx.x) * 4;
        TS_UNROLL
        for (int dy = 0; dy < PATCH + 2 * r; dy++) addSharedRow<r>(N_s, s + dy * 4 * TILE_W4, dy, Pvalue);
        storePatch<ALIGNED>(P, width, height, tileRow0 + band * bandRows + PATCH * threadIdx.y,
                            tileCol0 + PATCH * threadIdx.x, Pvalue);
    }
}

// Loads input row dy of the patch with top-left output (row0, col0), input
// row inRow = row0 - r + dy, from global memory and adds it into the outputs
// it reaches. CHECKED: some of the rows or columns may lie outside
// the image, so each load is tested and ghost cells stay 0; for an interior
// patch (almost all of them) the tests and the zeros disappear.
template <int r, bool ALIGNED, bool CHECKED>
TS_FN void addInputRow(Global<const float> N, int width, int height, int row0, int col0, int dy,
                       Accumulator (&Pvalue)[PATCH][PATCH])
{
    constexpr int MASK_DIM = 2 * r + 1;
    // The window is made of whole float4s: the thread's own four columns and
    // HALO4 float4s on each side, enough for r halo columns (1 for r <= 4).
    constexpr int HALO4 = (r + 3) / 4;
    constexpr int WINDOW = 4 * (2 * HALO4 + 1);
    constexpr int SKEW = 4 * HALO4 - r;  // window[SKEW + c + fCol] is tap fCol of output column c
    const int inCol0 = col0 - 4 * HALO4;

    int inRow = row0 - r + dy;
    if (CHECKED && (inRow < 0 || inRow >= height)) return;  // a row of ghost cells adds 0
    int rowStart = inRow * width + inCol0;  // N[rowStart] is N[inRow][inCol0]

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
                v = load4(N, rowStart + 4 * k);  // an edge patch: N[inRow][inCol] .. N[inRow][inCol + 3]
            } else {
                v = load4(N, rowStart + 4 * k);  // an interior patch: the same four floats
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
                if (inCol >= 0 && inCol < width) window[k] = N[rowStart + k];  // an edge patch
            } else {
                window[k] = N[rowStart + k];  // an interior patch
            }
        }
    }
    addWindow<r>(window, dy, Pvalue);
}

// Adds the PATCH + 2r input rows that the patch needs into its outputs, in
// order. The first PATCH - 1 rows and the last PATCH - 1 reach only some of
// the patch's output rows; each row between them reaches all PATCH of them.
//
// Up to 11x11 every row is unrolled. From 13x13 up (LOOP_FROM) the rows
// between are walked by a loop that the compiler keeps (TS_KEEP_LOOP),
// PATCH rows a trip, and only the rows it leaves are unrolled: 31 KB of
// code instead of 63 KB at 15x15. In the loop the mask row dy - j is known
// only at run time, but it is the same for the whole warp, so F_c still
// comes through the warp's uniform registers (ConstantArray's alignment,
// plain_language.cuh, makes sure of that), now read once per trip. The edge
// version stays unrolled: looped, its tests needed more registers.
constexpr int LOOP_FROM = 6;

template <int r, bool ALIGNED, bool CHECKED>
TS_FN void addInputRows(Global<const float> N, int width, int height, int row0, int col0,
                        Accumulator (&Pvalue)[PATCH][PATCH])
{
    constexpr int ROWS = PATCH + 2 * r;
    constexpr int FIRST_FULL = PATCH - 1;  // the first row that reaches all PATCH output rows
    constexpr int FULL_ROWS = ROWS - 2 * (PATCH - 1);
    constexpr int LOOPED = r >= LOOP_FROM && !CHECKED ? FULL_ROWS / PATCH * PATCH : 0;  // rows the loop walks

    TS_UNROLL
    for (int dy = 0; dy < FIRST_FULL; dy++) addInputRow<r, ALIGNED, CHECKED>(N, width, height, row0, col0, dy, Pvalue);
    TS_KEEP_LOOP
    for (int dy0 = FIRST_FULL; dy0 < FIRST_FULL + LOOPED; dy0 += PATCH) {
        TS_UNROLL
        for (int k = 0; k < PATCH; k++) addInputRow<r, ALIGNED, CHECKED>(N, width, height, row0, col0, dy0 + k, Pvalue);
    }
    TS_UNROLL
    for (int dy = FIRST_FULL + LOOPED; dy < ROWS; dy++)
        addInputRow<r, ALIGNED, CHECKED>(N, width, height, row0, col0, dy, Pvalue);
}

template <int r, bool ALIGNED, bool STAGED>
TS_FN void conv2dFast(Global<const float> N, Global<float> P, int width, int height)
{
    if constexpr (STAGED) {
        conv2dFastStaged<r, ALIGNED>(N, P, width, height);
    } else {
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
        bool interior =
            row0 - r >= 0 && row0 + PATCH + r <= height && col0 - HALO >= 0 && col0 + PATCH + HALO <= width;
        if (interior) {
            addInputRows<r, ALIGNED, false>(N, width, height, row0, col0, Pvalue);
        } else {
            addInputRows<r, ALIGNED, true>(N, width, height, row0, col0, Pvalue);
        }
        storePatch<ALIGNED>(P, width, height, row0, col0, Pvalue);
    }
}

// The kernel: two entries with the same body, launched by radius
// (launch_table.inl). conv2d_fast_limited holds a thread to REGISTERS
// registers; conv2d_fast leaves the count to the compiler, which from 11x11
// up picks what the kernel runs best with. STAGED says which of the two
// paths above runs: the model's choice unless a tuned shape asks otherwise.
template <int r, bool ALIGNED, bool STAGED = stagedByModel(r)>
TS_KERNEL void conv2d_fast(Global<const float> N, Global<float> P, int width, int height)
{
    conv2dFast<r, ALIGNED, STAGED>(N, P, width, height);
}
template <int r, bool ALIGNED, bool STAGED = stagedByModel(r), int REGISTERS = fastRegisters(STAGED)>
TS_KERNEL void TS_MAX_REGISTERS(REGISTERS) conv2d_fast_limited(Global<const float> N, Global<float> P, int width,
                                                               int height)
{
    conv2dFast<r, ALIGNED, STAGED>(N, P, width, height);
}
