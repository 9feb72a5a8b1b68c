// Tests of the trace model (kernels/trace/). Every expected value comes from
// an oracle that does not use the code under test: the book's tables and
// closed forms (Figure 7.14 of the 4th edition, Figure 7.22 of the 3rd,
// §7.2-7.4, exercises 4-7 of §7.8), the input image itself, the runner's
// output, the kernel files on disk, or a brute-force recomputation of a
// definition (the replay order, tile coverage).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "request/request.hpp"
#include "reference/reference.hpp"
#include "test_support.hpp"
#include "trace/classify.hpp"
#include "trace/counters.hpp"
#include "trace/sources.hpp"
#include "trace/trace_arrays.hpp"
#include "trace/trace_index.hpp"
#include "trace/trace_io.hpp"
#include "trace/trace_select.hpp"

namespace tilescope::test {
namespace {

// [SECTION] Helpers

Dim3 blockAt(unsigned x, unsigned y = 0) {
    return Dim3{x, y, 0};
}

struct TracedRun {
    bool ok = false;
    std::string error;
    RunResult result;
    Trace& trace() { return *result.trace; }
};

TracedRun traced(std::string_view kernel, const Image& in, const Mask& mask, int block, std::vector<Dim3> blocks = {},
                 bool whatIf = false, Backend backend = Backend::Cpu, std::size_t budget = 20'000'000) {
    RunRequest r = requestFor(std::string(kernel), in, mask, block, backend, true);
    r.whatIf = whatIf;
    r.traceBlocks = std::move(blocks);
    r.eventBudget = budget;
    auto result = runKernel(r);
    TracedRun run;
    if (!result) {
        run.error = result.error().message;
        return run;
    }
    run.ok = result->trace.has_value();
    run.result = std::move(*result);
    return run;
}

Image image(int w, int h, unsigned seed = 1) {
    return randomImage(w, h, 1, seed);
}
Image signal(int n, unsigned seed = 1) {
    return randomSignal(n, seed);
}
Mask mask1D(int width) {
    return randomMask(width, false, 11);
}
Mask mask2D(int width) {
    return randomMask(width, true, 12);
}

// The counters of one traced block, found by its coordinates.
Counters countersOf(const Trace& t, Dim3 b) {
    for (std::size_t i = 0; i < t.blocks.size(); ++i)
        if (t.blocks[i].block == b)
            return countBlock(t, i);
    ADD_FAILURE() << "block (" << b.x << "," << b.y << ") is not in the trace";
    return {};
}

std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The 1-based number of the first line of a kernel file that contains `text`.
int lineOf(const KernelInfo& k, std::string_view text) {
    std::istringstream in(readText(std::filesystem::path(TILESCOPE_SOURCE_DIR) / "kernels" / k.sourceFile));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(text) != std::string::npos)
            return n;
    return -1;
}

// The in-array taps of all outputs along one axis: n*m minus the r(r+1)/2
// taps that fall past each end (valid when n >= r).
long long insideAlongAxis(long long n, long long m) {
    return n * m - (m * m - 1) / 4;
}

class ScratchDir {
public:
    ScratchDir() {
        static int counter = 0;
        m_path = std::filesystem::temp_directory_path() /
                 ("tilescope_trace_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    std::string operator/(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

// [SECTION] Figure 7.14 (4th edition): FLOP per byte of conv2d_tiled_in

TEST(BookFigure7_14, FlopPerByteOfInteriorBlocks) {
    struct Row {
        int inTile, r;
        double ratio;
    };
    // IN_TILE_DIM 8/16/32 with r = 2 and 16/32 with r = 4, as printed.
    const Row rows[] = {{8, 2, 3.13}, {16, 2, 7.03}, {32, 2, 9.57}, {16, 4, 10.13}, {32, 4, 22.78}};
    for (const Row& row : rows) {
        const int out = row.inTile - 2 * row.r;
        const int size = 3 * out + row.inTile;  // block (1,1) is interior
        const Image in = image(size, size);
        TracedRun run = traced("conv2d_tiled_in", in, mask2D(2 * row.r + 1), row.inTile, {blockAt(1, 1)});
        ASSERT_TRUE(run.ok) << run.error;
        ASSERT_EQ(run.trace().blocks.size(), 1u);
        ASSERT_TRUE(blockGeometry(run.trace().plan, blockAt(1, 1)).interior);
        const Counters c = countersOf(run.trace(), blockAt(1, 1));
        const double ratio = static_cast<double>(c.flops) / static_cast<double>(c.globalLoadBytes);
        EXPECT_NEAR(ratio, row.ratio, 0.005 + 1e-9) << "IN_TILE_DIM " << row.inTile << ", r " << row.r;
        EXPECT_NEAR(derive(c, run.trace().plan).flopPerByte, ratio, 1e-12);
        // The bound: every loaded element used by every tap, i.e. one 4-byte
        // load per output: 2(2r+1)^2 / 4 = 12.5 for r = 2 and 40.5 for r = 4.
        const double bound = row.r == 2 ? 12.5 : 40.5;
        EXPECT_DOUBLE_EQ(static_cast<double>(c.flops) / (4.0 * static_cast<double>(c.globalStores)), bound);
        EXPECT_LT(ratio, bound);
        // The mask is in constant memory: every global load is a load of N.
        EXPECT_EQ(c.globalLoads, c.inputLoads);
        EXPECT_EQ(c.constantLoads, c.flops / 2);
    }
}

TEST(BookFigure7_14, InTileEightWithRadiusFourIsRefused) {
    const Image in = image(40, 40);
    TracedRun run = traced("conv2d_tiled_in", in, mask2D(9), 8);
    ASSERT_FALSE(run.ok);
    EXPECT_NE(run.error.find("no output tile"), std::string::npos) << run.error;
}

// [SECTION] Figure 7.22 (3rd edition): input-load reduction of the pitched kernel

TEST(BookFigure7_22, InputLoadReductionAgainstTheBasicKernel) {
    struct Row {
        int oTile, maskWidth;
        double reduction;
    };
    const Row rows[] = {{8, 5, 11.1}, {16, 5, 16.0}, {32, 5, 19.7}, {64, 5, 22.1},
                        {8, 9, 20.3}, {16, 9, 36.0}, {32, 9, 51.8}, {64, 9, 64.0}};
    std::map<int, double> basicPerOutput;  // measured: input loads per output of conv2d_basic
    for (int mw : {5, 9}) {
        const Image in = image(64, 64);
        TracedRun basic = traced("conv2d_basic", in, mask2D(mw), 16, {blockAt(1, 1)});
        ASSERT_TRUE(basic.ok) << basic.error;
        ASSERT_TRUE(blockGeometry(basic.trace().plan, blockAt(1, 1)).interior);
        const Counters c = countersOf(basic.trace(), blockAt(1, 1));
        basicPerOutput[mw] = static_cast<double>(c.inputLoads) / static_cast<double>(c.globalStores);
        EXPECT_DOUBLE_EQ(basicPerOutput[mw], mw * mw);  // the book: Mask_Width^2 accesses per output
    }
    for (const Row& row : rows) {
        const int blockWidth = row.oTile + row.maskWidth - 1;  // BLOCK_WIDTH
        const int size = 3 * row.oTile + row.maskWidth;
        const Image in = image(size, size);
        const bool overLimit = blockWidth * blockWidth > 1024;
        TracedRun run =
            traced("conv2d_tiled_pitched", in, mask2D(row.maskWidth), blockWidth, {blockAt(1, 1)}, overLimit);
        ASSERT_TRUE(run.ok) << run.error;
        EXPECT_EQ(run.trace().plan.whatIf, overLimit) << "O_TILE_WIDTH " << row.oTile;
        EXPECT_EQ(run.trace().plan.whatIfReason.empty(), !overLimit);
        ASSERT_TRUE(blockGeometry(run.trace().plan, blockAt(1, 1)).interior);
        const Counters c = countersOf(run.trace(), blockAt(1, 1));
        // (O + MW - 1)^2 loads per tile, O^2 outputs.
        EXPECT_EQ(c.inputLoads, static_cast<std::uint64_t>(blockWidth * blockWidth));
        EXPECT_EQ(c.globalStores, static_cast<std::uint64_t>(row.oTile * row.oTile));
        const double reduction =
            basicPerOutput[row.maskWidth] * static_cast<double>(c.globalStores) / static_cast<double>(c.inputLoads);
        EXPECT_NEAR(reduction, row.reduction, 0.06) << "O_TILE_WIDTH " << row.oTile << ", Mask_Width " << row.maskWidth;
        EXPECT_NEAR(derive(c, run.trace().plan).inputLoadReduction, reduction, 1e-9);
    }
}

TEST(BookFigure7_22, OverTheThreadLimitNeedsWhatIf) {
    const Image in = image(110, 110);
    TracedRun run = traced("conv2d_tiled_pitched", in, mask2D(5), 36, {blockAt(1, 1)}, false);
    ASSERT_FALSE(run.ok);
    EXPECT_NE(run.error.find("--what-if"), std::string::npos) << run.error;
}

// [SECTION] §7.2-7.3: arithmetic per global load of the basic and constant-memory kernels

TEST(BookSection7_2, FlopPerGlobalLoadOfBasicAndConstantKernels) {
    struct Case {
        const char* kernel;
        double flopPerLoad;
    };
    const Image sig = signal(1024);
    for (const Case& c : {Case{"conv1d_basic", 1.0}, Case{"conv1d_const", 2.0}}) {
        for (int r : {1, 3, 7}) {
            TracedRun run = traced(c.kernel, sig, mask1D(2 * r + 1), 128, {blockAt(2)});
            ASSERT_TRUE(run.ok) << run.error;
            const Counters n = countersOf(run.trace(), blockAt(2));
            EXPECT_DOUBLE_EQ(static_cast<double>(n.flops) / static_cast<double>(n.globalLoads), c.flopPerLoad)
                << c.kernel;
            EXPECT_DOUBLE_EQ(derive(n, run.trace().plan).flopPerByte, c.flopPerLoad / 4.0) << c.kernel;  // 0.25, 0.5
        }
    }
    const Image img = image(64, 64);
    for (const Case& c : {Case{"conv2d_basic", 1.0}, Case{"conv2d_const", 2.0}}) {
        TracedRun run = traced(c.kernel, img, mask2D(5), 16, {blockAt(1, 2)});
        ASSERT_TRUE(run.ok) << run.error;
        const Counters n = countersOf(run.trace(), blockAt(1, 2));
        EXPECT_DOUBLE_EQ(derive(n, run.trace().plan).flopPerByte, c.flopPerLoad / 4.0) << c.kernel;
    }
}

// [SECTION] §7.4: ghost loads skipped, and the tiled kernel's reduction

TEST(BookSection7_4, BoundaryBlocksSkipGhostLoadsAndTiledRatios) {
    for (int blockDim : {8, 32, 128}) {
        for (int n : {1, 2, 5}) {
            const int width = 4 * blockDim;
            const Image sig = signal(width, static_cast<unsigned>(blockDim + n));
            const Mask m = mask1D(2 * n + 1);
            TracedRun constant = traced("conv1d_const", sig, m, blockDim);
            TracedRun tiled = traced("conv1d_tiled", sig, m, blockDim);
            ASSERT_TRUE(constant.ok && tiled.ok) << constant.error << tiled.error;
            const long long skipped = n * (n + 1) / 2;
            for (unsigned b = 0; b < 4; ++b) {
                const bool boundary = b == 0 || b == 3;
                const Counters c = countersOf(constant.trace(), blockAt(b));
                const Counters t = countersOf(tiled.trace(), blockAt(b));
                const std::string where = "blockDim " + std::to_string(blockDim) + ", n " + std::to_string(n) +
                                          ", block " + std::to_string(b);
                EXPECT_EQ(static_cast<long long>(c.ghostRefs), boundary ? skipped : 0) << where;
                EXPECT_EQ(static_cast<long long>(c.inputLoads), blockDim * (2LL * n + 1) - (boundary ? skipped : 0))
                    << where;
                EXPECT_EQ(static_cast<long long>(t.inputLoads), blockDim + (boundary ? n : 2LL * n)) << where;
                const double measured = static_cast<double>(c.inputLoads) / static_cast<double>(t.inputLoads);
                const double book = boundary ? (blockDim * (2.0 * n + 1) - n * (n + 1) / 2.0) / (blockDim + n)
                                             : blockDim * (2.0 * n + 1) / (blockDim + 2.0 * n);
                EXPECT_NEAR(measured, book, 1e-12) << where;
            }
        }
    }
}

// [SECTION] Exercises 4-7 of §7.8, answered from traces

// Exercise 4: a 1D convolution of n elements with a mask of m. The
// exercise's "halo cells" lie outside the array (this model's ghost cells).
TEST(BookExercises, Exercise4_1D) {
    for (int n : {7, 16, 33}) {
        for (int m : {3, 5, 7}) {
            const Image sig = signal(n, static_cast<unsigned>(n * m));
            TracedRun basic = traced("conv1d_basic", sig, mask1D(m), 8);
            TracedRun tiled = traced("conv1d_tiled", sig, mask1D(m), 8);
            ASSERT_TRUE(basic.ok && tiled.ok) << basic.error << tiled.error;
            TraceModel basicModel(basic.trace());
            TraceModel tiledModel(tiled.trace());
            // (a) m - 1 halo cells: (m-1)/2 at each end.
            EXPECT_EQ(basicModel.ghostCellCount(), static_cast<std::size_t>(m - 1)) << n << " " << m;
            EXPECT_EQ(tiledModel.ghostCellCount(), static_cast<std::size_t>(m - 1)) << n << " " << m;
            // (b) halo cells multiplied (by 0): n*m.
            EXPECT_EQ(static_cast<long long>(tiledModel.counts().totals.flops / 2), 1LL * n * m);
            // (c) halo cells skipped: n*m - 2 * (1 + 2 + ... + (m-1)/2).
            EXPECT_EQ(static_cast<long long>(basicModel.counts().totals.flops / 2), insideAlongAxis(n, m));
            EXPECT_EQ(static_cast<long long>(basicModel.counts().totals.ghostRefs),
                      1LL * n * m - insideAlongAxis(n, m));
        }
    }
}

// Exercises 5 and 6: 2D, square n x n and rectangular n1 x n2 (the kernels
// take square masks, so m1 = m2 = m).
TEST(BookExercises, Exercises5And6_2D) {
    struct Shape {
        int n1, n2;
    };
    for (Shape s : {Shape{5, 5}, Shape{12, 12}, Shape{17, 17}, Shape{5, 9}, Shape{13, 4}}) {
        for (int m : {3, 5}) {
            const Image in = image(s.n2, s.n1, static_cast<unsigned>(s.n1 * 31 + s.n2 + m));
            TracedRun basic = traced("conv2d_basic", in, mask2D(m), 8);
            TracedRun tiled = traced("conv2d_tiled_in", in, mask2D(m), 8);
            ASSERT_TRUE(basic.ok && tiled.ok) << basic.error << tiled.error;
            TraceModel basicModel(basic.trace());
            TraceModel tiledModel(tiled.trace());
            const std::string where = std::to_string(s.n1) + "x" + std::to_string(s.n2) + ", m " + std::to_string(m);
            // (a) halo cells: the ring of width (m-1)/2 around the array.
            const long long ring = 1LL * (s.n1 + m - 1) * (s.n2 + m - 1) - 1LL * s.n1 * s.n2;
            EXPECT_EQ(static_cast<long long>(basicModel.ghostCellCount()), ring) << where;
            EXPECT_EQ(static_cast<long long>(tiledModel.ghostCellCount()), ring) << where;
            // (b) with halo multiplications: n1 n2 m^2.
            EXPECT_EQ(static_cast<long long>(tiledModel.counts().totals.flops / 2), 1LL * s.n1 * s.n2 * m * m) << where;
            // (c) without: the product of the two axes' in-array taps.
            EXPECT_EQ(static_cast<long long>(basicModel.counts().totals.flops / 2),
                      insideAlongAxis(s.n1, m) * insideAlongAxis(s.n2, m))
                << where;
        }
    }
}

// Exercise 7: blocks, threads and shared memory of the tiled 1D kernels
// (Figure 7.11 and the simpler Figure 7.13/7.14 of the 3rd edition).
TEST(BookExercises, Exercise7_TiledKernels) {
    for (int n : {50, 64, 100}) {
        for (int m : {3, 5, 7}) {
            for (int t : {8, 16, 32}) {
                const Image sig = signal(n, static_cast<unsigned>(n + m + t));
                const int blocks = (n + t - 1) / t;
                for (const char* kernel : {"conv1d_tiled", "conv1d_tiled_cached"}) {
                    const bool halo = std::string_view(kernel) == "conv1d_tiled";
                    TracedRun run = traced(kernel, sig, mask1D(m), t);
                    ASSERT_TRUE(run.ok) << run.error;
                    const Trace& trace = run.trace();
                    const std::string where = std::string(kernel) + " n " + std::to_string(n) + " m " +
                                              std::to_string(m) + " t " + std::to_string(t);
                    // (a) blocks
                    EXPECT_EQ(trace.blocks.size(), static_cast<std::size_t>(blocks)) << where;
                    // (b) threads per block: every thread of the block records events.
                    // (c) shared memory: the elements each block writes, times 4 bytes.
                    long long sharedBytes = 0;
                    for (const BlockEvents& b : trace.blocks) {
                        std::set<int> threads, elements;
                        for (const Event& e : b.events) {
                            threads.insert(e.thread);
                            if (e.op == Op::Store && e.array == kArrayShared)
                                elements.insert(e.index);
                        }
                        EXPECT_EQ(threads.size(), static_cast<std::size_t>(t)) << where;
                        EXPECT_EQ(elements.size(), static_cast<std::size_t>(halo ? t + m - 1 : t)) << where;
                        sharedBytes += 4LL * static_cast<long long>(elements.size());
                    }
                    EXPECT_EQ(sharedBytes, 4LL * blocks * (halo ? t + m - 1 : t)) << where;
                }
            }
        }
    }
}

// [SECTION] Replay order

// The definition, recomputed by brute force: sort by (phase, barrier last,
// k-th event of the phase, thread).
std::vector<std::uint32_t> definedOrder(const std::vector<Event>& events) {
    std::vector<std::tuple<unsigned, int, unsigned, unsigned, std::uint32_t>> keys;
    unsigned thread = ~0u, phase = 0, k = 0;
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (e.thread != thread) {
            thread = e.thread;
            phase = 0;
            k = 0;
        }
        if (e.op == Op::Barrier) {
            keys.emplace_back(phase, 1, 0u, e.thread, i);
            ++phase;
            k = 0;
        } else {
            keys.emplace_back(phase, 0, k++, e.thread, i);
        }
    }
    std::sort(keys.begin(), keys.end());
    std::vector<std::uint32_t> order;
    for (const auto& key : keys)
        order.push_back(std::get<4>(key));
    return order;
}

struct ReplayCase {
    const char* kernel;
    Image input;
    Mask mask;
    int block;
    Dim3 traced;
};

std::vector<ReplayCase> replayCases() {
    return {
        {"conv1d_tiled", signal(100), mask1D(5), 32, blockAt(3)},
        {"conv1d_tiled_cached", signal(100), mask1D(7), 32, blockAt(0)},
        {"conv1d_basic", signal(40), mask1D(3), 32, blockAt(1)},
        {"conv2d_basic", image(30, 20), mask2D(3), 8, blockAt(3, 2)},
        {"conv2d_tiled_in", image(37, 29), mask2D(5), 12, blockAt(1, 1)},
        {"conv2d_tiled_out", image(37, 29), mask2D(5), 8, blockAt(0, 1)},
        {"conv2d_tiled_cached", image(37, 29), mask2D(3), 16, blockAt(2, 1)},
        {"conv2d_tiled_pitched", randomImage(29, 17, 2, 5), mask2D(3), 12, blockAt(2, 1)},
    };
}

TEST(Replay, OrderIsTheDefinedOrder) {
    for (ReplayCase& c : replayCases()) {
        TracedRun run = traced(c.kernel, c.input, c.mask, c.block, {c.traced});
        ASSERT_TRUE(run.ok) << c.kernel << ": " << run.error;
        TraceModel model(std::move(run.trace()));
        ASSERT_EQ(model.blockCount(), 1u);
        const BlockReplay& r = model.block(0);
        const std::vector<Event>& events = model.trace().blocks[0].events;
        const std::vector<std::uint32_t> expected = definedOrder(events);
        ASSERT_EQ(r.size(), expected.size()) << c.kernel;
        for (Cursor p = 0; p < r.size(); ++p) {
            ASSERT_EQ(r.eventAt(p), expected[p]) << c.kernel << " position " << p;
            ASSERT_EQ(r.positionOf(expected[p]), p);
        }
        // Steps: contiguous, each holding one (phase, k) or the phase's barriers.
        Cursor at = 0;
        for (std::uint32_t s = 0; s < r.stepCount(); ++s) {
            const StepInfo& step = r.step(s);
            ASSERT_EQ(step.begin, at) << c.kernel;
            ASSERT_LT(step.begin, step.end) << c.kernel;
            for (Cursor p = step.begin; p < step.end; ++p) {
                const Event& e = events[r.eventAt(p)];
                EXPECT_EQ(e.op == Op::Barrier, step.barrier) << c.kernel << " step " << s;
                EXPECT_EQ(e.phase, step.phase) << c.kernel << " step " << s;
                EXPECT_EQ(r.stepAt(p), s);
                if (p > step.begin) {
                    EXPECT_LT(events[r.eventAt(p - 1)].thread, e.thread);
                }
            }
            at = step.end;
        }
        EXPECT_EQ(at, r.size());
        // The phases are those the events were recorded in.
        unsigned lastPhase = 0;
        for (const Event& e : events)
            lastPhase = std::max<unsigned>(lastPhase, e.phase);
        EXPECT_EQ(r.phaseCount(), lastPhase + 1) << c.kernel;
    }
}

TEST(Replay, SteppingForwardBackwardAndJumps) {
    for (ReplayCase& c : replayCases()) {
        TracedRun run = traced(c.kernel, c.input, c.mask, c.block, {c.traced});
        ASSERT_TRUE(run.ok) << run.error;
        TraceModel model(std::move(run.trace()));
        const BlockReplay& r = model.block(0);
        const std::vector<Event>& events = model.trace().blocks[0].events;

        // Whole steps: forward visits every step's end, backward every start.
        Cursor c0 = 0;
        for (std::uint32_t s = 0; s < r.stepCount(); ++s) {
            const Cursor next = r.next(c0, Granularity::Step);
            ASSERT_EQ(next, r.step(s).end) << c.kernel;
            ASSERT_EQ(r.previous(next, Granularity::Step), c0) << c.kernel;
            c0 = next;
        }
        EXPECT_EQ(r.next(r.size(), Granularity::Step), r.size());
        EXPECT_EQ(r.previous(0, Granularity::Step), 0u);

        // Warp steps: each covers one warp's part of one step, and they tile the order.
        Cursor w = 0;
        while (w < r.size()) {
            const Cursor next = r.next(w, Granularity::WarpStep);
            ASSERT_GT(next, w);
            const unsigned warp = events[r.eventAt(w)].thread / kWarpSize;
            for (Cursor p = w; p < next; ++p) {
                ASSERT_EQ(events[r.eventAt(p)].thread / kWarpSize, warp);
                ASSERT_EQ(r.stepAt(p), r.stepAt(w));
            }
            if (next < r.size() && r.stepAt(next) == r.stepAt(w)) {
                ASSERT_NE(events[r.eventAt(next)].thread / kWarpSize, warp);
            }
            ASSERT_EQ(r.previous(next, Granularity::WarpStep), w);
            w = next;
        }
        EXPECT_EQ(r.next(5, Granularity::Event), 6u);
        EXPECT_EQ(r.previous(5, Granularity::Event), 4u);

        // A thread's next event: the cursor lands just past it.
        for (unsigned t : {0u, r.threadCount() / 2, r.threadCount() - 1}) {
            Cursor cur = 0;
            std::uint32_t seen = 0;
            while (auto next = r.nextOfThread(cur, t)) {
                ASSERT_EQ(events[r.eventAt(*next - 1)].thread, t);
                ASSERT_EQ(r.eventAt(*next - 1), r.threadEventBegin(t) + seen);
                ++seen;
                ASSERT_EQ(r.threadEventsDone(t, *next), seen);
                ASSERT_EQ(r.previousOfThread(*next, t), *next - 1);
                cur = *next;
            }
            EXPECT_EQ(seen, r.threadEvents(t).size());
        }
        // Phases start where their first step starts.
        for (std::uint32_t p = 0; p < r.phaseCount(); ++p) {
            const Cursor begin = r.phaseBegin(p);
            if (begin < r.size()) {
                EXPECT_EQ(r.step(r.stepAt(begin)).phase, p);
                EXPECT_EQ(r.step(r.stepAt(begin)).indexInPhase, 0);
            }
        }
    }
}

// [SECTION] Thread states and roles

TEST(Replay, ThreadStatesOfTheTiledInKernel) {
    // IN_TILE_DIM 12, r = 2: OUT_TILE_DIM 8; 144 threads, 5 warps, 16 idle lanes.
    const Image in = image(40, 40);
    TracedRun run = traced("conv2d_tiled_in", in, mask2D(5), 12, {blockAt(1, 1)});
    ASSERT_TRUE(run.ok) << run.error;
    TraceModel model(std::move(run.trace()));
    const BlockReplay& r = model.block(0);
    ASSERT_EQ(r.threadCount(), 144u);
    EXPECT_EQ(r.laneCount(), 160u);
    for (unsigned lane = 144; lane < 160; ++lane)
        EXPECT_EQ(r.threadState(lane, 0), ThreadState::IdleLane);

    auto computes = [](unsigned t) {
        const unsigned x = t % 12, y = t / 12;
        return x >= 2 && x < 10 && y >= 2 && y < 10;
    };
    unsigned switchedOff = 0;
    for (unsigned t = 0; t < 144; ++t) {
        EXPECT_EQ(r.thread(t).role, computes(t) ? ThreadRole::LoadsAndComputes : ThreadRole::LoadsOnly);
        switchedOff += computes(t) ? 0 : 1;
        EXPECT_EQ(r.threadState(t, 0), ThreadState::NotStarted);
    }
    EXPECT_EQ(switchedOff, 144u - 64u);  // IN^2 - OUT^2 threads are switched off for the output

    // Phase 0: load N, store N_s, then the barrier step.
    const Cursor afterFirstStep = r.next(0, Granularity::Step);
    for (unsigned t = 0; t < 144; ++t)
        EXPECT_EQ(r.threadState(t, afterFirstStep), ThreadState::Loading);
    const Cursor afterBarrier = r.phaseBegin(1);
    ASSERT_TRUE(r.step(r.stepAt(afterBarrier - 1)).barrier);
    for (unsigned t = 0; t < 144; ++t)
        EXPECT_EQ(r.threadState(t, afterBarrier), ThreadState::AtBarrier);

    // Phase 1: the inner 8x8 compute, the edge threads are switched off.
    const Cursor computing = r.next(afterBarrier, Granularity::Step);
    for (unsigned t = 0; t < 144; ++t)
        EXPECT_EQ(r.threadState(t, computing), computes(t) ? ThreadState::Computing : ThreadState::SwitchedOff) << t;
    for (unsigned t = 0; t < 144; ++t)
        EXPECT_EQ(r.threadState(t, r.size()), computes(t) ? ThreadState::Done : ThreadState::SwitchedOff);
}

TEST(Replay, WaitingIdleAndComputingWithoutOutput) {
    // conv2d_tiled_out, OUT 8, r 2: threads with x < 4 or y < 4 copy more than
    // one cell, so thread (7,7) waits at the barrier while they finish.
    {
        const Image in = image(40, 40);
        TracedRun run = traced("conv2d_tiled_out", in, mask2D(5), 8, {blockAt(1, 1)});
        ASSERT_TRUE(run.ok) << run.error;
        TraceModel model(std::move(run.trace()));
        const BlockReplay& r = model.block(0);
        const unsigned last = 7 + 7 * 8, first = 0;
        auto workBeforeBarrier = [&](unsigned t) {
            std::span<const Event> ev = r.threadEvents(t);
            return static_cast<std::uint32_t>(
                std::find_if(ev.begin(), ev.end(), [](const Event& e) { return e.op == Op::Barrier; }) - ev.begin());
        };
        const std::uint32_t lastWork = workBeforeBarrier(last), firstWork = workBeforeBarrier(first);
        ASSERT_EQ(lastWork, 2u);   // (7,7) copies one cell: load, store
        ASSERT_EQ(firstWork, 8u);  // (0,0) copies four
        Cursor c = 0;
        for (std::uint32_t s = 0; s <= lastWork; ++s)
            c = r.next(c, Granularity::Step);  // one step past (7,7)'s work
        EXPECT_EQ(r.threadState(last, c), ThreadState::WaitingAtBarrier);
        EXPECT_EQ(r.threadState(first, c), ThreadState::Loading);
    }
    // conv1d_basic on 40 elements with blocks of 32: threads 8..31 of block 1 do nothing.
    {
        const Image sig = signal(40);
        TracedRun run = traced("conv1d_basic", sig, mask1D(3), 32, {blockAt(1)});
        ASSERT_TRUE(run.ok) << run.error;
        TraceModel model(std::move(run.trace()));
        const BlockReplay& r = model.block(0);
        for (unsigned t = 0; t < 32; ++t) {
            const bool idle = 32 + t >= 40;
            EXPECT_EQ(r.thread(t).role, idle ? ThreadRole::Idle : ThreadRole::ComputesOnly) << t;
            EXPECT_EQ(r.threadState(t, r.size() / 2), idle ? ThreadState::Idle : ThreadState::Computing) << t;
        }
        EXPECT_EQ(r.counters().threadsComputing, 8u);
    }
    // conv2d_tiled_pitched, O 8, Mask_Width 5, width 20: block 2 covers
    // columns 16..23, so threads with 4 <= tx < 8 multiply but write nothing,
    // and threads with tx >= 8 are switched off while the others compute.
    {
        const Image in = image(20, 20);
        TracedRun run = traced("conv2d_tiled_pitched", in, mask2D(5), 12, {blockAt(2, 0)});
        ASSERT_TRUE(run.ok) << run.error;
        TraceModel model(std::move(run.trace()));
        const BlockReplay& r = model.block(0);
        const Cursor computing = r.next(r.phaseBegin(1), Granularity::Step);
        for (unsigned t = 0; t < 144; ++t) {
            const unsigned tx = t % 12, ty = t / 12;
            ThreadRole role = ThreadRole::LoadsOnly;
            if (tx < 8 && ty < 8)
                role = tx < 4 ? ThreadRole::LoadsAndComputes : ThreadRole::ComputesWithoutOutput;
            EXPECT_EQ(r.thread(t).role, role) << tx << "," << ty;
            EXPECT_EQ(r.threadState(t, computing),
                      role == ThreadRole::LoadsOnly ? ThreadState::SwitchedOff : ThreadState::Computing)
                << tx << "," << ty;
        }
    }
}

// [SECTION] Classification of cells

TEST(Classify, CornerBlockOfTiledInHasHaloAndStoredGhosts) {
    // IN 16, r 2, OUT 12 on 40x40: block (0,0) covers outputs [0,12)^2 and
    // loads [-2,14)^2.
    const Image in = image(40, 40);
    TracedRun run = traced("conv2d_tiled_in", in, mask2D(5), 16, {blockAt(0, 0)});
    ASSERT_TRUE(run.ok) << run.error;
    TraceModel model(std::move(run.trace()));
    const BlockReplay& r = model.block(0);
    const BlockGeometry& g = r.geometry();
    EXPECT_EQ(g.outputTile, (Rect{0, 0, 12, 12}));
    EXPECT_EQ(g.inputTile, (Rect{-2, -2, 14, 14}));
    EXPECT_FALSE(g.interior);
    const CellCounts counts = g.counts();
    EXPECT_EQ(counts.internal, 144);
    EXPECT_EQ(counts.halo, 14 * 14 - 144);
    EXPECT_EQ(counts.ghost, 16 * 16 - 14 * 14);
    EXPECT_EQ(counts.pastEnd, 0);
    for (int y = -2; y < 14; ++y)
        for (int x = -2; x < 14; ++x) {
            const bool outside = x < 0 || y < 0;
            EXPECT_EQ(r.cellKind(x, y),
                      outside ? CellKind::Ghost : (x < 12 && y < 12 ? CellKind::Internal : CellKind::Halo));
            EXPECT_EQ(r.ghostHandling(x, y), outside ? GhostHandling::StoredZero : GhostHandling::None);
            EXPECT_EQ(r.zeroStoresOfCell(x, y), outside ? 1u : 0u);
            EXPECT_EQ(r.loadsOfCell(x, y), outside ? 0u : 1u);  // one load per tile cell
        }
    EXPECT_EQ(r.cellKind(14, 0), CellKind::Outside);
}

TEST(Classify, BasicKernelSkipsGhostsEachReferencedByItsNeighbours) {
    const int r = 2;
    const Image in = image(40, 40);
    TracedRun run = traced("conv2d_basic", in, mask2D(2 * r + 1), 16, {blockAt(0, 0)});
    ASSERT_TRUE(run.ok) << run.error;
    TraceModel model(std::move(run.trace()));
    const BlockReplay& b = model.block(0);
    for (int y = -r; y < 0; ++y)
        for (int x = -r; x < 16 + r; ++x) {
            ASSERT_EQ(b.cellKind(x, y), CellKind::Ghost);
            EXPECT_EQ(b.ghostHandling(x, y), GhostHandling::Skipped);
            // Outputs within r of the ghost cell, inside the block's 16x16 tile.
            const int xs = std::min(x + r, 15) - std::max(x - r, 0) + 1;
            EXPECT_EQ(b.ghostRefsOfCell(x, y), static_cast<std::uint32_t>(xs * (y + r + 1))) << x << "," << y;
        }
}

TEST(Classify, PartialBlockStoresZerosPastTheEnd) {
    // 37 columns, OUT 12: block 3 computes column 36 only; its tile reaches 49.
    const Image in = image(37, 20);
    TracedRun run = traced("conv2d_tiled_in", in, mask2D(5), 16, {blockAt(3, 0)});
    ASSERT_TRUE(run.ok) << run.error;
    TraceModel model(std::move(run.trace()));
    const BlockReplay& r = model.block(0);
    long long ghost = 0, pastEnd = 0;
    for (int y = -2; y < 14; ++y)
        for (int x = 34; x < 50; ++x) {
            const bool inside = x < 37 && y >= 0 && y < 20;
            // Referenced by an output (36, 0..11) within 2 in each direction?
            const bool referenced = x <= 38 && y >= -2 && y <= 13;
            const CellKind expected = inside ? (x == 36 && y < 12 ? CellKind::Internal : CellKind::Halo)
                                             : (referenced ? CellKind::Ghost : CellKind::PastEnd);
            EXPECT_EQ(r.cellKind(x, y), expected) << x << "," << y;
            if (!inside) {
                EXPECT_EQ(r.ghostHandling(x, y), GhostHandling::StoredZero);
            }
            ghost += expected == CellKind::Ghost;
            pastEnd += expected == CellKind::PastEnd;
        }
    EXPECT_EQ(r.geometry().counts().ghost, ghost);
    EXPECT_EQ(r.geometry().counts().pastEnd, pastEnd);
}

// The shared-to-input mapping of the model agrees with what every tiled
// kernel loads: a shared store fed by a load of N[i] sits where N[i] is.
TEST(Classify, SharedCellsMapToTheLoadedElements) {
    for (const KernelInfo& k : allKernels()) {
        if (!k.usesShared || k.asPrinted)  // a listing as printed may load the wrong cells: that is its defect
            continue;
        for (int r : {0, 1, 3}) {
            const bool twoD = k.dims == 2;
            const Image in = twoD ? randomImage(23, 19, k.multiChannel ? 3 : 1, 3) : signal(70);
            const int block = twoD ? 10 : 16;
            TracedRun run = traced(k.name, in, twoD ? mask2D(2 * r + 1) : mask1D(2 * r + 1), block);
            ASSERT_TRUE(run.ok) << k.name << ": " << run.error;
            TraceModel model(std::move(run.trace()));
            const ArrayInfo& n = model.trace().arrays[kArrayInput];
            for (std::size_t b = 0; b < model.blockCount(); ++b) {
                const BlockReplay& replay = model.block(b);
                for (unsigned t = 0; t < replay.threadCount(); ++t) {
                    std::span<const Event> ev = replay.threadEvents(t);
                    for (std::size_t i = 1; i < ev.size(); ++i) {
                        if (ev[i].op != Op::Store || ev[i].array != kArrayShared)
                            continue;
                        int x = 0, y = 0;
                        replay.sharedCell(ev[i].index, x, y);
                        const long long source = storeSource(ev, i);
                        if (source >= 0) {
                            const ArrayInfo::Coords p = n.coords(ev[static_cast<std::size_t>(source)].index);
                            ASSERT_EQ(x, p.x) << k.name;
                            ASSERT_EQ(y, p.y) << k.name;
                            ASSERT_EQ(ev[i].value, ev[static_cast<std::size_t>(source)].value);
                        } else {
                            // A stored constant stands for a cell outside the array.
                            ASSERT_FALSE(replay.geometry().array.contains(x, y)) << k.name << " " << x << "," << y;
                            ASSERT_EQ(ev[i].value, 0.0f);
                        }
                    }
                }
                // Interior blocks touch no ghost cell, the others do.
                const bool touchesGhost = replay.counters().ghostRefs > 0;
                if (replay.geometry().interior) {
                    EXPECT_FALSE(touchesGhost) << k.name;
                }
            }
        }
    }
}

// [SECTION] Cells loaded, shared memory and output over the replay

// How many times each input element is read from global memory, against
// coverage counted straight from the kernels' definitions.
TEST(Model, HeatMapMatchesCoverage) {
    const int w = 23, h = 17, r = 2, m = 2 * r + 1;
    const Image in = image(w, h);
    {
        TracedRun run = traced("conv2d_basic", in, mask2D(m), 8);
        ASSERT_TRUE(run.ok) << run.error;
        TraceModel model(std::move(run.trace()));
        const std::vector<std::uint32_t> heat = model.inputReadCounts();
        auto cover = [&](int c, int n) { return std::min(c + r, n - 1) - std::max(c - r, 0) + 1; };
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                EXPECT_EQ(heat[y * w + x], static_cast<std::uint32_t>(cover(x, w) * cover(y, h))) << x << "," << y;
    }
    {
        const int inTile = 10, out = inTile - 2 * r;
        TracedRun run = traced("conv2d_tiled_in", in, mask2D(m), inTile);
        ASSERT_TRUE(run.ok) << run.error;
        TraceModel model(std::move(run.trace()));
        const std::vector<std::uint32_t> heat = model.inputReadCounts();
        const Dim3 grid = model.trace().plan.grid;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                unsigned tiles = 0;  // input tiles [b*OUT - r, b*OUT - r + IN) holding (x, y)
                for (unsigned by = 0; by < grid.y; ++by)
                    for (unsigned bx = 0; bx < grid.x; ++bx) {
                        const int x0 = static_cast<int>(bx) * out - r, y0 = static_cast<int>(by) * out - r;
                        tiles += x >= x0 && x < x0 + inTile && y >= y0 && y < y0 + inTile;
                    }
                EXPECT_EQ(heat[y * w + x], tiles) << x << "," << y;
            }
        // Over the replay of one block: counts grow to the total, all loaded by the barrier.
        const BlockReplay& b = model.block(*model.findBlock(blockAt(1, 1)));
        // Thread (3,4) loads the element at its own place in the tile: (1*OUT + 3 - r, 1*OUT + 4 - r).
        const unsigned t34 = 3 + 4 * static_cast<unsigned>(inTile);
        EXPECT_TRUE(b.cellsLoadedBy(t34, 0).empty());
        const std::vector<ArrayInfo::Coords> loaded = b.cellsLoadedBy(t34, b.size());
        ASSERT_EQ(loaded.size(), 1u);
        EXPECT_EQ(loaded[0].x, out + 3 - r);
        EXPECT_EQ(loaded[0].y, out + 4 - r);
        const Rect tile = b.geometry().inputTile;
        for (int y = tile.y0; y < tile.y1; ++y)
            for (int x = tile.x0; x < tile.x1; ++x) {
                EXPECT_EQ(b.loadsOfCellBefore(x, y, 0), 0u);
                EXPECT_EQ(b.loadedBefore(x, y, b.phaseBegin(1)), b.geometry().array.contains(x, y));
                EXPECT_EQ(b.loadsOfCellBefore(x, y, b.size()), b.loadsOfCell(x, y));
            }
    }
}

TEST(Model, SharedMemoryAfterTheBarrierHoldsTheInputTile) {
    const int w = 37, h = 29, r = 2, inTile = 12, out = inTile - 2 * r;
    const Image in = image(w, h);
    TracedRun run = traced("conv2d_tiled_in", in, mask2D(2 * r + 1), inTile, {blockAt(0, 0), blockAt(2, 1)});
    ASSERT_TRUE(run.ok) << run.error;
    TraceModel model(std::move(run.trace()));
    for (std::size_t b = 0; b < model.blockCount(); ++b) {
        const BlockReplay& replay = model.block(b);
        ASSERT_EQ(replay.sharedSize(), inTile * inTile);
        const Cursor barrier = replay.phaseBegin(1);
        for (int i = 0; i < replay.sharedSize(); ++i) {
            EXPECT_FALSE(replay.sharedAt(i, 0).has_value());
            // The book's mapping: thread (tx, ty) loads N[row][col] with
            // col = bx*OUT + tx - r and row = by*OUT + ty - r.
            const int x = static_cast<int>(replay.block().x) * out + i % inTile - r;
            const int y = static_cast<int>(replay.block().y) * out + i / inTile - r;
            const bool inside = x >= 0 && x < w && y >= 0 && y < h;
            auto v = replay.sharedAt(i, barrier);
            ASSERT_TRUE(v.has_value());
            EXPECT_EQ(v->value, inside ? in.at(x, y) : 0.0f);
            EXPECT_EQ(v->source, inside ? y * w + x : -1);
            if (!inside) {
                EXPECT_EQ(v->kind, CellKind::Ghost);
            }
        }
    }
}

TEST(Model, OutputsWrittenMatchTheRunnersOutput) {
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted)  // some never write P, or write outside it
            continue;
        const bool twoD = k.dims == 2;
        const Image in = twoD ? randomImage(29, 21, k.multiChannel ? 3 : 1, 9) : signal(90);
        TracedRun run = traced(k.name, in, twoD ? mask2D(5) : mask1D(5), twoD ? 12 : 32);
        ASSERT_TRUE(run.ok) << k.name << ": " << run.error;
        const Image output = run.result.output;
        TraceModel model(std::move(run.trace()));
        for (std::size_t b = 0; b < model.blockCount(); ++b) {
            const BlockReplay& r = model.block(b);
            const Rect cells = r.geometry().computed;
            for (int y = cells.y0; y < cells.y1; ++y)
                for (int x = cells.x0; x < cells.x1; ++x)
                    for (int c = 0; c < output.channels; ++c) {
                        EXPECT_FALSE(r.outputAt(x, y, c, 0).has_value());
                        auto v = r.outputAt(x, y, c, r.size());
                        ASSERT_TRUE(v.has_value()) << k.name << " " << x << "," << y;
                        EXPECT_EQ(*v, output.at(x, y, c)) << k.name;
                    }
        }
    }
}

