// translate(): the student's file parsed by libclang in CUDA mode, against
// stand-in headers (the prelude below) and nothing else of the disk, on a
// thread of its own; then read by the Translator (translate_parts.hpp), and
// the sources it gives put together.
#include "own/translate.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <clang-c/Index.h>
#include <pthread.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "base/atomic_file.hpp"
#include "own/text_checks.hpp"
#include "own/translate_parts.hpp"
#include "trace/sources.hpp"

namespace tilescope {
// Defined in the generated own_headers.cpp (cmake/EmbedSources.cmake).
std::span<const EmbeddedSource> ownHeaderTable();
}  // namespace tilescope

namespace tilescope::own::detail {
namespace {

namespace fs = std::filesystem;

// [SECTION] What the parser sees in place of CUDA's own headers. CUDA mode
// without CUDA's includes (-nocudainc): the keywords, the built-in variables
// and the runtime calls launch() may make are declared here, and nothing
// else is, so a call to anything outside this list is an error with a line.
constexpr const char* kParsePrelude = R"(#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define NULL 0
typedef unsigned long size_t;
struct uint3 { unsigned x, y, z; };
struct dim3 {
    unsigned x, y, z;
    __host__ __device__ dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    __host__ __device__ operator uint3() const { return uint3{x, y, z}; }
};
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define TS_CUDA_FN __host__ __device__ inline
#include "tilescope_cuda_types.h"
#undef TS_CUDA_FN
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
__device__ void __syncthreads();
typedef struct CUstream_st* cudaStream_t;
enum cudaError_t { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                      cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
extern "C" int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void* = 0);
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaDeviceSynchronize();
typedef struct CUevent_st* cudaEvent_t;
cudaError_t cudaEventCreate(cudaEvent_t*);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float*, cudaEvent_t, cudaEvent_t);
cudaError_t cudaEventDestroy(cudaEvent_t);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t);
extern "C" __host__ __device__ int printf(const char*, ...);
template <class A, class B> __host__ __device__ auto min(A a, B b) -> decltype(a < b ? a : b);
template <class A, class B> __host__ __device__ auto max(A a, B b) -> decltype(a < b ? a : b);
// As CUDA's math headers declare them (the math API's single- and
// double-precision functions): a float overload beside the double one
// (floor(x) of a float is a float), an integer argument taken as a double.
#define TS_MATH1(name) __host__ __device__ double name(double); __host__ __device__ float name(float); \
    __host__ __device__ float name##f(float); template <class T> __host__ __device__ double name(T);
#define TS_MATH2(name) __host__ __device__ double name(double, double); \
    __host__ __device__ float name(float, float); __host__ __device__ float name##f(float, float);
#define TS_MATH3(name) __host__ __device__ double name(double, double, double); \
    __host__ __device__ float name(float, float, float); __host__ __device__ float name##f(float, float, float);
