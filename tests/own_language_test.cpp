// A student's kernel computes what C++ computes. Each kernel below is written
// as students write it, and each value it stores is checked bit for bit
// against the same expression evaluated here, in ordinary C++ on ordinary
// floats (the oracle: C++'s own rules for conversions, literals, the
// conditional operator, compound assignment and overloads, which nvcc
// follows). Each is also run on the GPU when there is one, where the
// instrumented kernel's stores must equal the CPU executor's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <vector>

#include "api/runner.hpp"
#include "own/own_kernel.hpp"
#include "own/translate.hpp"

namespace tilescope {
namespace {

constexpr int kWidth = 70;  // three blocks of 32, the last one partial

// The input: fractional values of both signs, some above 1 (int truncation shows).
float input(int i) { return static_cast<float>(i) * 0.37f - 5.3f; }

std::vector<float> mask(int r) {
    std::vector<float> m(2 * r + 1);
    for (int k = 0; k < 2 * r + 1; ++k) m[k] = 0.25f + 0.125f * static_cast<float>(k);
    return m;
}

struct Outcome {
    std::vector<float> cpu;
    std::vector<float> gpuTraced;  // the instrumented GPU kernel's stores, where a GPU ran it
    std::string error;
};

// Compiles `file` (a whole kernel file with a 1D launch()) and runs it at radius r.
Outcome run(const std::string& file, int r = 1) {
    Outcome o;
    auto kernel = own::compileKernelText("student.cu", file);
    if (!kernel) {
        o.error = kernel.error().message;
        return o;
    }
    std::vector<float> values(kWidth);
    for (int i = 0; i < kWidth; ++i) values[i] = input(i);
    const Image in = Image::signal(values);
    const Mask m = Mask::row(mask(r));
    RunRequest req;
    req.own = *kernel;
    req.kernel = std::string((*kernel)->info->name);
    req.input = &in;
    req.mask = &m;
    req.backend = Backend::Cpu;
    req.trace = true;
    auto cpu = runKernel(req);
    if (!cpu) {
        o.error = cpu.error().message;
        return o;
    }
    o.cpu = cpu->output.data;
    std::string reason;
    if (gpuAvailable(&reason)) {
        req.backend = Backend::Cuda;
        auto gpu = runKernel(req);
        if (!gpu) {
            o.error = "GPU: " + gpu.error().message;
            return o;
        }
        o.gpuTraced.assign(kWidth, 0.0f);
        for (const BlockEvents& b : gpu->trace->blocks)
            for (const Event& e : b.events)
                if (e.op == Op::Store && e.array == kArrayOutput && e.index >= 0 && e.index < kWidth)
                    o.gpuTraced[static_cast<std::size_t>(e.index)] = e.value;
    }
    return o;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every P[i] is `expected(i)` to the bit, on the CPU and (where run) on the GPU.
void expectOutputs(const Outcome& o, const std::function<float(int)>& expected) {
    ASSERT_TRUE(o.error.empty()) << o.error;
    ASSERT_EQ(o.cpu.size(), static_cast<std::size_t>(kWidth));
    for (int i = 0; i < kWidth; ++i) {
        const float want = expected(i);
        EXPECT_TRUE(sameBits(o.cpu[i], want)) << "P[" << i << "] = " << o.cpu[i] << ", C++ gives " << want;
        if (!o.gpuTraced.empty()) {
            EXPECT_TRUE(sameBits(o.gpuTraced[i], want))
                << "GPU P[" << i << "] = " << o.gpuTraced[i] << ", C++ gives " << want;
        }
    }
}

// A file: `kernel` (a __global__ function `k` with N, P, width), then a launch.
std::string file(const std::string& kernel, const std::string& launchBody =
                                                "    k<<<(width + 31) / 32, 32>>>(N, P, width);\n") {
    return "#include <cuda_runtime.h>\n#include <stdio.h>\n" + kernel +
           "void launch(const float* N, const float* M, float* P, int r, int width) {\n" + launchBody + "}\n";
}

// Figure 7.11's halo line with a non-const `float* N`: `cond ? 0 : N[i]` is a float.
TEST(OwnLanguage, ConditionalWithAnIntAndAnElementIsAFloat) {
    const Outcome o = run(file("__global__ void k(float* N, float* P, int width) {\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < width) P[i] = (i % 3 == 0) ? 0 : N[i];\n"
                               "}\n",
                               "    k<<<(width + 31) / 32, 32>>>((float*)N, P, width);\n"));
    expectOutputs(o, [](int i) { return i % 3 == 0 ? 0.0f : input(i); });
}

// `c ? 0 : s[t]` and `c ? 1 : P[i]`: shared and output elements in a conditional.
TEST(OwnLanguage, ConditionalOnSharedAndOutputElements) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width) {\n"
                               "    __shared__ float s[32];\n"
                               "    int t = threadIdx.x;\n"
                               "    int i = blockIdx.x * blockDim.x + t;\n"
                               "    s[t] = i < width ? N[i] : 0.0f;\n"
                               "    if (i < width) {\n"
                               "        P[i] = (t % 4 == 0) ? 0 : s[t];\n"
                               "        P[i] = (t % 5 == 0) ? 1 : P[i];\n"
                               "    }\n"
                               "}\n"));
    expectOutputs(o, [](int i) {
        const int t = i % 32;
        const float p = t % 4 == 0 ? 0.0f : input(i);
        return t % 5 == 0 ? 1.0f : p;
    });
}