// [SECTION] An event in words

TEST(Model, EventsInWords) {
    const KernelInfo& k = *findKernel("conv2d_tiled_in");
    const int w = 32, h = 20;
    Image in = image(w, h);
    in.at(11, 1) = 0.42f;  // loaded by thread (1,3) of block (1,0): col = 12 + 1 - 2, row = 3 - 2
    TracedRun run = traced(k.name, in, mask2D(5), 16, {blockAt(0, 0), blockAt(1, 0)});
    ASSERT_TRUE(run.ok) << run.error;
    TraceModel model(std::move(run.trace()));
    const int loadLine = lineOf(k, "N_s[threadIdx.y][threadIdx.x] = N[row * width + col];");
    const int zeroLine = lineOf(k, "N_s[threadIdx.y][threadIdx.x] = 0.0f;");
    const int barrierLine = lineOf(k, "__syncthreads();");
    ASSERT_GT(loadLine, 0);

    const BlockReplay& b1 = model.block(*model.findBlock(blockAt(1, 0)));
    const unsigned t13 = 1 + 3 * 16;
    ASSERT_GE(b1.threadEvents(t13).size(), 2u);
    EXPECT_EQ(b1.describe(b1.threadEventBegin(t13) + 1),
              "thread (1,3) of block (1,0), line " + std::to_string(loadLine) + ": N_s[3][1] = N[43] = 0.42 (halo)");
    EXPECT_EQ(b1.describe(b1.threadEventBegin(t13)),
              "thread (1,3) of block (1,0), line " + std::to_string(loadLine) + ": N[43] = 0.42 (halo), for N_s[3][1]");

    const BlockReplay& b0 = model.block(*model.findBlock(blockAt(0, 0)));
    EXPECT_EQ(b0.describe(b0.threadEventBegin(0)),
              "thread (0,0) of block (0,0), line " + std::to_string(zeroLine) + ": N_s[0][0] = 0 (ghost cell (-2,-2))");
    EXPECT_NE(b0.describe(b0.threadEventBegin(0) + 1).find("line " + std::to_string(barrierLine) + ": __syncthreads()"),
              std::string::npos);
    // The first multiply-add of thread (2,2): F_c[0][0] times the ghost zero in N_s[0][0].
    const unsigned t22 = 2 + 2 * 16;
    std::span<const Event> ev = b0.threadEvents(t22);
    const auto ma = std::find_if(ev.begin(), ev.end(), [](const Event& e) { return e.op == Op::MultiplyAdd; });
    ASSERT_NE(ma, ev.end());
    const std::string text = b0.describe(b0.threadEventBegin(t22) + static_cast<std::uint32_t>(ma - ev.begin()));
    EXPECT_NE(text.find("Pvalue += F_c[0][0] * N_s[0][0]"), std::string::npos) << text;
    EXPECT_NE(text.find("-> Pvalue = 0"), std::string::npos) << text;
}

