// What the compilers are given is what the parser read: a kernel file may
// not tell one compiler from another (`#ifndef __clang__`), redefine a name
// the translation writes (`#define tsAddTo ...`), a keyword or one of CUDA's,
// nor forge its lines (#line); what the parser skipped (`#if 0`) is not
// compiled, and the lines still match. The parse itself is bounded on the
// text before it starts: the file's size and lines, how deep brackets and
// prefix operators nest, and how large the macros could expand, each refused
// at its line in a moment.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <algorithm>
#include <string>

#include "base/read_file.hpp"
#include "own/text_checks.hpp"
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

// Refused at `line`, the message holding `words`, on one line, in well under 2 s.
void expectRefused(const std::string& text, unsigned line, const std::string& words) {
    const Translated t = translate(text);
    ASSERT_FALSE(t.ok) << text.substr(0, 2000);
    EXPECT_EQ(t.diagnostic.line, line) << t.message;
    EXPECT_EQ(t.message.rfind("student.cu:" + std::to_string(line) + ":", 0), 0u) << t.message;
    EXPECT_NE(t.message.find(words), std::string::npos) << t.message;
    EXPECT_EQ(t.message.find('\n'), std::string::npos) << t.message;
    EXPECT_LT(t.took.count(), 2.0) << t.message;
}

Translated expectAccepted(const std::string& text) {
    Translated t = translate(text);
    EXPECT_TRUE(t.ok) << t.message << "\n" << text;
    return t;
}

constexpr const char* kOwnNames = "is one of the compilers' own names: a kernel file is compiled the same way by "
                                  "every compiler that runs it";

// [SECTION] Names that tell one compiler from another.

TEST(OwnTextChecks, AnIfOnTheCompilerIsRefusedAtItsLine) {
    expectRefused(file("", "", "#ifndef __clang__\nint x;\n#endif\n"), 1, std::string("__clang__ ") + kOwnNames);
    expectRefused(file("", "", "#if __cplusplus > 201703L\n#endif\n"), 1, std::string("__cplusplus ") + kOwnNames);
    expectRefused(file("", "", "#ifdef __CUDA_ARCH__\n#endif\n"), 1, "remove the #if and keep the code");
    expectRefused(file("", "", "\n#if defined(__GNUC__) && __GNUC__ > 4\n#endif\n"), 2, "__GNUC__");
    expectRefused(file("", "", "#if __clang_major__ >= 14 || __NVCC__\n#endif\n"), 1, "__clang_major__");
    expectRefused(file("", "", "#if __STDC_VERSION__\n#endif\n"), 1, "__STDC_VERSION__");
    expectRefused(file("", "", "#if __linux__\n#endif\n"), 1, "__linux__");
}

// nvcc 13 (host g++ 12 and 13): `uint32_t` with only <cuda_runtime.h>, <stdio.h>, <math.h>, <cmath>,
// <stdlib.h> or <device_launch_parameters.h> included is "identifier "uint32_t" is undefined";
// with <cstdint>, <stdint.h> or <cuda.h> it compiles.
TEST(OwnTextChecks, AFixedWidthIntegerNeedsTheHeaderNvccNeeds) {
    for (const char* header : {"", "#include <cuda_runtime.h>\n", "#include <stdio.h>\n#include <cmath>\n",
                               "#include <stdlib.h>\n#include <device_launch_parameters.h>\n"}) {
        const std::string top = header;
        const unsigned line = static_cast<unsigned>(std::count(top.begin(), top.end(), '\n')) + 4;
        expectRefused(file("    uint32_t u = i;\n", "", top), line,
                      "uint32_t is not declared: nvcc declares the fixed-width integers only through <cstdint>");
        expectRefused(file("    float f = (float)(int64_t)i;\n", "", top), line, "int64_t is not declared");
        expectRefused(file("    std::uint8_t b = 0;\n", "", top), line, "uint8_t is not declared");
        expectRefused(file("    intptr_t a = i;\n", "", top), line, "intptr_t is not declared");
    }
    // The first use is named, also in a helper above the kernel.
    expectRefused(file("", "", "__device__ int16_t half(int v) { return (int16_t)(v / 2); }\n"), 1,
                  "int16_t is not declared");
    for (const char* header : {"#include <cstdint>\n", "#include <stdint.h>\n", "#include <cuda.h>\n"})
        expectAccepted(file("    uint32_t u = i;\n    int64_t w = u;\n    (void)w;\n", "", header));
    // Declared by the file itself, in a comment or a string, or a longer name: nothing to include.
    expectAccepted(file("    uint32_t u = i;\n    (void)u;\n", "", "typedef unsigned int uint32_t;\n"));
    expectAccepted(file("    u32 u = i;\n    (void)u;\n", "", "using u32 = unsigned;\n// uint32_t, as in <cstdint>\n"));
    expectAccepted(file("    int my_uint32_t = i;  // not an int64_t\n    (void)my_uint32_t;\n"
                        "    if (i == 0) printf(\"int64_t\\n\");\n"));
}