// `sum += s[i]`, `s[a] + s[b]` and `P[i] + s[j]`: shared elements as values.
TEST(OwnLanguage, SharedElementsAddAsFloats) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width) {\n"
                               "    __shared__ float s[32];\n"
                               "    int t = threadIdx.x;\n"
                               "    int i = blockIdx.x * blockDim.x + t;\n"
                               "    s[t] = i < width ? N[i] : 0.0f;\n"
                               "    __syncthreads();\n"
                               "    float sum = 0;\n"
                               "    for (int j = 0; j < 3; j++) sum += s[(t + j) % 32];\n"
                               "    if (i < width) {\n"
                               "        P[i] = s[t] + s[(t + 1) % 32];\n"
                               "        P[i] = P[i] + s[(t + 2) % 32];\n"
                               "        P[i] = P[i] - sum;\n"
                               "    }\n"
                               "}\n"));
    expectOutputs(o, [](int i) {
        const int base = i / 32 * 32;
        auto s = [&](int t) { return base + t < kWidth ? input(base + t) : 0.0f; };
        const int t = i % 32;
        float sum = 0;
        for (int j = 0; j < 3; j++) sum += s((t + j) % 32);
        float p = s(t) + s((t + 1) % 32);
        p = p + s((t + 2) % 32);
        return p - sum;
    });
}

// Double literals: `s[t] + 0.1`, `s[t] * 0.1`, `P[i] + 0.1` are computed in
// double (0.1 and 0.1f differ by a fifth of a float's last place near 0.1,
// so small sums and every third product show it).
TEST(OwnLanguage, DoubleLiteralsComputeInDouble) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width) {\n"
                               "    __shared__ float s[32];\n"
                               "    int t = threadIdx.x;\n"
                               "    int i = blockIdx.x * blockDim.x + t;\n"
                               "    s[t] = i < width ? N[i] * 0.01f : 0.0f;\n"
                               "    if (i >= width) return;\n"
                               "    if (i % 3 == 0) P[i] = s[t] * 0.1;\n"
                               "    if (i % 3 == 1) P[i] = s[t] + 0.1;\n"
                               "    if (i % 3 == 2) {\n"
                               "        P[i] = s[t];\n"
                               "        P[i] = P[i] + 0.1;\n"
                               "    }\n"
                               "}\n"));
    expectOutputs(o, [](int i) {
        const float x = input(i) * 0.01f;
        if (i % 3 == 0) return static_cast<float>(x * 0.1);
        return static_cast<float>(x + 0.1);
    });
}

// Compound assignment with a double right side rounds once, after the operation.
TEST(OwnLanguage, CompoundAssignmentWithADoubleRoundsOnce) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width) {\n"
                               "    __shared__ float s[32];\n"
                               "    int t = threadIdx.x;\n"
                               "    int i = blockIdx.x * blockDim.x + t;\n"
                               "    double d = 0.3;\n"
                               "    float acc = N[i < width ? i : 0];\n"
                               "    acc += 1.3;\n"
                               "    acc += d;\n"
                               "    acc -= 0.7;\n"
                               "    acc *= 1.1;\n"
                               "    s[t] = acc;\n"
                               "    s[t] += 0.1;\n"
                               "    s[t] *= 1.7;\n"
                               "    s[t] -= 0.3;\n"
                               "    s[t] /= 0.9;\n"
                               "    if (i < width) {\n"
                               "        P[i] = s[t];\n"
                               "        P[i] += 0.1;\n"
                               "        P[i] -= 0.2;\n"
                               "        P[i] *= 1.3;\n"
                               "        P[i] /= 0.7;\n"
                               "        P[i] += 2;\n"
                               "    }\n"
                               "}\n"));
    expectOutputs(o, [](int i) {
        const double d = 0.3;
        float acc = input(i);
        acc += 1.3;
        acc += d;
        acc -= 0.7;
        acc *= 1.1;
        float s = acc;
        s += 0.1;
        s *= 1.7;
        s -= 0.3;
        s /= 0.9;
        float p = s;
        p += 0.1;
        p -= 0.2;
        p *= 1.3;
        p /= 0.7;
        p += 2;
        return p;
    });
}