// [SECTION] Counters

TEST(Counters, GridTotalsOfTheConstantKernelFollowTheClosedForm) {
    const int w = 23, h = 17, m = 5;
    const Image in = image(w, h);
    TracedRun run = traced("conv2d_const", in, mask2D(m), 8);
    ASSERT_TRUE(run.ok) << run.error;
    const TraceCounts counts = countTrace(run.trace());
    const long long taps = insideAlongAxis(w, m) * insideAlongAxis(h, m);
    EXPECT_EQ(static_cast<long long>(counts.totals.inputLoads), taps);
    EXPECT_EQ(static_cast<long long>(counts.totals.globalLoads), taps);
    EXPECT_EQ(static_cast<long long>(counts.totals.constantLoads), taps);
    EXPECT_EQ(static_cast<long long>(counts.totals.flops), 2 * taps);
    EXPECT_EQ(static_cast<long long>(counts.totals.globalStores), 1LL * w * h);
    EXPECT_EQ(static_cast<long long>(counts.totals.ghostRefs), 1LL * w * h * m * m - taps);
    EXPECT_EQ(static_cast<long long>(counts.totals.threadsComputing), 1LL * w * h);
    const Dim3 grid = run.trace().plan.grid;
    EXPECT_EQ(counts.totals.threads, 64ull * grid.x * grid.y);
    EXPECT_EQ(counts.totals.barriers, 0u);
    EXPECT_EQ(derive(counts.totals, run.trace().plan).basicInputLoads, static_cast<std::uint64_t>(taps));

    // The model's per-block counters are the same, and blocks add up to the totals.
    TraceModel model(std::move(run.trace()));
    Counters sum;
    for (std::size_t b = 0; b < model.blockCount(); ++b) {
        EXPECT_EQ(model.block(b).counters(), counts.blocks[b]);
        Counters threads;
        for (unsigned t = 0; t < model.block(b).threadCount(); ++t)
            threads += model.block(b).thread(t).counters;
        EXPECT_EQ(threads, counts.blocks[b]);
        sum += counts.blocks[b];
    }
    EXPECT_EQ(sum, counts.totals);
    EXPECT_EQ(model.counts().totals, counts.totals);
}