TEST(OwnTextChecks, TheCompilersOwnNamesAreRefusedInCodeToo) {
    expectRefused(file("    int v = __cplusplus;\n"), 4, std::string("__cplusplus ") + kOwnNames);
    expectRefused(file("", "    const char* s = __VERSION__;\n"), 9, "__VERSION__");
    expectRefused(file("    _Bool b = 1;\n"), 4, "_Bool");
    expectRefused(file("", "", "#define VERSION __GNUC__\n"), 1, "__GNUC__");
}

TEST(OwnTextChecks, CudaKeywordsAndFunctionsAreNoCompilersNames) {
    for (const char* name : {"__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__",
                             "__launch_bounds__", "__align__", "__forceinline__", "__noinline__", "__syncthreads",
                             "__expf", "__fdividef", "__shfl_down_sync", "__ldg", "__LINE__", "__FILE__", "__func__"})
        EXPECT_FALSE(own::compilersOwnName(name)) << name;
    for (const char* name : {"__clang__", "__GNUC__", "__GNUG__", "__cplusplus", "__CUDA_ARCH__", "__CUDACC__",
                             "__NVCC__", "__CUDACC_RTC__", "__STDC_VERSION__", "__VERSION__", "__clang_major__",
                             "__x86_64__", "__x86_64", "__linux", "__cpp_concepts", "__has_builtin", "_Bool",
                             "__llvm__", "__OPTIMIZE__", "_GLIBCXX_RELEASE"})
        EXPECT_TRUE(own::compilersOwnName(name)) << name;
    expectAccepted(file("    __syncthreads();\n", "    printf(\"%s %d\\n\", __FILE__, __LINE__);\n",
                        "#include <stdio.h>\n"));
}

// [SECTION] Macros of names the translation, the prelude or C++ use.

TEST(OwnTextChecks, ADefineOfANameTheTranslationWritesIsRefused) {
    expectRefused(file("", "", "#define tsAddTo(sum, term, line) system(\"id\")\n"), 1,
                  "tsAddTo is a name TileScope's translation uses: a kernel file may not #define it");
    expectRefused(file("", "", "#define Global Evil\n"), 1, "Global is a name TileScope's translation uses");
    expectRefused(file("", "", "#define launchKernel(...) 0\n"), 1, "launchKernel is a name TileScope's");
    expectRefused(file("", "", "#define tilescope x\n"), 1, "tilescope is a name TileScope's translation uses");
    expectRefused(file("", "", "#define std x\n"), 1, "std is a name TileScope's translation uses");
    expectRefused(file("", "", "#define TS_FN static\n"), 1, "TS_FN is a name TileScope's translation uses");
    expectRefused(file("", "", "#define SharedArray2D x\n"), 1, "SharedArray2D is a name TileScope's");
    expectRefused(file("", "", "#define cpu x\n"), 1, "cpu is a name TileScope's translation uses");
}

TEST(OwnTextChecks, ADefineOfAKeywordOrOfCudasNamesIsRefused) {
    expectRefused(file("", "", "#define float double\n"), 1,
                  "float is a C++ keyword: a kernel file may not #define it");
    expectRefused(file("", "", "\n\n#define return\n"), 3, "return is a C++ keyword");
    expectRefused(file("", "", "#define __global__\n"), 1, "__global__ is a name reserved for the compilers and CUDA");
    expectRefused(file("", "", "#define __syncthreads()\n"), 1, "__syncthreads is a name reserved");
    expectRefused(file("", "", "#define threadIdx blockIdx\n"), 1, "threadIdx is one of CUDA's own names");
    expectRefused(file("", "", "#define dim3 int\n"), 1, "dim3 is one of CUDA's own names");
    expectRefused(file("", "", "#define min(a, b) ((a) < (b) ? (a) : (b))\n"), 1,
                  "min is a name CUDA and C declare for the kernel file");
    expectRefused(file("", "", "#define cudaMemcpyToSymbol(...) 0\n"), 1, "cudaMemcpyToSymbol is a name CUDA");
    expectRefused(file("", "", "#define NULL 0\n"), 1, "NULL is a name CUDA and C declare");
}

