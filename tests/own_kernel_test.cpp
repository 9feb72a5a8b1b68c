// A student's own kernel file (kernels/own/): the translation keeps every
// line where the student wrote it; the CPU executor runs the file and agrees
// with the float64 reference; the trace counts what the kernel must do; and,
// on a GPU, the plain and instrumented runs through NVRTC agree with the CPU
// event for event. (The broken files are tested through the binary, by
// tests/own/run_broken.py.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "api/runner.hpp"
#include "own/own_kernel.hpp"
#include "own/translate.hpp"
#include "reference/reference.hpp"
#include "trace/problems.hpp"
#include "trace/trace_index.hpp"
#include "trace/trace_io.hpp"

namespace tilescope {
namespace {

const std::string kGood = std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/good/";

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Image randomImage(int w, int h, unsigned seed) {
    Image image = Image::planar(w, h);
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float& v : image.data) v = value(random);
    return image;
}

Mask randomMask(int r, int dims, unsigned seed) {
    const int w = 2 * r + 1;
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> values(dims == 1 ? w : w * w);
    for (float& v : values) v = value(random);
    return dims == 1 ? Mask::row(values) : Mask::square(w, values);
}

std::shared_ptr<const own::OwnKernel> compile(const std::string& file) {
    auto k = own::compileKernelFile(kGood + file);
    if (!k) ADD_FAILURE() << k.error().message;
    return k ? *k : nullptr;
}

// A kernel file's text, compiled without the sandbox (the tests of what it records).
std::shared_ptr<const own::OwnKernel> compileText(const std::string& name, const std::string& text) {
    own::CompileOptions options;
    options.sandbox = own::SandboxMode::Off;
    auto k = own::compileKernelText(name, text, options);
    if (!k) ADD_FAILURE() << k.error().message;
    return k ? *k : nullptr;
}

// A run of `kernel` on the CPU executor, on `input` with `mask` (kept by
// address: they must outlive the run); each test adds its own options.
RunRequest cpuRequest(const std::shared_ptr<const own::OwnKernel>& kernel, const Image& input, const Mask& mask) {
    RunRequest req;
    req.own = kernel;
    req.kernel = std::string(kernel->info->name);
    req.input = &input;
    req.mask = &mask;
    req.backend = Backend::Cpu;
    return req;
}

TEST(OwnTranslate, KeepsEveryLineAndRewritesOnlyWhatItMust) {
    const std::string text = readFile(kGood + "conv2d_tiled_student.cu");
    const std::string scratch = std::filesystem::temp_directory_path() / "tilescope-translate-test";
    auto t = own::translate("student.cu", text, scratch);
    std::filesystem::remove_all(scratch);
    ASSERT_TRUE(t) << t.error().message;
    // The rewritten file has the student's lines, one for one.
    const std::string& cpu = t->cpuSource;
    const std::size_t start = cpu.find("#line 1 \"student.cu\"\n") + std::string("#line 1 \"student.cu\"\n").size();
    const std::size_t end = cpu.find("\n}  // namespace tilescope::own_user");
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(std::count(cpu.begin() + static_cast<long>(start), cpu.begin() + static_cast<long>(end), '\n'),
              std::count(text.begin(), text.end(), '\n'));
    EXPECT_NE(cpu.find("SharedArray2D<float> N_ds(tsSharedAt(0, 256, 0), 16, 16)"), std::string::npos);
    EXPECT_NE(cpu.find("__constant__ ConstantArray<float[15][15]> Mc"), std::string::npos);
    EXPECT_NE(cpu.find("Global<const float> N"), std::string::npos);
    EXPECT_NE(cpu.find("tsAddTo(Pvalue, "), std::string::npos);
    EXPECT_NE(cpu.find("::tilescope::own_user::launchKernel(conv2d_tiled, \"conv2d_tiled\", 1024, grid, block)"),
              std::string::npos);
    ASSERT_EQ(t->kernels.size(), 1u);
    EXPECT_EQ(t->kernels[0].staticSharedFloats, 256);
    EXPECT_EQ(t->dims, 2);
    ASSERT_EQ(t->constants.size(), 1u);
    EXPECT_EQ(t->constants[0].name, "Mc");
    // The device source is the student's kernel as written, launch() left out.
    EXPECT_NE(t->deviceSource.find("__shared__ float N_ds[IN_TILE][IN_TILE]"), std::string::npos);
    EXPECT_EQ(t->deviceSource.find("<<<"), std::string::npos);
}

TEST(OwnTranslate, RefusesWithTheLineAndTheReason) {
    const std::string scratch = std::filesystem::temp_directory_path() / "tilescope-translate-refuse";
    const std::string text =
        "__global__ void k(const float* N, float* P, int width) {\n"
        "    int i = threadIdx.x;\n"
        "    atomicAdd(&P[0], N[i]);\n"
        "}\n"
        "void launch(const float* N, const float* M, float* P, int r, int width) { k<<<1, 32>>>(N, P, width); }\n";
    own::Diagnostic d;
    auto t = own::translate("atomic.cu", text, scratch, &d);
    std::filesystem::remove_all(scratch);
    ASSERT_FALSE(t);
    EXPECT_EQ(d.line, 3u);
    EXPECT_NE(t.error().message.find("atomic.cu:3"), std::string::npos) << t.error().message;
}

// A 1D file whose kernels are `kernels` and whose launch() holds `host`, translated and described as
// the app and the report name it.
own::OwnEntryDescription describedFile(const std::string& kernels, const std::string& host) {
    const std::string text =
        kernels + "void launch(const float* N, const float* M, float* P, int r, int width) {\n" + host + "}\n";
    // Its own folder: the tests of this file run side by side, each in a process of its own.
    const std::string scratch = std::filesystem::temp_directory_path() /
                                ("tilescope-translate-describe-" + std::to_string(::getpid()));
    auto t = own::translate("student.cu", text, scratch);
    std::filesystem::remove_all(scratch);
    if (!t) {
        ADD_FAILURE() << t.error().message << "\n" << text;
        return {};
    }
    return own::describeKernel(*t, "student.cu", text);
}

// A kernel with arrays and a shared array of its own names, and another whose names are all different.
const std::string kSmooth =
    "__global__ void smooth(const float* in, const float* w, float* out, int r, int n) {\n"
    "    __shared__ float tile[128];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    tile[threadIdx.x] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    if (i < n) out[i] = w[r] * tile[threadIdx.x];\n"
    "}\n";
const std::string kClear =
    "__global__ void clear(float* buf, int n) {\n"
    "    __shared__ float scratch[32];\n"
    "    scratch[threadIdx.x] = 0.0f;\n"
    "    if (threadIdx.x < n) buf[threadIdx.x] = scratch[threadIdx.x];\n"
    "}\n";

void expectSmooth(const own::OwnEntryDescription& d) {
    EXPECT_EQ(d.name, "smooth");
    EXPECT_EQ(d.arrayNames[kArrayInput], "in");
    EXPECT_EQ(d.arrayNames[kArrayMask], "w");
    EXPECT_EQ(d.arrayNames[kArrayOutput], "out");
    EXPECT_EQ(d.arrayNames[kArrayShared], "tile");
    EXPECT_TRUE(d.usesShared);
}

// The report, the trace and the views name the kernel launch() launches,
// with its own arrays and shared arrays, wherever the file declares it.
TEST(OwnTranslate, TheKernelDescribedIsTheOneLaunchLaunches) {
    expectSmooth(describedFile(kClear + kSmooth, "    smooth<<<(width + 127) / 128, 128>>>(N, M, P, r, width);\n"));
    // Of two launches, the first: the one the run follows.
    expectSmooth(describedFile(kClear + kSmooth,
                               "    smooth<<<(width + 127) / 128, 128>>>(N, M, P, r, width);\n"
                               "    clear<<<1, 32>>>(P, width);\n"));
    const own::OwnEntryDescription first =
        describedFile(kSmooth + kClear,
                      "    clear<<<1, 32>>>(P, width);\n"
                      "    smooth<<<(width + 127) / 128, 128>>>(N, M, P, r, width);\n");
    EXPECT_EQ(first.name, "clear");
    EXPECT_EQ(first.arrayNames[kArrayOutput], "buf");
    EXPECT_EQ(first.arrayNames[kArrayShared], "scratch");
}

// An array passed through a cast (most of the book's kernels take float*,
// and launch() has const float* N) is still named by the kernel's parameter.
TEST(OwnTranslate, ArraysPassedThroughACastAreNamedByTheKernelsParameters) {
    for (const char* call : {"smooth<<<(width + 127) / 128, 128>>>((const float*)N, (const float*)(M), (float*)P, r, "
                             "width);",
                             "smooth<<<(width + 127) / 128, 128>>>(static_cast<const float*>(N), (M), "
                             "const_cast<float*>(P), r, width);",
                             "smooth<<<(width + 127) / 128, 128>>>(((const float*)(N)), static_cast<const float*>(M), "
                             "P, r, width);"}) {
        SCOPED_TRACE(call);
        expectSmooth(describedFile(kSmooth, std::string("    ") + call + "\n"));
    }
    // A kernel taking float* for its input: `(float*)N` is the usual way to pass it.
    const own::OwnEntryDescription d =
        describedFile("__global__ void k(float* A, float* B, int n) { int i = threadIdx.x; if (i < n) B[i] = A[i]; }\n",
                      "    k<<<1, 32>>>((float*)N, const_cast<float*>(P), width);\n");
    EXPECT_EQ(d.arrayNames[kArrayInput], "A");
    EXPECT_EQ(d.arrayNames[kArrayOutput], "B");
}

struct RunCase {
    const char* file;
    int dims;
    int width, height, radius;
};

class OwnGoodKernels : public ::testing::TestWithParam<RunCase> {};

// Every good file, on the CPU executor: right against the float64 reference,
// every output stored once, and (2r+1)^dims multiply-adds per output.
TEST_P(OwnGoodKernels, AgreeWithTheReferenceAndDoTheBooksWork) {
    const RunCase c = GetParam();
    auto kernel = compile(c.file);
    ASSERT_TRUE(kernel);
    const Image input = c.dims == 1 ? Image::signal(randomImage(c.width, 1, 3).data) : randomImage(c.width, c.height, 3);
    const Mask mask = randomMask(c.radius, c.dims, 5);
    RunRequest req = cpuRequest(kernel, input, mask);
    req.check = true;
    auto run = runKernel(req);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_TRUE(run->trace && run->problems);
    EXPECT_TRUE(run->problems->items.empty()) << describeProblem(*run->trace, run->problems->items.front());
    const std::vector<double> want = reference::convolve(input, mask);
    EXPECT_LE(reference::maxAbsDifference(run->output.data, want), reference::float32Tolerance(input, mask));
    std::size_t stores = 0, madds = 0;
    for (const BlockEvents& b : run->trace->blocks)
        for (const Event& e : b.events) {
            stores += e.op == Op::Store && e.array == kArrayOutput;
            madds += e.op == Op::MultiplyAdd;
        }
    const std::size_t outputs = static_cast<std::size_t>(c.width) * (c.dims == 1 ? 1 : c.height);
    const std::size_t taps = c.dims == 1 ? 2 * c.radius + 1 : (2 * c.radius + 1) * (2 * c.radius + 1);
    EXPECT_EQ(stores, outputs);
    // The basic kernels skip ghost cells, so they do fewer multiply-adds; none does more.
    EXPECT_LE(madds, outputs * taps);
    EXPECT_GT(madds, 0u);
}

INSTANTIATE_TEST_SUITE_P(Files, OwnGoodKernels,
                         ::testing::Values(RunCase{"conv2d_tiled_student.cu", 2, 45, 37, 2},
                                           RunCase{"conv2d_tiled_student.cu", 2, 17, 64, 7},
                                           RunCase{"conv2d_basic_student.cu", 2, 40, 21, 1},
                                           RunCase{"conv2d_extern_shared_student.cu", 2, 33, 29, 3},
                                           RunCase{"conv1d_basic_student.cu", 1, 1000, 1, 4},
                                           RunCase{"conv1d_tiled_student.cu", 1, 777, 1, 2}));

// One block traced, as the app asks on a large input; the tiles still come
// from the run: block = 16x16 input tile, so a 12x12 output tile at r = 2.
TEST(OwnKernel, TracesTheBlocksAskedForAndKnowsTheTiles) {
    auto kernel = compile("conv2d_tiled_student.cu");
    ASSERT_TRUE(kernel);
    const Image input = randomImage(100, 90, 4);
    const Mask mask = randomMask(2, 2, 6);
    RunRequest req = cpuRequest(kernel, input, mask);
    req.trace = true;
    req.traceBlocks = {Dim3{2, 3, 0}};
    auto run = runKernel(req);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->trace->blocks.size(), 1u);
    EXPECT_EQ(run->trace->blocks[0].block.x, 2u);
    EXPECT_EQ(run->trace->blocks[0].block.y, 3u);
    EXPECT_EQ(run->plan.outTile, 12);
    EXPECT_EQ(run->plan.inTile, 16);
    EXPECT_EQ(run->plan.grid.x, 9u);  // ceil(100 / 12)
    // Every output the block stores lies in its output tile.
    for (const Event& e : run->trace->blocks[0].events)
        if (e.op == Op::Store && e.array == kArrayOutput) {
            EXPECT_GE(e.index % 100, 24);
            EXPECT_LT(e.index % 100, 36);
            EXPECT_GE(e.index / 100, 36);
            EXPECT_LT(e.index / 100, 48);
        }
}

