// What a kernel file's code may hold is a list, not a list of what it may
// not: launch() and its host functions hold what a launch needs (numbers,
// dim3, events and streams, loops, printf, CUDA's documented calls, kernel
// launches), and everything else is refused with its line and the construct
// named. Asm, extern variables, attributes outside a short list, pointers in
// host code, calls through variables, casts from functions and static
// initialisers that run code are the ways out that these tests close; the
// forms real course code writes still translate. The walk over the syntax
// tree is bounded in depth and linear in the file's size.
// (tests/own/broken/hostile_*.cu take the same path through the binary.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "own/translate.hpp"
#include "own_translate_support.hpp"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

using test::Translated;

std::string file(const std::string& kernel, const std::string& host = "", const std::string& top = "") {
    return test::kernelFile(kernel, host, top);
}

Translated translate(const std::string& text) { return test::translateText(text); }

// Refused at `line`, the message holding `words`, on one line, with no name
// of TileScope's own inside.
void expectRefused(const std::string& text, unsigned line, const std::string& words) {
    const Translated t = translate(text);
    ASSERT_FALSE(t.ok) << text;
    EXPECT_EQ(t.diagnostic.line, line) << t.message;
    EXPECT_EQ(t.message.rfind("student.cu:" + std::to_string(line) + ":", 0), 0u) << t.message;
    EXPECT_NE(t.message.find(words), std::string::npos) << t.message;
    EXPECT_EQ(t.message.find('\n'), std::string::npos) << t.message;
    for (const char* internal : {"tilescope", "Cursor", "Unexposed", "Expr", "Stmt"})
        EXPECT_EQ(t.message.find(internal), std::string::npos) << internal << " in: " << t.message;
}

void expectAccepted(const std::string& text) {
    const Translated t = translate(text);
    EXPECT_TRUE(t.ok) << t.message << "\n" << text;
}

constexpr const char* kAttribute = "is not supported in a kernel file: the attributes a kernel file may use are";

// [SECTION] asm: no inline assembly, no labels.

TEST(OwnAllowlist, AnAsmLabelThatMakesAFunctionTheCLibrarysSystemIsRefused) {
    expectRefused(file("", "", "int run(const char*) asm(\"system\");\n"), 1, "asm is not supported in a kernel file");
    expectRefused(file("", "", "int run(const char*) __asm__(\"system\");\n"), 1,
                  "__asm__ is not supported in a kernel file");
}

TEST(OwnAllowlist, AnAsmLabelThatMakesAVariableTheCLibrarysEnvironIsRefused) {
    expectRefused(file("", "", "extern char** const e asm(\"environ\");\n"), 1, "asm is not supported in a kernel file");
}

// `asm` made by the preprocessor, where no token of the file spells it: the
// label the parser attached is refused for what it is.
TEST(OwnAllowlist, AnAsmLabelMadeByTokenPastingIsRefused) {
    expectRefused(file("", "", "#define CAT(a, b) a##b\nint run(const char*) CAT(as, m)(\"system\");\n"), 2,
                  "asm(\"system\") on run: an asm label makes a declaration another symbol");
}

TEST(OwnAllowlist, InlineAssemblyInLaunchIsRefused) {
    expectRefused(file("", "    asm volatile(\"nop\");\n"), 9, "asm is not supported in a kernel file");
}

// [SECTION] extern variables.

TEST(OwnAllowlist, AnExternVariableIsRefused) {
    expectRefused(file("", "", "extern char** const environ;\n"), 1, "extern variable environ");
    expectRefused(file("", "    extern int counter;\n"), 9, "extern variable counter");
    expectRefused(file("    extern int counter;\n"), 4, "extern variable counter");
}

TEST(OwnAllowlist, AnExternCBlockDeclaresNoVariable) {
    expectRefused(file("", "", "extern \"C\" {\nchar** environ;\n}\n"), 2, "extern \"C\" variable environ");
}

// [SECTION] Attributes, from a short list.

