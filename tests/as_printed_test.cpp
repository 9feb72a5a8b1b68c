// The listings as printed (kernels/conv/as_printed/): each runs on the CPU
// executor with the problem detector on, on a size that exposes its defect,
// and the detector must find exactly the problems that defect implies, no
// more and no fewer. The expected counts come from the geometry of the launch
// (which threads exist, which elements each one touches), worked out here
// independently of the kernels; the corrected kernel, on the same input, is
// clean.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "core/planner.hpp"
#include "reference/reference.hpp"
#include "test_support.hpp"
#include "trace/problems.hpp"
#include "trace/sources.hpp"

namespace tilescope::test {
namespace {

// Values in [0.5, 1.5]: every sum of products is positive, so an output that
// misses a term, gains one, or is never written differs from the reference
// by far more than float rounding.
Image positiveImage(int width, int height, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(0.5f, 1.5f);
    Image image = Image::planar(width, height, 1);
    for (float& v : image.data)
        v = value(random);
    return image;
}

Image positiveSignal(int n, unsigned seed) {
    Image image = positiveImage(n, 1, seed);
    image.rank = 1;
    return image;
}

Mask positiveMask(int width, bool twoD, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(0.5f, 1.5f);
    std::vector<float> v(twoD ? width * width : width);
    for (float& x : v)
        x = value(random);
    return twoD ? Mask::square(width, v) : Mask::row(v);
}

// A checked run on the CPU executor. One worker runs the blocks one after
// another in block order, so where two threads store one element the last
// store is the later block's, and the result is the same on every run.
RunResult check(std::string_view kernel, const Image& in, const Mask& mask, int block) {
    RunRequest r = requestFor(std::string(kernel), in, mask, block, Backend::Cpu);
    r.check = true;
    r.cpuWorkers = 1;
    auto result = runKernel(r);
    EXPECT_TRUE(result.ok()) << kernel << ": " << (result.ok() ? "" : result.error().message);
    if (!result.ok())
        return RunResult{};
    EXPECT_TRUE(result->problems.has_value()) << kernel;
    EXPECT_TRUE(result->trace.has_value()) << kernel;
    return std::move(*result);
}

using Counts = std::array<std::uint64_t, kProblemKindCount>;

Counts counts(std::initializer_list<std::pair<ProblemKind, std::uint64_t>> kinds) {
    Counts c{};
    for (auto [kind, n] : kinds)
        c[static_cast<std::size_t>(kind)] = n;
    return c;
}

std::string describe(const Counts& c) {
    std::string s;
    for (int k = 0; k < kProblemKindCount; ++k)
        s += std::string(k ? ", " : "") + problemKindKey(static_cast<ProblemKind>(k)) + " " + std::to_string(c[k]);
    return s;
}

// The line of the kernel's source that holds `text` (exactly one line does).
unsigned lineOf(std::string_view kernel, std::string_view text) {
    const std::string_view source = kernelSource(*findKernel(kernel));
    const int lines = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
    unsigned found = 0, matches = 0;
    for (int line = 1; line <= lines; ++line) {
        if (sourceLine(source, line).find(text) != std::string_view::npos) {
            found = static_cast<unsigned>(line);
            ++matches;
        }
    }
    EXPECT_EQ(matches, 1u) << kernel << ": '" << text << "'";
    return found;
}

std::vector<const ProblemReport*> itemsOf(const ProblemSet& set, ProblemKind kind) {
    std::vector<const ProblemReport*> items;
    for (const ProblemReport& p : set.items)
        if (p.kind == kind)
            items.push_back(&p);
    return items;
}

// The block and thread index of a problem's access.
struct Who {
    Dim3 block;
    unsigned tx = 0, ty = 0;
};
Who who(const Trace& t, const ProblemAccess& a) {
    return Who{t.blocks[a.block].block, a.thread % t.plan.block.x, a.thread / t.plan.block.x};
}

void expectCleanCorrected(std::string_view asPrinted, const Image& in, const Mask& mask, int block) {
    const KernelInfo& corrected = correctedKernel(*findKernel(asPrinted));
    ASSERT_FALSE(corrected.asPrinted);
    RunResult run = check(corrected.name, in, mask, block);
    ASSERT_TRUE(run.problems);
    EXPECT_TRUE(run.problems->clean()) << corrected.name << ": " << run.problems->summary();
}

// [SECTION] The catalogue

TEST(AsPrinted, EveryListingIsCataloguedAfterTheCorrectedKernels) {
    int printed = 0;
    bool seenPrinted = false;
    for (const KernelInfo& k : allKernels()) {
        if (!k.asPrinted) {
            EXPECT_FALSE(seenPrinted) << k.name << " comes after a listing as printed";
            EXPECT_TRUE(k.defect.empty()) << k.name;
            EXPECT_EQ(&correctedKernel(k), &k) << k.name;
            continue;
        }
        seenPrinted = true;
        ++printed;
        EXPECT_TRUE(k.name.ends_with("_as_printed")) << k.name;
        EXPECT_TRUE(k.sourceFile.starts_with("conv/as_printed/")) << k.name;
        EXPECT_FALSE(k.defect.empty()) << k.name;
        EXPECT_FALSE(kernelSource(k).empty()) << k.name << ": its source is not embedded";
        const KernelInfo& c = correctedKernel(k);
        EXPECT_FALSE(c.asPrinted) << k.name;
        EXPECT_EQ(c.dims, k.dims) << k.name;
        EXPECT_EQ(c.tiles, k.tiles) << k.name;  // planned as the corrected kernel is
        EXPECT_EQ(c.usesShared, k.usesShared) << k.name;
    }
    EXPECT_EQ(printed, 9);
}

// [SECTION] 1D: no `i < Width` test (Figures 7.6 and 7.8)

// Width 10 with blocks of 4: a grid of 3 blocks, 12 threads; threads 10 and
// 11 (block 2, threads 2 and 3) store P[10] and P[11], past the end of P.
// Width 300 with blocks of 64: 320 threads, 20 past the end.
void expectStoresPastTheEnd(std::string_view kernel) {
    for (auto [width, block, seed] : {std::array{10, 4, 1}, std::array{300, 64, 2}}) {
        const Image in = positiveSignal(width, seed);
        const Mask mask = positiveMask(3, false, seed);
        RunResult run = check(kernel, in, mask, block);
        ASSERT_TRUE(run.problems && run.trace);
        const int blocks = (width + block - 1) / block;
        const int excess = blocks * block - width;  // threads with i >= Width
        EXPECT_EQ(run.problems->counts, counts({{ProblemKind::OutOfBounds, excess}}))
            << kernel << " width " << width << ": " << describe(run.problems->counts);

        const unsigned store = lineOf(kernel, "P[i] = Pvalue;");
        std::set<int> indices;
        for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::OutOfBounds)) {
            EXPECT_EQ(p->array, kArrayOutput);
            EXPECT_EQ(p->first.op, Op::StoreOutside);
            EXPECT_EQ(p->first.line, store);
            const Who w = who(*run.trace, p->first);
            EXPECT_EQ(w.block.x, static_cast<unsigned>(blocks - 1));          // the last block
            EXPECT_EQ(p->index, static_cast<int>(w.block.x * block + w.tx));  // P[i], i = its own index
            EXPECT_GE(p->index, width);
            indices.insert(p->index);
        }
        EXPECT_EQ(indices.size(), static_cast<std::size_t>(excess));

