// The problem detector: each kind of problem on a trace built by hand (the
// oracle is the scenario itself), no problem at all for the corrected
// kernels over the sweep of sizes, radii and block edges the kernel tests
// use, and every tiled kernel flagged when its barriers are dropped, with
// wrong pixels in the output under the reverse warp order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "trace/fault.hpp"
#include "test_support.hpp"
#include "trace/problems.hpp"

namespace tilescope::test {
namespace {

// [SECTION] Traces built by hand

// A 1D launch of `blocks` blocks of 4 threads; N, P and the shared array hold 8 elements.
Trace handTrace(unsigned blocks = 1) {
    Trace t;
    t.kernel = "conv1d_tiled";
    t.backend = "cpu";
    t.plan.kernel = KernelId::Conv1dTiled;
    t.plan.block = Dim3{4, 1, 1};
    t.plan.grid = Dim3{blocks, 1, 1};
    t.plan.width = 8;
    t.plan.pitch = 8;
    for (std::uint8_t a : {std::uint8_t{kArrayInput}, std::uint8_t{kArrayOutput}}) {
        ArrayInfo& info = t.arrays[a];
        info.name = a == kArrayInput ? "N" : "P";
        info.width = 8;
        info.pitch = 8;
        info.size = 8;
    }
    t.arrays[kArrayMask] = ArrayInfo{"M", Space::Constant, 3, 1, 1, 15, 15};
    t.arrays[kArrayShared] = ArrayInfo{"N_ds", Space::Shared, 8, 1, 1, 8, 8};
    for (unsigned b = 0; b < blocks; ++b) t.blocks.push_back(BlockEvents{Dim3{b, 0, 0}, {}});
    return t;
}

// Appends one thread's events, in its program order (threads must be added in ascending order).
void thread(Trace& t, unsigned block, std::uint16_t id, std::initializer_list<Event> events) {
    std::uint16_t phase = 0;
    for (Event e : events) {
        e.thread = id;
        e.phase = phase;
        if (e.op == Op::Barrier) ++phase;
        t.blocks[block].events.push_back(e);
    }
}
Event store(std::uint8_t array, int index, unsigned line) {
    return Event{index, 1.0f, 0, static_cast<std::uint16_t>(line), 0, Op::Store, array};
}
Event load(std::uint8_t array, int index, unsigned line) {
    return Event{index, 1.0f, 0, static_cast<std::uint16_t>(line), 0, Op::Load, array};
}
Event barrier(unsigned line) { return Event{-1, 0.0f, 0, static_cast<std::uint16_t>(line), 0, Op::Barrier, kArrayNone}; }

std::vector<ProblemReport> ofKind(const ProblemSet& s, ProblemKind k) {
    std::vector<ProblemReport> out;
    for (const ProblemReport& p : s.items)
        if (p.kind == k) out.push_back(p);
    return out;
}

TEST(Problems, AReadOfAnotherThreadsWriteWithNoBarrierIsAReadAfterWrite) {
    Trace t = handTrace();
    thread(t, 0, 0, {store(kArrayShared, 1, 10)});
    thread(t, 0, 1, {store(kArrayShared, 2, 10), load(kArrayShared, 1, 20)});
    const ProblemSet s = detectProblems(t);
    ASSERT_EQ(s.total(), 1u) << s.summary();
    const ProblemReport& p = s.items[0];
    EXPECT_EQ(p.kind, ProblemKind::SharedRace);
    EXPECT_EQ(p.order, HazardOrder::ReadAfterWrite);
    EXPECT_EQ(p.index, 1);
    EXPECT_EQ(p.first.thread, 0u);
    EXPECT_EQ(p.first.line, 10u);
    EXPECT_EQ(p.first.step, 0u);
    EXPECT_EQ(p.second.thread, 1u);
    EXPECT_EQ(p.second.line, 20u);
    EXPECT_EQ(p.second.step, 1u);
    const std::string words = describeProblem(t, p);
    EXPECT_NE(words.find("thread (1) of block (0) reads N_ds[1] at line 20, step 1"), std::string::npos) << words;
    EXPECT_NE(words.find("no __syncthreads() between them"), std::string::npos) << words;
    ASSERT_EQ(s.groups.size(), 1u);
    EXPECT_EQ(s.groups[0].firstLine, 10u);
    EXPECT_EQ(s.groups[0].secondLine, 20u);
}

TEST(Problems, ABarrierBetweenTheWriteAndTheReadOrdersThem) {
    Trace t = handTrace();
    thread(t, 0, 0, {store(kArrayShared, 1, 10), barrier(15)});
    thread(t, 0, 1, {store(kArrayShared, 2, 10), barrier(15), load(kArrayShared, 1, 20), load(kArrayShared, 2, 20)});
    thread(t, 0, 2, {barrier(15)});
    thread(t, 0, 3, {barrier(15)});
    EXPECT_TRUE(detectProblems(t).clean()) << detectProblems(t).summary();
}

TEST(Problems, AWriteAfterAnotherThreadsReadIsAWriteAfterRead) {
    Trace t = handTrace();
    thread(t, 0, 0, {store(kArrayShared, 0, 9), load(kArrayShared, 2, 20)});  // reads N_ds[2] at step 1
    thread(t, 0, 1, {store(kArrayShared, 3, 9), load(kArrayShared, 3, 20), store(kArrayShared, 2, 30)});  // step 2
    const ProblemSet s = detectProblems(t);
    ASSERT_EQ(s.total(), 1u) << s.summary();
    const ProblemReport& p = s.items[0];
    EXPECT_EQ(p.order, HazardOrder::WriteAfterRead);
    EXPECT_EQ(p.first.thread, 0u);
    EXPECT_EQ(p.first.line, 20u);
    EXPECT_EQ(p.second.thread, 1u);
    EXPECT_EQ(p.second.line, 30u);
}

TEST(Problems, TwoThreadsWritingOneElementInAPhaseAreNamedOnce) {
    Trace t = handTrace();
    thread(t, 0, 0, {store(kArrayShared, 5, 11)});
    thread(t, 0, 1, {store(kArrayShared, 5, 11)});
    thread(t, 0, 2, {store(kArrayShared, 5, 11)});
    const ProblemSet s = detectProblems(t);
    ASSERT_EQ(s.total(), 1u) << s.summary();
    EXPECT_EQ(s.items[0].order, HazardOrder::WriteAfterWrite);
    EXPECT_EQ(s.items[0].first.thread, 0u);
    EXPECT_EQ(s.items[0].second.thread, 1u);
}

TEST(Problems, AReadOfSharedMemoryNobodyWroteIsUninitialised) {
    Trace t = handTrace();
    thread(t, 0, 0, {store(kArrayShared, 4, 10), load(kArrayShared, 4, 20), load(kArrayShared, 6, 21)});
    thread(t, 0, 1, {load(kArrayShared, 7, 21), store(kArrayShared, 7, 22)});  // reads, then writes: too late
    const ProblemSet s = detectProblems(t);
    const auto uninit = ofKind(s, ProblemKind::UninitialisedRead);
    ASSERT_EQ(uninit.size(), 2u) << s.summary();
    EXPECT_EQ(std::set<int>({uninit[0].index, uninit[1].index}), std::set<int>({6, 7}));
    EXPECT_EQ(s.total(), 2u) << s.summary();
}

TEST(Problems, AccessesOutsideAnArrayAreEachNamed) {
    Trace t = handTrace();
    thread(t, 0, 0, {Event{9, 0.0f, 0, 12, 0, Op::LoadOutside, kArrayInput}});
    thread(t, 0, 3, {Event{-1, 2.0f, 0, 14, 0, Op::StoreOutside, kArrayOutput}});
    const ProblemSet s = detectProblems(t);
    const auto outside = ofKind(s, ProblemKind::OutOfBounds);
    ASSERT_EQ(outside.size(), 2u);
    EXPECT_EQ(s.total(), 2u);
    EXPECT_EQ(outside[0].index, 9);
    EXPECT_EQ(outside[1].first.thread, 3u);
    const std::string words = describeProblem(t, outside[1]);
    EXPECT_NE(words.find("writes P[-1] at line 14"), std::string::npos) << words;
    EXPECT_NE(words.find("outside the array (8 elements)"), std::string::npos) << words;
}

// An access outside a two-dimensional array is recorded with its subscripts
// as written (event.hpp's subscriptIndex), and named so, with the subscript
// that is past its extent: N_s[1][4] of a 4 x 4 array flattens to 8, which
// lies inside the array (N_s[2][0]).
TEST(Problems, AnAccessOutsideA2DArrayIsNamedAsWritten) {
    Trace t;
    t.kernel = "conv2d_tiled_in";
    t.backend = "cpu";
    t.plan.kernel = KernelId::Conv2dTiledIn;
    t.plan.block = Dim3{4, 4, 1};
    t.plan.grid = Dim3{1, 1, 1};
    t.plan.width = t.plan.height = t.plan.pitch = 8;
    t.arrays[kArrayInput] = ArrayInfo{"N", Space::Global, 8, 8, 1, 8, 64};
    t.arrays[kArrayOutput] = ArrayInfo{"P", Space::Global, 8, 8, 1, 8, 64};
    t.arrays[kArrayMask] = ArrayInfo{"F_c", Space::Constant, 3, 3, 1, 15, 225};
    t.arrays[kArrayShared] = ArrayInfo{"N_s", Space::Shared, 4, 4, 1, 4, 16};
    t.blocks.push_back(BlockEvents{Dim3{0, 0, 0}, {}});
    thread(t, 0, 0, {Event{subscriptIndex(1, 4), 0.0f, 0, 20, 0, Op::LoadOutside, kArrayShared}});
    thread(t, 0, 1, {Event{subscriptIndex(-1, 2), 3.0f, 0, 21, 0, Op::StoreOutside, kArrayShared}});
    thread(t, 0, 2, {Event{subscriptIndex(15, 15), 0.0f, 0, 22, 0, Op::LoadOutside, kArrayMask}});
    // Subscripts too large to record as written keep the flattened index.
    thread(t, 0, 3, {Event{8, 0.0f, 0, 23, 0, Op::LoadOutside, kArrayShared}});
    const ProblemSet s = detectProblems(t);
    const auto outside = ofKind(s, ProblemKind::OutOfBounds);
    ASSERT_EQ(outside.size(), 4u);

    EXPECT_EQ(outside[0].index, -1);  // no element of the array
    EXPECT_EQ(outside[0].subscripts.row, 1);
    EXPECT_EQ(outside[0].subscripts.col, 4);
    EXPECT_EQ(outside[0].subscripts.rows, 4);
    EXPECT_EQ(outside[0].subscripts.cols, 4);
    EXPECT_EQ(describeProblem(t, outside[0]),
              "out of bounds: thread (0,0) of block (0,0) reads N_s[1][4] at line 20, step 0, outside the array: "
              "column 4 of 4 columns");
    EXPECT_EQ(describeProblem(t, outside[1]),
              "out of bounds: thread (1,0) of block (0,0) writes N_s[-1][2] at line 21, step 0, outside the array: "
              "row -1 of 4 rows");
    EXPECT_EQ(describeProblem(t, outside[2]),
              "out of bounds: thread (2,0) of block (0,0) reads F_c[15][15] at line 22, step 0, outside the array: "
              "row 15 of 15 rows, column 15 of 15 columns");
    EXPECT_EQ(outside[3].index, 8);
    EXPECT_EQ(outside[3].subscripts.rows, 0);
    EXPECT_NE(describeProblem(t, outside[3]).find("N_s[8] at line 23, step 0, outside the array (16 elements): a row "
                                                  "or column index past its extent"),
              std::string::npos)
        << describeProblem(t, outside[3]);

    // The run's own words for the first one it met (an untraced run's LaunchFaults), from the same subscripts.
    EXPECT_EQ(describeOutOfBounds(t.plan, Dim3{0, 0, 0}, 0, kArrayShared, 8, 16, 20, Subscript2D{1, 4, 4, 4}),
              "thread (0,0) of block (0,0), line 20: N_s[1][4]: column 4 of 4 columns");
    EXPECT_EQ(describeOutOfBounds(t.plan, Dim3{0, 0, 0}, 0, kArrayShared, 20, 16, 20, Subscript2D{5, 0, 4, 4}),
              "thread (0,0) of block (0,0), line 20: N_s[5][0]: row 5 of 4 rows");
    EXPECT_EQ(describeOutOfBounds(t.plan, Dim3{0, 0, 0}, 0, kArrayInput, 70, 64, 20),
              "thread (0,0) of block (0,0), line 20: N[70] is outside the array (64 elements)");
}

// The subscripts come back as written, and no index of a one-dimensional
// access outside its array (short of -2^30) reads as subscripts.
TEST(Problems, SubscriptsRecordedInAnEventComeBackAsWritten) {
    for (int part : {0, 1, 7, kSubscriptParts - 1})
        for (int row : {-kSubscriptBias, -1, 0, 1, 4, 3071, kSubscriptBias - 1})
            for (int col : {-kSubscriptBias, -3, 0, 16, 3071, kSubscriptBias - 1}) {
                ASSERT_TRUE(subscriptsFit(row, col, part));
                const std::int32_t index = subscriptIndex(row, col, part);
                EXPECT_TRUE(isSubscriptIndex(index));
                EXPECT_EQ(subscriptRow(index), row);
                EXPECT_EQ(subscriptCol(index), col);
                EXPECT_EQ(subscriptPart(index), part);
            }
    EXPECT_FALSE(subscriptsFit(kSubscriptBias, 0));
    EXPECT_FALSE(subscriptsFit(0, -kSubscriptBias - 1));
    EXPECT_FALSE(subscriptsFit(0, 0, kSubscriptParts));
    EXPECT_FALSE(subscriptsFit(0, 0, -1));
    // The last part's last record is the last index of the range.
    EXPECT_EQ(subscriptIndex(kSubscriptBias - 1, kSubscriptBias - 1, kSubscriptParts - 1), -(1 << 30) - 1);
    for (std::int32_t index : {-1, -1000000, -(1 << 30), 0, 8, std::numeric_limits<std::int32_t>::max()})
        EXPECT_FALSE(isSubscriptIndex(index)) << index;
}

TEST(Problems, ThreadsThatSkipABarrierOthersReachAreCounted) {
    Trace t = handTrace();
    thread(t, 0, 0, {barrier(30), load(kArrayInput, 0, 31)});
    thread(t, 0, 1, {barrier(30)});
    thread(t, 0, 2, {load(kArrayInput, 2, 25)});
    thread(t, 0, 3, {load(kArrayInput, 3, 25)});
    const ProblemSet s = detectProblems(t);
    const auto mismatch = ofKind(s, ProblemKind::BarrierMismatch);
    ASSERT_EQ(mismatch.size(), 1u) << s.summary();
    EXPECT_EQ(mismatch[0].threads, 2u);
    EXPECT_EQ(mismatch[0].first.line, 30u);
    EXPECT_EQ(mismatch[0].second.thread, 2u);
    EXPECT_EQ(mismatch[0].second.line, 25u);
    EXPECT_TRUE(mismatch[0].returned);
}

TEST(Problems, ThreadsWaitingAtDifferentBarriersAreNamed) {
    Trace t = handTrace();
    thread(t, 0, 0, {barrier(30)});
    thread(t, 0, 1, {barrier(30)});
    thread(t, 0, 2, {barrier(40)});
    thread(t, 0, 3, {barrier(30)});
    const ProblemSet s = detectProblems(t);
    ASSERT_EQ(s.total(), 1u) << s.summary();
    EXPECT_EQ(s.items[0].kind, ProblemKind::BarrierMismatch);
    EXPECT_EQ(s.items[0].second.thread, 2u);
    EXPECT_EQ(s.items[0].second.line, 40u);
    EXPECT_EQ(s.items[0].second.op, Op::Barrier);
    EXPECT_FALSE(s.items[0].returned);
    EXPECT_NE(problemLine(t, s.items[0]).find("thread (2) at the barrier of line 40"), std::string::npos)
        << problemLine(t, s.items[0]);
}

// Threads that passed the first barrier and returned before the second (the
// second inside an if they fail) wait at no barrier: they are said to have
// returned, after the last line they ran, never to wait at the barrier they
// passed.
TEST(Problems, ThreadsThatReturnedBeforeABarrierAreSaidToHaveReturned) {
    Trace t = handTrace();
    thread(t, 0, 0, {barrier(20), load(kArrayInput, 0, 30), barrier(40)});
    thread(t, 0, 1, {barrier(20), load(kArrayInput, 1, 30), barrier(40)});
    thread(t, 0, 2, {barrier(20)});
    thread(t, 0, 3, {barrier(20)});
    const ProblemSet s = detectProblems(t);
    const auto mismatch = ofKind(s, ProblemKind::BarrierMismatch);
    ASSERT_EQ(mismatch.size(), 1u) << s.summary();
    const ProblemReport& p = mismatch[0];
    EXPECT_TRUE(p.returned);
    EXPECT_EQ(p.threads, 2u);
    EXPECT_EQ(p.first.line, 40u);
    EXPECT_EQ(p.second.thread, 2u);
    EXPECT_EQ(p.second.line, 20u);
    const std::string line = problemLine(t, p);
    EXPECT_NE(line.find("thread (0) at the barrier of line 40, 2 threads never reach it (thread (2) returned after "
                        "line 20)"),
              std::string::npos)
        << line;
    EXPECT_EQ(line.find("barrier of line 20"), std::string::npos) << line;
    const std::string text = describeProblem(t, p);
    EXPECT_NE(text.find("2 threads return without reaching the __syncthreads() at line 40"), std::string::npos) << text;
    EXPECT_NE(text.find("thread (2) of block (0) returned after line 20"), std::string::npos) << text;
    EXPECT_EQ(text.find("waits at the one on line 20"), std::string::npos) << text;
}

// A thread that returns before it does anything the trace records has no
// event to name: it is still said to have returned.
TEST(Problems, AThreadThatReturnedBeforeAnyAccessIsSaidToHaveReturned) {
    Trace t = handTrace();
    thread(t, 0, 0, {barrier(20)});
    thread(t, 0, 1, {barrier(20)});
    thread(t, 0, 2, {barrier(20)});
    const ProblemSet s = detectProblems(t);  // thread 3 has no event at all
    const auto mismatch = ofKind(s, ProblemKind::BarrierMismatch);
    ASSERT_EQ(mismatch.size(), 1u) << s.summary();
    EXPECT_TRUE(mismatch[0].returned);
    EXPECT_EQ(mismatch[0].threads, 1u);
    EXPECT_FALSE(mismatch[0].second.valid());
    const std::string line = problemLine(t, mismatch[0]);
    EXPECT_NE(line.find("1 thread never reaches it (it returned before any load or store)"), std::string::npos) << line;
}

TEST(Problems, GlobalMemoryStoresOfTwoThreadsAndReadsTheyRaceWith) {
    Trace t = handTrace(2);
    // Block 0: thread 0 stores P[3]; thread 1 reads P[1] before writing it; thread 2 stores N[2]
    // which thread 3 of the same block reads in the same phase.
    thread(t, 0, 0, {store(kArrayOutput, 3, 40)});
    thread(t, 0, 1, {load(kArrayOutput, 1, 41), store(kArrayOutput, 1, 41), load(kArrayOutput, 1, 41)});
    thread(t, 0, 2, {store(kArrayInput, 2, 42)});
    thread(t, 0, 3, {load(kArrayInput, 5, 43), load(kArrayInput, 2, 43)});
    // Block 1: thread 0 stores P[3] as well, and reads N[2], which block 0 writes.
    thread(t, 1, 0, {store(kArrayOutput, 3, 40), load(kArrayInput, 2, 44)});
    const ProblemSet s = detectProblems(t);
    const auto dup = ofKind(s, ProblemKind::DuplicateStore);
    ASSERT_EQ(dup.size(), 1u) << s.summary();
    EXPECT_EQ(dup[0].index, 3);
    EXPECT_EQ(dup[0].order, HazardOrder::Unordered);
    EXPECT_EQ(dup[0].first.block, 0u);
    EXPECT_EQ(dup[0].second.block, 1u);
    const auto uninit = ofKind(s, ProblemKind::UninitialisedRead);
    ASSERT_EQ(uninit.size(), 1u) << s.summary();
    EXPECT_EQ(uninit[0].index, 1);
    EXPECT_EQ(uninit[0].first.thread, 1u);
    const auto races = ofKind(s, ProblemKind::GlobalRace);
    ASSERT_EQ(races.size(), 2u) << s.summary();
    EXPECT_EQ(races[0].order, HazardOrder::ReadAfterWrite);  // same block, same phase
    EXPECT_EQ(races[0].second.thread, 3u);
    EXPECT_EQ(races[1].order, HazardOrder::Unordered);  // another block
    EXPECT_EQ(races[1].second.block, 1u);
    EXPECT_EQ(s.total(), 4u) << s.summary();
}

TEST(Problems, OutputsThatDifferFromTheReferenceAreNamedWithTheirWriter) {
    Trace t = handTrace();
    thread(t, 0, 0, {Event{0, 0.5f, 0, 50, 0, Op::Store, kArrayOutput}});
    thread(t, 0, 1, {Event{1, 9.0f, 0, 50, 0, Op::Store, kArrayOutput}});
    Image out = Image::signal({0.5f, 9.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f, 0, 0, 0, 0});
    const std::vector<double> want{0.5, 1.0, 1.0, 0.0, 0, 0, 0, 0};
    const ResultCheck check{&out, want, 1e-6};
    const ProblemSet s = detectProblems(t, &check);
    const auto wrong = ofKind(s, ProblemKind::WrongResult);
    ASSERT_EQ(wrong.size(), 2u) << s.summary();
    EXPECT_EQ(wrong[0].x, 1);
    EXPECT_EQ(wrong[0].got, 9.0f);
    EXPECT_EQ(wrong[0].first.thread, 1u);
    EXPECT_EQ(wrong[1].x, 2);
    EXPECT_FALSE(wrong[1].first.valid());
    EXPECT_NE(describeProblem(t, wrong[1]).find("no thread wrote it"), std::string::npos);
    EXPECT_DOUBLE_EQ(s.largestError, 8.0);
}

// [SECTION] The kernels

class Detector : public ::testing::TestWithParam<Backend> {};

Result<RunResult> checked(const std::string& kernel, const Image& in, const Mask& mask, int block, Backend backend,
                          BarrierDrop drop = {}, Schedule schedule = Schedule::InOrder) {
    RunRequest r = requestFor(kernel, in, mask, block, backend);
    r.check = true;
    r.drop = std::move(drop);
    r.schedule = schedule;
    return runKernel(r);
}

// No false positives: every corrected kernel, the kernel tests' awkward
// sizes, radii from 0 to the largest and block edges of both extremes.
TEST_P(Detector, TheCorrectedKernelsHaveNoProblemsOverTheSweep) {
    const Backend backend = GetParam();
    struct Shape {
        int width, height;
    };
    const std::vector<Shape> shapes2D{{1, 1}, {13, 13}, {37, 23}, {3, 67}, {67, 3}, {5, 5}};
    const std::vector<int> sizes1D{1, 2, 13, 97, 300};
    int runs = 0;
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted) continue;
        const std::vector<int> edges =
            k.dims == 1 ? std::vector<int>{1, 4, 33, 64, 256} : std::vector<int>{1, 4, 8, 16, 20, 31};
        for (int r : {0, 1, 2, 4, 7}) {
            if (!inSweep(r, 7))
                continue;
            const Mask mask = randomMask(2 * r + 1, k.dims == 2, 100 + r);
            for (std::size_t e = 0; e < edges.size(); ++e) {
                // The sanitizer build: every other edge as well (both extremes kept).
                if (kSweepStride > 1 && e % 2 == 1 && e + 1 != edges.size())
                    continue;
                const int edge = edges[e];
                const std::size_t count = k.dims == 1 ? sizes1D.size() : shapes2D.size();
                for (std::size_t i = 0; i < count; ++i) {
                    const Image in = k.dims == 1 ? randomSignal(sizes1D[i], 7 * i + r)
                                                 : randomImage(shapes2D[i].width, shapes2D[i].height,
                                                               k.multiChannel ? 2 : 1, 31 * i + r);
                    auto result = checked(std::string(k.name), in, mask, edge, backend);
                    if (!result) continue;  // a launch the planner refuses (kernels_test checks which)
                    ++runs;
                    ASSERT_TRUE(result->problems.has_value());
                    const ProblemSet& s = *result->problems;
                    ASSERT_TRUE(s.clean()) << k.name << " r=" << r << " block " << edge << " input " << in.width
                                           << "x" << in.height << ": " << s.summary() << "; first: "
                                           << describeProblem(*result->trace, s.items.front());
                }
            }
        }
    }
    // What the planner accepts of 7 kernels x 5 radii x 5 or 6 edges x 5 or 6 inputs (the sanitizer
    // build: 2 radii x 3 or 4 edges).
    EXPECT_GT(runs, kSweepStride == 1 ? 800 : 150) << runs;
}