// CUDA's math functions have float overloads: abs, floor, ceil, sqrt, fabs, fmin of floats are floats.
TEST(OwnLanguage, MathFunctionsOfFloatsAreFloats) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width) {\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i >= width) return;\n"
                               "    float x = N[i];\n"
                               "    P[i] = abs(N[i]) + floor(x * 1.7f) + ceil(x * 0.3f) + sqrt(fabs(x) * 3.1f) +\n"
                               "           fmin(x, 0.5f) + fmax(x, -0.5f) + trunc(x * 2.3f) + round(x * 1.9f);\n"
                               "    P[i] += abs(i - 30);\n"
                               "}\n"));
    expectOutputs(o, [](int i) {
        const float x = input(i);
        float p = std::abs(x) + std::floor(x * 1.7f) + std::ceil(x * 0.3f) + std::sqrt(std::fabs(x) * 3.1f) +
                  std::fmin(x, 0.5f) + std::fmax(x, -0.5f) + std::trunc(x * 2.3f) + std::round(x * 1.9f);
        p += std::abs(i - 30);
        return p;
    });
}

// `auto v = s[j]` is a float copy; `const float& c = s[j]` and `float& e = s[t]` are the element.
TEST(OwnLanguage, AutoCopiesAndReferencesAlias) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width) {\n"
                               "    __shared__ float s[32];\n"
                               "    int t = threadIdx.x;\n"
                               "    int i = blockIdx.x * blockDim.x + t;\n"
                               "    s[t] = i < width ? N[i] : 0.0f;\n"
                               "    auto v = s[t];\n"
                               "    const float& c = s[t];\n"
                               "    float& e = s[t];\n"
                               "    e = e * 2.0f + 1.0f;\n"
                               "    s[t] += 3;\n"
                               "    e++;\n"
                               "    ++s[t];\n"
                               "    if (i < width) P[i] = v * 100.0f + c;\n"
                               "}\n"));
    expectOutputs(o, [](int i) {
        float s = input(i);
        const float v = s;
        s = s * 2.0f + 1.0f;
        s += 3;
        s++;
        ++s;
        return v * 100.0f + s;
    });
}

// Launches as real course code writes them: a bare macro as the block or the
// grid, a third value, Visual Studio's spacing, dim3 assigned after its
// declaration, a prototype ahead of the kernel, extern "C", `::M`.
TEST(OwnLanguage, LaunchesAsCoursesWriteThem) {
    const std::string body = "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < width) P[i] = N[i] * 2.0f;\n"
                             "}\n";
    const std::string kernel = "__global__ void k(const float* N, float* P, int width) {\n" + body;
    struct Case {
        const char* name;
        std::string text;
    };
    const std::vector<Case> cases = {
        {"bare macro block", "#define TILE_SIZE 32\n" + file(kernel, "    k<<<(width + TILE_SIZE - 1) / TILE_SIZE, "
                                                                     "TILE_SIZE>>>(N, P, width);\n")},
        {"bare macro block, shared bytes", "#define T 32\n" + file(kernel, "    k<<<(width + T - 1) / T, T, 0>>>(N, P, "
                                                                        "width);\n")},
        {"bare macro grid", "#define G 3\n" + file(kernel, "    k<<<G, 32>>>(N, P, width);\n")},
        {"Visual Studio spacing", file(kernel, "    k << <(width + 31) / 32, 32 >> > (N, P, width);\n")},
        {"dim3 assigned", file(kernel, "    dim3 b; b = dim3(32, 1, 1);\n    dim3 g;\n"
                                       "    g = dim3((width + 31) / 32);\n    k<<<g, b>>>(N, P, width);\n")},
        {"prototype", "__global__ void k(const float* N, float* P, int width);\n"
                      "__global__ void k(const float*, float*, int);\n" +
                          file(kernel)},
        {"extern C", file("extern \"C\" __global__ void k(const float* N, float* P, int width) {\n" + body)},
        {"extern C block", file("extern \"C\" {\n" + kernel + "}\n")},
        {"timed with events, a stream", file(kernel, "    cudaEvent_t start, stop;\n"
                                                     "    cudaEventCreate(&start); cudaEventCreate(&stop);\n"
                                                     "    cudaEventRecord(start);\n"
                                                     "    k<<<(int)ceil(width / 32.0), 32, 0, 0>>>(N, P, width);\n"
                                                     "    cudaEventRecord(stop, 0);\n"
                                                     "    cudaEventSynchronize(stop);\n"
                                                     "    float ms = 0;\n"
                                                     "    cudaEventElapsedTime(&ms, start, stop);\n"
                                                     "    cudaEventDestroy(start); cudaEventDestroy(stop);\n")},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        expectOutputs(run(c.text), [](int i) { return input(i) * 2.0f; });
    }
}