        expectCleanCorrected(kernel, in, mask, block);
    }
    // A Width that is a whole number of blocks leaves no thread past the end:
    // the defect does not show.
    const Image in = positiveSignal(16, 3);
    RunResult run = check(kernel, in, positiveMask(3, false, 3), 4);
    ASSERT_TRUE(run.problems);
    EXPECT_TRUE(run.problems->clean()) << run.problems->summary();
}

TEST(AsPrinted, Figure7_6StoresPastTheEndOfP) {
    expectStoresPastTheEnd("conv1d_basic_as_printed");
}
TEST(AsPrinted, Figure7_8StoresPastTheEndOfP) {
    expectStoresPastTheEnd("conv1d_const_as_printed");
}

// [SECTION] 1D tiled: no store of P, an unguarded load (Figures 7.11 and 7.14)

// The kernel never stores P: every output keeps the 0 it started with and is
// wrong. The threads of the last block with i >= Width load N[i], outside N.
void expectNoResultAndLoadsPastTheEnd(std::string_view kernel, std::string_view load) {
    for (auto [width, block, radius] : {std::array{10, 4, 1}, std::array{300, 64, 2}}) {
        const Image in = positiveSignal(width, 5);
        const Mask mask = positiveMask(2 * radius + 1, false, 6);
        RunResult run = check(kernel, in, mask, block);
        ASSERT_TRUE(run.problems && run.trace);
        const int blocks = (width + block - 1) / block;
        const int excess = blocks * block - width;
        EXPECT_EQ(run.problems->counts, counts({{ProblemKind::OutOfBounds, excess}, {ProblemKind::WrongResult, width}}))
            << kernel << " width " << width << ": " << describe(run.problems->counts);

        const unsigned line = lineOf(kernel, load);
        for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::OutOfBounds)) {
            EXPECT_EQ(p->array, kArrayInput);
            EXPECT_EQ(p->first.op, Op::LoadOutside);
            EXPECT_EQ(p->first.line, line);
            const Who w = who(*run.trace, p->first);
            EXPECT_EQ(w.block.x, static_cast<unsigned>(blocks - 1));
            EXPECT_EQ(p->index, static_cast<int>(w.block.x * block + w.tx));
        }
        std::set<int> wrong;
        for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::WrongResult)) {
            EXPECT_EQ(p->got, 0.0f);
            EXPECT_FALSE(p->first.valid());  // no thread wrote it
            wrong.insert(p->x);
        }
        EXPECT_EQ(wrong.size(), static_cast<std::size_t>(width));
        expectCleanCorrected(kernel, in, mask, block);
    }
}