TS_MATH1(ceil) TS_MATH1(floor) TS_MATH1(sqrt) TS_MATH1(exp) TS_MATH1(fabs) TS_MATH1(round) TS_MATH1(log)
TS_MATH1(sin) TS_MATH1(cos) TS_MATH1(trunc) TS_MATH1(acos) TS_MATH1(acosh) TS_MATH1(asin) TS_MATH1(asinh)
TS_MATH1(atan) TS_MATH1(atanh) TS_MATH1(cbrt) TS_MATH1(cosh) TS_MATH1(erf) TS_MATH1(erfc) TS_MATH1(exp2)
TS_MATH1(exp10) TS_MATH1(expm1) TS_MATH1(lgamma) TS_MATH1(log10) TS_MATH1(log1p) TS_MATH1(log2) TS_MATH1(logb)
TS_MATH1(nearbyint) TS_MATH1(rint) TS_MATH1(sinh) TS_MATH1(tan) TS_MATH1(tanh) TS_MATH1(tgamma) TS_MATH1(rsqrt)
TS_MATH1(rcbrt) TS_MATH1(sinpi) TS_MATH1(cospi) TS_MATH1(erfinv) TS_MATH1(erfcinv) TS_MATH1(erfcx)
TS_MATH1(normcdf) TS_MATH1(normcdfinv) TS_MATH1(j0) TS_MATH1(j1) TS_MATH1(y0) TS_MATH1(y1)
TS_MATH1(cyl_bessel_i0) TS_MATH1(cyl_bessel_i1)
TS_MATH2(atan2) TS_MATH2(copysign) TS_MATH2(fdim) TS_MATH2(fmod) TS_MATH2(hypot) TS_MATH2(nextafter)
TS_MATH2(remainder) TS_MATH2(rhypot) TS_MATH2(pow) TS_MATH2(fmin) TS_MATH2(fmax)
TS_MATH3(fma) TS_MATH3(norm3d) TS_MATH3(rnorm3d)
#undef TS_MATH1
#undef TS_MATH2
#undef TS_MATH3
__host__ __device__ double norm4d(double, double, double, double);
__host__ __device__ float norm4df(float, float, float, float);
__host__ __device__ double rnorm4d(double, double, double, double);
__host__ __device__ float rnorm4df(float, float, float, float);
__host__ __device__ float fdividef(float, float);
__host__ __device__ double ldexp(double, int); __host__ __device__ float ldexpf(float, int);
__host__ __device__ double scalbn(double, int); __host__ __device__ float scalbnf(float, int);
__host__ __device__ double scalbln(double, long); __host__ __device__ float scalblnf(float, long);
__host__ __device__ double jn(int, double); __host__ __device__ float jnf(int, float);
__host__ __device__ double yn(int, double); __host__ __device__ float ynf(int, float);
__host__ __device__ int ilogb(double); __host__ __device__ int ilogbf(float);
__host__ __device__ long lrint(double); __host__ __device__ long lrintf(float);
__host__ __device__ long long llrint(double); __host__ __device__ long long llrintf(float);
__host__ __device__ long lround(double); __host__ __device__ long lroundf(float);
__host__ __device__ long long llround(double); __host__ __device__ long long llroundf(float);
// Those that write through a pointer: declared, so that a call is read and
// refused with what to write instead (whyNotCall), not as a name unknown.
__host__ __device__ void sincosf(float, float*, float*); __host__ __device__ void sincos(double, double*, double*);
__host__ __device__ void sincospif(float, float*, float*); __host__ __device__ void sincospi(double, double*, double*);
__host__ __device__ float frexpf(float, int*); __host__ __device__ double frexp(double, int*);
__host__ __device__ float modff(float, float*); __host__ __device__ double modf(double, double*);
__host__ __device__ float remquof(float, float, int*); __host__ __device__ double remquo(double, double, int*);
__host__ __device__ float nanf(const char*); __host__ __device__ double nan(const char*);
__host__ __device__ float normf(int, const float*); __host__ __device__ double norm(int, const double*);
__host__ __device__ float rnormf(int, const float*); __host__ __device__ double rnorm(int, const double*);
// The single-precision intrinsics: round-to-nearest arithmetic and the fast approximations.
__device__ float __fadd_rn(float, float); __device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float); __device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float); __device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float); __device__ float __fdividef(float, float); __device__ float __saturatef(float);
__device__ float __expf(float); __device__ float __exp10f(float); __device__ float __logf(float);
__device__ float __log2f(float); __device__ float __log10f(float); __device__ float __sinf(float);
__device__ float __cosf(float); __device__ float __tanf(float); __device__ float __powf(float, float);
template <class T> __host__ __device__ bool isfinite(T);
template <class T> __host__ __device__ bool isinf(T);
template <class T> __host__ __device__ bool isnan(T);
template <class T> __host__ __device__ bool signbit(T);
__host__ __device__ int abs(int);
__host__ __device__ long abs(long);
__host__ __device__ long long abs(long long);
__host__ __device__ float abs(float);
__host__ __device__ double abs(double);
// Declared so that a call to them is refused with its reason, not as unknown.
#define TS_REFUSED(name) template <class... A> __host__ __device__ int name(A...);
TS_REFUSED(atomicAdd) TS_REFUSED(atomicSub) TS_REFUSED(atomicExch) TS_REFUSED(atomicMin) TS_REFUSED(atomicMax)
TS_REFUSED(atomicInc) TS_REFUSED(atomicDec) TS_REFUSED(atomicCAS) TS_REFUSED(atomicAnd) TS_REFUSED(atomicOr)
TS_REFUSED(atomicXor) TS_REFUSED(__shfl_sync) TS_REFUSED(__shfl_up_sync) TS_REFUSED(__shfl_down_sync)
TS_REFUSED(__shfl_xor_sync) TS_REFUSED(__ballot_sync) TS_REFUSED(__any_sync) TS_REFUSED(__all_sync)
TS_REFUSED(__syncwarp) TS_REFUSED(__ldg) TS_REFUSED(__syncthreads_count) TS_REFUSED(__syncthreads_and)
TS_REFUSED(__syncthreads_or) TS_REFUSED(cudaMalloc) TS_REFUSED(cudaMallocManaged) TS_REFUSED(cudaMallocPitch)
TS_REFUSED(cudaFree) TS_REFUSED(cudaMemcpy) TS_REFUSED(cudaMemcpyAsync) TS_REFUSED(cudaMemset) TS_REFUSED(malloc)
TS_REFUSED(free)
#undef TS_REFUSED
)";