TEST(OwnAllowlist, AConstructorAttributeIsRefused) {
    expectRefused(file("", "", "__attribute__((constructor)) void early() {}\n"), 1,
                  std::string("__attribute__((constructor)) ") + kAttribute);
}

TEST(OwnAllowlist, EveryAttributeOutsideTheListIsRefused) {
    for (const char* attribute : {"destructor", "section(\".init_array\")", "weak", "visibility(\"default\")", "used",
                                  "noinline, constructor"}) {
        const std::string name = std::string(attribute).substr(std::string(attribute).rfind(' ') + 1);
        expectRefused(file("", "", std::string("__attribute__((") + attribute + ")) void early() {}\n"), 1,
                      "__attribute__((" + name.substr(0, name.find('(')) + ")) " + kAttribute);
    }
    // A declaration another symbol stands behind.
    expectRefused(file("", "", "void early() __attribute__((alias(\"launch\")));\n"), 1,
                  std::string("__attribute__((alias)) ") + kAttribute);
    expectRefused(file("", "", "int pick();\nvoid early() __attribute__((ifunc(\"pick\")));\n"), 2,
                  std::string("__attribute__((ifunc)) ") + kAttribute);
    expectRefused(file("", "", "[[gnu::used]] void early() {}\n"), 1, std::string("[[gnu::used]] ") + kAttribute);
    expectRefused(file("", "", "[[gnu::constructor]] void early() {}\n"), 1,
                  std::string("[[gnu::constructor]] ") + kAttribute);
    expectRefused(file("", "    __attribute__((cleanup(done))) int x = 0;\n", "void done(int*);\n"), 10,
                  std::string("__attribute__((cleanup)) ") + kAttribute);
}

TEST(OwnAllowlist, AnAttributeInAMacroIsRefusedWhereTheMacroIsWritten) {
    expectRefused(file("", "", "#define EARLY __attribute__((constructor))\nEARLY void early() {}\n"), 1,
                  std::string("__attribute__((constructor)) ") + kAttribute);
}

TEST(OwnAllowlist, TheAttributesOfTheListStillTranslate) {
    expectAccepted(file("    __shared__ __attribute__((aligned(16))) float s[32];\n"
                        "    __attribute__((unused)) int q = 0;\n"
                        "    [[maybe_unused]] int q2 = 0;\n"
                        "    s[threadIdx.x] = N[i];\n"
                        "    __syncthreads();\n",
                        "", "__forceinline__ __device__ float twice(float x) { return 2.0f * x; }\n"
                        "__noinline__ __device__ float half(float x) { return 0.5f * x; }\n"));
    expectAccepted("__global__ void k(const float* __restrict__ N, float* __restrict__ P, int width) {\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "    if (i < width) P[i] = N[i];\n"
                   "}\n"
                   "void launch(const float* N, const float* M, float* P, int r, int width) {\n"
                   "    k<<<(width + 31) / 32, 32>>>(N, P, width);\n"
                   "}\n");
}

// [SECTION] Pointers in host code: launch()'s N, M and P, and nothing else.

TEST(OwnAllowlist, APointerVariableInHostCodeIsRefused) {
    expectRefused(file("", "    const float* q = N;\n"), 9, "pointer variable q in host code");
    expectRefused(file("", "    static const float* q = 0;\n"), 9, "pointer variable q in host code");
    expectRefused(file("", "", "const char* const greeting = \"hi\";\n"), 1,
                  "global constant greeting is const char *const: a global constant here is a number");
    expectRefused(file("", "    int sizes[3] = {1, 2, 3};\n"), 9, "array sizes in host code");
}

TEST(OwnAllowlist, PointerArithmeticInHostCodeIsRefused) {
    expectRefused(file("", "    long d = P - N;\n"), 9, "pointer arithmetic (`-` on const float *) in host code");
    expectRefused(file("", "    long d = (const char*)0 + width - (const char*)0;\n"), 9, "pointer arithmetic (`-`");
    expectRefused(file("", "    k<<<1, 32>>>(N + 1, P, width);\n"), 9, "pointer arithmetic (`+` on const float *)");
    expectRefused(file("", "    if (N == 0) return;\n"), 9, "pointer arithmetic (`==`");
    expectRefused(file("", "    float x = N[0];\n"), 9, "an array element (a[i]) in host code");
    expectRefused(file("", "    float x = *P;\n"), 9, "a load through a pointer (*P) in host code");
}