TEST(AsPrinted, Figure7_11NeverWritesPAndLoadsPastTheEndOfN) {
    expectNoResultAndLoadsPastTheEnd("conv1d_tiled_as_printed", "N_ds[n + threadIdx.x] = N[");
}
TEST(AsPrinted, Figure7_14NeverWritesPAndLoadsPastTheEndOfN) {
    expectNoResultAndLoadsPastTheEnd("conv1d_tiled_cached_as_printed", "N_ds[threadIdx.x] = N[i];");
}

// [SECTION] 2D basic: no output guard (Figures 7.7 and 7.9)

// Every thread of the grid stores P[outRow*width + outCol]. A thread with
// outCol >= width or outRow >= height stores either past the end of P or on
// an element of the next row that its own thread stores too. Blocks run in
// order (one worker), so the element keeps the later block's value: the
// excess thread's sum, taken around a pixel outside the image, when its
// block comes later.
void expectDuplicateAndOutsideStores(std::string_view kernel) {
    const int width = 10, height = 6, block = 4, r = 1;
    const Image in = positiveImage(width, height, 7);
    const Mask mask = positiveMask(2 * r + 1, true, 8);
    const std::vector<double> want = reference::convolve(in, mask);
    const double tolerance = reference::float32Tolerance(in, mask);
    // The sum of the in-image taps around (x, y), which may lie outside the image.
    auto sumAround = [&](int x, int y) {
        double s = 0.0;
        for (int fRow = 0; fRow <= 2 * r; ++fRow)
            for (int fCol = 0; fCol <= 2 * r; ++fCol) {
                const int inRow = y - r + fRow, inCol = x - r + fCol;
                if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width)
                    s += mask.at(fCol, fRow) * in.at(inCol, inRow);
            }
        return s;
    };

    const int gx = (width + block - 1) / block, gy = (height + block - 1) / block;
    int outside = 0;
    std::map<int, int> storers;               // element -> threads that store it
    std::map<int, std::pair<int, int>> last;  // element -> (x, y) of the last store, in block order
    for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx)
            for (int ty = 0; ty < block; ++ty)
                for (int tx = 0; tx < block; ++tx) {
                    const int x = bx * block + tx, y = by * block + ty, index = y * width + x;
                    if (index >= width * height) {
                        ++outside;
                        continue;
                    }
                    ++storers[index];
                    last[index] = {x, y};
                }
    int duplicates = 0, wrong = 0;
    std::set<std::pair<int, int>> wrongAt;
    for (auto [index, n] : storers) {
        duplicates += n > 1;
        const auto [x, y] = last[index];
        if (std::abs(sumAround(x, y) - want[index]) > tolerance) {
            ++wrong;
            wrongAt.insert({index % width, index / width});
        }
    }
    // 10 x 6 in blocks of 4: columns 10 and 11 of rows 0-4 land on columns 0
    // and 1 of rows 1-5 (10 elements stored twice), the rest of the excess
    // (26 threads) past the end. The excess store comes later, and stays, for
    // rows 0, 1, 2 and 4; row 3's lands in row 4, whose own block runs later.
    EXPECT_EQ(outside, 26);
    EXPECT_EQ(duplicates, 10);
    EXPECT_EQ(wrong, 8);

    RunResult run = check(kernel, in, mask, block);
    ASSERT_TRUE(run.problems && run.trace);
    EXPECT_EQ(run.problems->counts, counts({{ProblemKind::OutOfBounds, outside},
                                            {ProblemKind::DuplicateStore, duplicates},
                                            {ProblemKind::WrongResult, wrong}}))
        << kernel << ": " << describe(run.problems->counts);

    const unsigned store = lineOf(kernel, "P[outRow * width + outCol] = Pvalue;");
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::OutOfBounds)) {
        EXPECT_EQ(p->first.op, Op::StoreOutside);
        EXPECT_EQ(p->first.line, store);
        const Who w = who(*run.trace, p->first);
        const int x = w.block.x * block + w.tx, y = w.block.y * block + w.ty;
        EXPECT_TRUE(x >= width || y >= height) << x << "," << y;
        EXPECT_EQ(p->index, y * width + x);
    }
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::DuplicateStore)) {
        EXPECT_EQ(p->array, kArrayOutput);
        EXPECT_EQ(p->first.line, store);
        EXPECT_EQ(p->second.line, store);
        EXPECT_EQ(p->order, HazardOrder::Unordered);  // the two threads are in different blocks
        EXPECT_EQ(storers[p->index], 2);
        // One of the two is the element's own thread, the other is past the right edge.
        const Who a = who(*run.trace, p->first), b = who(*run.trace, p->second);
        const int xa = a.block.x * block + a.tx, xb = b.block.x * block + b.tx;
        EXPECT_TRUE((xa < width) != (xb < width)) << xa << " " << xb;
    }
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::WrongResult))
        EXPECT_TRUE(wrongAt.count({p->x, p->y})) << p->x << "," << p->y;

    expectCleanCorrected(kernel, in, mask, block);
}