std::string quoted(const std::string& path) {
    std::string out = "\"";
    for (char ch : path) {
        if (ch == '"' || ch == '\\') out += '\\';
        out += ch;
    }
    return out + "\"";
}

// A file of the parser's scratch folder, its own and made again for every
// translation: written without fsync.
bool writeFile(const fs::path& path, std::string_view text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    base::AtomicWriteOptions options;
    options.sync = false;
    return !base::writeFileAtomic(path, text, options);
}

// `k << <grid, block >> > (args)`, as Visual Studio's formatter spaces a
// launch, is the launch `k<<<grid, block>>>(args)` to nvcc, and nothing else
// in C++ (`<< <` and `>> >` never are). Written as `<<< ` and `>>> `, the
// text keeps every offset; comments and literals are left as they are.
std::string joinSpacedChevrons(std::string text) {
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[i];
        if (c == '/' && i + 1 < n && text[i + 1] == '/') {
            while (i < n && text[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
            const std::size_t end = text.find("*/", i + 2);
            i = end == std::string::npos ? n : end + 1;
        } else if (c == '"' || c == '\'') {
            for (++i; i < n && text[i] != c && text[i] != '\n'; ++i)
                if (text[i] == '\\') ++i;
        } else if ((c == '<' || c == '>') && i + 2 < n && text[i + 1] == c &&
                   (text[i + 2] == ' ' || text[i + 2] == '\t')) {
            std::size_t j = i + 2;
            while (j < n && (text[j] == ' ' || text[j] == '\t')) ++j;
            if (j < n && text[j] == c && (j + 1 >= n || text[j + 1] != c)) {
                text[i + 2] = c;
                for (std::size_t k = i + 3; k <= j; ++k) text[k] = ' ';
                i = j;
            }
        }
    }
    return text;
}

Result<Translation> translateText(const std::string& path, const std::string& original, std::string text,
                                  const std::string& scratch, Diagnostic* diagnostic, int templateRounds);

Result<Translation> translateHere(const std::string& path, const std::string& original, const std::string& scratch,
                                  Diagnostic* diagnostic) {
    std::string text = joinSpacedChevrons(original);
    // A lone carriage return (classic Mac OS) ends a line for the parser and
    // the compiler alike: here too, written as a line feed in its place.
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
    // A template's body may use another (a __device__ template): each reading writes out those now used.
    return translateText(path, original, std::move(text), scratch, diagnostic, 4);
}

// `text` is what the parser reads (`original` as the student wrote it, for the
// report); while `templateRounds` remain, a file with function templates is
// read again as the text they stand for.
Result<Translation> translateText(const std::string& path, const std::string& original, std::string text,
                                  const std::string& scratch, Diagnostic* diagnostic, int templateRounds) {
    auto fail = [&](const Diagnostic& d) -> Result<Translation> {
        if (diagnostic) *diagnostic = d;
        return badInput(d.text());
    };
    // Nothing but the allowed headers may be included, and the parser reads
    // none of the file's includes before that is known.
    if (std::optional<Diagnostic> refused = refusedPreprocessing(path, text)) return fail(*refused);

    // The stand-in headers, on disk where the parser looks for them.
    std::error_code absoluteError;
    const fs::path dir = fs::absolute(fs::path(scratch) / "parse", absoluteError);
    if (absoluteError) return Error{ExitCode::Internal, "cannot find the parser's folder " + scratch};
    bool written = writeFile(dir / "tilescope_prelude.h", kParsePrelude);
    // CUDA's integers and vector types: the CPU executor's own definitions.
    std::string_view cudaTypes;
    for (const EmbeddedSource& h : ownHeaderTable())
        if (h.path == "own/cuda_types.inl") cudaTypes = h.text;
    if (cudaTypes.empty()) return Error{ExitCode::Internal, "the build lacks own/cuda_types.inl"};
    written = writeFile(dir / "tilescope_cuda_types.h", std::string(cudaTypes)) && written;
    for (const char* h : kAllowedHeaders) written = writeFile(dir / "include" / h, "#pragma once\n") && written;
    // The parser's view of the file system: the prelude and the stand-ins,
    // and nothing else (no fallthrough to the disk). An #include or a
    // __has_include that got past the check above finds no file at all.
    std::string overlay = "{ 'version': 0, 'fallthrough': false, 'case-sensitive': true, 'roots': [\n"
                          "  { 'type': 'directory', 'name': " + quoted(dir.string()) + ", 'contents': [\n"
                          "    { 'type': 'file', 'name': 'tilescope_prelude.h', 'external-contents': " +
                          quoted((dir / "tilescope_prelude.h").string()) + " },\n"
                          "    { 'type': 'file', 'name': 'tilescope_cuda_types.h', 'external-contents': " +
                          quoted((dir / "tilescope_cuda_types.h").string()) + " },\n"
                          "    { 'type': 'directory', 'name': 'include', 'contents': [\n";
    for (const char* h : kAllowedHeaders)
        overlay += std::string("      { 'type': 'file', 'name': '") + h + "', 'external-contents': " +
                   quoted((dir / "include" / h).string()) + " },\n";
    overlay += "    ] } ] } ] }\n";
    written = writeFile(dir / "overlay.yaml", overlay) && written;
    if (!written) return Error{ExitCode::Internal, "cannot write the parser's headers in " + dir.string()};

    const std::string prelude = (dir / "tilescope_prelude.h").string();
    const std::string include = "-I" + (dir / "include").string();
    const std::string overlayPath = (dir / "overlay.yaml").string();
    const char* args[] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-nostdinc", "-nostdinc++",
                          "-nobuiltininc", "-ivfsoverlay", overlayPath.c_str(),
                          "--cuda-gpu-arch=sm_70", "-Wno-unknown-cuda-version", "-std=c++17", "-include",
                          prelude.c_str(), include.c_str(), "-ferror-limit=1"};
    CXUnsavedFile unsaved{path.c_str(), text.c_str(), static_cast<unsigned long>(text.size())};
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = nullptr;
    const CXErrorCode parsed = clang_parseTranslationUnit2(
        index, path.c_str(), args, static_cast<int>(std::size(args)), &unsaved, 1,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tu);
    std::unique_ptr<void, void (*)(void*)> indexGuard(index, [](void* i) { clang_disposeIndex(i); });
    if (parsed != CXError_Success || !tu) return fail(Diagnostic{path, 0, 0, "the C++ parser could not read the file"});
    std::unique_ptr<CXTranslationUnitImpl, void (*)(CXTranslationUnit)> tuGuard(tu, clang_disposeTranslationUnit);
    t_mainFile = clang_getFile(tu, path.c_str());

    // An #include of a header a kernel file may not include is refused first:
    // what the parser then says about the included file (its errors, its
    // words) names no line of the student's and is none of the student's business.
    for (CXCursor c : children(clang_getTranslationUnitCursor(tu))) {
        if (clang_getCursorKind(c) != CXCursor_InclusionDirective) continue;
        const Where at = expansion(clang_getCursorLocation(c));
        const std::string name = str(clang_getCursorSpelling(c));
        if (at.mainFile && !allowedHeader(name))
            return fail(Diagnostic{path, at.line, 0,
                                   "#include <" + name + ">: a kernel file may include only CUDA's and C's own "
                                   "headers (cuda_runtime.h, stdio.h, math.h, ...)"});
    }

    // The parser's own first error, at its line in the student's file.
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        const CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(d);
        if (severity >= CXDiagnostic_Error) {
            CXFile file;
            unsigned line = 0, column = 0, offset = 0;
            const CXSourceLocation loc = clang_getDiagnosticLocation(d);
            clang_getExpansionLocation(loc, &file, &line, &column, &offset);
            std::string message = "error: ";
            // On one line: the parser quotes the file's characters, line breaks and escapes included.
            for (const char ch : str(clang_getDiagnosticSpelling(d)))
                message += ch == '\n' ? std::string("\\n")
                           : ch == '\r' ? std::string("\\r")
                           : ch == '\t' ? std::string("\\t")
                           : static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? std::string(" ")
                                                                                 : std::string(1, ch);
            if (message.find("file not found") != std::string::npos)
                message += " (a kernel file may include only CUDA's and C's own headers: cuda_runtime.h, stdio.h, "
                           "math.h, ...)";
            if (!expansion(loc).mainFile) line = column = 0;
            clang_disposeDiagnostic(d);
            return fail(Diagnostic{path, line, column, message});
        }
        clang_disposeDiagnostic(d);
    }

    // The compilers get the text the parser read: what it skipped (#if 0, an
    // #ifdef of a name the file does not define) and every conditional
    // directive become spaces, line breaks kept, so that no compiler decides
    // again, with macros of its own, what the file holds.
    std::vector<std::pair<std::size_t, std::size_t>> skipped;
    if (CXSourceRangeList* ranges = clang_getSkippedRanges(tu, t_mainFile)) {
        for (unsigned i = 0; i < ranges->count; ++i) {
            unsigned begin = 0, end = 0;
            clang_getFileLocation(clang_getRangeStart(ranges->ranges[i]), nullptr, nullptr, nullptr, &begin);
            clang_getFileLocation(clang_getRangeEnd(ranges->ranges[i]), nullptr, nullptr, nullptr, &end);
            skipped.emplace_back(begin, end);
        }
        clang_disposeSourceRangeList(ranges);
    }
    if (std::optional<Diagnostic> refused = blankWhatWasNotRead(path, text, skipped)) return fail(*refused);
    if (templateRounds > 0) {
        TemplateText written = instantiateTemplates(path, tu, text, templateRounds == 1);
        if (written.refused) return fail(*written.refused);
        if (written.text)
            return translateText(path, original, std::move(*written.text), scratch, diagnostic, templateRounds - 1);
    }

    Translation out;
    out.path = path;
    out.text = original;
    Translator translator(path, text, tu);
    try {
        // Constants first: launch() and the kernels refer to them by name.
        for (CXCursor c : children(clang_getTranslationUnitCursor(tu)))
            if (clang_getCursorKind(c) == CXCursor_VarDecl && expansion(clang_getCursorLocation(c)).mainFile &&
                hasAttr(c, CXCursor_CUDAConstantAttr))
                out.constants.push_back(ConstantDeclaration{str(clang_getCursorSpelling(c)), 0, 0, 0});
        translator.noteConstants(out);
        out.constants.clear();
        translator.run(out);
        translator.finishLaunches(out);
    } catch (const Rejected& r) {
        return fail(r.diagnostic);
    }

    const std::string line1 = "#line 1 " + quoted(path) + "\n";
    std::string entry = "\n#line 1 \"tilescope-entry\"\n";
    if (out.dims == 2)
        entry += "extern \"C\" void tilescope_own_launch(const float* N, const float* M, float* P, int r, int width, "
                 "int height) { ::tilescope::own_user::launch(N, M, P, r, width, height); }\n";
    else
        entry += "extern \"C\" void tilescope_own_launch(const float* N, const float* M, float* P, int r, int width, "
                 "int) { ::tilescope::own_user::launch(N, M, P, r, width); }\n";
    // The __constant__ arrays, for the GPU runtime to upload after launch() has filled them.
    entry += "extern \"C\" int tilescope_own_constant(int i, const char** name, const void** values, "
             "unsigned long* bytes) {\n";
    for (std::size_t i = 0; i < out.constants.size(); ++i) {
        const std::string& n = out.constants[i].name;
        entry += "    if (i == " + std::to_string(i) + ") { *name = \"" + n + "\"; *values = ::tilescope::own_user::" + n +
                 ".values; *bytes = sizeof(::tilescope::own_user::" + n + ".values); return 1; }\n";
    }
    entry += "    return 0;\n}\n";
    // In what g++ compiles, a name the file uses is no macro of the C
    // library's headers, which the prelude includes (glibc's alloca(n) is
    // __builtin_alloca(n)), and the file's own macros end with it: none
    // reaches the entry points written after it. (NVRTC's programs include
    // no such header, and what follows the file there is of names no macro
    // of the file may have.)
    out.cpuSource = "#include \"own/own_cpu_prelude.hpp\"\nnamespace tilescope::own_user {\n" +
                    undefineUsedNames(text) + line1 + translator.rewritten(true) +
                    "\n}  // namespace tilescope::own_user\n" + undefineDefinedNames(text) + entry;
    out.tracedDeviceSource = line1 + translator.rewritten(false);
    out.deviceSource = line1 + translator.plainDevice();
    return out;
}

}  // namespace
}  // namespace tilescope::own::detail