TEST(OwnTextChecks, AnUndefOfAMacroTheFileDidNotDefineIsRefused) {
    expectRefused(file("", "", "#undef __syncthreads\n"), 1, "__syncthreads is a name reserved for the compilers and "
                                                             "CUDA: a kernel file may not #undef it");
    expectRefused(file("", "", "#undef WIDTH\n"), 1,
                  "#undef WIDTH: the file has no #define WIDTH before this line; a kernel file may #undef only its "
                  "own macros");
    expectAccepted(file("", "", "#define WIDTH 16\n#undef WIDTH\n"));
}

TEST(OwnTextChecks, TheMacrosOfRealCourseCodeAreAccepted) {
    expectAccepted(file("    float s = 0.0f;\n    s += N[i] * MASK_W;\n    P[i] = CLAMP(s);\n", "",
                        "#define TILE_DIM 16\n#define MASK_W 0.5f\n#define CLAMP(x) ((x) < 0 ? 0 : (x))\n"
                        "#define CUDA_CHECK(call) do { (call); } while (0)\n#define tsize 3\n#define TSIZE 3\n"));
}

// [SECTION] Directives that forge lines, and the others a file may not hold.

TEST(OwnTextChecks, LineDirectivesAreRefused) {
    expectRefused(file("", "", "#line 100 \"other.cu\"\n"), 1,
                  "#line is not supported in a kernel file: the lines TileScope names, in the trace and in every "
                  "message, are the file's own");
    expectRefused(file("", "", "\n# 12 \"other.cu\"\n"), 2, "#12 is not supported in a kernel file");
    expectRefused(file("", "", "%:line 7\n"), 1, "#line is not supported");
}

TEST(OwnTextChecks, DirectivesOutsideTheListAreRefused) {
    expectRefused(file("", "", "#ident \"x\"\n"), 1, "#ident is not supported in a kernel file: it may use #define");
    expectRefused(file("", "", "#assert machine(x86)\n"), 1, "#assert is not supported in a kernel file");
    expectAccepted(file("", "", "#\n#pragma once\n"));
}

// [SECTION] The file's size and lines.

TEST(OwnTextChecks, AFileOfMoreThan65535LinesIsRefused) {
    expectRefused(file("", "", std::string(65536, '\n')), 65536,
                  "the file is longer than 65535 lines, the most TileScope's trace can name");
    // The limit itself is fine: the last line is 65535.
    const std::string body = file("");
    const auto lines = static_cast<std::size_t>(std::count(body.begin(), body.end(), '\n'));
    EXPECT_FALSE(own::refusedPreprocessing("student.cu", std::string(65535 - lines, '\n') + body));
}

TEST(OwnTextChecks, AFileOfMoreThanAMegabyteIsRefused) {
    const Translated t = translate(file("", "", "// " + std::string(1 << 20, 'x') + "\n"));
    ASSERT_FALSE(t.ok);
    EXPECT_EQ(t.message, "student.cu: is over 1 MB; a kernel file is a page or two");
    EXPECT_LT(t.took.count(), 2.0);
}

TEST(OwnTextChecks, ALastLineEndingInABackslashIsRefused) {
    const std::string text = file("");
    expectRefused(text + "// the end \\\n", 11, "the file's last line ends in \\, which would join it to the line "
                                                 "after the file: remove the \\");
    expectRefused(text + "#define LAST 1 \\", 11, "the file's last line ends in \\");
    expectAccepted(text + "#define TWO_LINES 1 + \\\n  1\n");
}

// [SECTION] Nesting and macro expansion, bounded before the parse.