// Launch arguments become the parameters' types as C++ converts them: 3 passed
// to a bool is true (1), 2.7 passed to an int is 2, a double to a float rounds.
TEST(OwnLanguage, ArgumentsConvertToTheParametersTypes) {
    const Outcome o = run(file("__global__ void k(const float* N, float* P, int width, bool flag, int whole, float f) {\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < width) P[i] = N[i] * (flag % 3) + whole + f;\n"
                               "}\n",
                               "    k<<<(width + 31) / 32, 32>>>(N, P, width, 3, 2.7, 0.1);\n"));
    expectOutputs(o, [](int i) { return input(i) * 1 + 2 + 0.1f; });
}

// `cudaMemcpyToSymbol(::M, M, ...)`: the book's constant array M beside launch()'s parameter M.
TEST(OwnLanguage, ConstantArrayNamedMQualifiedWithColons) {
    const Outcome o = run("#define MAX_MASK_WIDTH 15\n"
                          "__constant__ float M[MAX_MASK_WIDTH];\n"
                          "__global__ void k(const float* N, float* P, int width, int r) {\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i < width) P[i] = N[i] * ::M[0] + M[2 * r];\n"
                          "}\n"
                          "void launch(const float* N, const float* M, float* P, int r, int width) {\n"
                          "    cudaMemcpyToSymbol(::M, M, (2 * r + 1) * sizeof(float));\n"
                          "    k<<<(width + 31) / 32, 32>>>(N, P, width, r);\n"
                          "}\n",
                          2);
    const std::vector<float> m = mask(2);
    expectOutputs(o, [&](int i) { return input(i) * m[0] + m[4]; });
}

// A refusal or a compile error never shows the translation's own names.
TEST(OwnLanguage, MessagesNameOnlyTheStudentsCode) {
    const char* internal[] = {"own_user", "ElementRef", "Addend", "tilescope::", "Accumulator", "InputArray",
                              "OutputArray", "Global<", "SharedArray"};
    const std::vector<std::string> broken = {
        // a type error in the kernel: a shared element given to a function of a pointer
        file("__device__ float twice(float* x) { return *x * 2.0f; }\n"
             "__global__ void k(const float* N, float* P, int width) {\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < width) P[i] = N[i] + undeclared;\n"
             "}\n"),
        file("__global__ void k(const float* N, float* P, int width) {\n"
             "    __shared__ float s[32];\n"
             "    s[threadIdx.x] = N[0];\n"
             "    P[0] = s;\n"
             "}\n"),
        file("__global__ void k(const float* N, float* P, int width) {\n"
             "    P[0] = N[0];\n"
             "}\n",
             "    k<<<1, 32>>>(N, P);\n"),
    };
    for (const std::string& text : broken) {
        auto kernel = own::compileKernelText("student.cu", text);
        ASSERT_FALSE(kernel) << text;
        const std::string& m = kernel.error().message;
        EXPECT_EQ(m.rfind("student.cu:", 0), 0u) << m;
        for (const char* name : internal) EXPECT_EQ(m.find(name), std::string::npos) << name << " in: " << m;
    }
}

// The C++ compiler's messages about the translation, as the student reads them.
TEST(OwnLanguage, CompilerMessagesInTheStudentsWords) {
    EXPECT_EQ(own::inStudentsWords("student.cu:7:9: error: '::M' has not been declared; did you mean "
                                   "'tilescope::own_user::M'?"),
              "student.cu:7:9: error: '::M' has not been declared; did you mean 'M'?");
    EXPECT_EQ(own::inStudentsWords("student.cu:9:20: error: could not convert 's.tilescope::traced::"
                                   "SharedArray<tilescope::cpu::CpuRecorder>::operator[](i)' from "
                                   "'tilescope::traced::ElementRef<tilescope::cpu::CpuRecorder>' to "
                                   "'tilescope::traced::Addend'"),
              "student.cu:9:20: error: could not convert 's.__shared__ float[]::operator[](i)' from 'float&' to "
              "'float'");
    EXPECT_EQ(own::inStudentsWords("student.cu:3:5: error: no match for 'operator=' (operand types are "
                                   "'tilescope::own_user::ConstantArray<float [15][15]>' {aka "
                                   "'tilescope::traced::ConstantArray<float [15][15], tilescope::cpu::CpuRecorder>'} "
                                   "and 'Global<const float>')"),
              "student.cu:3:5: error: no match for 'operator=' (operand types are '__constant__ float [15][15]' "
              "{aka '__constant__ float [15][15]'} and 'const float*')");
    // A name that only starts like one of the kernel language's stays.
    EXPECT_EQ(own::inStudentsWords("x.cu:1: error: 'SharedArrayOfMine' was not declared"),
              "x.cu:1: error: 'SharedArrayOfMine' was not declared");
}

}  // namespace
}  // namespace tilescope