namespace tilescope::own {
namespace {

// libclang parses on a thread of its own with an 8 MB stack, and a deep
// expression (2^15 terms that a few #defines make) takes more than that: the
// parse runs here instead (LIBCLANG_NOTHREADS, set before any thread
// starts), on a thread whose stack is large enough for any file a student
// would write, and so does the walk over its syntax tree.
const bool kParseOnOurThread = setenv("LIBCLANG_NOTHREADS", "1", 0) == 0;
constexpr std::size_t kTranslationStack = std::size_t{1} << 30;  // reserved; only what is used is taken

struct TranslationJob {
    const std::string* path;
    const std::string* text;
    const std::string* scratch;
    Diagnostic* diagnostic;
    std::optional<Result<Translation>> result;
};

}  // namespace

Result<Translation> translate(const std::string& path, const std::string& text, const std::string& scratch,
                              Diagnostic* diagnostic) {
    (void)kParseOnOurThread;
    TranslationJob job{&path, &text, &scratch, diagnostic, std::nullopt};
    pthread_attr_t attr;
    pthread_t thread;
    bool started = pthread_attr_init(&attr) == 0;
    if (started) {
        started = pthread_attr_setstacksize(&attr, kTranslationStack) == 0 &&
                  pthread_create(
                      &thread, &attr,
                      [](void* data) -> void* {
                          auto* j = static_cast<TranslationJob*>(data);
                          j->result.emplace(detail::translateHere(*j->path, *j->text, *j->scratch, j->diagnostic));
                          return nullptr;
                      },
                      &job) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) return detail::translateHere(path, text, scratch, diagnostic);  // no thread to be had: this one
    pthread_join(thread, nullptr);
    return std::move(*job.result);
}

}  // namespace tilescope::own

#else

namespace tilescope::own {

Result<Translation> translate(const std::string& path, const std::string&, const std::string&, Diagnostic* diagnostic) {
    Diagnostic d{path, 0, 0, "reading a kernel file needs libclang, which this build of TileScope did not find "
                             "(Debian: apt-get install libclang-dev, then build again)"};
    if (diagnostic) *diagnostic = d;
    return badInput(d.text());
}

}  // namespace tilescope::own

#endif