TEST(OwnAllowlist, LaunchsArraysArePassedOnAndUsedNoOtherWay) {
    expectRefused(file("", "    printf(\"%p\\n\", N);\n"), 9, "printf's %s takes a string literal");
    expectRefused(file("", "    int x = 0;\n    x += (N != P);\n"), 10, "pointer arithmetic (`!=`");
}

TEST(OwnAllowlist, TakingTheAddressOfAFunctionIsRefused) {
    expectRefused(file("", "    (void)sizeof(&printf);\n"), 9, "the address of a function (printf)");
    expectRefused(file("    (void)sizeof(&printf);\n"), 4, "the address of a function (printf)");
}

TEST(OwnAllowlist, CastsFromAndToFunctionsAreRefused) {
    expectRefused(file("", "    long where = (long)printf;\n"), 9, "a cast of int (*)(const char *, ...) to long");
    expectRefused(file("", "    typedef void (*F)();\n    F f = (F)12345;\n"), 10, "a cast of int to F");
    expectRefused(file("    long where = (long)printf;\n"), 4, "a cast of int (*)(const char *, ...) to long");
}

TEST(OwnAllowlist, AFunctionPointerIsRefused) {
    expectRefused(file("", "    int (*go)(int) = nullptr;\n"), 9, "function pointer go");
    expectRefused(file("", "    int (*go)(const char*, ...) = printf;\n"), 9, "function pointer go");
}

TEST(OwnAllowlist, ACallThroughAVariableIsRefused) {
    expectRefused(file("", "    int (*go)(const char*, ...) = printf;\n    go(\"hi\\n\");\n"), 10,
                  "a call through the variable go: a kernel file calls functions by their name");
    expectRefused(file("", "    int (*go)(const char*, ...) = nullptr;\n    (*go)(\"hi\\n\");\n"), 10,
                  "a call through an expression");
}

TEST(OwnAllowlist, CastsThatMakePointersInHostCodeAreRefused) {
    expectRefused(file("", "    k<<<1, 32>>>(N, (float*)(long)width, width);\n"), 9, "makes a pointer out of a number");
    expectRefused(file("", "    const int w = width;\n    const_cast<int&>(w) = 0;\n"), 10, "const_cast<int> in host code");
    expectRefused(file("", "    k<<<1, 32>>>(N, reinterpret_cast<float*>(P), width);\n"), 9,
                  "a kernel file may not reinterpret memory");
}

TEST(OwnAllowlist, NewDeleteGotoThrowAndLambdasInHostCodeAreRefused) {
    expectRefused(file("", "    int* p = new int;\n"), 9, "new and delete are not supported");
    expectRefused(file("", "    goto end;\nend:\n"), 9, "goto and labels are not supported");
    expectRefused(file("", "    if (width < 0) throw 1;\n"), 9, "exceptions are not supported");
    expectRefused(file("", "    auto f = [] { return 1; };\n"), 9, "lambdas are not supported");
}

// A static initialiser that calls a function runs when the kernel's object is
// loaded (or at a time of its own): a constant is a number.
TEST(OwnAllowlist, AStaticInitialiserThatRunsCodeIsRefused) {
    expectRefused(file("", "", "int sideEffect() { return 16; }\nconst int n = sideEffect();\n"), 2,
                  "global constant n is not a constant expression");
    expectRefused(file("", "    static int calls = blocks(width);\n", "int blocks(int w) { return w / 32; }\n"), 10,
                  "static variable calls with an initialiser that is not a constant");
    expectRefused(file("", "", "const dim3 kBlock(16, 16);\n"), 1, "global constant kBlock is const dim3");
}

