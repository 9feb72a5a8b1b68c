// A kernel file written to get out: compiler builtins, pointers made out of
// numbers, includes of the machine's files, pragmas that reach the parser
// itself. The translator is the first wall: each is refused with the line
// the student wrote it on, before the parser reads any file the kernel file
// names, and without a word of such a file in the message. Beside them, the
// forms real course code writes with the same words still translate.
// (tests/own/broken/hostile_*.cu take the same path through the binary.)
#include <gtest/gtest.h>
#include <unistd.h>

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

// Refused at `line`, the message holding `words`, on one line, naming
// nothing of the machine's files.
void expectRefused(const std::string& text, unsigned line, const std::string& words) {
    const Translated t = translate(text);
    ASSERT_FALSE(t.ok) << text;
    EXPECT_EQ(t.diagnostic.line, line) << t.message;
    EXPECT_EQ(t.message.rfind("student.cu:" + std::to_string(line) + ":", 0), 0u) << t.message;
    EXPECT_NE(t.message.find(words), std::string::npos) << t.message;
    EXPECT_EQ(t.message.find('\n'), std::string::npos) << t.message;
    for (const char* secret : {"root", "daemon", "unknown type name"})
        EXPECT_EQ(t.message.find(secret), std::string::npos) << secret << " in: " << t.message;
}

void expectAccepted(const std::string& text) {
    const Translated t = translate(text);
    EXPECT_TRUE(t.ok) << t.message << "\n" << text;
}

constexpr const char* kBuiltin = "a kernel file may call only CUDA's and C's documented functions";
constexpr const char* kInclude = "a kernel file may include only CUDA's and C's own headers";

// [SECTION] Compiler builtins, in a kernel and in launch().

TEST(OwnHostile, BuiltinMemsetInAKernel) {
    expectRefused(file("    __builtin_memset((void*)0x10000, 0, 16);\n"), 4, std::string("__builtin_memset: ") + kBuiltin);
}

TEST(OwnHostile, BuiltinFrameAddressReadInAKernel) {
    expectRefused(file("    float x = *(float*)__builtin_frame_address(0);\n    P[i] = x;\n"), 4,
                  std::string("__builtin_frame_address: ") + kBuiltin);
}

TEST(OwnHostile, BuiltinMemcpyInLaunch) {
    expectRefused(file("", "    char a[4], b[4] = {0};\n    __builtin_memcpy(a, b, 4);\n"), 10,
                  std::string("__builtin_memcpy: ") + kBuiltin);
}

TEST(OwnHostile, BuiltinAllocaInLaunch) {
    expectRefused(file("", "    void* room = __builtin_alloca(64);\n"), 9, std::string("__builtin_alloca: ") + kBuiltin);
}

TEST(OwnHostile, BuiltinTrapInLaunch) {
    expectRefused(file("", "    __builtin_trap();\n"), 9, std::string("__builtin_trap: ") + kBuiltin);
}

TEST(OwnHostile, GccAtomicsAndSyncBuiltins) {
    expectRefused(file("    __sync_fetch_and_add((int*)0, 1);\n"), 4, std::string("__sync_fetch_and_add: ") + kBuiltin);
    expectRefused(file("    int v = __atomic_load_n((int*)0, 0);\n"), 4, std::string("__atomic_load_n: ") + kBuiltin);
}

// A builtin's name made by the preprocessor, where no word of the file spells it.
TEST(OwnHostile, BuiltinNamedThroughTokenPasting) {
    expectRefused(file("    CAT(__buil, tin_trap)();\n", "", "#define CAT(a, b) a##b\n"), 5,
                  std::string("__builtin_trap: ") + kBuiltin);
    expectRefused(file("    int v = CAT(__atom, ic_load_n)((int*)0, 0);\n", "", "#define CAT(a, b) a##b\n"), 5,
                  std::string("__atomic_load_n: ") + kBuiltin);
}

// A C library function the file declares itself: the compiler would link it.
TEST(OwnHostile, FunctionDeclaredButNotDefined) {
    expectRefused(file("", "    system(\"echo hello\");\n", "extern \"C\" int system(const char*);\n"), 10,
                  "system is declared in the file but not defined in it");
}

// [SECTION] Pointers made out of numbers.

TEST(OwnHostile, CStyleCastOfANumberToAPointerInAKernel) {
    expectRefused(file("    float x = *(float*)0x1000;\n    P[i] = x;\n"), 4,
                  "a cast of int to float * makes a pointer out of a number");
}

TEST(OwnHostile, ReinterpretCastOfANumber) {
    expectRefused(file("    reinterpret_cast<float*>(12345)[0] = 1.0f;\n"), 4,
                  "reinterpret_cast<float *>: a kernel file may not reinterpret memory");
}

TEST(OwnHostile, EveryCastFormOfANumberToAPointer) {
    expectRefused(file("", "    long a = 4096;\n    float* p = (float*)a;\n"), 10, "makes a pointer out of a number");
    expectRefused(file("", "    typedef float* FP;\n    long a = 4096;\n    FP p = FP(a);\n"), 11,
                  "makes a pointer out of a number");
    expectRefused(file("", "    const float* p = reinterpret_cast<const float*>(N);\n"), 9,
                  "a kernel file may not reinterpret memory");
    expectRefused(file("", "    const float* q = N;\n    (long&)q = 4096;\n"), 10, "reads a pointer as a number");
}