TEST(Counters, TiledKernelsCountSharedTrafficAndBarriers) {
    const int inTile = 12, r = 1, out = inTile - 2 * r;
    const Image in = image(50, 50);
    TracedRun run = traced("conv2d_tiled_in", in, mask2D(2 * r + 1), inTile, {blockAt(1, 1)});
    ASSERT_TRUE(run.ok) << run.error;
    const Counters c = countersOf(run.trace(), blockAt(1, 1));
    EXPECT_EQ(c.sharedStores, static_cast<std::uint64_t>(inTile * inTile));
    EXPECT_EQ(c.sharedLoads, static_cast<std::uint64_t>(out * out * 9));
    EXPECT_EQ(c.barriers, static_cast<std::uint64_t>(inTile * inTile));  // one __syncthreads() per thread
    EXPECT_EQ(c.threads, static_cast<std::uint64_t>(inTile * inTile));
    EXPECT_EQ(c.threadsComputing, static_cast<std::uint64_t>(out * out));
}

// [SECTION] Files

void expectSameTrace(const Trace& a, const Trace& b) {
    EXPECT_EQ(a.kernel, b.kernel);
    EXPECT_EQ(a.backend, b.backend);
    EXPECT_EQ(a.plan.kernel, b.plan.kernel);
    EXPECT_EQ(a.plan.grid, b.plan.grid);
    EXPECT_EQ(a.plan.block, b.plan.block);
    EXPECT_EQ(a.plan.sharedBytes, b.plan.sharedBytes);
    EXPECT_EQ(a.plan.radius, b.plan.radius);
    EXPECT_EQ(a.plan.inTile, b.plan.inTile);
    EXPECT_EQ(a.plan.outTile, b.plan.outTile);
    EXPECT_EQ(a.plan.pitch, b.plan.pitch);
    EXPECT_EQ(a.plan.channels, b.plan.channels);
    EXPECT_EQ(a.plan.whatIf, b.plan.whatIf);
    EXPECT_EQ(a.plan.whatIfReason, b.plan.whatIfReason);
    for (int i = 0; i < kArrayCount; ++i) {
        EXPECT_EQ(a.arrays[i].name, b.arrays[i].name);
        EXPECT_EQ(a.arrays[i].space, b.arrays[i].space);
        EXPECT_EQ(a.arrays[i].size, b.arrays[i].size);
        EXPECT_EQ(a.arrays[i].pitch, b.arrays[i].pitch);
    }
    ASSERT_EQ(a.blocks.size(), b.blocks.size());
    for (std::size_t i = 0; i < a.blocks.size(); ++i) {
        EXPECT_EQ(a.blocks[i].block, b.blocks[i].block);
        ASSERT_EQ(a.blocks[i].events.size(), b.blocks[i].events.size());
        for (std::size_t j = 0; j < a.blocks[i].events.size(); ++j) {
            const Event& x = a.blocks[i].events[j];
            const Event& y = b.blocks[i].events[j];
            ASSERT_TRUE(x == y && std::memcmp(&x.value, &y.value, 4) == 0) << "block " << i << " event " << j;
        }
    }
}