TEST(AsPrinted, Figure7_7StoresTwiceAndPastTheEndOfP) {
    expectDuplicateAndOutsideStores("conv2d_basic_as_printed");
}
TEST(AsPrinted, Figure7_9StoresTwiceAndPastTheEndOfP) {
    expectDuplicateAndOutsideStores("conv2d_const_as_printed");
}

// [SECTION] Figure 7.15: N_s indexed without `- FILTER_RADIUS`, halo dropped

TEST(AsPrinted, Figure7_15ReadsPastTheTileAndDropsTheHalo) {
    const std::string_view kernel = "conv2d_tiled_cached_as_printed";
    const int width = 10, height = 7, tile = 4;
    for (int r : {1, 2}) {
        const Image in = positiveImage(width, height, 9);
        const Mask mask = positiveMask(2 * r + 1, true, 10);
        // Every thread inside the image runs the taps whose tile position
        // (threadIdx - r + f) lies in the tile. The listing's `>= 0` is
        // computed unsigned and is always true; a negative position wraps to a
        // huge unsigned value, which `< TILE_DIM` rejects, so the taps are the
        // same as with signed arithmetic. Each reads N_s[ty + fRow][tx + fCol]:
        // outside the tile when either index reaches TILE_DIM.
        int outside = 0;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const int tx = x % tile, ty = y % tile;
                for (int fRow = 0; fRow <= 2 * r; ++fRow)
                    for (int fCol = 0; fCol <= 2 * r; ++fCol) {
                        const int col = tx - r + fCol, row = ty - r + fRow;
                        if (col < 0 || col >= tile || row < 0 || row >= tile)
                            continue;  // dropped: no else
                        outside += ty + fRow >= tile || tx + fCol >= tile;
                    }
            }
        // With positive values no output can come out right: each sums a
        // window shifted by r rows and r columns, less the dropped halo taps.
        RunResult run = check(kernel, in, mask, tile);
        ASSERT_TRUE(run.problems && run.trace);
        EXPECT_EQ(run.problems->counts,
                  counts({{ProblemKind::OutOfBounds, outside}, {ProblemKind::WrongResult, width * height}}))
            << kernel << " r=" << r << ": " << describe(run.problems->counts);
        const unsigned line =
            lineOf(kernel, "Pvalue += F_c[fRow][fCol] * N_s[threadIdx.y + fRow][threadIdx.x + fCol];");
        for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::OutOfBounds)) {
            EXPECT_EQ(p->array, kArrayShared);
            EXPECT_EQ(p->first.op, Op::LoadOutside);
            EXPECT_EQ(p->first.line, line);
        }
        expectCleanCorrected(kernel, in, mask, tile);
    }
}