TEST(OwnKernel, NothingIsLeftBehind) {
    std::string folder;
    {
        auto kernel = compile("conv2d_basic_student.cu");
        ASSERT_TRUE(kernel);
        folder = kernel->directory;
        EXPECT_TRUE(std::filesystem::exists(kernel->library));
    }
    EXPECT_FALSE(std::filesystem::exists(folder));
}

// A shared tile too small in 2D: the taps past its last column or row are
// named as written, by the run's own words (an untraced run), the problem
// detector and the step-through's words for the event; N_ds[0][16] of a
// 16 x 16 tile flattens to 16, which is N_ds[1][0], inside the array.
TEST(OwnKernel, AnAccessOutsideA2DArrayIsNamedAsWritten) {
    auto k = own::compileKernelFile(std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/broken/shared_2d_past_its_edge.cu");
    ASSERT_TRUE(k) << k.error().message;
    const Image input = randomImage(16, 16, 4);
    const Mask mask = randomMask(1, 2, 6);
    RunRequest req = cpuRequest(*k, input, mask);
    auto plain = runKernel(req);
    ASSERT_TRUE(plain) << plain.error().message;
    // Thread (14,0) is the first to reach past the last column: its tap j = 2.
    EXPECT_EQ(plain->faults.firstOutside, "thread (14,0) of block (0,0), line 40: N_ds[0][16]: column 16 of 16 columns");

    req.check = true;
    auto checked = runKernel(req);
    ASSERT_TRUE(checked && checked->trace && checked->problems);
    const ProblemSet& problems = *checked->problems;
    const ProblemReport* column = nullptr;
    const ProblemReport* row = nullptr;
    for (const ProblemReport& p : problems.items) {
        if (p.kind != ProblemKind::OutOfBounds) continue;
        EXPECT_EQ(p.index, -1);
        EXPECT_EQ(p.subscripts.rows, 16);
        EXPECT_EQ(p.subscripts.cols, 16);
        EXPECT_TRUE(p.subscripts.row >= 16 || p.subscripts.col >= 16) << p.subscripts.row << "," << p.subscripts.col;
        if (!column && p.subscripts.row == 0 && p.subscripts.col == 16) column = &p;
        if (!row && p.subscripts.row == 16 && p.subscripts.col == 0) row = &p;
    }
    ASSERT_TRUE(column && row);
    EXPECT_NE(describeProblem(*checked->trace, *column).find("reads N_ds[0][16] at line 40"), std::string::npos);
    EXPECT_NE(describeProblem(*checked->trace, *row).find("outside the array: row 16 of 16 rows"), std::string::npos)
        << describeProblem(*checked->trace, *row);
    const BlockReplay replay(*checked->trace, column->first.block);
    EXPECT_EQ(replay.describe(column->first.event),
              "thread (15,0) of block (0,0), line 40: reads N_ds[0][16], outside the array: column 16 of 16 columns: "
              "not done (the load gives 0)");
}

// [SECTION] printf

// A 1D kernel file whose launch() prints before and after the launch and
// whose threads below `printing` each print a line.
std::string printingKernel(const std::string& body) {
    return "__global__ void say(const float* N, float* P, int width, int printing)\n"
           "{\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
           body +
           "    if (i < width) P[i] = N[i];\n"
           "}\n"
           "void launch(const float* N, const float* M, float* P, int r, int width)\n"
           "{\n"
           "    printf(\"launching %d blocks\\n\", (width + 31) / 32);\n"
           "    say<<<(width + 31) / 32, 32>>>(N, P, width, 40);\n"
           "    printf(\"launched\\n\");\n"
           "}\n";
}

struct Printed {
    Result<RunResult> run;
    KernelPrintout printout;
};

Printed runPrinting(const std::string& name, const std::string& text, Backend backend = Backend::Cpu) {
    Printed p{Error{}, {}};
    auto kernel = own::compileKernelText(name, text);
    if (!kernel) {
        p.run = kernel.error();
        return p;
    }
    const Image input = Image::signal(randomImage(100, 1, 2).data);
    const Mask mask = randomMask(1, 1, 3);
    RunRequest req = cpuRequest(*kernel, input, mask);
    req.backend = backend;
    req.timeLimitSeconds = 20;
    req.printout = &p.printout;
    p.run = runKernel(req);
    return p;
}

// What launch() and the threads print, in the order they print it (the CPU
// executor runs the threads of a block in order when no barrier is dropped).
TEST(OwnPrintf, WhatTheKernelAndItsLaunchPrintIsKeptInOrder) {
    const Printed p =
        runPrinting("say.cu", printingKernel("    if (i < printing) printf(\"thread %d: N = %.2f\\n\", i, 1.5f);\n"));
    ASSERT_TRUE(p.run) << p.run.error().message;
    ASSERT_EQ(p.printout.lines.size(), 42u);
    EXPECT_EQ(p.printout.lines.front(), "launching 4 blocks");
    for (int i = 0; i < 40; ++i)
        EXPECT_EQ(p.printout.lines[static_cast<std::size_t>(i + 1)], "thread " + std::to_string(i) + ": N = 1.50");
    EXPECT_EQ(p.printout.lines.back(), "launched");
    EXPECT_EQ(p.printout.moreLines, 0u);
    EXPECT_FALSE(p.printout.uncounted);
    EXPECT_EQ(p.printout.heading(), "printf output of the kernel (42 lines)");
    EXPECT_EQ(p.printout.rest(), "");

    // A kernel that prints nothing: nothing to show.
    const Printed quiet = runPrinting("quiet.cu",
                                      "__global__ void k(const float* N, float* P, int width)\n{\n"
                                      "    int i = threadIdx.x;\n    if (i < width) P[i] = N[i];\n}\n"
                                      "void launch(const float* N, const float* M, float* P, int r, int width)\n"
                                      "{\n    k<<<1, 128>>>(N, P, width);\n}\n");
    ASSERT_TRUE(quiet.run) << quiet.run.error().message;
    EXPECT_TRUE(quiet.printout.empty());
}

// Past kMaxLines lines only a count is kept; a line is cut at kMaxLineBytes;
// control characters other than tabs show as '?'.
TEST(OwnPrintf, ALongOutputIsCountedNotKept) {
    const Printed p = runPrinting(
        "many.cu",
        printingKernel("    for (int k = 0; k < 50; k++) printf(\"%d.%d\\t\\a\\033[31m\\n\", i, k);\n"
                       "    if (i == 0) { for (int k = 0; k < 3000; k++) printf(\"x\"); printf(\"\\n\"); }\n"));
    ASSERT_TRUE(p.run) << p.run.error().message;
    // launch()'s first, 4 blocks of 32 threads x 50, thread 0's long line, launch()'s last.
    ASSERT_EQ(p.printout.lines.size(), KernelPrintout::kMaxLines);
    EXPECT_EQ(p.printout.lineCount(), 1u + 128u * 50u + 1u + 1u);
    EXPECT_EQ(p.printout.lines[1], "0.0\t??[31m");
    // Thread 0 prints its 50 lines, then the long one.
    EXPECT_EQ(p.printout.lines[51], std::string(KernelPrintout::kMaxLineBytes, 'x') + " [...]");
    EXPECT_GT(p.printout.bytes, 3000u);
    EXPECT_EQ(p.printout.heading(), "printf output of the kernel (6403 lines)");
    EXPECT_EQ(p.printout.rest(), "... and 6303 more lines");
}

// What a kernel printed before it crashed, or before the time limit stopped
// it, is kept as well: it is what a student prints to find the fault.
TEST(OwnPrintf, WhatACrashedOrStoppedKernelPrintedIsKept) {
    Printed p = runPrinting("crash.cu", printingKernel("    if (i < 3) printf(\"thread %d\\n\", i);\n"
                                                       "    if (i == 5) P[i] = N[i] / (i / (printing - 40));\n"));
    ASSERT_FALSE(p.run);
    EXPECT_NE(p.run.error().message.find("crashed"), std::string::npos) << p.run.error().message;
    EXPECT_EQ(p.printout.lines, (std::vector<std::string>{"launching 4 blocks", "thread 0", "thread 1", "thread 2"}));

    auto kernel = own::compileKernelText(
        "loop.cu", printingKernel("    if (i == 0) printf(\"about to loop\\n\");\n"
                                  "    int n = 0;\n"
                                  "    while (i == 0) { n = n + 1; if (n < 0) n = 0; }\n"));
    ASSERT_TRUE(kernel) << kernel.error().message;
    const Image input = Image::signal(randomImage(100, 1, 2).data);
    const Mask mask = randomMask(1, 1, 3);
    RunRequest req = cpuRequest(*kernel, input, mask);
    req.timeLimitSeconds = 1;
    KernelPrintout printout;
    req.printout = &printout;
    auto run = runKernel(req);
    ASSERT_FALSE(run);
    EXPECT_NE(run.error().message.find("time limit"), std::string::npos) << run.error().message;
    EXPECT_EQ(printout.lines, (std::vector<std::string>{"launching 4 blocks", "about to loop"}));
}

// On a GPU: the device's printf comes back too, once (the instrumented run's;
// the plain kernel prints the same again, which is left out).
TEST(OwnPrintfGpu, TheDevicesPrintfIsShownOnce) {
    std::string reason;
    if (!gpuAvailable(&reason)) GTEST_SKIP() << "no GPU: " << reason;
    const Printed p = runPrinting("say.cu", printingKernel("    if (i < printing) printf(\"thread %d\\n\", i);\n"),
                                  Backend::Cuda);
    ASSERT_TRUE(p.run) << p.run.error().message;
    EXPECT_EQ(p.run->backend, Backend::Cuda);
    ASSERT_EQ(p.printout.lines.size(), 42u);
    EXPECT_EQ(p.printout.lines.front(), "launching 4 blocks");
    EXPECT_EQ(p.printout.lines.back(), "launched");
    // The threads' lines in whatever order the GPU flushed them: each once.
    std::vector<std::string> threads(p.printout.lines.begin() + 1, p.printout.lines.end() - 1);
    std::sort(threads.begin(), threads.end());
    std::vector<std::string> want;
    for (int i = 0; i < 40; ++i) want.push_back("thread " + std::to_string(i));
    std::sort(want.begin(), want.end());
    EXPECT_EQ(threads, want);
}

// On a GPU: plain and instrumented through NVRTC; the instrumented trace is
// the CPU's, event for event.
TEST(OwnKernelGpu, TracesEqualTheCpusEventForEvent) {
    std::string reason;
    if (!gpuAvailable(&reason)) GTEST_SKIP() << "no GPU: " << reason;
    for (const char* file : {"conv2d_tiled_student.cu", "conv2d_extern_shared_student.cu", "conv1d_tiled_student.cu"}) {
        SCOPED_TRACE(file);
        auto kernel = compile(file);
        ASSERT_TRUE(kernel);
        const int dims = kernel->translation.dims;
        const Image input = dims == 1 ? Image::signal(randomImage(1000, 1, 9).data) : randomImage(64, 64, 9);
        const Mask mask = randomMask(2, dims, 11);
        RunRequest req = cpuRequest(kernel, input, mask);
        req.trace = true;
        auto cpu = runKernel(req);
        ASSERT_TRUE(cpu) << cpu.error().message;
        req.backend = Backend::Cuda;
        auto gpu = runKernel(req);
        ASSERT_TRUE(gpu) << gpu.error().message;
        EXPECT_EQ(gpu->backend, Backend::Cuda);
        EXPECT_EQ(gpu->trace->backend, "cuda");
        EXPECT_TRUE(gpu->plainSkipped.empty()) << gpu->plainSkipped;
        EXPECT_GT(gpu->millis, 0.0);
        const std::vector<double> want = reference::convolve(input, mask);
        EXPECT_LE(reference::maxAbsDifference(gpu->output.data, want), reference::float32Tolerance(input, mask));
        ASSERT_EQ(cpu->trace->blocks.size(), gpu->trace->blocks.size());
        std::size_t compared = 0;
        for (std::size_t b = 0; b < cpu->trace->blocks.size(); ++b) {
            const auto& x = cpu->trace->blocks[b];
            const auto& y = gpu->trace->blocks[b];
            ASSERT_EQ(x.block, y.block);
            ASSERT_EQ(x.events.size(), y.events.size()) << "block " << b;
            for (std::size_t i = 0; i < x.events.size(); ++i) {
                const Event& e = x.events[i];
                const Event& f = y.events[i];
                ASSERT_TRUE(e.index == f.index && e.value == f.value && e.thread == f.thread && e.line == f.line &&
                            e.phase == f.phase && e.op == f.op && e.array == f.array)
                    << "block " << b << " event " << i << ": cpu line " << e.line << " op " << int(e.op)
                    << " value " << e.value << ", gpu line " << f.line << " op " << int(f.op) << " value " << f.value;
                ++compared;
            }
        }
        EXPECT_GT(compared, 1000u);
    }
}

// On a GPU: the accesses outside a 2D shared array are recorded with their
// subscripts as written (and, of several arrays, the one they went
// through), as on the CPU, event for event, and the run's own words name them
// so too; the plain kernel, which would make them, is not run.
void expectOutsideAsOnTheCpu(const std::string& file, int radius, const std::string& array, const std::string& extent) {
    auto kernel = own::compileKernelFile(std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/broken/" + file);
    ASSERT_TRUE(kernel) << kernel.error().message;
    const Image input = randomImage(40, 24, 9);
    const Mask mask = randomMask(radius, 2, 11);
    RunRequest req = cpuRequest(*kernel, input, mask);
    req.trace = true;
    auto cpu = runKernel(req);
    ASSERT_TRUE(cpu) << cpu.error().message;
    req.backend = Backend::Cuda;
    auto gpu = runKernel(req);
    ASSERT_TRUE(gpu) << gpu.error().message;
    EXPECT_EQ(gpu->backend, Backend::Cuda);
    EXPECT_FALSE(gpu->plainSkipped.empty());
    EXPECT_EQ(gpu->faults.outside, cpu->faults.outside);
    for (const std::string& words : {cpu->faults.firstOutside, gpu->faults.firstOutside}) {
        EXPECT_NE(words.find(": " + array + "["), std::string::npos) << words;
        EXPECT_TRUE(words.find(" of " + extent + " columns") != std::string::npos ||
                    words.find(" of " + extent + " rows") != std::string::npos)
            << words;
    }
    ASSERT_EQ(cpu->trace->blocks.size(), gpu->trace->blocks.size());
    std::size_t subscripted = 0;
    for (std::size_t b = 0; b < cpu->trace->blocks.size(); ++b) {
        const auto& x = cpu->trace->blocks[b].events;
        const auto& y = gpu->trace->blocks[b].events;
        ASSERT_EQ(x.size(), y.size()) << "block " << b;
        for (std::size_t i = 0; i < x.size(); ++i) {
            ASSERT_TRUE(x[i] == y[i]) << "block " << b << " event " << i << ": cpu index " << x[i].index
                                      << " op " << int(x[i].op) << ", gpu index " << y[i].index << " op "
                                      << int(y[i].op);
            subscripted += isOutside(x[i].op) && isSubscriptIndex(x[i].index);
        }
    }
    EXPECT_GT(subscripted, 0u);
}

TEST(OwnKernelGpu, AccessesOutsideA2DArrayAreRecordedAsOnTheCpu) {
    std::string reason;
    if (!gpuAvailable(&reason)) GTEST_SKIP() << "no GPU: " << reason;
    expectOutsideAsOnTheCpu("shared_2d_past_its_edge.cu", 1, "N_ds", "16");
    expectOutsideAsOnTheCpu("mask_in_shared_one_column_too_many.cu", 2, "M_s", "5");
}

// Several shared arrays are one array of the trace (the block's shared
// memory), each a part of it at its offset: an element is named by the array
// it is in, with its own subscripts, and the parts survive the trace's JSON.
TEST(OwnSharedParts, EachSharedArrayNamesItsOwnElements) {
    auto kernel = compile("conv1d_shared_int_flags_student.cu");
    ASSERT_TRUE(kernel);
    const Image input = Image::signal(randomImage(300, 1, 3).data);
    const Mask mask = randomMask(2, 1, 5);
    RunRequest req = cpuRequest(kernel, input, mask);
    req.check = true;
    auto run = runKernel(req);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_TRUE(run->trace);
    const ArrayInfo& shared = run->trace->arrays[kArrayShared];
    ASSERT_EQ(shared.parts.size(), 2u);
    // __shared__ float tile[TILE + 2 * MAX_R]; __shared__ int inside[TILE + 2 * MAX_R]; (TILE 64, MAX_R 8)
    EXPECT_EQ(shared.parts[0].name, "tile");
    EXPECT_EQ(shared.parts[0].offset, 0);
    EXPECT_EQ(shared.parts[0].size(), 80);
    EXPECT_EQ(shared.parts[1].name, "inside");
    EXPECT_EQ(shared.parts[1].offset, 80);
    EXPECT_EQ(elementName(*run->trace, kArrayShared, 5), "tile[5]");
    EXPECT_EQ(elementName(*run->trace, kArrayShared, 83), "inside[3]");
    EXPECT_EQ(elementName(*run->trace, kArrayShared, 165), "inside[85]");  // past its end, from its start
    auto back = traceFromJson(traceToJson(*run->trace), kernel->info);
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->arrays[kArrayShared].parts.size(), 2u);
    EXPECT_EQ(elementName(*back, kArrayShared, 83), "inside[3]");
}

// An access outside one of several 2D shared arrays is recorded with the
// array it went through (its part), whatever their order of declaration
// (the extern array, declared first, lies after the others): the problem,
// its group, the step's words and the run's own words name that array, with
// its own rows and columns, and a trace file keeps it.
TEST(OwnSharedParts, AnAccessOutsideOneOfSeveral2DArraysIsNamedByIt) {
    const std::string text =
        "#define T 8\n"
        "__global__ void k(const float* N, const float* M, float* P, int r, int width, int height) {\n"
        "    extern __shared__ float extra[];\n"
        "    __shared__ float a[T][T];\n"
        "    __shared__ float b[2][T + 1];\n"
        "    int tx = threadIdx.x, ty = threadIdx.y;\n"
        "    int col = blockIdx.x * T + tx, row = blockIdx.y * T + ty;\n"
        "    float v = (row < height && col < width) ? N[row * width + col] : 0.0f;\n"
        "    a[ty][tx] = v;\n"
        "    if (ty < 2) b[ty][tx] = v;\n"
        "    __syncthreads();\n"
        "    float s = a[ty][tx];\n"
        "    if (ty == 1) s += b[ty + 1][tx];\n"
        "    if (ty == 2) s += a[ty][tx + 1];\n"
        "    if (row < height && col < width) P[row * width + col] = s;\n"
        "}\n"
        "void launch(const float* N, const float* M, float* P, int r, int width, int height) {\n"
        "    k<<<dim3((width + T - 1) / T, (height + T - 1) / T), dim3(T, T), 16 * sizeof(float)>>>(N, M, P, r, width, height);\n"
        "}\n";
    auto kernel = compileText("parts_2d.cu", text);
    ASSERT_TRUE(kernel);
    const Image input = randomImage(8, 8, 3);
    const Mask mask = randomMask(1, 2, 5);
    RunRequest req = cpuRequest(kernel, input, mask);
    req.check = true;
    auto run = runKernel(req);
    ASSERT_TRUE(run && run->trace && run->problems) << (run ? "no trace" : run.error().message);
    const Trace& t = *run->trace;
    const auto& parts = t.arrays[kArrayShared].parts;
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0].name, "a");
    EXPECT_EQ(parts[1].name, "b");
    EXPECT_EQ(parts[2].name, "extra");
    EXPECT_EQ(parts[2].offset, 64 + 18);

    // b[2][tx] of 2 rows: 8 loads (flattened, b[2][0] is extra's first slot);
    // a[2][8] of 8 columns: one (thread (7,2); a[2][8] flattens to a[3][0]).
    std::map<std::string, std::uint64_t> groups;
    for (const ProblemGroup& g : run->problems->groups)
        if (g.kind == ProblemKind::OutOfBounds) groups[groupArrayName(t, g)] += g.count;
    EXPECT_EQ(groups, (std::map<std::string, std::uint64_t>{{"a", 1}, {"b", 8}}));
    // Each access outside, in words, from "load of" to its line.
    const auto outsideWords = [](const Trace& trace, const ProblemSet& problems) {
        std::set<std::string> out;
        for (const ProblemReport& p : problems.items)
            if (p.kind == ProblemKind::OutOfBounds) {
                EXPECT_EQ(p.part, p.subscripts.part);
                const std::string line = problemLine(trace, p);
                out.insert(line.substr(line.find("load of "), line.find(", step") - line.find("load of ")));
            }
        return out;
    };
    const std::set<std::string> words = outsideWords(t, *run->problems);
    EXPECT_TRUE(words.count("load of a[2][8]: column 8 of 8 columns, line 14")) << ::testing::PrintToString(words);
    EXPECT_TRUE(words.count("load of b[2][0]: row 2 of 2 rows, line 13")) << ::testing::PrintToString(words);
    EXPECT_NE(run->faults.firstOutside.find(": b[2][0]: row 2 of 2 rows"), std::string::npos)
        << run->faults.firstOutside;

    // A trace file keeps the part: read back, the same words.
    auto back = traceFromJson(traceToJson(t), kernel->info);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(outsideWords(*back, detectProblems(*back)), words);
}