TEST(TraceFiles, JsonAndBinaryRoundTrip) {
    ScratchDir dir;
    const Image color = randomImage(29, 17, 3, 4);
    const Image gray = image(40, 30);
    const Image sig = signal(200);
    std::vector<TracedRun> runs;
    runs.push_back(traced("conv2d_tiled_pitched", color, mask2D(5), 12, {blockAt(0, 0), blockAt(2, 1)}));
    runs.push_back(traced("conv2d_tiled_in", gray, mask2D(3), 16));
    runs.push_back(traced("conv1d_tiled", sig, mask1D(7), 32));
    runs.push_back(traced("conv2d_tiled_pitched", gray, mask2D(3), 40, {blockAt(0, 0)}, true));  // what-if
    for (TracedRun& run : runs) {
        ASSERT_TRUE(run.ok) << run.error;
        const Trace& t = run.trace();
        for (TraceFormat f : {TraceFormat::Json, TraceFormat::Binary}) {
            const std::string path = dir / (t.kernel + (f == TraceFormat::Json ? ".json" : ".tstrace"));
            auto written = writeTrace(t, path, TraceFormat::Auto);
            ASSERT_TRUE(written.ok()) << written.error().message;
            EXPECT_EQ(*written, formatName(f));
            auto back = readTrace(path);
            ASSERT_TRUE(back.ok()) << back.error().message;
            expectSameTrace(t, *back);
        }
    }
    // The binary form of a compute-heavy trace takes a few bytes an event.
    const Trace& t = runs[1].trace();
    const double perEvent = static_cast<double>(encodeBinary(t).size()) / static_cast<double>(t.eventCount());
    EXPECT_LT(perEvent, 8.0);
    // Auto picks JSON for small traces and binary for large ones when the name does not say.
    EXPECT_EQ(chooseFormat("trace.out", kJsonEventLimit, TraceFormat::Auto), TraceFormat::Json);
    EXPECT_EQ(chooseFormat("trace.out", kJsonEventLimit + 1, TraceFormat::Auto), TraceFormat::Binary);
    EXPECT_EQ(chooseFormat("trace.json", 1u << 30, TraceFormat::Auto), TraceFormat::Json);
    EXPECT_EQ(chooseFormat("small.tstrace", 1, TraceFormat::Auto), TraceFormat::Binary);
}