// [SECTION] Figures 7.19-7.21: tile off by one, no barrier, result into N

TEST(AsPrinted, Figure7_21RacesOnNsWritesIntoNAndNeverWritesP) {
    const std::string_view kernel = "conv2d_tiled_pitched_as_printed";
    const int width = 20, height = 12, block = 8, r = 1, maskWidth = 2 * r + 1;
    const int out = block - (maskWidth - 1);  // O_TILE_WIDTH
    const int gx = (width + out - 1) / out, gy = (height + out - 1) / out;
    const int pitch = pitchFor(width, 1);
    ASSERT_NE(pitch, width);  // so that `width` for `pitch` matters
    const Image in = positiveImage(width, height, 11);
    const Mask mask = positiveMask(maskWidth, true, 12);

    // Shared memory: with no barrier, every read of a tile element another
    // thread writes is a race. Each of the out x out computing threads of a
    // block reads Mask_Width^2 elements of Ns, one of them its own.
    const std::uint64_t sharedRaces = static_cast<std::uint64_t>(gx) * gy * out * out * (maskWidth * maskWidth - 1);
    // Global memory: the computing threads inside the image store N[row_o*width
    // + col_o]; every thread whose (off by one) input pixel is inside the image
    // loads N[row_i*pitch + col_i]. Each load of an element another thread
    // stores is a race (across blocks, or in the same block with no barrier).
    std::map<int, std::pair<int, int>> storer;  // element -> (block, thread)
    std::vector<std::pair<int, std::pair<int, int>>> loads;
    for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx)
            for (int ty = 0; ty < block; ++ty)
                for (int tx = 0; tx < block; ++tx) {
                    const std::pair<int, int> id{bx + gx * by, tx + block * ty};
                    const int rowO = by * out + ty, colO = bx * out + tx;
                    const int rowI = rowO - maskWidth / 2 + 1, colI = colO - maskWidth / 2 + 1;
                    if (rowI >= 0 && rowI < height && colI >= 0 && colI < width)
                        loads.push_back({rowI * pitch + colI, id});
                    if (ty < out && tx < out && rowO < height && colO < width) {
                        EXPECT_FALSE(storer.count(rowO * width + colO));  // no element is stored twice
                        storer[rowO * width + colO] = id;
                    }
                }
    std::uint64_t globalRaces = 0;
    for (const auto& [index, id] : loads) {
        auto s = storer.find(index);
        globalRaces += s != storer.end() && s->second != id;
    }

    RunResult run = check(kernel, in, mask, block);
    ASSERT_TRUE(run.problems && run.trace);
    EXPECT_EQ(run.problems->counts, counts({{ProblemKind::SharedRace, sharedRaces},
                                            {ProblemKind::GlobalRace, globalRaces},
                                            {ProblemKind::WrongResult, width * height}}))
        << describe(run.problems->counts);
    EXPECT_GT(globalRaces, 0u);

    // Each shared race: a tile element written at the load (or by a ghost
    // cell's 0.0f), read at the multiply-add, with no __syncthreads() between.
    const unsigned load = lineOf(kernel, "Ns[ty][tx] = N[row_i * pitch + col_i];");
    const unsigned zero = lineOf(kernel, "Ns[ty][tx] = 0.0f;");
    const unsigned compute = lineOf(kernel, "output += M[i * Mask_Width + j] * Ns[i + ty][j + tx];");
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::SharedRace)) {
        EXPECT_EQ(p->order, HazardOrder::ReadAfterWrite);
        EXPECT_TRUE(p->first.line == load || p->first.line == zero) << p->first.line;
        EXPECT_EQ(p->first.op, Op::Store);
        EXPECT_EQ(p->second.line, compute);
        EXPECT_EQ(p->second.op, Op::Load);
    }
    // Each global race: the store into N against a load of the same element.
    const unsigned into = lineOf(kernel, "N[row_o * width + col_o] = output;");
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::GlobalRace)) {
        EXPECT_EQ(p->array, kArrayInput);
        const ProblemAccess& store = isStore(p->first.op) ? p->first : p->second;
        const ProblemAccess& read = isStore(p->first.op) ? p->second : p->first;
        EXPECT_EQ(store.line, into);
        EXPECT_EQ(read.line, load);
    }
    // P is never written: every output is 0.
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::WrongResult))
        EXPECT_EQ(p->got, 0.0f);

    // The caller's image is untouched: the kernel wrote into the launch's copy.
    EXPECT_EQ(in.data, positiveImage(width, height, 11).data);
    expectCleanCorrected(kernel, in, mask, block);
}

