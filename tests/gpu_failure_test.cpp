// When the GPU fails mid-run: a CUDA error is the GPU's failure, not the
// request's. With --backend auto (and always in the app) the CPU executor
// runs the same launch and the result says what the GPU reported; with an
// explicit --backend cuda the error comes back with exit code 3. A fault that
// poisons the CUDA context leaves the GPU unavailable for the rest of the
// process, with the fault as the reason.
//
// Each test fails the GPU for real: by taking nearly all of its memory, or by
// faulting a kernel of its own. ctest runs every test in a process of its
// own, so the lost context ends with its test. Skipped without a GPU; left
// out of scripts/gpu-check.sh, whose sanitizers would report the fault.
#include <gtest/gtest.h>

#ifdef TILESCOPE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <vector>

#include "api/runner.hpp"
#include "gpu_fault.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

#ifdef TILESCOPE_HAVE_CUDA
Result<RunResult> runOn(Backend backend, const Image& in, const Mask& mask, bool fallback = false) {
    RunRequest r = requestFor("conv2d_tiled_in", in, mask, 16, backend);
    r.fallbackToCpu = fallback;
    return runKernel(r);
}

// Holds all but `leave` bytes of the GPU's free memory while it lives.
class MemoryHog {
public:
    explicit MemoryHog(std::size_t leave) {
        std::size_t free = 0, total = 0;
        if (cudaMemGetInfo(&free, &total) != cudaSuccess)
            return;
        // Allocations come in large pages: take chunks until the rest is small.
        std::size_t chunk = std::size_t{1} << 30;
        while (chunk >= (std::size_t{1} << 20)) {
            void* p = nullptr;
            if (cudaMemGetInfo(&free, &total) != cudaSuccess)
                break;
            if (free <= leave)
                break;
            if (free - leave < chunk) {
                chunk /= 2;
                continue;
            }
            if (cudaMalloc(&p, chunk) != cudaSuccess) {
                cudaGetLastError();
                chunk /= 2;
                continue;
            }
            m_blocks.push_back(p);
        }
    }
    ~MemoryHog() {
        for (void* p : m_blocks)
            cudaFree(p);
    }
    std::size_t freeBytes() const {
        std::size_t free = 0, total = 0;
        cudaMemGetInfo(&free, &total);
        return free;
    }

private:
    std::vector<void*> m_blocks;
};
#endif

TEST(GpuFailure, OutOfDeviceMemoryRunsOnTheCpuWhenAllowed) {
#ifndef TILESCOPE_HAVE_CUDA
    GTEST_SKIP() << "built without CUDA";
#else
    std::string reason;
    if (!gpuAvailable(&reason))
        GTEST_SKIP() << reason;
    // 2048 x 2048 floats: 16 MiB for N and 16 MiB for P, with 4 MiB left free.
    const Image in = randomImage(2048, 2048, 1, 3);
    const Mask mask = randomMask(5, true, 4);
    {
        MemoryHog hog(4u << 20);
        ASSERT_LT(hog.freeBytes(), std::size_t{32} << 20) << "could not take the GPU's memory";

        auto strict = runOn(Backend::Cuda, in, mask);
        ASSERT_FALSE(strict.ok()) << "the launch needs more memory than is left";
        EXPECT_EQ(strict.error().code, ExitCode::BackendUnavailable);
        EXPECT_NE(strict.error().message.find("out of memory"), std::string::npos) << strict.error().message;

        for (bool explicitCuda : {false, true}) {
            auto ran = explicitCuda ? runOn(Backend::Cuda, in, mask, true) : runOn(Backend::Auto, in, mask);
            ASSERT_TRUE(ran.ok()) << ran.error().message;
            EXPECT_EQ(ran->backend, Backend::Cpu);
            EXPECT_NE(ran->gpuFailure.find("out of memory"), std::string::npos) << ran->gpuFailure;
            EXPECT_NE(ran->backendReason.find("the GPU failed"), std::string::npos) << ran->backendReason;
            EXPECT_TRUE(matchesReference(in, mask, ran->output));
        }
        // Out of memory does not cost the context: the GPU is still there.
        EXPECT_TRUE(gpuAvailable(&reason)) << reason;
    }
    // With the memory back, the GPU runs it again.
    auto again = runOn(Backend::Auto, in, mask);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->backend, Backend::Cuda);
    EXPECT_TRUE(again->gpuFailure.empty());
    EXPECT_TRUE(matchesReference(in, mask, again->output));
#endif
}

TEST(GpuFailure, ALostContextSendsEveryLaterRunToTheCpu) {
#ifndef TILESCOPE_HAVE_CUDA
    GTEST_SKIP() << "built without CUDA";
#else
    std::string reason;
    if (!gpuAvailable(&reason))
        GTEST_SKIP() << reason;
    const Image in = randomImage(61, 47, 1, 8);
    const Mask mask = randomMask(3, true, 9);
    auto before = runOn(Backend::Cuda, in, mask);
    ASSERT_TRUE(before.ok()) << before.error().message;
    EXPECT_EQ(before->backend, Backend::Cuda);

    ASSERT_EQ(faultTheGpu(), static_cast<int>(cudaErrorIllegalAddress));

    // The first run after the fault meets it, names it, and runs on the CPU.
    auto first = runOn(Backend::Auto, in, mask);
    ASSERT_TRUE(first.ok()) << first.error().message;
    EXPECT_EQ(first->backend, Backend::Cpu);
    EXPECT_NE(first->gpuFailure.find("illegal memory access"), std::string::npos) << first->gpuFailure;
    EXPECT_NE(first->gpuFailure.find("context is lost"), std::string::npos) << first->gpuFailure;
    EXPECT_TRUE(matchesReference(in, mask, first->output));

    // From then on the GPU reads as unavailable, with the fault as the reason.
    EXPECT_FALSE(gpuAvailable(&reason));
    EXPECT_NE(reason.find("illegal memory access"), std::string::npos) << reason;
    auto later = runOn(Backend::Auto, in, mask);
    ASSERT_TRUE(later.ok()) << later.error().message;
    EXPECT_EQ(later->backend, Backend::Cpu);
    EXPECT_NE(later->backendReason.find("no GPU"), std::string::npos) << later->backendReason;
    // An explicit request for the GPU is refused (exit code 3) unless the
    // caller allows the CPU, as the app does.
    auto strict = runOn(Backend::Cuda, in, mask);
    ASSERT_FALSE(strict.ok());
    EXPECT_EQ(strict.error().code, ExitCode::BackendUnavailable);
    auto allowed = runOn(Backend::Cuda, in, mask, true);
    ASSERT_TRUE(allowed.ok()) << allowed.error().message;
    EXPECT_EQ(allowed->backend, Backend::Cpu);
    EXPECT_TRUE(matchesReference(in, mask, allowed->output));
#endif
}

}  // namespace
}  // namespace tilescope::test