TEST(TraceFiles, EventsTheCompactFieldsCannotExpressStayExact) {
    TracedRun run = traced("conv1d_basic", signal(20), mask1D(3), 8, {blockAt(0)});
    ASSERT_TRUE(run.ok) << run.error;
    Trace t = run.trace();
    auto& ev = t.blocks[0].events;
    ev[0].value = -0.0f;                                     // not +0: stored
    ev[1].value = std::numeric_limits<float>::denorm_min();  // the smallest float
    ev[2].value = std::numeric_limits<float>::quiet_NaN();   // JSON "nan"
    for (Event& e : ev)
        if (e.op == Op::MultiplyAdd) {
            e.index = 7;  // a multiply-add with an index: a raw event
            break;
        }
    ev.back().phase = 3;  // a phase that does not count barriers: written out
    t.hardware.push_back(BlockHardware{blockAt(0), 77, 123456789012345ull, 123456789099999ull, {3, 1}});
    auto binary = decodeBinary(encodeBinary(t));
    ASSERT_TRUE(binary.ok()) << binary.error().message;
    auto json = traceFromJson(traceToJson(t));
    ASSERT_TRUE(json.ok()) << json.error().message;
    for (const Trace* back : {&*binary, &*json}) {
        ASSERT_EQ(back->blocks[0].events.size(), ev.size());
        for (std::size_t i = 0; i < ev.size(); ++i)
            EXPECT_EQ(std::memcmp(&back->blocks[0].events[i], &ev[i], sizeof(Event)), 0) << i;
        ASSERT_EQ(back->hardware.size(), 1u);  // what the GPU did travels with the events
        EXPECT_EQ(back->hardware[0].sm, 77u);
        EXPECT_EQ(back->hardware[0].startNs, 123456789012345ull);
        EXPECT_EQ(back->hardware[0].endNs, 123456789099999ull);
        EXPECT_EQ(back->hardware[0].warpIds, (std::vector<unsigned>{3, 1}));
    }
    // JSON numbers read back as the very same floats.
    std::mt19937 random(5);
    std::uniform_int_distribution<std::uint32_t> bits;
    Trace many = run.trace();
    for (Event& e : many.blocks[0].events) {
        float f;
        do {
            const std::uint32_t b = bits(random);
            std::memcpy(&f, &b, 4);
        } while (!std::isfinite(f));
        if (e.op != Op::Barrier)
            e.value = f;
    }
    auto again = traceFromJson(traceToJson(many));
    ASSERT_TRUE(again.ok());
    for (std::size_t i = 0; i < many.blocks[0].events.size(); ++i)
        EXPECT_EQ(std::memcmp(&again->blocks[0].events[i].value, &many.blocks[0].events[i].value, 4), 0);
}