TEST(OwnAllowlist, AHostFunctionTakesNumbersOnly) {
    expectRefused(file("", "", "void go(const float* N) { (void)N; }\n"), 1,
                  "host function go takes const float *: a host function other than launch() takes numbers");
}

TEST(OwnAllowlist, AnythingElseIsRefusedByName) {
    expectRefused(file("", "    int x = ({ 1; });\n"), 9, "a statement expression (({ ... })) is not supported in launch()");
    expectRefused(file("    float a[3] = {1, 2, 3};\n    for (float v : a) P[i] += v;\n"), 5,
                  "a range-based for loop (for (x : a)) is not supported in device code");
    expectRefused(file("", "    struct S { int x; };\n"), 9, "a struct, union, class or enum declared in a function");
    expectRefused(file("    char c = \"abc\"[i];\n"), 4, "an element of something other than an array the kernel names");
}

// printf reads its values as its format says: %n writes through one.
TEST(OwnAllowlist, PrintfsFormatIsChecked) {
    expectRefused(file("", "    int x;\n    printf(\"%n\", &x);\n"), 10, "printf's %n writes through its argument");
    expectRefused(file("", "    int x;\n    printf(\"%\\x6e\", &x);\n"), 10, "printf's %n writes through its argument");
    expectRefused(file("    printf(\"%n\", 0);\n"), 4, "printf's %n writes through its argument");
    expectRefused(file("", "    printf(\"%s %s\\n\", \"a\");\n"), 9, "printf's format takes 2 values and the call passes 1");
    expectRefused(file("", "    printf(\"%s\\n\", width);\n"), 9, "printf's %s takes a string literal");
    expectRefused(file("", "    printf(\"%1$d\\n\", width);\n"), 9, "printf's numbered values");
}

// [SECTION] What a launch needs still translates.

TEST(OwnAllowlist, TheFormsALaunchNeedsStillTranslate) {
    expectAccepted("#include <cuda_runtime.h>\n"
                   "#include <stdio.h>\n"
                   "#define MASK_WIDTH 15\n"
                   "#define TILE 16\n"
                   "const int kBlock = 32;\n"
                   "constexpr int kHalo = 2 * kBlock;\n"
                   "__constant__ float Mc[MASK_WIDTH * MASK_WIDTH];\n"
                   "__global__ void k(const float* N, float* P, int r, int width, int height) {\n"
                   "    int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "    int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                   "    if (row < height && col < width) P[row * width + col] = Mc[0] * N[row * width + col];\n"
                   "}\n"
                   "static int blocks(int n, int per) { return (n + per - 1) / per; }\n"
                   "dim3 gridFor(int width, int height) { return dim3(blocks(width, TILE), blocks(height, TILE)); }\n"
                   "void launch(const float* N, const float* M, float* P, int r, int width, int height) {\n"
                   "    static const int kRepeats = 2;\n"
                   "    cudaMemcpyToSymbol(Mc, M, (2 * r + 1) * (2 * r + 1) * sizeof(float));\n"
                   "    dim3 block(TILE, TILE);\n"
                   "    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);\n"
                   "    dim3 same = gridFor(width, height);\n"
                   "    unsigned gx = (unsigned)ceil(width / (float)TILE);\n"
                   "    cudaEvent_t start, stop;\n"
                   "    cudaEventCreate(&start);\n"
                   "    cudaEventCreate(&stop);\n"
                   "    cudaEventRecord(start);\n"
                   "    for (int rep = 0; rep < kRepeats; ++rep)\n"
                   "        k<<<grid, block, 0, (cudaStream_t)0>>>(N, const_cast<float*>(P), r, width, height);\n"
                   "    cudaEventRecord(stop, 0);\n"
                   "    cudaEventSynchronize(stop);\n"
                   "    float ms = 0;\n"
                   "    cudaEventElapsedTime(&ms, start, stop);\n"
                   "    cudaEventDestroy(start);\n"
                   "    cudaEventDestroy(stop);\n"
                   "    cudaError_t err = cudaGetLastError();\n"
                   "    if (err != cudaSuccess) printf(\"launch failed: %s (%d)\\n\", cudaGetErrorString(err), (int)err);\n"
                   "    printf(\"grid %u x %u (%u), %.3f ms, %d%%\\n\", grid.x, grid.y, gx + same.x * 0, ms, 100);\n"
                   "    switch (r) { case 1: break; default: printf(\"r = %d\\n\", r); }\n"
                   "    int n = 0;\n"
                   "    while (n < 2) ++n;\n"
                   "    do { --n; } while (n > 0);\n"
                   "    (void)sizeof(N);\n"
                   "}\n");
}