// [SECTION] The slides' basic kernel

TEST(AsPrinted, SlidesKernelAccumulatesIntoDstAndReadsOutsideSrc) {
    const std::string_view kernel = "conv2d_basic_slides_as_printed";
    const int width = 8, height = 8, block = 4, fsize = 3;
    const Image in = positiveImage(width, height, 13);
    const Mask mask = positiveMask(fsize, true, 14);
    // Taps src[(y+k-1)*w + (x+l-1)] outside the array: in the top and bottom
    // rows, and at one tap each of the first pixel of row 1 (src[-1]) and the
    // last pixel of row h-2 (src[w*h]). Elsewhere in the left and right
    // columns they wrap into the neighbouring row, inside the array.
    int outside = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int k = 0; k < fsize; ++k)
                for (int l = 0; l < fsize; ++l) {
                    const int index = (y + k - 1) * width + (x + l - 1);
                    if (index < 0 || index >= width * height) {
                        ++outside;
                        EXPECT_TRUE(y == 0 || y == height - 1 || (y == 1 && x == 0) ||
                                    (y == height - 2 && x == width - 1));
                    }
                }
    // A load outside gives 0, as a ghost cell would: the top and bottom rows
    // come out right except at their ends. The left and right columns add a
    // pixel of the neighbouring row where the reference has a ghost cell: all
    // 2 x height of them are wrong. dst starts at 0, so the rest is right,
    // but each thread's first `+=` reads dst before anything wrote it.
    RunResult run = check(kernel, in, mask, block);
    ASSERT_TRUE(run.problems && run.trace);
    EXPECT_EQ(run.problems->counts, counts({{ProblemKind::UninitialisedRead, width * height},
                                            {ProblemKind::OutOfBounds, outside},
                                            {ProblemKind::WrongResult, 2 * height}}))
        << describe(run.problems->counts);

    const unsigned line = lineOf(kernel, "dst[y * w + x] += src[(y + k - 1) * w + (x + l - 1)] * f[k * fsize + l];");
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::UninitialisedRead)) {
        EXPECT_EQ(p->array, kArrayOutput);
        EXPECT_EQ(p->first.line, line);
        const Who w = who(*run.trace, p->first);
        EXPECT_EQ(p->index, static_cast<int>((w.block.y * block + w.ty) * width + w.block.x * block + w.tx));
    }
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::OutOfBounds)) {
        EXPECT_EQ(p->array, kArrayInput);
        EXPECT_EQ(p->first.op, Op::LoadOutside);
        EXPECT_EQ(p->first.line, line);
        const Who w = who(*run.trace, p->first);
        const int x = static_cast<int>(w.block.x * block + w.tx), y = static_cast<int>(w.block.y * block + w.ty);
        EXPECT_TRUE(y == 0 || y == height - 1 || (y == 1 && x == 0) || (y == height - 2 && x == width - 1))
            << x << "," << y;
        EXPECT_EQ(p->index < 0, y <= 1) << x << "," << y;  // before the start at the top, past the end at the bottom
    }
    for (const ProblemReport* p : itemsOf(*run.problems, ProblemKind::WrongResult))
        EXPECT_TRUE(p->x == 0 || p->x == width - 1) << p->x << "," << p->y;
    expectCleanCorrected(kernel, in, mask, block);

    // With a 5 x 5 filter the `- 1` no longer centres it: the interior is wrong too.
    const Mask five = positiveMask(5, true, 15);
    RunResult shifted = check(kernel, in, five, block);
    ASSERT_TRUE(shifted.problems);
    EXPECT_EQ(shifted.problems->count(ProblemKind::WrongResult), static_cast<std::uint64_t>(width * height));
}