// A 3D shared array of one plane is named by plane, row and column, as it is written.
TEST(OwnSharedParts, AThreeDimensionalArrayOfOnePlaneKeepsItsThreeSubscripts) {
    const std::string text =
        "#define T 16\n"
        "__global__ void k(const float* N, const float* M, float* P, int r, int width) {\n"
        "    __shared__ float s[1][2][T];\n"
        "    int i = blockIdx.x * T + threadIdx.x;\n"
        "    s[0][1][threadIdx.x] = i < width ? N[i] : 0.0f;\n"
        "    __syncthreads();\n"
        "    if (i < width) P[i] = s[0][1][threadIdx.x] * M[r];\n"
        "}\n"
        "void launch(const float* N, const float* M, float* P, int r, int width) { k<<<(width + T - 1) / T, T>>>(N, M, P, r, width); }\n";
    auto kernel = compileText("one_plane.cu", text);
    ASSERT_TRUE(kernel);
    const Image input = Image::signal(randomImage(40, 1, 3).data);
    const Mask mask = randomMask(1, 1, 5);
    RunRequest req = cpuRequest(kernel, input, mask);
    req.check = true;
    auto run = runKernel(req);
    ASSERT_TRUE(run && run->trace) << (run ? "no trace" : run.error().message);
    EXPECT_EQ(elementName(*run->trace, kArrayShared, 16 + 3), "s[0][1][3]");
}

}  // namespace
}  // namespace tilescope
