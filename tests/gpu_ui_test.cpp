// The app on a real GPU, drawn: each test runs the `tilescope` binary with
// --backend cuda under an X display and checks what it drew. The Result panel
// names the GPU and the kernel's time; the step-through views step a trace the
// instrumented kernel recorded on the GPU, drawn exactly as the CPU
// executor's trace of the same launch is; a GPU that faults mid-run is
// replaced by the CPU executor, and the app says so in the Result panel and
// its status line; the Hardware panel draws the blocks on the SMs they ran on.
//
// They run where a GPU and a display are both present (label gpu-ui;
// scripts/gpu-ui.sh on the GPU machine) and skip elsewhere. With
// $TILESCOPE_GPU_UI_SHOTS set, each test also keeps its screenshots there.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "api/runner.hpp"
#include "app_driver.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;

// A small demo, the same on both backends: 64x64 of the photo, a 5x5 box
// blur, conv2d_tiled_in with 16x16 blocks (36 blocks, traced whole).
const std::string kSetUp =
    "--kernel conv2d_tiled_in --builtin photo --input-size 64x64 --preset box --radius 2 --block 16 --size 1600x900";

class GpuUiTest : public ::testing::Test {
protected:
    void SetUp() override {
        const char* display = std::getenv("DISPLAY");
        if (!display || !*display)
            GTEST_SKIP() << "no X display: run under xvfb-run";
        std::string reason;
        if (!gpuAvailable(&reason, &m_gpuName))
            GTEST_SKIP() << "no GPU: " << reason;
        m_app = std::make_unique<AppDriver>(::testing::UnitTest::GetInstance()->current_test_info()->name());
    }

    AppShot shot(const std::string& arguments, const std::string& name, const std::string& environment = {}) {
        AppShot s = m_app->screenshot(arguments, name, environment);
        if (const char* keep = std::getenv("TILESCOPE_GPU_UI_SHOTS"); keep && *keep && s.exitCode == 0) {
            std::error_code ignored;
            fs::create_directories(keep, ignored);
            fs::copy_file(m_app->dir() / (name + ".png"), fs::path(keep) / (name + ".png"),
                          fs::copy_options::overwrite_existing, ignored);
        }
        return s;
    }

    std::string m_gpuName;
    std::unique_ptr<AppDriver> m_app;
};

// The pixels of `r` that differ between two screenshots of the same size.
int differingPixels(const AppShot& a, const AppShot& b, const ShotRect& r) {
    int differ = 0;
    for (int y = static_cast<int>(r.y0); y < static_cast<int>(r.y1); ++y)
        for (int x = static_cast<int>(r.x0); x < static_cast<int>(r.x1); ++x) {
            const gfx::Rgb8 p = a.pixel(static_cast<float>(x), static_cast<float>(y)),
                            q = b.pixel(static_cast<float>(x), static_cast<float>(y));
            differ += p.r != q.r || p.g != q.g || p.b != q.b;
        }
    return differ;
}

TEST_F(GpuUiTest, TheResultPanelNamesTheGpuAndTheKernelsTime) {
    const AppShot s = shot("--backend cuda --panels setup,result " + kSetUp, "gpu-result");
    ASSERT_EQ(s.exitCode, 0) << s.errors;
    const std::string ran = s.text("result.backend");
    EXPECT_EQ(ran.rfind("conv2d_tiled_in ran on CUDA (", 0), 0u) << ran;
    EXPECT_NE(ran.find(m_gpuName), std::string::npos) << ran << " (the GPU is " << m_gpuName << ")";
    double millis = -1.0;
    const std::size_t in = ran.rfind(" in ");
    ASSERT_NE(in, std::string::npos) << ran;
    ASSERT_EQ(std::sscanf(ran.c_str() + in, " in %lf ms.", &millis), 1) << ran;
    EXPECT_GT(millis, 0.0) << "a time measured on the GPU";
    EXPECT_LT(millis, 1000.0);
    // The GPU's outputs, compared with the double-precision reference.
    EXPECT_EQ(s.text("result.status").rfind("\xE2\x9C\x93", 0), 0u) << s.text("result.status");
    EXPECT_FALSE(s.has("result.problem.gpu")) << s.text("result.problem.gpu");
}