// A kernel's access outside its array is recorded where it pointed, not
// made: a file (and a served run) carries it like any other event, and only
// its array is bounded.
TEST(TraceFiles, AccessesOutsideAnArrayTravelInAFile) {
    TracedRun run = traced("conv2d_tiled_in", image(20, 20), mask2D(3), 8);
    ASSERT_TRUE(run.ok) << run.error;
    Trace t = run.trace();
    int changed = 0;
    for (Event& e : t.blocks[0].events) {
        if (e.op == Op::Load && e.array == kArrayInput && changed == 0) {
            e.op = Op::LoadOutside;
            e.index = t.arrays[kArrayInput].size + 5;
            ++changed;
        } else if (e.op == Op::Store && e.array == kArrayOutput && changed == 1) {
            e.op = Op::StoreOutside;
            e.index = -3;
            ++changed;
        }
    }
    ASSERT_EQ(changed, 2);
    EXPECT_TRUE(validateTrace(t).ok()) << validateTrace(t).error().message;
    auto binary = decodeBinary(encodeBinary(t));
    ASSERT_TRUE(binary.ok()) << binary.error().message;
    auto json = traceFromJson(traceToJson(t));
    ASSERT_TRUE(json.ok()) << json.error().message;
    for (const Trace* back : {&*binary, &*json}) {
        ASSERT_EQ(back->blocks[0].events.size(), t.blocks[0].events.size());
        for (std::size_t i = 0; i < t.blocks[0].events.size(); ++i)
            EXPECT_EQ(back->blocks[0].events[i], t.blocks[0].events[i]) << i;
    }
    // An access outside that names no array is damage.
    for (Event& e : t.blocks[0].events)
        if (e.op == Op::LoadOutside) e.array = static_cast<std::uint8_t>(kArrayCount);
    EXPECT_FALSE(validateTrace(t).ok());
}

// Version 1 recorded an access outside a 2D array with its subscripts in 15
// bits each and no part; such a file is still read, its subscripts as
// written, in both formats.
TEST(TraceFiles, AVersion1FilesSubscriptsAreReadAsWritten) {
    TracedRun run = traced("conv2d_tiled_in", image(20, 20), mask2D(3), 8);
    ASSERT_TRUE(run.ok) << run.error;
    Trace t = run.trace();
    const auto version1 = [](int row, int col) {
        return static_cast<std::int32_t>(kSubscripted + (row + (1 << 14)) * (1 << 15) + (col + (1 << 14)));
    };
    const std::vector<std::pair<int, int>> written = {{1, 14}, {-1, 3}, {9000, -10000}};
    std::size_t changed = 0;
    for (Event& e : t.blocks[0].events)
        if (e.op == Op::Load && e.array == kArrayShared && changed < written.size()) {
            e.op = Op::LoadOutside;
            e.index = version1(written[changed].first, written[changed].second);
            ++changed;
        }
    ASSERT_EQ(changed, written.size());
    const auto toVersion1 = [](std::string text, std::size_t from) {
        for (const std::string key : {"\"version\":2", "\"version\": 2"})
            if (const std::size_t at = text.find(key, from); at != std::string::npos) text[at + key.size() - 1] = '1';
        return text;
    };
    std::string binary = toVersion1(encodeBinary(t), 16);
    binary[8] = 1;
    auto fromBinary = decodeBinary(binary);
    ASSERT_TRUE(fromBinary.ok()) << fromBinary.error().message;
    auto fromJson = traceFromJson(toVersion1(traceToJson(t), 0));
    ASSERT_TRUE(fromJson.ok()) << fromJson.error().message;
    for (const Trace* back : {&*fromBinary, &*fromJson}) {
        std::vector<std::pair<int, int>> read;
        for (const Event& e : back->blocks[0].events)
            if (e.op == Op::LoadOutside) {
                ASSERT_TRUE(isSubscriptIndex(e.index));
                EXPECT_EQ(subscriptPart(e.index), 0);
                read.emplace_back(subscriptRow(e.index), subscriptCol(e.index));
            }
        // The last is past version 2's range: held at its nearest, on the same side.
        EXPECT_EQ(read, (std::vector<std::pair<int, int>>{
                            {1, 14}, {-1, 3}, {kSubscriptBias - 1, -kSubscriptBias}}));
    }
}

TEST(TraceFiles, DamagedFilesAreRefusedWithAReason) {
    ScratchDir dir;
    TracedRun run = traced("conv2d_tiled_in", image(20, 20), mask2D(3), 8);
    ASSERT_TRUE(run.ok) << run.error;
    const std::string bytes = encodeBinary(run.trace());
    auto truncated = decodeBinary(std::string_view(bytes).substr(0, bytes.size() - 3));
    ASSERT_FALSE(truncated.ok());
    EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos) << truncated.error().message;
    std::string version = bytes;
    version[8] = 9;
    auto wrongVersion = decodeBinary(version);
    ASSERT_FALSE(wrongVersion.ok());
    EXPECT_NE(wrongVersion.error().message.find("version 9"), std::string::npos);
    std::string tail = bytes + "x";
    EXPECT_FALSE(decodeBinary(tail).ok());
    EXPECT_FALSE(traceFromJson("{\"format\": \"something else\"}").ok());
    EXPECT_FALSE(traceFromJson("not json").ok());
    // A launch the planner would not make is refused.
    Trace tampered = run.trace();
    tampered.plan.outTile = 1 << 20;
    EXPECT_FALSE(validateTrace(tampered).ok());
    auto fromText = traceFromJson(traceToJson(tampered));
    ASSERT_FALSE(fromText.ok());
    EXPECT_NE(fromText.error().message.find("does not match"), std::string::npos) << fromText.error().message;
    // Events out of thread order are refused.
    Trace t = run.trace();
    std::swap(t.blocks[0].events.front(), t.blocks[0].events.back());
    EXPECT_FALSE(validateTrace(t).ok());
    auto missing = readTrace(dir / "missing.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("missing.json"), std::string::npos);
}

// [SECTION] Kernel sources

TEST(Sources, EmbeddedTextIsTheKernelFileAndEventLinesPointIntoIt) {
    for (const KernelInfo& k : allKernels()) {
        const std::string onDisk = readText(std::filesystem::path(TILESCOPE_SOURCE_DIR) / "kernels" / k.sourceFile);
        ASSERT_FALSE(onDisk.empty()) << k.sourceFile;
        EXPECT_EQ(kernelSource(k), onDisk) << k.name;
    }
    EXPECT_FALSE(embeddedSource("conv/constant_memory.cuh").empty());
    EXPECT_TRUE(embeddedSource("conv/nothing.cuh").empty());
    EXPECT_EQ(sourceLine("a\nbb\r\nccc", 2), "bb");
    EXPECT_EQ(sourceLine("a\nbb\nccc", 3), "ccc");
    EXPECT_EQ(sourceLine("a\nbb\nccc", 4), "");

    // Every event's line is a line of its kernel that does that.
    for (const KernelInfo& k : allKernels()) {
        const bool twoD = k.dims == 2;
        const Image in = twoD ? randomImage(21, 18, k.multiChannel ? 2 : 1, 1) : signal(60);
        TracedRun run = traced(k.name, in, twoD ? mask2D(3) : mask1D(3), twoD ? 8 : 16);
        ASSERT_TRUE(run.ok) << k.name << ": " << run.error;
        const std::string_view text = kernelSource(k);
        const Trace& t = run.trace();
        for (const BlockEvents& b : t.blocks)
            for (const Event& e : b.events) {
                const std::string_view line = sourceLine(text, e.line);
                std::string expected;
                switch (e.op) {
                    case Op::Load:
                    case Op::Store:
                    case Op::LoadOutside:
                    case Op::StoreOutside:
                        expected = t.arrays[e.array].name + "[";
                        break;
                    case Op::MultiplyAdd:
                        expected = "+=";
                        break;
                    case Op::Barrier:
                        expected = "__syncthreads()";
                        break;
                }
                ASSERT_NE(line.find(expected), std::string_view::npos)
                    << k.name << " line " << e.line << " '" << line << "' lacks " << expected;
            }
    }
}

