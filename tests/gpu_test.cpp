// The instrumented GPU run and the CPU executor record the same trace, event
// for event in each thread's program order; and the plain CUDA kernels agree
// with the reference. Skipped on a machine without a GPU.
#include <gtest/gtest.h>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

Result<RunResult> traced(const KernelInfo& k, const Image& in, const Mask& mask, int block, Backend backend) {
    return runKernel(requestFor(std::string(k.name), in, mask, block, backend, true));
}

std::string describe(const Event& e) {
    return "thread " + std::to_string(e.thread) + " line " + std::to_string(e.line) + " op " +
           std::to_string(static_cast<int>(e.op)) + " array " + std::to_string(e.array) + " index " +
           std::to_string(e.index) + " value " + std::to_string(e.value) + " phase " + std::to_string(e.phase);
}

TEST(GpuTrace, InstrumentedGpuTraceEqualsCpuTrace) {
    std::string reason;
    if (!gpuAvailable(&reason)) GTEST_SKIP() << reason;
    for (const KernelInfo& k : allKernels()) {
        // Races make the values of a listing as printed differ between runs (as_printed_test.cpp).
        if (k.asPrinted)
            continue;
        for (int r : {0, 1, 3}) {
            const Mask mask = randomMask(2 * r + 1, k.dims == 2, 11 + r);
            const Image in = k.dims == 1 ? randomSignal(203, 5) : randomImage(29, 19, k.multiChannel ? 3 : 1, 6);
            const int block = k.dims == 1 ? 64 : 12;
            auto cpu = traced(k, in, mask, block, Backend::Cpu);
            auto gpu = traced(k, in, mask, block, Backend::Cuda);
            ASSERT_TRUE(cpu.ok()) << cpu.error().message;
            ASSERT_TRUE(gpu.ok()) << gpu.error().message;
            ASSERT_TRUE(cpu->trace && gpu->trace);
            const Trace& a = *cpu->trace;
            const Trace& b = *gpu->trace;
            ASSERT_EQ(a.blocks.size(), b.blocks.size()) << k.name;
            for (std::size_t i = 0; i < a.blocks.size(); ++i) {
                ASSERT_EQ(a.blocks[i].block, b.blocks[i].block) << k.name;
                ASSERT_EQ(a.blocks[i].events.size(), b.blocks[i].events.size())
                    << k.name << " r=" << r << " block " << i;
                for (std::size_t e = 0; e < a.blocks[i].events.size(); ++e)
                    ASSERT_TRUE(a.blocks[i].events[e] == b.blocks[i].events[e])
                        << k.name << " r=" << r << " block " << i << " event " << e << "\n cpu: "
                        << describe(a.blocks[i].events[e]) << "\n gpu: " << describe(b.blocks[i].events[e]);
            }
            EXPECT_TRUE(matchesReference(in, mask, gpu->output)) << k.name;
        }
    }
}

TEST(GpuTrace, ChosenBlocksOnly) {
    if (!gpuAvailable()) GTEST_SKIP() << "no GPU";
    const KernelInfo& k = *findKernel("conv2d_tiled_in");
    const Image in = randomImage(64, 64, 1, 3);
    const Mask mask = randomMask(5, true, 4);
    for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
        RunRequest r;
        r.kernel = "conv2d_tiled_in";
        r.input = &in;
        r.mask = &mask;
        r.block = 16;
        r.backend = backend;
        r.trace = true;
        r.traceBlocks = {Dim3{1, 2, 0}, Dim3{0, 0, 0}};
        auto result = runKernel(r);
        ASSERT_TRUE(result.ok()) << result.error().message;
        ASSERT_EQ(result->trace->blocks.size(), 2u) << k.name;
        EXPECT_EQ(result->trace->blocks[0].block, (Dim3{0, 0, 0}));
        EXPECT_EQ(result->trace->blocks[1].block, (Dim3{1, 2, 0}));
    }
}

TEST(GpuTrace, HardwareRecordsSmTimeAndWarpsOfEveryBlock) {
    std::string reason;
    if (!gpuAvailable(&reason)) GTEST_SKIP() << reason;
    const Image in = randomImage(96, 80, 1, 3);
    const Mask mask = randomMask(3, true, 4);
    RunRequest r;
    r.kernel = "conv2d_tiled_in";
    r.input = &in;
    r.mask = &mask;
    r.block = 16;  // 256 threads: 8 warps
    r.backend = Backend::Cuda;
    r.trace = true;
    r.traceBlocks = {Dim3{0, 0, 0}};  // timing covers every block, events only the one asked for
    auto result = runKernel(r);
    ASSERT_TRUE(result.ok()) << result.error().message;
    const Trace& t = *result->trace;
    ASSERT_EQ(t.hardware.size(), result->plan.grid.count());
    const int sms = currentLimits().smCount;
    for (const BlockHardware& h : t.hardware) {
        EXPECT_GT(h.startNs, 0u);
        EXPECT_LE(h.startNs, h.endNs);
        EXPECT_LT(static_cast<int>(h.sm), sms);
        EXPECT_EQ(h.warpIds.size(), 8u);
    }
}

TEST(GpuTrace, CudaUnavailableIsExitCode3) {
    if (gpuAvailable()) GTEST_SKIP() << "a GPU is present";
    const Image in = randomImage(8, 8, 1, 1);
    const Mask mask = randomMask(3, true, 1);
    RunRequest r;
    r.kernel = "conv2d_basic";
    r.input = &in;
    r.mask = &mask;
    r.backend = Backend::Cuda;
    auto result = runKernel(r);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ExitCode::BackendUnavailable);
}

}  // namespace
}  // namespace tilescope::test