TEST_F(GpuUiTest, TheStepThroughViewsStepATraceRecordedOnTheGpu) {
    // The same step of the same block, traced on the GPU and on the CPU: the
    // traces are equal event for event, so the views must be drawn alike.
    const std::string views = " --panels grid,threads,shared " + kSetUp;
    int stepped = 0;
    std::string lastCursor;
    for (const int step : {5, 60}) {
        const std::string at = " --step " + std::to_string(step);
        const AppShot gpu = shot("--backend cuda" + views + at, "gpu-step-" + std::to_string(step));
        const AppShot cpu = shot("--backend cpu" + views + at, "cpu-step-" + std::to_string(step));
        ASSERT_EQ(gpu.exitCode, 0) << gpu.errors;
        ASSERT_EQ(cpu.exitCode, 0) << cpu.errors;
        EXPECT_EQ(gpu.text("trace.backend"), "cuda") << "the step-through views show the GPU's trace";
        EXPECT_EQ(cpu.text("trace.backend"), "cpu");
        EXPECT_EQ(gpu.text("trace.cursor"), cpu.text("trace.cursor")) << "the same event of the same block";
        for (const char* view : {"grid.view"}) {
            ASSERT_TRUE(gpu.has(view) && cpu.has(view)) << view;
            const ShotRect r = gpu.rect(view);
            EXPECT_GT(r.width() * r.height(), 10000.0f) << view;
            EXPECT_EQ(differingPixels(gpu, cpu, r), 0) << view << " at step " << step;
        }
        // The thread and shared-memory views: their first cells are where both drew them.
        for (const char* cell : {"threads.cell0", "shared.cell0"}) {
            ASSERT_TRUE(gpu.has(cell) && cpu.has(cell)) << cell;
            const ShotRect g = gpu.rect(cell), c = cpu.rect(cell);
            EXPECT_EQ(g.x0, c.x0) << cell;
            EXPECT_EQ(g.y0, c.y0) << cell;
            EXPECT_EQ(differingPixels(gpu, cpu, g), 0) << cell << " at step " << step;
        }
        if (!lastCursor.empty() && gpu.text("trace.cursor") != lastCursor)
            ++stepped;
        lastCursor = gpu.text("trace.cursor");
    }
    EXPECT_EQ(stepped, 1) << "the two steps show different events";
}

TEST_F(GpuUiTest, AGpuThatFaultsIsReplacedByTheCpuAndTheAppSaysSo) {
    // The first launch on the GPU stores through a null pointer instead of
    // convolving (TILESCOPE_GPU_FAULT, kernels/exec/cuda_support.hpp): the
    // context is lost, the CPU executor runs the same launch, and the app
    // says both, in the Result panel and in its status line.
    const AppShot s = shot("--backend cuda --panels setup,result " + kSetUp, "gpu-fault", "TILESCOPE_GPU_FAULT=1");
    ASSERT_EQ(s.exitCode, 0) << s.errors;
    const std::string failed = s.text("result.problem.gpu");
    EXPECT_EQ(failed.rfind("The GPU failed: ", 0), 0u) << failed;
    EXPECT_NE(failed.find("illegal"), std::string::npos) << failed;
    EXPECT_NE(failed.find("The CPU executor ran the same launch instead."), std::string::npos) << failed;
    EXPECT_EQ(s.text("result.backend").rfind("conv2d_tiled_in ran on the CPU in ", 0), 0u) << s.text("result.backend");
    EXPECT_EQ(s.text("result.status").rfind("\xE2\x9C\x93", 0), 0u) << "the CPU's result is right";
    const std::string notice = s.text("app.notice");
    EXPECT_EQ(notice.rfind("The app now runs on the CPU executor: the GPU stopped working", 0), 0u) << notice;
    // Drawn, not only recorded: the message box and the status line have pixels on screen.
    EXPECT_GT(s.rect("result.problem.gpu").height(), 10.0f);
    EXPECT_GT(s.rect("app.notice").width(), 100.0f);
}

TEST_F(GpuUiTest, TheHardwarePanelDrawsALiveGpuTraceOnItsSms) {
    const AppShot s = shot("--backend cuda --panels hardware,grid " + kSetUp, "gpu-hardware");
    ASSERT_EQ(s.exitCode, 0) << s.errors;
    ASSERT_FALSE(s.has("hardware.message")) << s.text("hardware.message");
    // Every one of the 36 blocks has a bar, inside the row of some SM.
    int rows = 0;
    for (int sm = 0; sm < 256; ++sm)
        rows += s.has("hardware.sm" + std::to_string(sm));
    EXPECT_GE(rows, 1);
    for (int k = 0; k < 36; ++k) {
        const std::string name = "hardware.block" + std::to_string(k);
        ASSERT_TRUE(s.has(name)) << name;
        const ShotRect bar = s.rect(name);
        bool inRow = false;
        for (int sm = 0; sm < 256 && !inRow; ++sm) {
            const std::string row = "hardware.sm" + std::to_string(sm);
            if (s.has(row)) {
                const ShotRect r = s.rect(row);
                inRow = bar.y0 >= r.y0 && bar.y1 <= r.y1;
            }
        }
        EXPECT_TRUE(inRow) << name << " lies in no SM's row";
        EXPECT_GT(bar.width(), 0.0f) << name;
    }
}

}  // namespace
}  // namespace tilescope::test