// [SECTION] On the GPU: the instrumented kernels find the same problems

// The GPU runs the listings as instrumented CUDA only (never the plain kernel,
// which would touch memory outside its arrays). The accesses each thread
// makes do not depend on the order threads run in, so every kind but wrong
// results is counted the same; a race's values, and so the outputs where two
// threads store one element, may differ.
TEST(AsPrintedGpu, SameProblemsAsTheCpu) {
    std::string reason;
    if (!gpuAvailable(&reason))
        GTEST_SKIP() << "no GPU: " << reason;
    for (const KernelInfo& k : allKernels()) {
        if (!k.asPrinted)
            continue;
        const bool twoD = k.dims == 2;
        const Image in = twoD ? positiveImage(21, 13, 16) : positiveSignal(70, 16);
        const Mask mask = positiveMask(3, twoD, 17);
        const int block = twoD ? 8 : 16;
        RunResult cpu = check(k.name, in, mask, block);
        RunRequest r = requestFor(std::string(k.name), in, mask, block, Backend::Cuda);
        r.check = true;
        auto gpu = runKernel(r);
        ASSERT_TRUE(gpu.ok()) << k.name << ": " << gpu.error().message;
        ASSERT_TRUE(cpu.problems && gpu->problems);
        EXPECT_EQ(gpu->backend, Backend::Cuda);
        EXPECT_FALSE(gpu->plainSkipped.empty()) << k.name;
        for (int kind = 0; kind < kProblemKindCount; ++kind) {
            if (static_cast<ProblemKind>(kind) == ProblemKind::WrongResult)
                continue;
            EXPECT_EQ(cpu.problems->counts[kind], gpu->problems->counts[kind])
                << k.name << ": " << problemKindName(static_cast<ProblemKind>(kind));
        }
    }
}

}  // namespace
}  // namespace tilescope::test