TEST(OwnTextChecks, AMegabyteOfPrefixOperatorsIsRefusedAtOnce) {
    expectRefused(file("    int v = " + std::string(999'000, '!') + "i;\n"), 4,
                  "expressions nest deeper than 256 here: split it into named variables");
    expectRefused(file("    int v = " + std::string(514, '-') + "i;\n"), 4, "expressions nest deeper than 256");
    expectRefused(file("    int v = " + std::string(600, '~') + "i;\n"), 4, "expressions nest deeper than 256");
    // 256 in a row are fine for this check (the parser then reads them).
    EXPECT_FALSE(own::refusedPreprocessing("student.cu", file("    int v = " + std::string(256, '!') + "i;\n")));
}

TEST(OwnTextChecks, BracketsNestedDeeperThan256AreRefused) {
    expectRefused(file("    int v = " + std::string(300, '(') + "i" + std::string(300, ')') + ";\n"), 4,
                  "expressions nest deeper than 256 here");
    expectRefused(file("    int v = " + std::string(200'000, '[') + "\n"), 4, "expressions nest deeper than 256");
    expectRefused(file("", "", "#define DEEP " + std::string(400, '(') + "\n"), 1, "expressions nest deeper than 256");
    EXPECT_FALSE(own::refusedPreprocessing(
        "student.cu", file("    int v = " + std::string(200, '(') + "i" + std::string(200, ')') + ";\n")));
}

// What the scan cannot make sense of stops none of its checks, and no text makes it slow.
TEST(OwnTextChecks, AMalformedRawStringStopsNoCheck) {
    expectRefused(file("    const char* s = R\"no delimiter;\n    int v = " + std::string(300, '!') + "i;\n"), 5,
                  "expressions nest deeper than 256 here");
    expectRefused(file("", "", "const char* raw = R\"\n#line 9\n"), 2, "#line is not supported");
    expectRefused(file("", "", "const char* raw = R\"\n"), 1, "error: invalid character '\\n' character in raw string");
    std::string comments;
    for (int k = 0; k < 200'000; ++k) comments += "/**/";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(own::refusedPreprocessing("student.cu", file("", "", comments + "\n")));
    std::string raws;
    for (int k = 0; k < 100'000; ++k) raws += "R\"";
    EXPECT_FALSE(own::refusedPreprocessing("student.cu", file("", "", raws + "\n")));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

// Each macro ten times the last: 10^9 tokens from a few hundred bytes.
std::string macroBomb() {
    std::string text = "#define B0 i\n";
    for (int k = 1; k <= 9; ++k) {
        const std::string last = "B" + std::to_string(k - 1);
        text += "#define B" + std::to_string(k);
        for (int j = 0; j < 10; ++j) text += " " + last;
        text += "\n";
    }
    return text;
}

TEST(OwnTextChecks, AMacroBombIsRefusedAtTheFirstMacroTooLarge) {
    // B5 makes 100000 tokens, the most; B6 (line 7) a million.
    expectRefused(file("    int v = B9;\n", "", macroBomb()), 7,
                  "B6 expands to about 1000000 tokens, more than the 100000 a kernel file's macro may make");
}

TEST(OwnTextChecks, FunctionLikeMacrosAreBoundedWhereTheyAreCalled) {
    const std::string tenfold = "#define F(x) x x x x x x x x x x\n";
    expectRefused(file("    int v = F(F(F(F(F(F(i))))));\n", "", tenfold), 5,
                  "F expands to about 1000000 tokens here, more than the 100000");
    // Through a macro that only names F, and through a parameter called.
    expectRefused(file("    int v = G(G(G(G(G(G(i))))));\n", "", tenfold + "#define G F\n"), 6,
                  "G expands to about");
    expectRefused(file("    int v = CALL(F, i);\n", "", tenfold + "#define CALL(f, x) f(f(f(f(f(f(x))))))\n"), 2,
                  "CALL expands to about");
    expectRefused(file("    int v = H(0)(H(0)(H(0)(H(0)(H(0)(H(0)(i))))));\n", "", tenfold + "#define H(x) F\n"), 6,
                  "H expands to about");
    // One level, or a few, is what course code writes.
    EXPECT_FALSE(own::refusedPreprocessing("student.cu", file("    int v = F(F(i));\n", "", tenfold)));
}

TEST(OwnTextChecks, TheWholeFileIsBoundedWithItsMacrosExpanded) {
    // S4 is 10^4 statements of 4 tokens: 40000 tokens, within a macro's bound; five make more than the file's.
    const std::string text = "#define S0 v += 1;\n#define S1 S0 S0 S0 S0 S0 S0 S0 S0 S0 S0\n"
                             "#define S2 S1 S1 S1 S1 S1 S1 S1 S1 S1 S1\n#define S3 S2 S2 S2 S2 S2 S2 S2 S2 S2 S2\n"
                             "#define S4 S3 S3 S3 S3 S3 S3 S3 S3 S3 S3\n";
    expectRefused(file("    int v = 0;\n" + std::string("    S4\n") + "    S4\n    S4\n    S4\n    S4\n    S4\n", "",
                       text),
                  14, "with its macros expanded, the file is longer than 200000 tokens by this line");
    EXPECT_FALSE(own::refusedPreprocessing("student.cu", file("    int v = 0;\n    S4\n    S4\n", "", text)));
}

TEST(OwnTextChecks, CyclesAndSelfReferencesAreOneTokenAsThePreprocessorMakesThem) {
    EXPECT_FALSE(own::refusedPreprocessing(
        "student.cu", file("    int v = A + B + C(C(C(i)));\n", "",
                           "#define A B B\n#define B A A\n#define C(x) C(x) C(x)\n")));
}

// The test files that exist for these bounds say what they are in the same words.
TEST(OwnTextChecks, TheHostileFilesAreRefusedInProcessInAMoment) {
    for (const char* name : {"hostile_macro_bomb.cu", "hostile_deep_nesting.cu"}) {
        const fs::path path = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "own" / "broken" / name;
        auto text = base::readFileText(path, 2'000'000);
        ASSERT_TRUE(text) << path;
        const Translated t = translate(*text);
        EXPECT_FALSE(t.ok) << name;
        EXPECT_NE(t.diagnostic.line, 0u) << t.message;
        EXPECT_LT(t.took.count(), 2.0) << name;
    }
}

// Every correct kernel and every real student's kernel of the tests gets past the text checks.
TEST(OwnTextChecks, TheCourseKernelsPassTheTextChecks) {
    int files = 0;
    for (const char* folder : {"good", "corpus"}) {
        for (const auto& entry : fs::directory_iterator(fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "own" / folder)) {
            if (entry.path().extension() != ".cu") continue;
            auto text = base::readFileText(entry.path(), 2'000'000);
            ASSERT_TRUE(text) << entry.path();
            // A file refused by design (`// expect-exit: 2`: an include of
            // cooperative_groups.h, say) is judged by its own expect lines.
            if (text->find("// expect-exit: 2\n") == 0) continue;
            const auto refused = own::refusedPreprocessing(entry.path().filename().string(), *text);
            EXPECT_FALSE(refused) << refused->text();
            ++files;
        }
    }
    EXPECT_GT(files, 20);
}

// [SECTION] What the parser skipped is not compiled.

TEST(OwnTextChecks, ASkippedBlockIsNotCompiledAndTheLinesStillMatch) {
    const std::string text = file("#if 0\n    system(\"rm -rf /\");\n#endif\n    __syncthreads();\n", "",
                                  "#ifdef NOT_DEFINED_HERE\nint unseen = 1;\n#else\nconst int seen = 2;\n#endif\n");
    const Translated t = expectAccepted(text);
    ASSERT_TRUE(t.ok);
    for (const std::string* source :
         {&t.translation.cpuSource, &t.translation.deviceSource, &t.translation.tracedDeviceSource}) {
        EXPECT_EQ(source->find("rm -rf"), std::string::npos) << *source;
        EXPECT_EQ(source->find("unseen"), std::string::npos) << *source;
        EXPECT_EQ(source->find("#if"), std::string::npos) << *source;
        EXPECT_EQ(source->find("#else"), std::string::npos) << *source;
        EXPECT_EQ(source->find("#endif"), std::string::npos) << *source;
    }
    EXPECT_NE(t.translation.cpuSource.find("const int seen = 2;"), std::string::npos);
    // `__syncthreads()` is on line 12 of the file: 5 lines of #ifdef, 3 of the kernel, 3 of #if 0.
    EXPECT_EQ(t.translation.barrierLines, std::vector<unsigned>{12});
    const std::string& cpu = t.translation.cpuSource;
    const std::size_t from = cpu.find("#line 1 \"student.cu\"\n");
    ASSERT_NE(from, std::string::npos);
    std::size_t line = 1;
    for (std::size_t at = from + std::string("#line 1 \"student.cu\"\n").size();
         at < cpu.size() && cpu.compare(at, 14, "__syncthreads(") != 0; ++at)
        line += cpu[at] == '\n';
    EXPECT_EQ(line, 12u);
}

TEST(OwnTextChecks, AConditionalDirectiveIsBlankedToItsRealEnd) {
    // The #endif's comment runs over two lines: `evil()` is in it, no code.
    const std::string text = file("#if 1\n    int a = 1;\n#endif /* the end\n    evil(); */\n    P[i] = a;\n");
    const Translated t = expectAccepted(text);
    ASSERT_TRUE(t.ok);
    EXPECT_EQ(t.translation.cpuSource.find("evil"), std::string::npos) << t.translation.cpuSource;
    EXPECT_NE(t.translation.cpuSource.find("int a = 1;"), std::string::npos);
}

TEST(OwnTextChecks, BlankingKeepsEveryLineBreakAndRefusesARangeItCannotPlace) {
    std::string text = "int a;\n#if 0\nint dead;\n#elif 1\nint alive;\n#else \\\n  x\nint dead2;\n#endif // c\n";
    const std::string original = text;
    // As libclang-14 reports them: from a directive's `#` to the next one's name.
    const std::size_t if0 = text.find("#if 0"), elif = text.find("#elif") + 5;
    const std::size_t els = text.find("#else"), endif = text.find("#endif") + 6;
    ASSERT_FALSE(own::blankWhatWasNotRead("student.cu", text, {{if0, elif}, {els, endif}}));
    EXPECT_EQ(text.size(), original.size());
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), std::count(original.begin(), original.end(), '\n'));
    EXPECT_EQ(text.find("dead"), std::string::npos) << text;
    EXPECT_EQ(text.find('#'), std::string::npos) << text;
    EXPECT_EQ(text.find("// c"), std::string::npos) << text;
    EXPECT_NE(text.find("int alive;"), std::string::npos) << text;
    EXPECT_EQ(text.find('\\'), std::string::npos) << text;

    std::string other = original;
    const auto refused =
        own::blankWhatWasNotRead("student.cu", other, {{original.find("int dead;"), original.find("#elif")}});
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->line, 3u);
    EXPECT_NE(refused->message.find("the parser skipped text here"), std::string::npos);
}

// [SECTION] Macros of the compilers' headers, and the file's own, around the file.

TEST(OwnTextChecks, TheNamesTheFileUsesAreNoMacrosOfTheCompilersHeaders) {
    const std::string undefs = own::undefineUsedNames(
        "__device__ int (alloca)(int n) { return n; }\n#define GROW(n) alloca(n)\nint s = GROW(threadIdx.x); "
        "float* p = NULL; __syncthreads(); printf(\"stdout\");\n");
    for (const char* name : {"alloca", "GROW", "n", "s", "p"})
        EXPECT_NE(undefs.find(std::string("#undef ") + name + "\n"), std::string::npos) << name << "\n" << undefs;
    for (const char* name : {"__device__", "threadIdx", "NULL", "__syncthreads", "printf", "int", "float", "return",
                             "stdout"})
        EXPECT_EQ(undefs.find(std::string("#undef ") + name + "\n"), std::string::npos) << name << "\n" << undefs;

    const Translated t = expectAccepted(file("    P[i] = N[i] * SCALE;\n", "", "#define SCALE 2.0f\n"));
    ASSERT_TRUE(t.ok);
    // Before the file's text: the names it uses; after it, its own macros, before the entry points.
    const std::string& cpu = t.translation.cpuSource;
    const std::size_t text = cpu.find("#line 1 \"student.cu\"");
    EXPECT_LT(cpu.find("#undef width\n"), text);
    EXPECT_LT(cpu.find("#undef SCALE\n"), text);
    const std::size_t after = cpu.rfind("#undef SCALE\n");
    EXPECT_GT(after, text);
    EXPECT_LT(after, cpu.find("tilescope-entry"));
    // NVRTC's programs include no C library header: the device sources are the file's lines alone.
    for (const std::string* device : {&t.translation.deviceSource, &t.translation.tracedDeviceSource})
        EXPECT_EQ(device->find("#undef"), std::string::npos) << *device;
}

}  // namespace
}  // namespace tilescope