TEST(OwnHostile, AddressOfALocalInAKernel) {
    expectRefused(file("    float x = 1.0f;\n    (&x)[100000] = 2.0f;\n"), 5, "the address of a variable (&x)");
}

// [SECTION] Includes, refused before the parser reads anything.

TEST(OwnHostile, IncludeOfAFileOfTheMachine) {
    expectRefused(file("", "", "#include \"/etc/passwd\"\n"), 1, std::string("#include </etc/passwd>: ") + kInclude);
    expectRefused(file("", "", "#include </etc/passwd>\n"), 1, std::string("#include </etc/passwd>: ") + kInclude);
    expectRefused(file("", "", "#include \"../../etc/passwd\"\n"), 1,
                  std::string("#include <../../etc/passwd>: ") + kInclude);
}

TEST(OwnHostile, IncludeOfAnEndlessFileReturnsAtOnce) {
    const auto start = std::chrono::steady_clock::now();
    expectRefused(file("", "", "#include \"/dev/zero\"\n"), 1, std::string("#include </dev/zero>: ") + kInclude);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(OwnHostile, ComputedInclude) {
    expectRefused(file("", "", "#define SECRET \"/etc/passwd\"\n#include SECRET\n"), 2,
                  std::string("#include SECRET: ") + kInclude);
}

// The directive as the preprocessor sees it, however it is written.
TEST(OwnHostile, IncludeHiddenInTheDirectivesSpelling) {
    expectRefused(file("", "", "#  include \"/etc/passwd\"\n"), 1, kInclude);
    expectRefused(file("", "", "%:include \"/etc/passwd\"\n"), 1, kInclude);
    expectRefused(file("", "", "#inc\\\nlude \"/etc/passwd\"\n"), 1, kInclude);
    expectRefused(file("", "", "# /* a comment */ include \"/etc/passwd\"\n"), 1, kInclude);
    expectRefused(file("", "", "/* a comment\n */ #include \"/etc/passwd\"\n"), 2, kInclude);
    expectRefused(file("", "", "#include_next <stdio.h>\n"), 1, kInclude);
    expectRefused(file("", "", "#import \"/etc/passwd\"\n"), 1, kInclude);
    expectRefused(file("", "", "#embed \"/etc/passwd\"\n"), 1, kInclude);
    expectRefused(file("", "", "#include <stdio.h> \"/etc/passwd\"\n"), 1, kInclude);
}

TEST(OwnHostile, HasIncludeAndPragmas) {
    expectRefused(file("", "", "#if __has_include(\"/etc/passwd\")\n#endif\n"), 1,
                  "__has_include: a kernel file may not look for files");
    expectRefused(file("", "", "_Pragma(\"clang __debug crash\")\n"), 1, "_Pragma is not supported");
    expectRefused(file("", "", "#pragma clang __debug crash\n"), 1, "#pragma clang is not supported");
    expectRefused(file("", "", "#pragma GCC dependency \"/etc/passwd\"\n"), 1, "#pragma GCC is not supported");
}

// Words that only look like a directive or a builtin: in a comment, a string,
// a line that does not start with #.
TEST(OwnHostile, LookalikesAreNoDirectives) {
    expectAccepted(file("", "    printf(\"#include \\\"/etc/passwd\\\" __builtin_trap\\n\");\n",
                        "// #include \"/etc/passwd\" and __builtin_trap() in a comment\n"
                        "/* #include </etc/passwd>\n   #pragma clang __debug crash */\n"
                        "#include <stdio.h>  // the header, then a comment\n"
                        "#include \"cuda_runtime.h\"\n"));
    expectAccepted(file("    int big = 1'000'000;\n    if (big == 0) return;\n", "",
                        "#define QUOTE '\"'\n#define RAW R\"x(#include \"/etc/passwd\")x\"\n"));
}

// [SECTION] What real course code writes with the same words.

TEST(OwnHostile, RealCastsAndPragmasStillTranslate) {
    expectAccepted(file("#pragma unroll\n    for (int j = 0; j < 3; j++) P[i] = N[i] * (float)j;\n",
                        "    cudaStream_t s = (cudaStream_t)0;\n"
                        "    cudaEvent_t e;\n"
                        "    cudaEventCreate(&e);\n"
                        "    cudaEventRecord(e, s);\n"
                        "    k<<<1, 32, 0, (cudaStream_t)NULL>>>((const float*)P, const_cast<float*>(N), width);\n"
                        "    k<<<1, 32>>>(static_cast<const float*>(N), (float*)P, width);\n"));
    // The cast is fine; cudaMalloc and malloc are refused for what they are.
    expectRefused(file("", "    float* d_N;\n    cudaMalloc((void**)&d_N, width * sizeof(float));\n"), 10,
                  "cudaMalloc is not needed");
    expectRefused(file("", "    float* out = (float*)malloc(width * sizeof(float));\n"), 9, "malloc is not needed");
}

}  // namespace
}  // namespace tilescope