// Each tiled kernel, its barriers dropped one at a time: flagged on the line
// pair the barrier separated, and under the reverse warp order the output is wrong.
TEST_P(Detector, EveryTiledKernelIsFlaggedWhenABarrierIsDropped) {
    const Backend backend = GetParam();
    // Two channels for the pitched kernel: its second barrier guards the next channel's load.
    const Image image = randomImage(40, 24, 1, 5);
    const Image image2 = randomImage(40, 24, 2, 5);
    const Image signal = randomSignal(200, 6);
    int dropped = 0;
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted || !k.usesShared) continue;
        // conv2d_fast stages its input (and has a barrier to drop) at 7x7 and 9x9.
        const Mask mask = randomMask(k.id == KernelId::Conv2dFast ? 9 : 5, k.dims == 2, 9);
        const Image& in = k.dims == 1 ? signal : k.multiChannel ? image2 : image;
        const int block = k.dims == 1 ? 64 : 16;
        auto clean = checked(std::string(k.name), in, mask, block, backend);
        ASSERT_TRUE(clean.ok()) << clean.error().message;
        EXPECT_TRUE(clean->problems->clean()) << k.name;
        for (unsigned line : barrierLines(k)) {
            BarrierDrop drop;
            drop.lines = {line};
            auto racy = checked(std::string(k.name), in, mask, block, backend, drop, Schedule::Reverse);
            ASSERT_TRUE(racy.ok()) << k.name << " line " << line << ": " << racy.error().message;
            const ProblemSet& s = *racy->problems;
            EXPECT_GT(s.count(ProblemKind::SharedRace), 0u) << k.name << " without line " << line;
            // The barriers are gone from the trace, and only the one dropped.
            std::size_t barriers = 0;
            for (const BlockEvents& b : racy->trace->blocks)
                for (const Event& e : b.events) {
                    EXPECT_FALSE(e.op == Op::Barrier && e.line == line);
                    barriers += e.op == Op::Barrier ? 1 : 0;
                }
            std::size_t before = 0;
            for (const BlockEvents& b : clean->trace->blocks)
                for (const Event& e : b.events) before += e.op == Op::Barrier && e.line != line ? 1 : 0;
            EXPECT_EQ(barriers, before) << k.name;
            ++dropped;
        }
        // Every barrier dropped: the wrong pixels reach the output on the CPU
        // executor (on a GPU they may or may not, as the hardware schedules).
        if (backend == Backend::Cpu) {
            for (Schedule schedule : {Schedule::InOrder, Schedule::Reverse, Schedule::Random}) {
                BarrierDrop all;
                all.all = true;
                auto racy = checked(std::string(k.name), in, mask, block, backend, all, schedule);
                ASSERT_TRUE(racy.ok());
                EXPECT_GT(racy->problems->count(ProblemKind::WrongResult), 0u)
                    << k.name << " " << scheduleName(schedule);
                EXPECT_FALSE(matchesReference(in, mask, racy->output)) << k.name;
            }
        }
    }
    EXPECT_GE(dropped, 6);  // the five tiled kernels' barriers (the pitched kernel has two)
}