// [SECTION] The walk: bounded in depth, linear in size.

// A file of `lines` statements of a few operators each, nested at most a
// few levels: `terms` operands in all.
std::string manyTerms(int terms) {
    std::string body;
    for (int t = 0; t < terms; t += 10)
        body += "    v = -v + !v * 2 - (v ? v : 1) % 3 + (v << 1) + ~v;\n    ++v;\n    v += 1;\n";
    return file("    int v = i;\n" + body + "    P[i] = (float)v;\n");
}

// The best of three runs: on a machine running other tests beside this one,
// a single run's time says more about its neighbours than about the walk.
double secondsToTranslate(const std::string& text) {
    double best = 1e9;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const auto start = std::chrono::steady_clock::now();
        const Translated t = translate(text);
        EXPECT_TRUE(t.ok) << t.message;
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

TEST(OwnAllowlist, TheWalkIsLinearInTheFilesSize) {
    const double n = secondsToTranslate(manyTerms(20000));
    const double twice = secondsToTranslate(manyTerms(40000));
    EXPECT_LT(twice / n, 3.0) << "20000 terms: " << n << " s, 40000 terms: " << twice << " s";
}

// Prefix operators nested 120 and 240 deep: each level reads its own
// operator, not the whole expression below it (which made the walk
// quadratic in the nesting).
TEST(OwnAllowlist, DeepOperatorsCostTheirSizeOnce) {
    auto nested = [](int depth) {
        std::string body;
        for (int l = 0; l < 200; ++l) body += "    v = " + std::string(static_cast<std::size_t>(depth), '!') + "v;\n";
        return file("    int v = i;\n" + body + "    P[i] = (float)v;\n");
    };
    const double n = secondsToTranslate(nested(120));
    const double twice = secondsToTranslate(nested(240));
    EXPECT_LT(twice / n, 3.0) << "120 deep: " << n << " s, 240 deep: " << twice << " s";
}

// A sum of many terms is as deep as it is long, with no bracket and no
// prefix operator for a bound on the text to see.
TEST(OwnAllowlist, AnExpressionDeeperThanTheBoundIsRefusedAtItsLine) {
    std::string sum = "v";
    for (int t = 1; t < 3000; ++t) sum += "+v";
    expectRefused(file("    int v = i;\n    v = " + sum + ";\n    P[i] = (float)v;\n"), 5,
                  "this is nested more than 256 levels deep");
    expectRefused(file("", "    int v = 0;\n    v = " + sum + ";\n"), 10, "this is nested more than 256 levels deep");
    std::string fine = "v";
    for (int t = 1; t < 200; ++t) fine += "+v";
    expectAccepted(file("    int v = i;\n    v = " + fine + ";\n    P[i] = (float)v;\n"));
}

TEST(OwnAllowlist, ALongElseIfChainIsRefusedWithinIt) {
    std::string chain = "    int v = 0;\n    if (i == 0) v = 0;\n";
    for (int k = 1; k < 400; ++k) chain += "    else if (i == " + std::to_string(k) + ") v = " + std::to_string(k) + ";\n";
    const Translated t = translate(file(chain + "    P[i] = (float)v;\n"));
    ASSERT_FALSE(t.ok);
    EXPECT_NE(t.message.find("this is nested more than 256 levels deep"), std::string::npos) << t.message;
    EXPECT_GT(t.diagnostic.line, 200u) << t.message;
    EXPECT_LT(t.diagnostic.line, 300u) << t.message;
}

}  // namespace
}  // namespace tilescope
