// A refusal says what to write instead, and what it says is accepted: for
// each refusal that gives advice, a file refused with it, then the same file
// written as the advice says, which must translate and compile.

#include <gtest/gtest.h>

#include <string>

#include "own/own_kernel.hpp"

namespace tilescope::own {
namespace {

struct Advice {
    const char* name;
    std::string refused;  // a kernel file the advice is for
    const char* says;     // a phrase of the refusal
    std::string followed; // the file as the advice says
};

const char* const kLaunch1D =
    "void launch(const float* N, const float* M, float* P, int r, int width) { k<<<(width + 63) / 64, 64>>>(N, P, "
    "width); }\n";

std::string kernelOf(const std::string& body, const std::string& params = "const float* N, float* P, int width") {
    return "__global__ void k(" + params + ") {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + body + "}\n";
}

const Advice kAdvice[] = {
    {"a template at two sets of arguments",
     "template <typename T>\n__device__ T twice(T x) { return x + x; }\n" +
         kernelOf("    if (i < width) P[i] = twice(N[i]) + (float)twice(i);\n") + kLaunch1D,
     "write a function of its own for each",
     "__device__ float twiceF(float x) { return x + x; }\n__device__ int twiceI(int x) { return x + x; }\n" +
         kernelOf("    if (i < width) P[i] = twiceF(N[i]) + (float)twiceI(i);\n") + kLaunch1D},
    {"a struct",
     "struct Size { int w; int h; };\n" + kernelOf("    Size s{width, 1};\n    if (i < s.w) P[i] = N[i];\n") +
         kLaunch1D,
     "pass their fields to the kernel as numbers",
     kernelOf("    int w = width;\n    if (i < w) P[i] = N[i];\n") + kLaunch1D},
    {"sincosf",
     kernelOf("    float s, c;\n    if (i < width) { sincosf(N[i], &s, &c); P[i] = s + c; }\n") + kLaunch1D,
     "write s = sinf(x); c = cosf(x);",
     kernelOf("    float s, c;\n    if (i < width) { s = sinf(N[i]); c = cosf(N[i]); P[i] = s + c; }\n") + kLaunch1D},
    {"a namespace",
     "namespace conv {\n" + kernelOf("    if (i < width) P[i] = N[i];\n") +
         "}\nvoid launch(const float* N, const float* M, float* P, int r, int width) { conv::k<<<(width + 63) / 64, "
         "64>>>(N, P, width); }\n",
     "declare everything at the file's top level",
     kernelOf("    if (i < width) P[i] = N[i];\n") + kLaunch1D},
    {"an int* parameter",
     kernelOf("    if (i < width) { flags[i] = 1; P[i] = N[i]; }\n", "const float* N, float* P, int* flags, int width") +
         "void launch(const float* N, const float* M, float* P, int r, int width) { k<<<(width + 63) / 64, "
         "64>>>(N, P, 0, width); }\n",
     "keep integer data in a __shared__ int array",
     kernelOf("    __shared__ int flags[256];\n    flags[threadIdx.x] = i < width;\n    if (flags[threadIdx.x]) P[i] "
              "= N[i];\n") +
         kLaunch1D},
    {"a uint2 parameter",
     kernelOf("    if (i < (int)size.x) P[i] = N[i];\n", "const float* N, float* P, uint2 size") +
         "void launch(const float* N, const float* M, float* P, int r, int width) { k<<<(width + 63) / 64, "
         "64>>>(N, P, make_uint2(width, 1)); }\n",
     "uint2 size = make_uint2(x, y);",
     kernelOf("    uint2 size = make_uint2(x, y);\n    if (i < (int)size.x) P[i] = N[i];\n",
              "const float* N, float* P, unsigned x, unsigned y") +
         "void launch(const float* N, const float* M, float* P, int r, int width) { k<<<(width + 63) / 64, "
         "64>>>(N, P, width, 1); }\n"},
    {"a __shared__ double array",
     kernelOf("    __shared__ double t[64];\n    t[threadIdx.x] = i < width ? N[i] : 0.0;\n    __syncthreads();\n    "
              "if (i < width) P[i] = (float)t[threadIdx.x];\n") +
         kLaunch1D,
     "shared arrays here are float, int or unsigned arrays",
     kernelOf("    __shared__ float t[64];\n    t[threadIdx.x] = i < width ? N[i] : 0.0f;\n    __syncthreads();\n    "
              "if (i < width) P[i] = t[threadIdx.x];\n") +
         kLaunch1D},
    {"a pointer variable in launch()",
     kernelOf("    if (i < width) P[i] = N[i];\n") +
         "void launch(const float* N, const float* M, float* P, int r, int width) {\n    const float* in = N;\n    "
         "k<<<(width + 63) / 64, 64>>>(in, P, width);\n}\n",
     "launch() passes N, M and P to the kernel as they are",
     kernelOf("    if (i < width) P[i] = N[i];\n") + kLaunch1D},
    {"using namespace",
     "using namespace std;\n" + kernelOf("    if (i < width) P[i] = N[i];\n") + kLaunch1D,
     "write names in full",
     kernelOf("    if (i < width) P[i] = N[i];\n") + kLaunch1D},
    {"cudaMalloc in launch()",
     kernelOf("    if (i < width) P[i] = N[i];\n") +
         "void launch(const float* N, const float* M, float* P, int r, int width) {\n    float* d = 0;\n    "
         "cudaMalloc(&d, width * sizeof(float));\n    k<<<(width + 63) / 64, 64>>>(N, P, width);\n}\n",
     "launch()",
     kernelOf("    if (i < width) P[i] = N[i];\n") + kLaunch1D},
};

class AdviceFollowed : public ::testing::TestWithParam<Advice> {};

TEST_P(AdviceFollowed, TheRefusalSaysWhatToWriteAndThatIsAccepted) {
    const Advice& a = GetParam();
    CompileOptions options;
    options.sandbox = SandboxMode::Off;
    auto refused = compileKernelText("advice.cu", a.refused, options);
    ASSERT_FALSE(refused) << a.name << ": accepted\n" << a.refused;
    EXPECT_NE(refused.error().message.find(a.says), std::string::npos)
        << a.name << ": the refusal lacks \"" << a.says << "\": " << refused.error().message;
    auto followed = compileKernelText("advice.cu", a.followed, options);
    EXPECT_TRUE(followed) << a.name << ": the advice followed is refused: "
                          << (followed ? std::string() : followed.error().message) << "\n"
                          << a.followed;
}

std::string caseName(const ::testing::TestParamInfo<Advice>& info) {
    std::string name;
    for (const char* c = info.param.name; *c; ++c)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')) name += *c;
    return name;
}

INSTANTIATE_TEST_SUITE_P(Refusals, AdviceFollowed, ::testing::ValuesIn(kAdvice), caseName);

}  // namespace
}  // namespace tilescope::own