TEST_P(Detector, TheSameRacesOnEveryScheduleAndFromEitherTrace) {
    // Races depend on the program order and the barriers, not on the order the
    // threads ran in: every schedule (and the GPU's own) gives the same list.
    const Backend backend = GetParam();
    const Image in = randomImage(24, 20, 1, 3);
    const Mask mask = randomMask(3, true, 4);
    BarrierDrop all;
    all.all = true;
    auto key = [](const RunResult& r) {
        std::set<std::tuple<int, int, int, unsigned, unsigned, unsigned, unsigned>> s;
        for (const ProblemReport& p : r.problems->items)
            if (p.kind != ProblemKind::WrongResult)
                s.insert({static_cast<int>(p.kind), static_cast<int>(p.order), p.index, p.first.thread,
                          p.second.thread, p.first.line, p.second.step});
        return s;
    };
    auto reference = checked("conv2d_tiled_in", in, mask, 8, Backend::Cpu, all, Schedule::InOrder);
    ASSERT_TRUE(reference.ok());
    for (Schedule schedule : {Schedule::Reverse, Schedule::Random}) {
        auto other = checked("conv2d_tiled_in", in, mask, 8, backend, all, schedule);
        ASSERT_TRUE(other.ok()) << other.error().message;
        EXPECT_EQ(key(*other), key(*reference)) << scheduleName(schedule);
    }
}