// [SECTION] Choosing blocks, the budget

TEST(Select, BlockListsAndTheBudget) {
    const Image in = image(40, 40);
    const Mask m = mask2D(5);
    RunRequest req;
    req.kernel = "conv2d_tiled_in";
    req.input = &in;
    req.mask = &m;
    req.block = 16;  // OUT 12: a 4x4 grid
    auto plan = planRequest(req);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_TRUE(parseTraceBlocks("all", *plan)->empty());
    auto two = parseTraceBlocks("0,0; 3,1", *plan);
    ASSERT_TRUE(two.ok());
    ASSERT_EQ(two->size(), 2u);
    EXPECT_EQ((*two)[1], blockAt(3, 1));
    auto interior = parseTraceBlocks("interior", *plan);
    ASSERT_TRUE(interior.ok());
    // Interior: input tile [12b - 2, 12b + 14) inside [0, 40): b = 1, 2.
    EXPECT_EQ(interior->size(), 4u);
    auto outside = parseTraceBlocks("4,0", *plan);
    ASSERT_FALSE(outside.ok());
    EXPECT_NE(outside.error().message.find("outside the grid"), std::string::npos);
    EXPECT_FALSE(parseTraceBlocks("1;x", *plan).ok());

    // The chosen blocks are traced, the others are not.
    TracedRun run = traced("conv2d_tiled_in", in, m, 16, *two);
    ASSERT_TRUE(run.ok);
    ASSERT_EQ(run.trace().blocks.size(), 2u);
    EXPECT_EQ(run.trace().blocks[1].block, blockAt(3, 1));

    TracedRun over = traced("conv2d_tiled_in", in, m, 16, {}, false, Backend::Cpu, 1000);
    ASSERT_FALSE(over.ok);
    EXPECT_NE(over.error.find("--trace-blocks"), std::string::npos) << over.error;
}

// [SECTION] The GPU gives the same counts (skipped without one)

TEST(TraceGpu, SameEventsAndCountsAsTheCpu) {
    std::string reason;
    if (!gpuAvailable(&reason))
        GTEST_SKIP() << "no GPU: " << reason;
    struct Case {
        const KernelInfo* k;
        int width, mask;
    };
    std::vector<Case> cases;
    for (const KernelInfo& k : allKernels()) cases.push_back({&k, 37, 5});
    // conv2d_fast's staged radii, with rows at multiples of 4 floats (float4 copies) and not (one float at a time).
    const KernelInfo* fast = findKernel("conv2d_fast");
    cases.push_back({fast, 40, 9});
    cases.push_back({fast, 37, 7});
    for (const auto& [kp, width, mask] : cases) {
        const KernelInfo& k = *kp;
        const bool twoD = k.dims == 2;
        const Image in = twoD ? randomImage(width, 29, k.multiChannel ? 3 : 1, 2) : signal(300);
        const Mask m = twoD ? mask2D(mask) : mask1D(mask);
        TracedRun cpu = traced(k.name, in, m, twoD ? 12 : 64, {}, false, Backend::Cpu);
        TracedRun gpu = traced(k.name, in, m, twoD ? 12 : 64, {}, false, Backend::Cuda);
        ASSERT_TRUE(cpu.ok && gpu.ok) << k.name << ": " << cpu.error << gpu.error;
        const TraceCounts a = countTrace(cpu.trace()), b = countTrace(gpu.trace());
        EXPECT_EQ(a.totals, b.totals) << k.name;
        ASSERT_EQ(cpu.trace().blocks.size(), gpu.trace().blocks.size());
        for (std::size_t i = 0; i < cpu.trace().blocks.size(); ++i) {
            EXPECT_EQ(a.blocks[i], b.blocks[i]) << k.name << " block " << i;
            // Loads of N in the same operand order and the same values: events agree
            // apart from operand order within a multiply-add, which compilers may choose.
            std::multiset<std::tuple<int, int, int, int>> x, y;
            for (const Event& e : cpu.trace().blocks[i].events)
                x.emplace(e.thread, static_cast<int>(e.op), e.array, e.index);
            for (const Event& e : gpu.trace().blocks[i].events)
                y.emplace(e.thread, static_cast<int>(e.op), e.array, e.index);
            EXPECT_EQ(x, y) << k.name << " block " << i;
        }
    }
}

// [SECTION] The arrays read back from a trace

// A whole trace carries every input cell, every output and every mask tap
// of its launch: read back from the events, they equal what the run was
// given and what it returned, bit for bit, for every kernel.
TEST(TraceArrays, AWholeTraceGivesBackTheInputTheMaskAndTheOutput) {
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted)  // a listing as printed may skip input cells, read outside N or write into it
            continue;
        const Image in = k.dims == 1 ? randomSignal(203, 41) : randomImage(29, 19, k.multiChannel ? 3 : 1, 42);
        const Mask mask = randomMask(5, k.dims == 2, 43);
        auto run = runKernel(requestFor(std::string(k.name), in, mask, k.dims == 1 ? 32 : 8, Backend::Cpu, true));
        ASSERT_TRUE(run.ok() && run->trace) << k.name;
        const TracedArrays t = arraysOfTrace(*run->trace);

        EXPECT_EQ(t.input.width, in.width) << k.name;
        EXPECT_EQ(t.input.height, in.height) << k.name;
        EXPECT_EQ(t.input.channels, in.channels) << k.name;
        EXPECT_EQ(t.input.data, in.data) << k.name;
        EXPECT_EQ(t.inputCellsRead(), in.data.size()) << k.name;
        EXPECT_EQ(t.output.data, run->output.data) << k.name;
        EXPECT_EQ(t.outputCellsWritten(), run->output.data.size()) << k.name;
        EXPECT_TRUE(t.maskComplete) << k.name;
        EXPECT_EQ(t.mask.width, mask.width) << k.name;
        EXPECT_EQ(t.mask.height, mask.height) << k.name;
        EXPECT_EQ(t.mask.values, mask.values) << k.name;
    }
}

// One block's trace tells only what that block touched: its input
// footprint (tile and halo inside the array) and its output tile.
TEST(TraceArrays, OneBlocksTraceGivesBackItsFootprintOnly) {
    const Image in = randomImage(40, 40, 1, 44);
    const Mask mask = randomMask(5, true, 45);
    RunRequest r = requestFor("conv2d_tiled_in", in, mask, 16, Backend::Cpu, true);  // OUT_TILE_DIM 12
    r.traceBlocks = {Dim3{1, 1, 0}};
    auto run = runKernel(r);
    ASSERT_TRUE(run.ok() && run->trace);
    const TracedArrays t = arraysOfTrace(*run->trace);
    // Block (1,1) loads the 16 x 16 input tile from (12 - 2, 12 - 2), all inside
    // the array, and writes the 12 x 12 outputs from (12, 12).
    EXPECT_EQ(t.inputCellsRead(), 16u * 16u);
    EXPECT_EQ(t.outputCellsWritten(), 12u * 12u);
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 40; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * 40 + x;
            const bool inTile = x >= 10 && x < 26 && y >= 10 && y < 26;
            EXPECT_EQ(t.inputRead[i] == 1, inTile) << x << "," << y;
            if (inTile) {
                EXPECT_EQ(t.input.data[i], in.data[i]) << x << "," << y;
            }
            const bool outTile = x >= 12 && x < 24 && y >= 12 && y < 24;
            EXPECT_EQ(t.outputWritten[i] == 1, outTile) << x << "," << y;
            if (outTile) {
                EXPECT_EQ(t.output.data[i], run->output.data[i]) << x << "," << y;
            }
        }
}

// The trace an H100 recorded (docs/runs/hardware: `tilescope trace --kernel
// conv2d_tiled_in --size 128x128 --radius 2 --block 16 --backend cuda`), read
// here: its events give back the very input the command line generates for
// those options and the mask it generated then (a 5 x 5 box, 1/25 each; it
// generates an asymmetric one now), and an output that agrees with the
// double-precision reference.
TEST(TraceArrays, AGpuRecordedTraceGivesBackItsInputMaskAndAnOutputThatAgrees) {
    auto trace = readTrace(std::string(TILESCOPE_SOURCE_DIR) + "/docs/runs/hardware/conv2d_tiled_in_128.tstrace");
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    ASSERT_EQ(trace->backend, "cuda");
    const TracedArrays t = arraysOfTrace(*trace);

    request::KernelOptions options;
    options.kernel = "conv2d_tiled_in";
    options.size = "128x128";
    options.radius = 2;
    request::Loaded loaded;
    ASSERT_TRUE(request::load(options, loaded).ok());
    EXPECT_EQ(t.inputCellsRead(), 128u * 128u);
    EXPECT_EQ(t.input.data, loaded.input.data);
    EXPECT_TRUE(t.maskComplete);
    const Mask box = Mask::square(5, std::vector<float>(25, 1.0f / 25));
    EXPECT_EQ(t.mask.values, box.values);
    EXPECT_EQ(t.outputCellsWritten(), 128u * 128u);
    EXPECT_TRUE(matchesReference(loaded.input, box, t.output));
}

}  // namespace
}  // namespace tilescope::test
