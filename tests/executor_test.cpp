// The CPU executor: __syncthreads() is a real barrier, a barrier that only
// some threads reach is reported (not a hang), out-of-bounds accesses are
// reported with the thread, block and source line, and removing the barriers
// shows the race the book warns about.
#include <gtest/gtest.h>

#include <cmath>

#include "api/runner.hpp"
#include "exec/cpu_executor.hpp"
#include "exec/cpu_runtime.hpp"
#define TS_FN inline
#include "exec/traced_types.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

using namespace tilescope::cpu;

LaunchPlan plan1D(unsigned threads, unsigned blocks, std::size_t sharedFloats) {
    LaunchPlan plan;
    plan.kernel = KernelId::Conv1dTiled;
    plan.block = Dim3{threads, 1, 1};
    plan.grid = Dim3{blocks, 1, 1};
    plan.sharedBytes = sharedFloats * sizeof(float);
    return plan;
}

TEST(CpuExecutor, BarrierMakesEveryThreadsWriteVisible) {
    // Each thread writes its slot, waits, then reads its right neighbour's.
    // Without a real barrier, thread t would run to the end before thread t+1
    // had written anything.
    const LaunchPlan plan = plan1D(8, 3, 8);
    std::vector<float> seen(24, -1.0f);
    auto body = [&] {
        float* shared = CpuRecorder::sharedMemory(8, __LINE__);
        shared[threadIdx.x] = static_cast<float>(blockIdx.x * 100 + threadIdx.x);
        syncthreads(__LINE__);
        seen[blockIdx.x * 8 + threadIdx.x] = shared[(threadIdx.x + 1) % 8];
    };
    auto result = runGrid(plan, body, CpuOptions{});
    ASSERT_TRUE(result.ok()) << result.error().message;
    for (unsigned b = 0; b < 3; ++b)
        for (unsigned t = 0; t < 8; ++t) EXPECT_EQ(seen[b * 8 + t], static_cast<float>(b * 100 + (t + 1) % 8));
}

TEST(CpuExecutor, BarrierReachedBySomeThreadsIsReportedNotAHang) {
    // The waiting threads are released, as the hardware releases them when
    // the others have exited; the launch says so.
    const LaunchPlan plan = plan1D(4, 1, 0);
    int after = 0;
    auto body = [&] {
        if (threadIdx.x < 2) {
            syncthreads(7);
            ++after;
        }
    };
    LaunchFaults faults;
    CpuOptions options;
    options.faults = &faults;
    auto result = runGrid(plan, body, options);
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(after, 2);
    EXPECT_EQ(faults.barrierMismatches, 1u);
    EXPECT_NE(faults.firstBarrier.find("line 7 is reached by 2 of 4 threads"), std::string::npos)
        << faults.firstBarrier;
}

TEST(CpuExecutor, ThreadsWaitingAtDifferentBarriersAreReported) {
    const LaunchPlan plan = plan1D(4, 1, 0);
    auto body = [] {
        if (threadIdx.x == 0)
            syncthreads(10);
        else
            syncthreads(20);
    };
    LaunchFaults faults;
    CpuOptions options;
    options.faults = &faults;
    auto result = runGrid(plan, body, options);
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(faults.barrierMismatches, 1u);
    EXPECT_NE(faults.firstBarrier.find("different barriers"), std::string::npos) << faults.firstBarrier;
}

TEST(CpuExecutor, OutOfBoundsAccessIsNotMadeAndNamesThreadBlockAndLine) {
    // conv1d_tiled with the book's Figure 7.11 would read N past the end; here
    // a body reads one element too far through the traced array type. The
    // access is not made (it gives 0) and the thread carries on.
    const LaunchPlan plan = plan1D(4, 2, 0);
    std::vector<float> data(8, 1.0f);
    std::vector<float> seen(8, -1.0f);
    auto body = [&] {
        traced::InputArray<CpuRecorder> N{data.data(), 8, kArrayInput};
        const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
        seen[static_cast<std::size_t>(i)] = N[i + 1];
    };
    LaunchFaults faults;
    CpuOptions options;
    options.faults = &faults;
    auto result = runGrid(plan, body, options);
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(seen[7], 0.0f);
    EXPECT_EQ(seen[6], 1.0f);
    EXPECT_EQ(faults.outside, 1u);
    EXPECT_NE(faults.firstOutside.find("thread (3) of block (1)"), std::string::npos) << faults.firstOutside;
    EXPECT_NE(faults.firstOutside.find("N[8] is outside the array (8 elements)"), std::string::npos)
        << faults.firstOutside;
}

TEST(CpuExecutor, RemovingTheBarriersBreaksTheTiledKernels) {
    // The classroom demonstration: without __syncthreads(), a thread reads
    // shared-memory cells its neighbours have not loaded yet (NaN here).
    const Image in = randomImage(32, 32, 1, 2);
    const Mask mask = randomMask(5, true, 3);
    RunRequest r;
    r.kernel = "conv2d_tiled_in";
    r.input = &in;
    r.mask = &mask;
    r.block = 16;
    r.backend = Backend::Cpu;
    auto withBarriers = runKernel(r);
    ASSERT_TRUE(withBarriers.ok());
    EXPECT_TRUE(matchesReference(in, mask, withBarriers->output));
    r.drop.all = true;
    auto racy = runKernel(r);
    ASSERT_TRUE(racy.ok()) << racy.error().message;
    int broken = 0;
    for (float v : racy->output.data) broken += std::isnan(v) ? 1 : 0;
    EXPECT_GT(broken, 0);
}

TEST(CpuExecutor, TraceBudgetIsAClearErrorNotAnAbort) {
    const Image in = randomImage(64, 64, 1, 2);
    const Mask mask = randomMask(5, true, 3);
    RunRequest r;
    r.kernel = "conv2d_basic";
    r.input = &in;
    r.mask = &mask;
    r.backend = Backend::Cpu;
    r.trace = true;
    r.eventBudget = 1000;
    auto result = runKernel(r);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ExitCode::BadInput);
    EXPECT_NE(result.error().message.find("budget of 1000 events"), std::string::npos) << result.error().message;
}

TEST(CpuExecutor, TraceDoesNotDependOnTheNumberOfWorkers) {
    const Image in = randomImage(40, 30, 1, 2);
    const Mask mask = randomMask(3, true, 3);
    RunRequest r;
    r.kernel = "conv2d_tiled_out";
    r.input = &in;
    r.mask = &mask;
    r.block = 8;
    r.backend = Backend::Cpu;
    r.trace = true;
    r.cpuWorkers = 1;
    auto one = runKernel(r);
    r.cpuWorkers = 4;
    auto four = runKernel(r);
    ASSERT_TRUE(one.ok() && four.ok());
    ASSERT_EQ(one->trace->blocks.size(), four->trace->blocks.size());
    for (std::size_t b = 0; b < one->trace->blocks.size(); ++b) {
        const auto& x = one->trace->blocks[b].events;
        const auto& y = four->trace->blocks[b].events;
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t e = 0; e < x.size(); ++e) ASSERT_TRUE(x[e] == y[e]);
    }
}

}  // namespace
}  // namespace tilescope::test