TEST(Detector, ABarrierDropOnALineWithoutOneIsRefusedWithTheLinesThatHaveOne) {
    const Image in = randomImage(16, 16, 1, 1);
    const Mask mask = randomMask(3, true, 2);
    RunRequest r = requestFor("conv2d_tiled_in", in, mask, 8, Backend::Cpu);
    r.drop.lines = {5};
    auto result = runKernel(r);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ExitCode::BadInput);
    const std::vector<unsigned> lines = barrierLines(*findKernel("conv2d_tiled_in"));
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(result.error().message.find("its barriers are on line " + std::to_string(lines[0])), std::string::npos)
        << result.error().message;
    EXPECT_TRUE(barrierLines(*findKernel("conv2d_basic")).empty());
}

// The CUDA builds keep the barriers to drop as one bit per line up to
// kMaxBarrierLine: a barrier further down a kernel's file could not be dropped there.
TEST(Detector, EveryKernelsBarriersCanBeDroppedInTheCudaBuilds) {
    for (const KernelInfo& k : allKernels())
        for (unsigned line : barrierLines(k)) EXPECT_LE(line, kMaxBarrierLine) << k.name;
}

INSTANTIATE_TEST_SUITE_P(Backends, Detector, ::testing::ValuesIn(availableBackends()),
                         [](const auto& info) { return std::string(backendName(info.param)); });

}  // namespace
}  // namespace tilescope::test
