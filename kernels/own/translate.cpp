#include "own/translate.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <clang-c/Index.h>
#include <pthread.h>

#include <cstdlib>
#endif

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "base/atomic_file.hpp"
#include "own/text_checks.hpp"
#include "trace/sources.hpp"

namespace tilescope::own {

namespace fs = std::filesystem;

const KernelDeclaration* Translation::kernel(const std::string& name) const {
    for (const KernelDeclaration& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

std::string Diagnostic::text() const {
    std::string s = path;
    if (line > 0) s += ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
    return s + ": " + message;
}

namespace {

// The end of the template arguments that open at `open` (a '<'), or npos.
std::size_t closingAngle(const std::string& s, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        if (s[i] == '>' && --depth == 0) return i;
    }
    return std::string::npos;
}

}  // namespace

std::string inStudentsWords(std::string message) {
    auto replaceAll = [&](const std::string& from, const std::string& to) {
        for (std::size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
            message.replace(at, from.size(), to);
    };
    // The CPU executor's threadIdx, blockIdx, blockDim and gridDim are of the
    // runtime's own Dim3 (`threadIdx.tilescope::Dim3::x` in g++'s words).
    replaceAll("tilescope::Dim3::", "");
    replaceAll("tilescope::Dim3", "dim3");
    for (const char* space : {"::tilescope::own_user::", "tilescope::own_user::", "tilescope::traced::",
                              "tilescope::cpu::", "tilescope::own::", "tilescope::instrumented::", "own_user::",
                              "traced::"})
        replaceAll(space, "");
    // A template's name and its arguments, as the CUDA it stands for.
    struct Name {
        const char* name;
        const char* as;  // "" with `keepArgument`: the first argument, in brackets
        bool keepArgument;
    };
    const Name names[] = {
        {"ElementRef", "float&", false},       {"InputArray", "const float*", false},
        {"OutputArray", "float*", false},      {"SharedArray3D", "__shared__ float[][][]", false},
        {"SharedArray2D", "__shared__ float[][]", false},
        {"SharedArray", "__shared__ float[]", false}, {"Accumulator", "float", false},
        {"ConstantArray", "__constant__ ", true}, {"Global<const float>", "const float*", false},
        {"Global<float>", "float*", false},
    };
    for (const Name& n : names) {
        const std::string name = n.name;
        for (std::size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + 1)) {
            if (at > 0 && (std::isalnum(static_cast<unsigned char>(message[at - 1])) || message[at - 1] == '_'))
                continue;
            std::size_t end = at + name.size();
            std::string as = n.as;
            if (name.back() != '>' && end < message.size() && message[end] == '<') {
                const std::size_t close = closingAngle(message, end);
                if (close == std::string::npos) continue;
                if (n.keepArgument) {
                    std::string argument = message.substr(end + 1, close - end - 1);
                    argument = argument.substr(0, argument.find(", "));
                    as += argument;
                }
                end = close + 1;
                // A row of a 2D array (`s[i]` of `float s[H][W]`) is an array of W floats.
                if (message.compare(end, 5, "::Row") == 0) {
                    end += 5;
                    const std::size_t open = as.find('['), shut = as.find(']', open);
                    if (name == "SharedArray2D")
                        as = "__shared__ float[]";
                    else if (open != std::string::npos && shut != std::string::npos)
                        as.erase(open, shut - open + 1);
                }
            } else if (name.back() != '>' && end < message.size() &&
                       (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '_')) {
                continue;  // a longer name (SharedArray2D when looking for SharedArray)
            }
            message.replace(at, end - at, as);
        }
    }
    replaceAll("Addend", "float");
    replaceAll("CpuRecorder", "");
    replaceAll("DeviceRecorder", "");
    replaceAll("launchKernel", "<<< >>>");
    replaceAll("tsAddTo", "+=");
    replaceAll("tsFmaf", "fmaf");
    return message;
}

unsigned diagnosticLine(const std::string& message, const std::string& path) {
    if (message.rfind(path + ":", 0) != 0) return 0;
    unsigned line = 0;
    for (std::size_t i = path.size() + 1; i < message.size() && message[i] >= '0' && message[i] <= '9'; ++i)
        line = line * 10 + static_cast<unsigned>(message[i] - '0');
    return line;
}

#if TILESCOPE_HAVE_LIBCLANG
}  // namespace tilescope::own

namespace tilescope {
// Defined in the generated own_headers.cpp (cmake/EmbedSources.cmake).
std::span<const EmbeddedSource> ownHeaderTable();
}  // namespace tilescope

namespace tilescope::own {
namespace {

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

// CUDA's math API, single and double precision (the names its headers
// declare, with C++'s float overloads): what a kernel and launch() may call
// of it. sincosf, sincospif, frexpf, modff, remquof, nanf, normf and rnormf
// take pointers, which a kernel file does not hold (whyNotCall says what to
// write instead).
constexpr const char* kMathCalls[] = {
    "ceil", "ceilf", "floor", "floorf", "sqrt", "sqrtf", "exp", "expf", "fabs", "fabsf", "round", "roundf", "log",
    "logf", "sin", "sinf", "cos", "cosf", "trunc", "truncf", "acos", "acosf", "acosh", "acoshf", "asin", "asinf",
    "asinh", "asinhf", "atan", "atanf", "atanh", "atanhf", "cbrt", "cbrtf", "cosh", "coshf", "erf", "erff", "erfc",
    "erfcf", "exp2", "exp2f", "exp10", "exp10f", "expm1", "expm1f", "lgamma", "lgammaf", "log10", "log10f",
    "log1p", "log1pf", "log2", "log2f", "logb", "logbf", "nearbyint", "nearbyintf", "rint", "rintf", "sinh",
    "sinhf", "tan", "tanf", "tanh", "tanhf", "tgamma", "tgammaf", "rsqrt", "rsqrtf", "rcbrt", "rcbrtf", "sinpi",
    "sinpif", "cospi", "cospif", "erfinv", "erfinvf", "erfcinv", "erfcinvf", "erfcx", "erfcxf", "normcdf",
    "normcdff", "normcdfinv", "normcdfinvf", "j0", "j0f", "j1", "j1f", "y0", "y0f", "y1", "y1f", "cyl_bessel_i0",
    "cyl_bessel_i0f", "cyl_bessel_i1", "cyl_bessel_i1f", "atan2", "atan2f", "copysign", "copysignf", "fdim",
    "fdimf", "fmod", "fmodf", "hypot", "hypotf", "nextafter", "nextafterf", "remainder", "remainderf", "rhypot",
    "rhypotf", "pow", "powf", "fmin", "fminf", "fmax", "fmaxf", "fma", "fmaf", "norm3d", "norm3df", "rnorm3d",
    "rnorm3df", "norm4d", "norm4df", "rnorm4d", "rnorm4df", "fdividef", "ldexp", "ldexpf", "scalbn", "scalbnf",
    "scalbln", "scalblnf", "jn", "jnf", "yn", "ynf", "ilogb", "ilogbf", "lrint", "lrintf", "llrint", "llrintf",
    "lround", "lroundf", "llround", "llroundf", "isfinite", "isinf", "isnan", "signbit", "abs", "min", "max",
};
// What the kernel may call, besides its own __device__ functions and the math API.
constexpr const char* kKernelCalls[] = {
    "__syncthreads", "printf", "__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn", "__fmaf_rn", "__frcp_rn",
    "__fsqrt_rn", "__fdividef", "__saturatef", "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__sinf",
    "__cosf", "__tanf", "__powf",
};
// What launch() may call, besides its own host functions and the math API.
constexpr const char* kHostCalls[] = {
    "cudaMemcpyToSymbol", "cudaDeviceSynchronize", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString",
    "cudaEventCreate", "cudaEventRecord", "cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy",
    "printf",
};

// CUDA's global functions that the CPU executor's prelude declares in its own
// namespace (own_cpu_prelude.hpp, own_cpu_math.inl): float overloads, and
// what CUDA has and C has not.
constexpr const char* kScopedOverloads[] = {
    "min", "max", "abs", "ceil", "floor", "sqrt", "exp", "fabs", "round", "log", "sin", "cos", "trunc", "acos",
    "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "erf", "erfc", "exp2", "exp10", "expm1", "lgamma",
    "log10", "log1p", "log2", "logb", "nearbyint", "rint", "sinh", "tan", "tanh", "tgamma", "rsqrt", "rcbrt",
    "sinpi", "cospi", "erfinv", "erfcinv", "erfcx", "normcdf", "normcdfinv", "j0", "j1", "y0", "y1",
    "cyl_bessel_i0", "cyl_bessel_i1", "atan2", "copysign", "fdim", "fmod", "hypot", "nextafter", "remainder",
    "rhypot", "pow", "fmin", "fmax", "fma", "isfinite", "isinf", "isnan", "signbit", "ilogb", "ldexp", "llrint",
    "llround", "lrint", "lround", "scalbln", "scalbn", "jn", "yn", "norm3d", "rnorm3d", "norm4d", "rnorm4d",
    "rsqrtf", "rcbrtf", "sinpif", "cospif", "exp10f", "erfinvf", "erfcinvf", "erfcxf", "normcdff", "normcdfinvf",
    "cyl_bessel_i0f", "cyl_bessel_i1f", "j0f", "j1f", "y0f", "y1f", "jnf", "ynf", "rhypotf", "norm3df", "rnorm3df",
    "norm4df", "rnorm4df", "fdividef",
};

template <std::size_t K>
bool listed(const std::string& name, const char* const (&list)[K]) {
    for (const char* n : list)
        if (name == n) return true;
    return false;
}

// Why a call is refused, for the calls a student is likely to try.
std::string whyNotCall(const std::string& name) {
    if (name.rfind("atomic", 0) == 0)
        return "atomics (" + name + ") are not supported: each output is written by one thread in a convolution";
    if (name.rfind("__shfl", 0) == 0 || name == "__syncwarp" || name.rfind("__ballot", 0) == 0 ||
        name.rfind("__any", 0) == 0 || name.rfind("__all", 0) == 0)
        return "warp-level primitives (" + name + ") are not supported";
    if (name == "sincosf" || name == "sincos" || name == "sincospif" || name == "sincospi")
        return name + " writes through pointers, which a kernel file does not hold: write s = sinf(x); c = cosf(x); "
                      "(sinpif and cospif for " + name.substr(0, 6) + "pi)";
    if (name == "frexpf" || name == "frexp" || name == "modff" || name == "modf" || name == "remquof" ||
        name == "remquo" || name == "nanf" || name == "nan" || name == "normf" || name == "rnormf" ||
        name == "norm" || name == "rnorm")
        return name + " takes a pointer, which a kernel file does not hold: docs/own-kernel.md lists CUDA's math "
                      "functions a kernel file may call";
    if (name == "__ldg") return "__ldg is not supported: read N[i] directly (the compiler picks the cache)";
    if (name == "__syncthreads_count" || name == "__syncthreads_and" || name == "__syncthreads_or")
        return name + " is not supported: use __syncthreads()";
    if (name == "cudaMalloc" || name == "cudaMallocManaged" || name == "cudaFree" || name == "cudaMemcpy" ||
        name == "cudaMemcpyAsync" || name == "cudaMallocPitch" || name == "cudaMemset" || name == "malloc" ||
        name == "free")
        return name + " is not needed: launch() receives N, M and P already in device memory; copy the mask "
                      "into constant memory with cudaMemcpyToSymbol";
    return "a call to " + name + " is not supported here (docs/own-kernel.md lists what is)";
}

// [SECTION] libclang helpers.

// The call a `<<<...>>>` holds, as the parser lowers it: CUDA 9.2 and later
// push the configuration (__cudaPushCallConfiguration); for an older CUDA,
// or where the parser finds no CUDA installation to read a version from (as
// in a sandbox whose view holds none), it lowers to cudaConfigureCall. The
// same launch either way.
bool launchConfiguration(const std::string& name) {
    return name == "__cudaPushCallConfiguration" || name == "cudaConfigureCall";
}

std::string str(CXString s) {
    const char* c = clang_getCString(s);
    std::string out = c ? c : "";
    clang_disposeString(s);
    return out;
}

struct Where {
    bool mainFile = false;
    unsigned line = 0, column = 0, offset = 0;
};

// The student's file, for the translation under way on this thread.
thread_local CXFile t_mainFile = nullptr;

// Where a location lands in the file: for text a macro made, where the macro
// was used. `mainFile` when that is the student's file (a declaration a
// macro of the file writes is the file's too; the prelude's are not).
Where expansion(CXSourceLocation loc) {
    CXFile file = nullptr;
    Where w;
    clang_getExpansionLocation(loc, &file, &w.line, &w.column, &w.offset);
    w.mainFile = file && t_mainFile && clang_File_isEqual(file, t_mainFile);
    return w;
}

std::vector<CXCursor> children(CXCursor c) {
    std::vector<CXCursor> out;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData data) {
            static_cast<std::vector<CXCursor>*>(data)->push_back(child);
            return CXChildVisit_Continue;
        },
        &out);
    return out;
}

bool hasAttr(CXCursor c, CXCursorKind kind) {
    for (CXCursor child : children(c))
        if (clang_getCursorKind(child) == kind) return true;
    return false;
}

CXCursor unwrap(CXCursor c) {
    for (;;) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        std::vector<CXCursor> kids = children(c);
        if (kids.size() != 1) return c;
        c = kids[0];
    }
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

struct Token {
    std::string spelling;
    unsigned begin = 0, end = 0;  // offsets in the main file
};

class Rejected {
public:
    Diagnostic diagnostic;
};

// [SECTION] The translator.

class Translator {
public:
    Translator(const std::string& path, const std::string& text, CXTranslationUnit tu)
        : m_path(path), m_text(text), m_tu(tu) {}

    void run(Translation& out) {
        fileTokens();
        const CXCursor root = clang_getTranslationUnitCursor(m_tu);
        // A file with no kernel at all (the convolution written as a plain
        // C++ function) is told so before the host code's checks say why
        // its loops may not index N.
        bool anyKernel = false;
        for (CXCursor c : children(root)) {
            if (!expansion(clang_getCursorLocation(c)).mainFile) continue;
            const CXCursorKind k = clang_getCursorKind(c);
            for (CXCursor f : k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ? children(c)
                                                                                         : std::vector<CXCursor>{c})
                if ((clang_getCursorKind(f) == CXCursor_FunctionDecl && clang_isCursorDefinition(f) &&
                     hasAttr(f, CXCursor_CUDAGlobalAttr)) ||
                    clang_getCursorKind(f) == CXCursor_FunctionTemplate)  // refused below for what it is
                    anyKernel = true;
        }
        if (!anyKernel) reject(0, "the file has no __global__ kernel");
        for (CXCursor c : children(root)) {
            if (!expansion(clang_getCursorLocation(c)).mainFile) continue;
            topLevel(c, out);
        }
        if (out.kernels.empty()) reject(0, "the file has no __global__ kernel");
        if (!m_sawLaunch)
            reject(0, "the file has no launch(): write the host code that launches your kernel in "
                      "void launch(const float* N, const float* M, float* P, int r, int width, int height) "
                      "(2D) or void launch(const float* N, const float* M, float* P, int r, int width) (1D)");
        if (!m_launchesKernel) reject(m_launchLine, "launch() never launches a kernel (kernel<<<grid, block>>>(...))");
        if (m_hostSignature) throw Rejected{*m_hostSignature};
        out.dims = m_dims;
        for (unsigned line = 1, begin = 0; begin < m_text.size(); ++line) {
            std::size_t end = m_text.find('\n', begin);
            if (end == std::string::npos) end = m_text.size();
            const std::string body = m_text.substr(begin, end - begin);
            const std::size_t at = body.find("__syncthreads()");
            const std::size_t comment = body.find("//");
            if (at != std::string::npos && (comment == std::string::npos || at < comment))
                out.barrierLines.push_back(line);
            begin = static_cast<unsigned>(end + 1);
        }
    }

    std::string rewritten(bool hostCode) const {
        std::vector<Edit> edits = m_edits;
        if (!hostCode) edits.insert(edits.end(), m_hostOnly.begin(), m_hostOnly.end());
        if (hostCode) edits.insert(edits.end(), m_cpuOnly.begin(), m_cpuOnly.end());
        return apply(edits);
    }
    std::string plainDevice() const { return apply(m_plainDevice); }

    [[noreturn]] void reject(unsigned line, const std::string& why) const {
        throw Rejected{Diagnostic{m_path, line, 0, why}};
    }

private:
    struct Edit {
        unsigned begin, end;
        std::string text;
        bool closing = false;  // an insertion that closes what an earlier one opened, like `)`
        unsigned order = 0;    // when it was made: an outer expression's before an inner one's
    };

    // Applies non-overlapping edits; a replaced span keeps its line breaks.
    // Insertions at one offset: what closes, innermost first (made last),
    // then what opens, outermost first (made first), then a replacement.
    std::string apply(std::vector<Edit> edits) const {
        auto rank = [](const Edit& e) { return e.begin != e.end ? 2 : e.closing ? 0 : 1; };
        std::sort(edits.begin(), edits.end(), [&](const Edit& a, const Edit& b) {
            if (a.begin != b.begin) return a.begin < b.begin;
            if (rank(a) != rank(b)) return rank(a) < rank(b);
            return rank(a) == 0 ? a.order > b.order : a.order < b.order;
        });
        std::string out;
        unsigned at = 0;
        for (const Edit& e : edits) {
            if (e.begin < at) continue;  // inside a span already replaced (a blanked function)
            out.append(m_text, at, e.begin - at);
            out += e.text;
            out.append(static_cast<std::size_t>(
                           std::count(m_text.begin() + e.begin, m_text.begin() + e.end, '\n')),
                       '\n');
            at = e.end;
        }
        out.append(m_text, at, std::string::npos);
        return out;
    }

    void edit(unsigned begin, unsigned end, std::string text) {
        m_edits.push_back(Edit{begin, end, std::move(text), false, m_editCount++});
    }
    // An insertion that closes an expression an earlier insertion opened.
    void close(unsigned at, std::string text) { m_edits.push_back(Edit{at, at, std::move(text), true, m_editCount++}); }

    unsigned lineOf(CXCursor c) const { return expansion(clang_getCursorLocation(c)).line; }
    unsigned beginOf(CXCursor c) const { return expansion(clang_getRangeStart(clang_getCursorExtent(c))).offset; }
    unsigned endOf(CXCursor c) const {
        // libclang's extents end just past their last character.
        const CXSourceRange r = clang_getCursorExtent(c);
        CXFile file;
        unsigned line, column, offset;
        clang_getExpansionLocation(clang_getRangeEnd(r), &file, &line, &column, &offset);
        return offset;
    }

    std::vector<Token> tokens(CXCursor c) const {
        CXToken* toks = nullptr;
        unsigned n = 0;
        clang_tokenize(m_tu, clang_getCursorExtent(c), &toks, &n);
        std::vector<Token> out;
        for (unsigned i = 0; i < n; ++i) {
            const CXSourceRange r = clang_getTokenExtent(m_tu, toks[i]);
            const Where b = expansion(clang_getRangeStart(r));
            const Where e = expansion(clang_getRangeEnd(r));
            out.push_back(Token{str(clang_getTokenSpelling(m_tu, toks[i])), b.offset, e.offset});
        }
        clang_disposeTokens(m_tu, toks, n);
        return out;
    }

    // The whole line(s) from `begin` to `end`, for blanking.
    std::pair<unsigned, unsigned> wholeLines(unsigned begin, unsigned end) const {
        const std::size_t b = m_text.rfind('\n', begin == 0 ? 0 : begin - 1);
        std::size_t e = m_text.find('\n', end);
        if (e == std::string::npos) e = m_text.size();
        return {b == std::string::npos || begin == 0 ? 0u : static_cast<unsigned>(b + 1), static_cast<unsigned>(e)};
    }

    static std::string typeName(CXType t) { return str(clang_getTypeSpelling(t)); }

    // float[A] or float[A][B]: the sizes, or nothing. An array larger than
    // `limitBytes` (what the memory it lives in holds) is refused here, before
    // its size could overflow an int.
    std::optional<std::pair<int, int>> floatArray(CXType t, unsigned line, const std::string& what,
                                                  long long limitBytes, bool integers = false) const {
        t = clang_getCanonicalType(t);
        if (t.kind != CXType_ConstantArray) return std::nullopt;
        const long long outer = clang_getArraySize(t);
        CXType e = clang_getCanonicalType(clang_getArrayElementType(t));
        long long inner = 1;
        if (e.kind == CXType_ConstantArray) {
            inner = clang_getArraySize(e);
            e = clang_getCanonicalType(clang_getArrayElementType(e));
        }
        if (!elementKind(e.kind, integers) || outer < 0 || inner < 0) return std::nullopt;
        const bool huge = outer > limitBytes || inner > limitBytes;  // the product could overflow
        const long long bytes = huge ? limitBytes + 1 : outer * inner * 4;
        if (bytes > limitBytes)
            reject(line, what + " is " + (huge ? "more than " + std::to_string(limitBytes) : std::to_string(bytes)) +
                             " bytes: " +
                             (limitBytes == kSharedLimit ? "a block may have 48 KB (49152 bytes) of shared memory"
                                                         : "constant memory holds 64 KB (65536 bytes)"));
        if (!is2D(t)) return std::make_pair(1, static_cast<int>(outer));
        return std::make_pair(static_cast<int>(outer), static_cast<int>(inner));
    }
    // float[A][B][C] (a tile per channel, in shared memory): the three sizes, or nothing.
    std::optional<std::array<int, 3>> floatArray3D(CXType t, unsigned line, const std::string& what,
                                                   bool integers = false) const {
        long long sizes[3] = {0, 0, 0};
        t = clang_getCanonicalType(t);
        for (long long& size : sizes) {
            if (t.kind != CXType_ConstantArray) return std::nullopt;
            size = clang_getArraySize(t);
            if (size < 0) return std::nullopt;
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        }
        if (!elementKind(t.kind, integers)) return std::nullopt;
        long long bytes = 4;
        for (const long long size : sizes) bytes = size > kSharedLimit ? kSharedLimit + 1 : bytes * size;
        if (bytes > kSharedLimit)
            reject(line, what + " is " + (bytes == kSharedLimit + 1 ? "more than " + std::to_string(kSharedLimit)
                                                                     : std::to_string(bytes)) +
                             " bytes: a block may have 48 KB (49152 bytes) of shared memory");
        return std::array<int, 3>{static_cast<int>(sizes[0]), static_cast<int>(sizes[1]), static_cast<int>(sizes[2])};
    }
    // float, or with `integers` int and unsigned too (a __shared__ array's
    // elements: each 4 bytes, one slot of the block's shared memory).
    static bool elementKind(CXTypeKind k, bool integers) {
        return k == CXType_Float || (integers && (k == CXType_Int || k == CXType_UInt));
    }
    // The element type of a __shared__ array, as the kernel language spells it.
    static std::string elementSpelling(CXType t) {
        t = clang_getCanonicalType(t);
        while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        return t.kind == CXType_Int ? "int" : t.kind == CXType_UInt ? "unsigned int" : "float";
    }
    static constexpr long long kSharedLimit = 48 * 1024;
    static constexpr long long kConstantLimit = 64 * 1024;

    static bool isFloatPointer(CXType t) {
        t = clang_getCanonicalType(t);
        return t.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Float;
    }
    static bool isScalar(CXType t) {
        switch (clang_getCanonicalType(t).kind) {
        case CXType_Int: case CXType_UInt: case CXType_Float: case CXType_Bool: case CXType_Long:
        case CXType_ULong: case CXType_Short: case CXType_UShort: case CXType_Double: case CXType_LongLong:
        case CXType_ULongLong: case CXType_Char_S: case CXType_Char_U:
            return true;
        default:
            return false;
        }
    }

    // A number: what a constant, a host variable or a helper's parameter may be.
    static bool isNumber(CXType t) {
        const CXTypeKind k = clang_getCanonicalType(t).kind;
        return isScalar(t) || k == CXType_Enum || k == CXType_UChar || k == CXType_SChar;
    }
    // A type of the prelude's (dim3, uint3, cudaEvent_t's and cudaStream_t's
    // structs), never one the file declares.
    static bool preludeRecord(CXType t, std::initializer_list<const char*> names) {
        t = clang_getCanonicalType(t);
        if (t.kind != CXType_Record) return false;
        const CXCursor declaration = clang_getTypeDeclaration(t);
        if (expansion(clang_getCursorLocation(declaration)).mainFile) return false;
        const std::string name = str(clang_getCursorSpelling(declaration));
        for (const char* n : names)
            if (name == n) return true;
        return false;
    }
    // dim3, uint3 and CUDA's vector types (int2, float4, ...): the
    // prelude's aggregates of numbers, which a variable may hold and whose
    // x, y, z and w may be read and written.
    static bool cudaValueType(CXType t) {
        t = clang_getCanonicalType(t);
        if (t.kind != CXType_Record) return false;
        const CXCursor declaration = clang_getTypeDeclaration(t);
        if (expansion(clang_getCursorLocation(declaration)).mainFile) return false;
        const std::string name = str(clang_getCursorSpelling(declaration));
        if (name == "dim3" || name == "uint3") return true;
        if (name.size() < 2 || name.back() < '1' || name.back() > '4') return false;
        const std::string element = name.substr(0, name.size() - 1);
        for (const char* e : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong",
                              "ulonglong", "float", "double"})
            if (element == e) return true;
        return false;
    }
    // make_int2 and the other makers of CUDA's vector types (the prelude's).
    static bool vectorMaker(CXCursor function) {
        if (clang_Cursor_isNull(function) || clang_getCursorKind(function) != CXCursor_FunctionDecl) return false;
        if (expansion(clang_getCursorLocation(function)).mainFile) return false;
        const std::string name = str(clang_getCursorSpelling(function));
        return name.rfind("make_", 0) == 0 && cudaValueType(clang_getResultType(clang_getCursorType(function)));
    }
    // cudaEvent_t and cudaStream_t, the two pointers host code may hold.
    static bool isEventOrStream(CXType t) {
        t = clang_getCanonicalType(t);
        return t.kind == CXType_Pointer && preludeRecord(clang_getPointeeType(t), {"CUevent_st", "CUstream_st"});
    }
    static bool isFunctionType(CXType t) {
        t = clang_getCanonicalType(t);
        if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
            t = clang_getCanonicalType(clang_getPointeeType(t));
        return t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto;
    }
    static bool isPointerType(CXType t) {
        const CXTypeKind k = clang_getCanonicalType(t).kind;
        return k == CXType_Pointer || k == CXType_BlockPointer || k == CXType_MemberPointer ||
               k == CXType_ObjCObjectPointer || k == CXType_NullPtr;
    }
    static bool isArrayType(CXType t) {
        const CXTypeKind k = clang_getCanonicalType(t).kind;
        return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray ||
               k == CXType_DependentSizedArray;
    }
    // What launch() and its host functions may declare: numbers, dim3,
    // events, streams and cudaError_t (an enum), or a reference to one.
    static bool isHostType(CXType t) {
        t = clang_getCanonicalType(t);
        if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
            t = clang_getCanonicalType(clang_getPointeeType(t));
        return isNumber(t) || isEventOrStream(t) || cudaValueType(t);
    }

    // [SECTION] Attributes and asm. An attribute can make code run at load
    // (constructor), name another symbol (alias, ifunc, section, weak) or keep
    // what the checks refused (used, cleanup); an asm label makes a declaration
    // the C library's system() or environ. So the file's tokens are read
    // first, comments and strings apart: no asm at all, and attributes from a
    // short list only. Then every attribute the parser attached to a
    // declaration is checked again where it was spelled, for one that a
    // macro's ## made out of pieces.

    static constexpr const char* kAttributeList =
        "the attributes a kernel file may use are __restrict__, __launch_bounds__, __align__ (aligned), unused and "
        "CUDA's own (__global__, __device__, __host__, __shared__, __constant__, __forceinline__, __noinline__)";

    static bool allowedAttributeWord(std::string word) {
        while (word.size() > 2 && word.compare(0, 2, "__") == 0) word.erase(0, 2);
        while (word.size() > 2 && word.compare(word.size() - 2, 2, "__") == 0) word.erase(word.size() - 2);
        for (const char* w : {"unused", "maybe_unused", "aligned", "align", "launch_bounds", "global", "device", "host",
                              "shared", "constant", "forceinline", "noinline", "always_inline", "fallthrough", "likely",
                              "unlikely"})
            if (word == w) return true;
        return false;
    }

    void fileTokens() const {
        const CXSourceRange whole = clang_getRange(clang_getLocationForOffset(m_tu, t_mainFile, 0),
                                                   clang_getLocationForOffset(m_tu, t_mainFile,
                                                                              static_cast<unsigned>(m_text.size())));
        CXToken* toks = nullptr;
        unsigned n = 0;
        clang_tokenize(m_tu, whole, &toks, &n);
        std::unique_ptr<CXToken, std::function<void(CXToken*)>> guard(
            toks, [&](CXToken* t) { clang_disposeTokens(m_tu, t, n); });
        auto spelling = [&](unsigned i) { return i < n ? str(clang_getTokenSpelling(m_tu, toks[i])) : std::string(); };
        auto word = [&](unsigned i) {
            const CXTokenKind k = clang_getTokenKind(toks[i]);
            return k == CXToken_Identifier || k == CXToken_Keyword;
        };
        auto lineAt = [&](unsigned i) { return expansion(clang_getTokenLocation(m_tu, toks[i])).line; };
        for (unsigned i = 0; i < n; ++i) {
            const CXTokenKind kind = clang_getTokenKind(toks[i]);
            if (kind == CXToken_Comment || kind == CXToken_Literal) continue;
            const std::string s = spelling(i);
            if (word(i) && (s == "asm" || s == "__asm" || s == "__asm__"))
                reject(lineAt(i), s + " is not supported in a kernel file: neither inline assembly nor an asm label "
                                      "(int run(const char*) asm(\"system\") names a function of the C library); "
                                      "write it in CUDA C++");
            if (word(i) && s == "__declspec")
                reject(lineAt(i), std::string("__declspec is not supported in a kernel file: ") + kAttributeList);
            if (word(i) && (s == "__attribute__" || s == "__attribute")) {
                // __attribute__((name, name(arguments), ...)): each name at depth 2.
                int depth = 0;
                bool expectName = false;
                for (unsigned k = i + 1; k < n; ++k) {
                    const std::string t = spelling(k);
                    if (t == "(") {
                        ++depth;
                        expectName = depth == 2;
                        continue;
                    }
                    if (t == ")") {
                        if (--depth <= 0) break;
                        continue;
                    }
                    if (depth == 2 && t == ",") {
                        expectName = true;
                        continue;
                    }
                    if (depth == 2 && expectName && word(k) && !allowedAttributeWord(t))
                        reject(lineAt(i), "__attribute__((" + t + ")) is not supported in a kernel file: " +
                                              kAttributeList);
                    expectName = false;
                    if (depth <= 0) break;
                }
            }
            // `[[` opens an attribute wherever it stands in C++.
            if (s == "[" && i + 1 < n && spelling(i + 1) == "[") {
                bool expectName = true;
                for (unsigned k = i + 2; k < n; ++k) {
                    const std::string t = spelling(k);
                    if (t == "]") break;
                    if (t == ",") {
                        expectName = true;
                        continue;
                    }
                    if (expectName && word(k)) {
                        const bool scoped = spelling(k + 1) == "::";
                        if (t == "using" || scoped || !allowedAttributeWord(t))
                            reject(lineAt(i), "[[" + t + (scoped ? "::" + spelling(k + 2) : std::string()) +
                                                  "]] is not supported in a kernel file: " + kAttributeList);
                    }
                    expectName = false;
                    if (t == "(") {  // an attribute's arguments
                        int depth = 1;
                        while (++k < n && depth > 0) {
                            const std::string a = spelling(k);
                            depth += a == "(" ? 1 : a == ")" ? -1 : 0;
                        }
                        --k;
                    }
                }
            }
        }
    }

    // The attributes the parser attached to a declaration, where they were
    // spelled: in the file (a word of the list), or in the prelude (CUDA's
    // keywords). An attribute spelled nowhere, made by ##, is refused.
    void attributes(CXCursor c) const {
        for (CXCursor child : children(c)) {
            const CXCursorKind k = clang_getCursorKind(child);
            if (!clang_isAttribute(k)) continue;
            switch (k) {
            case CXCursor_CUDAConstantAttr: case CXCursor_CUDADeviceAttr: case CXCursor_CUDAGlobalAttr:
            case CXCursor_CUDAHostAttr: case CXCursor_CUDASharedAttr:
                continue;
            case CXCursor_AsmLabelAttr:
                reject(lineOf(c), "asm(\"" + str(clang_getCursorSpelling(child)) + "\") on " +
                                      str(clang_getCursorSpelling(c)) +
                                      ": an asm label makes a declaration another symbol (the C library's system or "
                                      "environ); a kernel file may not use one");
            default:
                break;
            }
            CXFile file = nullptr;
            unsigned line = 0, column = 0, offset = 0;
            clang_getSpellingLocation(clang_getCursorLocation(child), &file, &line, &column, &offset);
            std::string word;
            if (file && t_mainFile && clang_File_isEqual(file, t_mainFile)) {
                for (std::size_t i = offset; i < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[i])) ||
                                                                     m_text[i] == '_');
                     ++i)
                    word += m_text[i];
                if (allowedAttributeWord(word)) continue;
            } else if (file) {
                const std::string name = str(clang_getFileName(file));
                const std::string prelude = "tilescope_prelude.h";
                if (name.size() >= prelude.size() &&
                    name.compare(name.size() - prelude.size(), prelude.size(), prelude) == 0)
                    continue;
            }
            reject(lineOf(c), (word.empty() ? std::string("an attribute made by a macro") : "__attribute__((" + word + "))") +
                                  " on " + str(clang_getCursorSpelling(c)) + " is not supported in a kernel file: " +
                                  kAttributeList);
        }
    }

    // [SECTION] Top-level declarations.

    void topLevel(CXCursor c, Translation& out) {
        const CXCursorKind kind = clang_getCursorKind(c);
        // A refused declaration is named at its first line (`template <class T>`, not its name's).
        const unsigned line = expansion(clang_getRangeStart(clang_getCursorExtent(c))).line;
        const std::string name = str(clang_getCursorSpelling(c));
        if (clang_isDeclaration(kind)) attributes(c);
        switch (kind) {
        case CXCursor_InclusionDirective: {
            if (!allowedHeader(name))
                reject(line, "#include <" + name + ">: a kernel file may include only CUDA's and C's own headers "
                                                   "(cuda_runtime.h, stdio.h, math.h, ...)");
            const auto span = wholeLines(beginOf(c), beginOf(c));
            edit(span.first, span.second, "");
            m_plainDevice.push_back(Edit{span.first, span.second, ""});
            return;
        }
        case CXCursor_MacroDefinition:
        case CXCursor_MacroExpansion:
            return;
        case CXCursor_FunctionDecl:
            function(c, out);
            return;
        case CXCursor_LinkageSpec:
            linkage(c, out);
            return;
        case CXCursor_UnexposedDecl: {  // libclang before 16 shows `extern "C"` so
            const std::vector<Token> t = tokens(c);
            if (t.size() >= 2 && t[0].spelling == "extern" && t[1].spelling == "\"C\"") {
                linkage(c, out);
                return;
            }
            reject(line, notSupported(c));
        }
        case CXCursor_VarDecl:
            globalVariable(c, out);
            return;
        case CXCursor_TypedefDecl:
        case CXCursor_TypeAliasDecl:
        case CXCursor_EnumDecl:
            return;
        case CXCursor_FunctionTemplate:
            // Written out at its arguments before this reading (instantiateTemplates).
            reject(line, "the template " + name + " cannot be written out: write it as a plain function with its "
                         "types (float) and sizes in place of its parameters");
        case CXCursor_StructDecl:
        case CXCursor_ClassDecl:
        case CXCursor_UnionDecl:
        case CXCursor_ClassTemplate:
            reject(line, "classes and structs are not supported in a kernel file: pass their fields to the kernel as "
                         "numbers, and keep arrays as its float* parameters or __shared__ arrays");
        case CXCursor_Namespace:
            reject(line, "namespaces are not supported in a kernel file: declare everything at the file's top level");
        case CXCursor_UsingDirective:
        case CXCursor_UsingDeclaration:
            reject(line, "`using` is not supported in a kernel file: write names in full (a typedef of a number type is "
                         "fine)");
        default:
            reject(line, notSupported(c));
        }
    }

    // `extern "C" __global__ void k(...)` or `extern "C" { ... }`: C linkage,
    // which the plain CUDA build keeps (the kernel is found by its name either
    // way) and the traced builds leave out, their kernels living in a
    // namespace of their own. What it declares is read as if it stood alone.
    void linkage(CXCursor c, Translation& out) {
        const std::vector<Token> toks = tokens(c);
        if (toks.size() >= 2 && toks[0].spelling == "extern") {
            edit(toks[0].begin, toks[1].end, std::string(toks[1].end - toks[0].begin, ' '));
            if (toks.size() >= 4 && toks[2].spelling == "{" && toks.back().spelling == "}") {
                edit(toks[2].begin, toks[2].end, " ");
                edit(toks.back().begin, toks.back().end, " ");
            }
        }
        for (CXCursor child : children(c)) {
            // `extern "C" char** environ;`: the C library's variable itself.
            if (clang_getCursorKind(child) == CXCursor_VarDecl)
                reject(lineOf(child), "extern \"C\" variable " + str(clang_getCursorSpelling(child)) +
                                          ": a variable with C linkage is the C library's (environ, say); a kernel "
                                          "file's constants are #define or const numbers");
            topLevel(child, out);
        }
    }

    // A declaration of a kind a kernel file may not hold, named by its first words.
    std::string notSupported(CXCursor c) const {
        std::string words;
        const std::vector<Token> t = tokens(c);
        for (std::size_t i = 0; i < t.size() && i < 4 && t[i].spelling != "{" && t[i].spelling != ";"; ++i)
            words += (words.empty() ? "" : " ") + t[i].spelling;
        return (words.empty() ? std::string("this declaration") : "`" + words + "`") +
               " is not supported in a kernel file: it may hold __global__ and __device__ functions, launch() and "
               "the host functions it calls, #define, const numbers, and one __constant__ float array";
    }

    void globalVariable(CXCursor c, Translation& out) {
        const unsigned line = lineOf(c);
        const std::string name = str(clang_getCursorSpelling(c));
        // `extern char** const e;`: a variable defined elsewhere, the C library's.
        if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
            reject(line, "extern variable " + name + ": a kernel file may not declare a variable defined elsewhere "
                                                     "(the C library's environ, say); its constants are #define or const "
                                                     "numbers");
        if (hasAttr(c, CXCursor_CUDAConstantAttr)) {
            const auto sizes = floatArray(clang_getCursorType(c), line, "__constant__ " + name, kConstantLimit);
            if (!sizes)
                reject(line, "__constant__ " + name + ": constant memory holds the mask here, a float array of "
                                                       "one or two dimensions with sizes known at compile time");
            for (CXCursor child : children(c))
                if (clang_getCursorKind(child) == CXCursor_InitListExpr)
                    reject(line, "__constant__ " + name + " has an initialiser: the mask comes from launch(), "
                                                           "copied with cudaMemcpyToSymbol(" + name + ", M, bytes)");
            if (!out.constants.empty())
                reject(line, "a second __constant__ array (" + name + "): the trace follows one constant array, "
                                                                       "the mask");
            out.constants.push_back(ConstantDeclaration{name, sizes->first, sizes->second, line});
            const std::string type = sizes->first == 1 && !is2D(clang_getCursorType(c))
                                         ? "float[" + std::to_string(sizes->second) + "]"
                                         : "float[" + std::to_string(sizes->first) + "][" +
                                               std::to_string(sizes->second) + "]";
            edit(beginOf(c), endOf(c), "__constant__ ConstantArray<" + type + "> " + name);
            return;
        }
        if (hasAttr(c, CXCursor_CUDASharedAttr))
            reject(line, "__shared__ " + name + " outside a kernel: declare shared arrays inside the kernel");
        if (hasAttr(c, CXCursor_CUDADeviceAttr))
            reject(line, "__device__ variable " + name + ": global device variables are not supported (use "
                                                          "#define or const for constants)");
        if (!clang_isConstQualifiedType(clang_getCursorType(c)))
            reject(line, "global variable " + name + ": only constants may be global here (#define, const or "
                                                      "constexpr)");
        // A constant is a number known when the file is compiled: an
        // initialiser that calls a function or a constructor would run when
        // the kernel's object is loaded, before anything of TileScope's.
        const CXType type = clang_getCursorType(c);
        if (!isNumber(type))
            reject(line, "global constant " + name + " is " + typeName(type) +
                             ": a global constant here is a number (const int, const float, constexpr ...); "
                             "declare dim3 and the rest inside launch()");
        Scope scope{Context::Host, nullptr};
        for (CXCursor child : children(c))
            if (clang_isExpression(clang_getCursorKind(child))) statement(child, scope);
        if (!constantInitialiser(c))
            reject(line, "global constant " + name + " is not a constant expression: its initialiser would run code "
                                                      "when the kernel is loaded; write numbers, #define and other "
                                                      "constants");
    }

    // A variable's initialiser, when it is a number the compiler computes.
    static bool constantInitialiser(CXCursor variable) {
        CXCursor init = clang_getNullCursor();
        for (CXCursor child : children(variable))
            if (clang_isExpression(clang_getCursorKind(child))) init = child;
        if (clang_Cursor_isNull(init)) return true;  // none: zero
        const CXEvalResult value = clang_Cursor_Evaluate(init);
        if (!value) return false;
        const CXEvalResultKind kind = clang_EvalResult_getKind(value);
        clang_EvalResult_dispose(value);
        return kind == CXEval_Int || kind == CXEval_Float;
    }

    static bool is2D(CXType t) {
        t = clang_getCanonicalType(t);
        return clang_getCanonicalType(clang_getArrayElementType(t)).kind == CXType_ConstantArray;
    }

    void function(CXCursor c, Translation& out) {
        const std::string name = str(clang_getCursorSpelling(c));
        const unsigned line = lineOf(c);
        const bool global = hasAttr(c, CXCursor_CUDAGlobalAttr);
        for (CXCursor child : children(c))
            if (clang_getCursorKind(child) == CXCursor_ParmDecl) attributes(child);
        if (!clang_isCursorDefinition(c)) {
            // A declaration ahead of its definition: a kernel's declares the
            // same parameters as the definition will, in the traced language.
            if (global) {
                for (CXCursor child : children(c))
                    if (clang_getCursorKind(child) == CXCursor_ParmDecl && isFloatPointer(clang_getCursorType(child)))
                        arrayParameter(child);
                m_declaredKernels.insert(name);  // launch() may launch it before its definition
            }
            return;
        }
        const bool device = hasAttr(c, CXCursor_CUDADeviceAttr);
        const bool host = hasAttr(c, CXCursor_CUDAHostAttr) || !device;
        std::vector<CXCursor> params;
        CXCursor body{};
        bool haveBody = false;
        for (CXCursor child : children(c)) {
            if (clang_getCursorKind(child) == CXCursor_ParmDecl) params.push_back(child);
            if (clang_getCursorKind(child) == CXCursor_CompoundStmt) {
                body = child;
                haveBody = true;
            }
        }
        if (!haveBody) return;
        if (global) {
            kernel(c, name, line, params, body, out);
            // The kernel alone goes to NVRTC; its rewritten form to the traced builds.
        } else if (device && !hasAttr(c, CXCursor_CUDAHostAttr)) {
            for (CXCursor p : params)
                if (!isScalar(clang_getCursorType(p)) && !cudaValueType(clang_getCursorType(p)))
                    reject(lineOf(p), "__device__ " + name + " takes " + typeName(clang_getCursorType(p)) +
                                          ": a __device__ function here takes numbers, dim3 and CUDA's vector "
                                          "types (int2, float4, ...) only (index arrays in the kernel itself, so "
                                          "that every access is traced)");
            Scope scope{Context::Device, nullptr};
            statement(body, scope);
        } else if (name == "launch") {
            launchFunction(c, line, params, body);
        } else if (host) {
            // A helper of launch() computes numbers: the arrays are launch()'s
            // alone. One that takes an array is refused once the file has been
            // read (run), after what says more (a file with no kernel, say:
            // a C++ function forgot its __global__); its body is not read.
            if (std::optional<Diagnostic> refused = hostSignature(c, name, line, params)) {
                if (!m_hostSignature) m_hostSignature = refused;
            } else {
                hostBody(body);
            }
        }
        // launch() and its helpers are host code: the device sources leave them out.
        if (name == "launch" || (!global && !device)) hostOnly(c);
    }

    std::optional<Diagnostic> hostSignature(CXCursor c, const std::string& name, unsigned line,
                                            const std::vector<CXCursor>& params) const {
        for (CXCursor p : params)
            if (!isHostType(clang_getCursorType(p)))
                return Diagnostic{m_path, lineOf(p), 0,
                                  "host function " + name + " takes " + typeName(clang_getCursorType(p)) +
                                      ": a host function other than launch() takes numbers and dim3 (launch() alone "
                                      "passes N, M and P to the kernel)"};
        const CXType result = clang_getCursorResultType(c);
        if (clang_getCanonicalType(result).kind != CXType_Void && !isHostType(result))
            return Diagnostic{m_path, line, 0,
                              "host function " + name + " returns " + typeName(result) +
                                  ": a host function other than launch() returns a number, dim3 or nothing"};
        return std::nullopt;
    }

    void hostOnly(CXCursor c) {
        const auto span = std::make_pair(beginOf(c), endOf(c));
        m_hostOnly.push_back(Edit{span.first, span.second, ""});
        m_plainDevice.push_back(Edit{span.first, span.second, ""});
    }

    void launchFunction(CXCursor c, unsigned line, const std::vector<CXCursor>& params, CXCursor body) {
        (void)c;
        const char* expected2 = "void launch(const float* N, const float* M, float* P, int r, int width, int height)";
        const char* expected1 = "void launch(const float* N, const float* M, float* P, int r, int width)";
        auto is = [&](std::size_t i, bool pointer, bool constant) {
            const CXType t = clang_getCanonicalType(clang_getCursorType(params[i]));
            if (pointer)
                return isFloatPointer(t) && (clang_isConstQualifiedType(clang_getPointeeType(t)) != 0) == constant;
            return t.kind == CXType_Int;
        };
        const bool shape = (params.size() == 5 || params.size() == 6) && is(0, true, true) && is(1, true, true) &&
                           is(2, true, false) && is(3, false, false) && is(4, false, false) &&
                           (params.size() == 5 || is(5, false, false));
        if (!shape)
            reject(line, std::string("launch() must have exactly this signature: ") + expected2 + " (2D), or " +
                             expected1 + " (1D)");
        if (m_sawLaunch) reject(line, "a second launch()");
        m_sawLaunch = true;
        m_launchLine = line;
        m_dims = params.size() == 6 ? 2 : 1;
        for (CXCursor p : params) m_launchParams.push_back(str(clang_getCursorSpelling(p)));
        hostBody(body);
    }

    // launch()'s body or a helper's. A pointer or array variable is refused
    // once the body has been read, so that what it was for (cudaMalloc,
    // malloc, a builtin) is named first when the body has one.
    void hostBody(CXCursor body) {
        m_hostVariable.reset();
        Scope scope{Context::Host, nullptr};
        statement(body, scope);
        if (m_hostVariable) reject(m_hostVariable->line, m_hostVariable->message);
    }

    // [SECTION] Kernels and what their bodies may do.

    enum class Context { Kernel, Device, Host };

    struct Scope {
        Context context;
        KernelDeclaration* kernel;
    };

    void kernel(CXCursor c, const std::string& name, unsigned line, const std::vector<CXCursor>& params,
                CXCursor body, Translation& out) {
        KernelDeclaration k;
        k.name = name;
        k.line = line;
        const CXType result = clang_getCursorResultType(c);
        if (clang_getCanonicalType(result).kind != CXType_Void) reject(line, "a __global__ kernel returns void: store its results in P instead");
        for (CXCursor p : params) {
            const std::string pname = str(clang_getCursorSpelling(p));
            const CXType t = clang_getCursorType(p);
            const unsigned pline = lineOf(p);
            if (pname.empty()) reject(pline, "every parameter of " + name + " needs a name");
            KernelParameter kp{pname, false, false};
            if (isFloatPointer(t)) {
                kp.array = true;
                kp.writable = arrayParameter(p);
                m_arrays.insert(pname);
            } else if (!isScalar(t)) {
                reject(pline, "parameter " + pname + " of " + name + " is " + typeName(t) +
                                  ": a kernel takes float arrays (const float* N, float* P) and numbers");
            }
            k.parameters.push_back(kp);
        }
        out.kernels.push_back(k);
        KernelDeclaration& declared = out.kernels.back();
        m_arrayParams = {};
        for (const KernelParameter& p : declared.parameters)
            if (p.array) m_arrayParams.insert(p.name);
        m_kernels.insert(name);
        Scope scope{Context::Kernel, &declared};
        statement(body, scope);
        // Dynamic arrays start after the static ones.
        for (SharedDeclaration& s : declared.shared)
            if (s.dynamic) s.offset = declared.staticSharedFloats;
        for (const auto& [offset, s, later] : m_sharedEdits) {
            const SharedDeclaration& d = declared.shared[s];
            const int at = d.dynamic ? declared.staticSharedFloats : d.offset;
            std::string text;
            if (d.dynamic)
                text = "SharedArray<float> " + d.name + " = tsDynamicShared(" + std::to_string(at) + ")";
            else if (d.rows == 1 && !m_shared2D.count(d.name))
                text = "SharedArray<" + d.element + "> " + d.name + "(tsSharedAt(" + std::to_string(at) + ", " +
                       std::to_string(d.cols) + "), " + std::to_string(d.cols) + ")";
            else if (m_shared3D.count(d.name))
                text = "SharedArray3D<" + d.element + "> " + d.name + "(tsSharedAt(" + std::to_string(at) + ", " +
                       std::to_string(d.planes * d.rows * d.cols) + "), " + std::to_string(d.planes) + ", " +
                       std::to_string(d.rows) + ", " + std::to_string(d.cols) + ")";
            else
                text = "SharedArray2D<" + d.element + "> " + d.name + "(tsSharedAt(" + std::to_string(at) + ", " +
                       std::to_string(d.rows * d.cols) + "), " + std::to_string(d.rows) + ", " +
                       std::to_string(d.cols) + ")";
            edit(offset.first, offset.second, (later ? "; " : "") + text);
        }
        m_sharedEdits.clear();
    }

    // `const float* N` -> `Global<const float> N`; true when the array is writable.
    bool arrayParameter(CXCursor p) {
        const CXType t = clang_getCursorType(p);
        const bool writable = !clang_isConstQualifiedType(clang_getPointeeType(clang_getCanonicalType(t)));
        const unsigned nameAt = expansion(clang_getCursorLocation(p)).offset;
        // A parameter without a name (a prototype's) ends where its type ends.
        const unsigned end = str(clang_getCursorSpelling(p)).empty() ? endOf(p) : nameAt;
        edit(beginOf(p), end, writable ? "Global<float> " : "Global<const float> ");
        return writable;
    }

    void statement(CXCursor c, Scope& scope) {
        const CXCursorKind kind = clang_getCursorKind(c);
        // A conversion the parser adds is no level of the student's.
        const bool counted = kind != CXCursor_UnexposedExpr;
        m_ancestors.push_back(c);
        struct Pop {
            std::vector<CXCursor>& stack;
            unsigned& nesting;
            bool counted;
            ~Pop() {
                stack.pop_back();
                if (counted) --nesting;
            }
        } pop{m_ancestors, m_nesting, counted};
        const unsigned line = lineOf(c);
        if (counted && ++m_nesting > kMaxNesting)
            reject(line, "this is nested more than " + std::to_string(kMaxNesting) +
                             " levels deep (operators, conditions, blocks): split it into statements of their own, "
                             "with a local variable for each part");
        const std::string name = str(clang_getCursorSpelling(c));
        const bool device = scope.context != Context::Host;
        switch (kind) {
        case CXCursor_VarDecl:
            localVariable(c, scope);
            return;
        case CXCursor_CXXNewExpr:
        case CXCursor_CXXDeleteExpr:
            reject(line, "new and delete are not supported in a kernel file: launch() receives N, M and P in device "
                         "memory; in a kernel, use a local array of fixed size or a __shared__ array");
        case CXCursor_LambdaExpr:
            reject(line, "lambdas are not supported in a kernel file: write a __device__ function");
        case CXCursor_GCCAsmStmt:
        case CXCursor_MSAsmStmt:
            reject(line, "inline assembly is not supported: write it in CUDA C++");
        case CXCursor_CXXThrowExpr:
        case CXCursor_CXXTryStmt:
            reject(line, "exceptions are not supported in a kernel file (nor in CUDA device code): check the "
                         "condition and return");
        case CXCursor_CallExpr:
            call(c, scope);
            return;
        case CXCursor_CStyleCastExpr:
        case CXCursor_CXXFunctionalCastExpr:
        case CXCursor_CXXStaticCastExpr:
        case CXCursor_CXXReinterpretCastExpr:
        case CXCursor_CXXDynamicCastExpr:
        case CXCursor_CXXAddrspaceCastExpr:
        case CXCursor_CXXConstCastExpr:
            cast(c, kind);
            if (!device) hostCast(c, kind);
            break;
        case CXCursor_BuiltinBitCastExpr:
            reject(line, whyNotCompilerName("__builtin_bit_cast"));
        case CXCursor_UnexposedExpr:
            // A conversion has one operand. One with more is a builtin that
            // is no call (`__atomic_load_n(p, 0)`, its name made by `##`).
            if (children(c).size() > 1) reject(line, whyNotCompilerName(builtinAround()));
            break;
        case CXCursor_ArraySubscriptExpr: {
            if (!device)
                reject(line, "an array element (a[i]) in host code: N, M and P are in device memory, which only "
                             "kernels index, and launch() and its host functions hold no array of their own");
            const std::vector<CXCursor> kids = children(c);
            if (!kids.empty()) {
                const CXCursor base = unwrap(kids[0]);
                if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) m_subscripted.insert(beginOf(base));
                // `"abc"[i]`: an element of what no name says. (Other bases are
                // refused for what they are: a cast, an address, an array passed on.)
                else if (clang_getCursorKind(base) == CXCursor_StringLiteral)
                    reject(line, "an element of something other than an array the kernel names (" +
                                     inWords(c, kind) + "): index N, M, P and the kernel's own arrays by their names");
            }
            if (device) elementRead(c);
            break;
        }
        case CXCursor_DeclRefExpr:
            builtinReference(c);
            globalQualifier(c);
            if (device) {
                reference(c, scope);
                elementReferenceRead(c);
            } else {
                hostReference(c);
            }
            functionValue(c);
            break;
        case CXCursor_UnaryOperator:
            functionAddress(c);
            if (device) unary(c);
            else hostOperator(c);
            break;
        case CXCursor_CompoundAssignOperator:
            if (!device) hostOperator(c);
            if (device) {
                constantWrite(c);
                assigned(c);
            }
            if (device && compoundAssign(c, scope)) return;
            break;
        case CXCursor_BinaryOperator:
            if (!device) hostOperator(c);
            if (device) {
                constantWrite(c);
                if (operatorOf(c) == "=") assigned(c);
            }
            break;
        default:
            otherCursor(c, kind, device);
            break;
        }
        (void)name;
        for (CXCursor child : children(c)) statement(child, scope);
    }

    // [SECTION] What else a body may hold: a list, and everything else refused
    // by name. (Declarations, calls, casts, names and operators have checks
    // of their own, above and below.)

    static constexpr unsigned kMaxNesting = 256;
    static constexpr unsigned kSmallExtent = 512;  // bytes: an expression whose tokens are cheap to read

    static constexpr const char* kHostHolds =
        "launch() and its host functions may hold numbers, dim3, cudaEvent_t and cudaStream_t, if, for, while, do, "
        "switch and return, calls of CUDA's documented functions and of the file's own, and kernel launches";
    static constexpr const char* kDeviceHolds =
        "a kernel may hold numbers and local arrays of them, its arrays indexed with [], if, for, while, do, switch "
        "and return, and calls of CUDA's documented functions and of the file's own __device__ functions";

    void otherCursor(CXCursor c, CXCursorKind kind, bool device) const {
        const unsigned line = lineOf(c);
        if (clang_isAttribute(kind)) return;  // checked with the declaration they belong to
        switch (kind) {
        case CXCursor_CompoundStmt: case CXCursor_DeclStmt: case CXCursor_IfStmt: case CXCursor_ForStmt:
        case CXCursor_WhileStmt: case CXCursor_DoStmt: case CXCursor_SwitchStmt: case CXCursor_CaseStmt:
        case CXCursor_DefaultStmt: case CXCursor_BreakStmt: case CXCursor_ContinueStmt: case CXCursor_ReturnStmt:
        case CXCursor_NullStmt: case CXCursor_TypeRef: case CXCursor_TemplateRef: case CXCursor_TypedefDecl:
        case CXCursor_TypeAliasDecl: case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral:
        case CXCursor_CharacterLiteral: case CXCursor_StringLiteral: case CXCursor_CXXBoolLiteralExpr:
        case CXCursor_CXXNullPtrLiteralExpr: case CXCursor_ParenExpr: case CXCursor_UnaryExpr:
        case CXCursor_InitListExpr:
        case CXCursor_ParmDecl:  // a parameter of a function type a declaration names
            return;
        case CXCursor_ConditionalOperator:
            if (!device && (isPointerType(clang_getCursorType(c)) || isFunctionType(clang_getCursorType(c))))
                reject(line, "a choice between pointers (c ? N : P) in host code: launch() passes N, M and P to the "
                             "kernel as they are; choose between two launches instead");
            return;
        case CXCursor_MemberRefExpr: {
            const CXCursor member = clang_getCursorReferenced(c);
            const CXCursor owner = clang_getCursorSemanticParent(member);
            // x, y, z and w, and dim3's conversion to uint3 (`uint3 t = blockDim;`, implicit).
            const CXCursorKind memberKind = clang_getCursorKind(member);
            if ((memberKind == CXCursor_FieldDecl || memberKind == CXCursor_ConversionFunction) &&
                cudaValueType(clang_getCursorType(owner)))
                return;
            reject(line, "." + str(clang_getCursorSpelling(c)) + " is a member of something other than dim3 or "
                             "CUDA's vector types: " + (device ? kDeviceHolds : kHostHolds));
        }
        case CXCursor_UnexposedStmt: {
            // `#pragma unroll` or [[likely]] before one statement.
            const std::vector<CXCursor> kids = children(c);
            if (kids.size() == 1 && clang_isStatement(clang_getCursorKind(kids[0]))) return;
            break;
        }
        case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt: case CXCursor_LabelStmt: case CXCursor_AddrLabelExpr:
            reject(line, "goto and labels are not supported in a kernel file: use a loop, break, continue or return");
        default:
            break;
        }
        reject(line, inWords(c, kind) + " is not supported in " +
                         (device ? "device code: " : "launch() or its host functions: ") +
                         (device ? kDeviceHolds : kHostHolds));
    }

    // A construct, in words, or as the file writes it (its first tokens).
    std::string inWords(CXCursor c, CXCursorKind kind) const {
        switch (kind) {
        case CXCursor_CXXForRangeStmt: return "a range-based for loop (for (x : a))";
        case CXCursor_StmtExpr: return "a statement expression (({ ... }))";
        case CXCursor_CompoundLiteralExpr: return "a compound literal";
        case CXCursor_CXXThisExpr: return "this";
        case CXCursor_CXXTypeidExpr: return "typeid";
        case CXCursor_GenericSelectionExpr: return "_Generic";
        case CXCursor_StructDecl: case CXCursor_UnionDecl: case CXCursor_ClassDecl: case CXCursor_EnumDecl:
            return "a struct, union, class or enum declared in a function";
        default: break;
        }
        std::string words;
        if (endOf(c) >= beginOf(c) && endOf(c) - beginOf(c) <= kSmallExtent) {
            const std::vector<Token> t = tokens(c);
            for (std::size_t i = 0; i < t.size() && i < 4 && t[i].spelling != "{" && t[i].spelling != ";"; ++i)
                words += (words.empty() ? "" : " ") + t[i].spelling;
        }
        for (char& ch : words)
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
        return words.empty() ? std::string("this construct") : "`" + words + "`";
    }

    // A function named other than as the one a call calls: its address.
    // (A variable it initialises is refused for what it is, and a call through
    // it at the call.)
    void functionValue(CXCursor c) const {
        const CXCursorKind tk = clang_getCursorKind(clang_getCursorReferenced(c));
        if (clang_getCursorKind(userOfValue()) == CXCursor_VarDecl) return;
        if (tk == CXCursor_FunctionDecl || tk == CXCursor_FunctionTemplate)
            reject(lineOf(c), "the address of a function (" + str(clang_getCursorSpelling(c)) +
                                  "): a kernel file calls functions by their name (" + str(clang_getCursorSpelling(c)) +
                                  "(...)) and holds no pointer to one");
    }

    // `&printf`: a function's address, whatever uses it.
    void functionAddress(CXCursor c) const {
        const std::vector<CXCursor> kids = children(c);
        if (kids.size() != 1 || clang_getCursorKind(unwrap(kids[0])) != CXCursor_DeclRefExpr) return;
        const CXCursorKind tk = clang_getCursorKind(clang_getCursorReferenced(unwrap(kids[0])));
        if (tk == CXCursor_FunctionDecl || tk == CXCursor_FunctionTemplate)
            reject(lineOf(c), "the address of a function (" + str(clang_getCursorSpelling(unwrap(kids[0]))) +
                                  "): a kernel file calls functions by their name, and holds no pointer to one");
    }

    // The expression that uses the value statement() is at: past
    // parentheses, conversions and casts.
    CXCursor userOfValue() const {
        for (std::size_t i = m_ancestors.size() - 1; i-- > 0;) {
            const CXCursorKind k = clang_getCursorKind(m_ancestors[i]);
            if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr ||
                k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXConstCastExpr ||
                k == CXCursor_CXXFunctionalCastExpr)
                continue;
            return m_ancestors[i];
        }
        return clang_getNullCursor();
    }
    static bool isKernelLaunch(CXCursor call) {
        if (clang_getCursorKind(call) != CXCursor_CallExpr) return false;
        for (CXCursor k : children(call)) {
            k = unwrap(k);
            if (clang_getCursorKind(k) == CXCursor_CallExpr &&
                launchConfiguration(str(clang_getCursorSpelling(k))))
                return true;
        }
        return false;
    }

    // A name in host code: a number, a dim3, an event or a stream of the
    // file's; launch()'s N, M and P only as a kernel's or cudaMemcpyToSymbol's
    // argument (or in sizeof), and the __constant__ array only there too.
    void hostReference(CXCursor c) const {
        const CXCursor target = clang_getCursorReferenced(c);
        const CXCursorKind tk = clang_getCursorKind(target);
        const std::string name = str(clang_getCursorSpelling(c));
        const unsigned line = lineOf(c);
        if (tk == CXCursor_EnumConstantDecl || tk == CXCursor_FunctionDecl || tk == CXCursor_FunctionTemplate) return;
        if (tk == CXCursor_CXXMethod &&
            preludeRecord(clang_getCursorType(clang_getCursorSemanticParent(target)), {"dim3"}))
            return;  // dim3's assignment
        const CXCursor user = userOfValue();
        const bool unevaluated = clang_getCursorKind(user) == CXCursor_UnaryExpr;  // sizeof
        // A pointer variable it initialises is refused once the body has been read (hostBody).
        const bool passed = isKernelLaunch(user) || clang_getCursorKind(user) == CXCursor_VarDecl ||
                            (clang_getCursorKind(user) == CXCursor_CallExpr &&
                             str(clang_getCursorSpelling(user)) == "cudaMemcpyToSymbol");
        if (tk == CXCursor_ParmDecl) {
            if (!isPointerType(clang_getCursorType(target)) || unevaluated || passed) return;
            reject(line, name + " is used in host code other than as an argument of a kernel launch or of "
                                "cudaMemcpyToSymbol: launch() passes N, M and P on as they are, and holds no other "
                                "pointer");
        }
        if (tk == CXCursor_VarDecl) {
            if (!expansion(clang_getCursorLocation(target)).mainFile)
                reject(line, name + " is not available in host code: launch() computes the grid and the block from "
                                    "the sizes it is given");
            if (m_constantNames.count(name) &&
                clang_getCursorKind(clang_getCursorSemanticParent(target)) == CXCursor_TranslationUnit &&
                !unevaluated && !passed)
                reject(line, name + ", the __constant__ array, is used in host code other than in "
                                    "cudaMemcpyToSymbol(" + name + ", M, bytes) or sizeof");
            return;
        }
        reject(line, name + " cannot be used in launch() or its host functions: " + kHostHolds);
    }

    // An operator in host code works on numbers: on a pointer it is pointer
    // arithmetic, a comparison or an assignment of pointers, an address or a
    // load through one.
    void hostOperator(CXCursor c) {
        const std::vector<CXCursor> kids = children(c);
        auto pointer = [](CXType t) { return isPointerType(t) || isArrayType(t) || isFunctionType(t); };
        bool onPointer = pointer(clang_getCursorType(c));
        CXType which = clang_getCursorType(c);
        for (CXCursor k : kids)
            if (pointer(clang_getCursorType(k))) {
                onPointer = true;
                which = clang_getCursorType(k);
            }
        if (!onPointer) return;
        const unsigned line = lineOf(c);
        if (clang_getCursorKind(c) == CXCursor_UnaryOperator && !kids.empty()) {
            const std::string op = unaryOperator(c, kids[0]).first;
            const std::string operand = str(clang_getCursorSpelling(unwrap(kids[0])));
            if (op == "&")
                reject(line, "the address of a variable (&" + operand + ") in host code: only cudaEventCreate(&event) "
                             "and cudaEventElapsedTime(&ms, start, stop) take one");
            if (op == "*")
                reject(line, "a load through a pointer (*" + operand + ") in host code: N, M and P are in device "
                             "memory, which only kernels index");
        }
        const std::string op = clang_getCursorKind(c) == CXCursor_UnaryOperator
                                   ? [&] {
                                         const auto ops = unaryOperator(c, kids.empty() ? c : kids[0]);
                                         return ops.first.empty() ? ops.second : ops.first;
                                     }()
                                   : operatorOf(c);
        reject(line, "pointer arithmetic (" + (op.empty() ? std::string("an operator") : "`" + op + "`") + " on " +
                         typeName(which) + ") in host code: launch() passes N, M and P to the kernel as they are, and "
                                           "holds no other pointer");
    }

    // A cast in host code makes a number, a dim3, or passes launch()'s own
    // N, M or P on as another pointer type (const_cast<float*>(N), (float*)M),
    // or makes a null stream ((cudaStream_t)0). Nothing else becomes a pointer.
    void hostCast(CXCursor c, CXCursorKind kind) const {
        const CXType to = clang_getCursorType(c);
        if (!isPointerType(to) && kind != CXCursor_CXXConstCastExpr) return;  // a number: its operand is checked
        CXCursor operand = c;
        for (;;) {
            CXCursor next = clang_getNullCursor();
            for (CXCursor child : children(operand))
                if (clang_isExpression(clang_getCursorKind(child))) next = child;
            if (clang_Cursor_isNull(next)) break;
            operand = next;
            const CXCursorKind k = clang_getCursorKind(operand);
            if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
                k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXConstCastExpr &&
                k != CXCursor_CXXFunctionalCastExpr)
                break;
        }
        // `(float*)malloc(...)`: the call is refused for what it is, or what it
        // gives (cudaGetErrorString's text) is checked where it is used.
        if (clang_getCursorKind(operand) == CXCursor_CallExpr) return;
        const CXCursor target = clang_getCursorReferenced(operand);
        if (clang_getCursorKind(operand) == CXCursor_DeclRefExpr && clang_getCursorKind(target) == CXCursor_ParmDecl &&
            isFloatPointer(clang_getCursorType(target)))
            return;  // N, M or P
        if (kind != CXCursor_CXXConstCastExpr && isPointerType(to)) {
            if (clang_getCursorKind(operand) == CXCursor_CXXNullPtrLiteralExpr) return;
            const CXEvalResult value = clang_Cursor_Evaluate(operand);
            if (value) {
                const bool zero = clang_EvalResult_getKind(value) == CXEval_Int &&
                                  clang_EvalResult_getAsLongLong(value) == 0;
                clang_EvalResult_dispose(value);
                if (zero) return;  // (cudaStream_t)0
            }
        }
        reject(lineOf(c), std::string(kind == CXCursor_CXXConstCastExpr ? "const_cast<" : "a cast to ") +
                              typeName(to) + (kind == CXCursor_CXXConstCastExpr ? ">" : "") +
                              " in host code: launch() passes N, M and P on as they are (const_cast<float*>(N) and "
                              "(float*)N are fine), and holds no other pointer");
    }

    // [SECTION] Operators, read from the text between their operands.

    struct Operator {
        std::string spelling;
        unsigned begin = 0, end = 0;
    };

    // The operator the file's text holds between `from` and `to`, spaces and
    // comments apart. Reading it there costs what the operator's text does;
    // tokenising a whole expression at each of its levels would cost its size
    // at every level, quadratic in a deep one.
    Operator operatorBetween(unsigned from, unsigned to) const {
        static const std::string kOperatorCharacters = "+-*/%=<>!&|^~";
        if (to > m_text.size()) to = static_cast<unsigned>(m_text.size());
        for (unsigned i = from; i < to;) {
            if (m_text.compare(i, 2, "//") == 0) {
                while (i < to && m_text[i] != '\n') ++i;
                continue;
            }
            if (m_text.compare(i, 2, "/*") == 0) {
                const std::size_t end = m_text.find("*/", i + 2);
                i = end == std::string::npos ? to : static_cast<unsigned>(end + 2);
                continue;
            }
            if (kOperatorCharacters.find(m_text[i]) == std::string::npos) {
                ++i;
                continue;
            }
            unsigned e = i;
            while (e < to && kOperatorCharacters.find(m_text[e]) != std::string::npos &&
                   m_text.compare(e, 2, "//") != 0 && m_text.compare(e, 2, "/*") != 0)
                ++e;
            return Operator{m_text.substr(i, e - i), i, e};
        }
        return {};
    }

    // A binary expression's operator: after its left operand. Where a macro
    // wrote the expression (no text between the operands), its tokens, when
    // they are few.
    Operator binaryOperator(CXCursor c) const {
        const std::vector<CXCursor> kids = children(c);
        if (kids.size() != 2) return {};
        const unsigned lhsEnd = endOf(kids[0]);
        if (const Operator op = operatorBetween(lhsEnd, beginOf(kids[1])); !op.spelling.empty()) return op;
        if (endOf(c) < beginOf(c) || endOf(c) - beginOf(c) > kSmallExtent) return {};
        for (const Token& t : tokens(c))
            if (t.begin >= lhsEnd) return Operator{t.spelling, t.begin, t.end};
        return {};
    }

    // A unary expression's operator: before its operand (first) or after it (second).
    std::pair<std::string, std::string> unaryOperator(CXCursor c, CXCursor operand) const {
        std::string first = operatorBetween(beginOf(c), beginOf(operand)).spelling;
        std::string last = operatorBetween(endOf(operand), endOf(c)).spelling;
        if ((first.empty() && last.empty()) && endOf(c) >= beginOf(c) && endOf(c) - beginOf(c) <= kSmallExtent) {
            const std::vector<Token> t = tokens(c);
            if (!t.empty()) {
                first = t.front().spelling;
                last = t.back().spelling;
            }
        }
        return {first, last};
    }

    // A compiler's builtin, named or taken: a function the parser declares
    // itself (no file holds its declaration) or one with a builtin's name.
    static bool builtinFunction(CXCursor target) {
        const CXCursorKind k = clang_getCursorKind(target);
        if (k != CXCursor_FunctionDecl) return false;
        if (compilerName(str(clang_getCursorSpelling(target)))) return true;
        CXFile file = nullptr;
        clang_getExpansionLocation(clang_getCursorLocation(target), &file, nullptr, nullptr, nullptr);
        return file == nullptr;
    }
    void builtinReference(CXCursor c) const {
        const CXCursor target = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(target) && builtinFunction(target))
            reject(lineOf(c), whyNotCompilerName(str(clang_getCursorSpelling(target))));
    }

    // The name of the builtin in the statement under way, as the parser
    // prints it (the file may spell it in pieces).
    std::string builtinAround() const {
        for (std::size_t i = m_ancestors.size(); i-- > 0;) {
            const std::string printed = str(clang_getCursorPrettyPrinted(m_ancestors[i], nullptr));
            for (std::size_t k = 0; k < printed.size();) {
                if (!std::isalpha(static_cast<unsigned char>(printed[k])) && printed[k] != '_') {
                    ++k;
                    continue;
                }
                std::size_t e = k;
                while (e < printed.size() && (std::isalnum(static_cast<unsigned char>(printed[e])) || printed[e] == '_'))
                    ++e;
                if (compilerName(printed.substr(k, e - k))) return printed.substr(k, e - k);
                k = e;
            }
        }
        return "a compiler builtin";
    }

    // A cast that makes a pointer out of what is not one (`(float*)0x1000`,
    // `reinterpret_cast<float*>(12345)`, a number through `(long&)p`) points
    // wherever the number says, at memory no trace sees. Casts between
    // pointers stay (`(void**)&d_N`, `(float*)malloc(...)`, `(const float*)P`),
    // and so does a null pointer (`(cudaStream_t)0`).
    void cast(CXCursor c, CXCursorKind kind) const {
        const CXType to = clang_getCanonicalType(clang_getCursorType(c));
        const std::string spelled = typeName(clang_getCursorType(c));
        CXCursor operand = clang_getNullCursor();
        for (CXCursor child : children(c))
            if (clang_isExpression(clang_getCursorKind(child))) operand = child;
        if (clang_Cursor_isNull(operand)) return;
        const CXType from = clang_getCanonicalType(clang_getCursorType(operand));
        auto isPointer = [](CXType t) {
            return t.kind == CXType_Pointer || t.kind == CXType_BlockPointer || t.kind == CXType_MemberPointer ||
                   t.kind == CXType_ObjCObjectPointer;
        };
        // `(long)printf`, `(void (*)())x`: a function is called by its name, never through a number.
        if (isFunctionType(from) || isFunctionType(to))
            reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                                  ": a kernel file calls functions by their name, and holds no pointer to one");
        // `(long&)p`, `static_cast<float&>(x)`: a reference, written before
        // the operand (an expression's type is never one). Read from the
        // text before the operand, or the tokens of a cast a macro wrote.
        bool reference = false;
        const unsigned operandAt = beginOf(operand);
        if (operandAt > beginOf(c)) {
            for (unsigned i = beginOf(c); i < operandAt && i < m_text.size(); ++i)
                if (m_text[i] == '&') reference = true;
        } else if (endOf(c) >= beginOf(c) && endOf(c) - beginOf(c) <= kSmallExtent) {
            for (const Token& t : tokens(c))
                if (t.begin < operandAt && (t.spelling == "&" || t.spelling == "&&")) reference = true;
        }
        if (kind == CXCursor_CXXReinterpretCastExpr && (isPointer(to) || reference))
            reject(lineOf(c), "reinterpret_cast<" + spelled + (reference ? "&" : "") +
                                  ">: a kernel file may not reinterpret memory; index the kernel's arrays as they are "
                                  "(static_cast and const_cast between pointers are fine)");
        // A pointer read as a number, or a variable as another type's: its bits.
        if (isPointer(from) && !isPointer(to) && to.kind != CXType_Bool && to.kind != CXType_Void)
            reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                                  (reference ? "&" : "") + " reads a pointer as a number: a kernel file may not");
        if (reference && !isPointer(to) && to.kind != from.kind)
            reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                                  "& reads its bytes as another type: a kernel file may not");
        if (!isPointer(to)) return;
        switch (from.kind) {
        case CXType_Pointer: case CXType_BlockPointer: case CXType_MemberPointer: case CXType_ObjCObjectPointer:
        case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
        case CXType_DependentSizedArray: case CXType_NullPtr: case CXType_FunctionProto: case CXType_FunctionNoProto:
            return;
        default:
            break;
        }
        // `(float*)malloc(...)`: the call is refused for what it is.
        const CXCursor inner = unwrap(operand);
        if (clang_getCursorKind(inner) == CXCursor_CallExpr) {
            const std::string callee = str(clang_getCursorSpelling(inner));
            const CXCursor target = clang_getCursorReferenced(inner);
            if (!clang_Cursor_isNull(target) && !expansion(clang_getCursorLocation(target)).mainFile &&
                !listed(callee, kKernelCalls) && !listed(callee, kHostCalls) && !listed(callee, kMathCalls))
                return;
        }
        // A number that is 0 is the null pointer (`(cudaStream_t)0`, `(float*)NULL`).
        const CXEvalResult value = clang_Cursor_Evaluate(operand);
        if (value) {
            const bool zero = clang_EvalResult_getKind(value) == CXEval_Int &&
                              clang_EvalResult_getAsLongLong(value) == 0;
            clang_EvalResult_dispose(value);
            if (zero) return;
        }
        reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                              " makes a pointer out of a number: a kernel file may use only the pointers it is given "
                              "(N, M, P) and its own arrays, which the trace follows");
    }

    // `::M`, a name of the file's own global scope: the traced builds put the
    // file inside a namespace of their own, where `::M` is that namespace's M.
    void globalQualifier(CXCursor c) {
        // `::name` is a few bytes; a longer extent is a macro's use.
        if (endOf(c) < beginOf(c) || endOf(c) - beginOf(c) > kSmallExtent) return;
        const std::vector<Token> t = tokens(c);
        if (t.size() < 2 || t[0].spelling != "::" || t[1].spelling != str(clang_getCursorSpelling(c))) return;
        const CXCursor target = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(target)) return;
        if (expansion(clang_getCursorLocation(target)).mainFile) {
            edit(t[0].begin, t[0].end, "::tilescope::own_user::");
            return;
        }
        // `::min(x, 0.5f)`, `::floor(x)`: CUDA's overloads are global. On the
        // CPU executor they live in that namespace (own_cpu_prelude.hpp); on a
        // GPU they are CUDA's own.
        if (listed(t[1].spelling, kScopedOverloads))
            m_cpuOnly.push_back(Edit{t[0].begin, t[0].end, "::tilescope::own_user::", false, m_editCount++});
    }

    // A name used on its own: the arrays may only be indexed.
    void reference(CXCursor c, Scope& scope) {
        const std::string name = str(clang_getCursorSpelling(c));
        const CXCursor target = clang_getCursorReferenced(c);
        const CXCursorKind tk = clang_getCursorKind(target);
        const bool array = (tk == CXCursor_ParmDecl && isFloatPointer(clang_getCursorType(target))) ||
                           m_sharedDeclarations.count(declarationAt(c)) ||
                           (tk == CXCursor_VarDecl && m_constantNames.count(name) &&
                            clang_getCursorKind(clang_getCursorSemanticParent(target)) == CXCursor_TranslationUnit);
        if (array && !m_subscripted.count(beginOf(c)))
            reject(lineOf(c), name + " is used here other than as " + name + "[...] (pointer arithmetic, &, sizeof, "
                              "or passed on): TileScope follows arrays through their [] alone, so index it directly");
        if (tk == CXCursor_FunctionDecl && hasAttr(target, CXCursor_CUDAGlobalAttr) && scope.context != Context::Host)
            reject(lineOf(c), "a kernel launching a kernel (dynamic parallelism) is not supported");
    }

    void unary(CXCursor c) {
        const std::vector<CXCursor> kids = children(c);
        if (kids.empty()) return;
        const CXCursor operand = unwrap(kids[0]);
        const bool element = clang_getCursorKind(operand) == CXCursor_ArraySubscriptExpr;
        const auto [first, last] = unaryOperator(c, kids[0]);
        if (element && (first == "&"))
            reject(lineOf(c), "the address of an array element (&a[i]) is not supported: index the array itself");
        // `(&x)[100000]` reaches past a local variable, where no trace looks.
        // Device code holds no pointer but the arrays it indexes: a unary
        // operator that gives one takes an address (`&x`, also through a macro).
        if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer)
            reject(lineOf(c), "the address of a variable (&" + str(clang_getCursorSpelling(operand)) +
                              ") is not supported in device code: use the variable itself");
        if (first == "++" || first == "--" || last == "++" || last == "--") {
            const std::string array = element ? rootArray(operand) : "";
            if (m_constantNames.count(array))
                reject(lineOf(c), "a kernel writes " + array + ", a __constant__ array: constant memory is "
                                  "read-only to kernels (launch() fills it with cudaMemcpyToSymbol)");
            written(kids[0]);  // loaded, then stored
            // `++s[t]` gives the element; where its value is used, as a float.
            if (element && (first == "++" || first == "--") && valueUsed() &&
                writableElement(operand) &&
                spellingOf(c) == beginOf(c)) {
                edit(beginOf(c), beginOf(c), "static_cast<" + readAs(operand) + ">(");
                close(endOf(c), ")");
            }
        }
    }

    // [SECTION] Elements read as values. An element of a writable array (P,
    // a __shared__ array) is an ElementRef in the traced language, which loads
    // when it converts to float. A conversion is not a float: the conditional
    // operator would give `c ? 0 : s[t]` the type int, `auto` would keep the
    // reference, overloads (`abs`) and templates would see a class. So every
    // element the kernel reads as a value is written `static_cast<float>(s[t])`,
    // and only an element assigned to (`=`, `+=`, ++, a `float&` bound to it)
    // stays a reference.

    // The operator of a binary expression: the first token after its left operand.
    std::string operatorOf(CXCursor c) const { return binaryOperator(c).spelling; }

    // The left operand of an assignment is written to, not read: an element,
    // or both elements a conditional operator chooses between. An assignment
    // whose value is used (`auto v = (P[i] *= 2.5f)`) gives that value as a
    // float, as C++'s `float&` does once it is read.
    void assigned(CXCursor c) {
        const std::vector<CXCursor> kids = children(c);
        if (!kids.empty()) written(kids[0]);
        if (kids.empty() || !valueUsed()) return;
        const CXCursor lhs = unwrap(kids[0]);
        if (clang_getCursorKind(lhs) != CXCursor_ArraySubscriptExpr || !writableElement(lhs)) return;
        const unsigned begin = spellingOf(c);
        if (begin == UINT_MAX || begin != beginOf(c)) return;  // inside a macro: left as it is
        edit(begin, begin, "static_cast<" + readAs(lhs) + ">(");
        close(endOf(c), ")");
    }
    void written(CXCursor e) {
        e = unwrap(e);
        if (clang_getCursorKind(e) == CXCursor_ConditionalOperator) {
            const std::vector<CXCursor> kids = children(e);
            for (std::size_t k = 1; k < kids.size(); ++k) written(kids[k]);
            return;
        }
        m_lvalues.insert(spellingOf(e));
    }
    // Whether the value of the expression statement() is in (the innermost
    // cursor) is used: false for one that is a statement of its own.
    bool valueUsed() const {
        for (std::size_t i = m_ancestors.size() - 1; i-- > 0;) {
            const CXCursorKind k = clang_getCursorKind(m_ancestors[i]);
            if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) continue;
            // In a statement (a block, if, for, ...) it is a statement of its
            // own or a condition, which reads an element as a bool as it is.
            return !clang_isStatement(k);
        }
        return false;
    }

    // Where the expression's text starts in the file: its own place, or for an
    // expression passed to a macro, its place in the macro's arguments. None
    // (UINT_MAX) for one written inside a macro's definition, which every use
    // of the macro shares.
    unsigned spellingOf(CXCursor c) const {
        const CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(c));
        CXFile file;
        unsigned line, column, offset;
        clang_getSpellingLocation(start, &file, &line, &column, &offset);
        const Where at = expansion(start);
        if (!at.mainFile || !clang_File_isEqual(file, t_mainFile)) return UINT_MAX;
        if (offset < at.offset) return UINT_MAX;  // in a #define, above its use
        return offset;
    }

    // The name the element or row is indexed through (s for s[i][j]), as written.
    static CXCursor rootReference(CXCursor c) {
        while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
            const std::vector<CXCursor> kids = children(c);
            if (kids.empty()) return clang_getNullCursor();
            c = unwrap(kids[0]);
        }
        return clang_getCursorKind(c) == CXCursor_DeclRefExpr ? c : clang_getNullCursor();
    }
    // Where a declaration's name is: what tells two declarations of one name apart.
    static unsigned declarationAt(CXCursor reference) {
        const CXCursor target = clang_getCursorReferenced(reference);
        if (clang_Cursor_isNull(target)) return UINT_MAX;
        const Where at = expansion(clang_getCursorLocation(target));
        return at.mainFile ? at.offset : UINT_MAX;  // the prelude's names are none of the file's arrays
    }
    // An element of an array the kernel writes (P, a __shared__ array): an
    // ElementRef in the traced language. Found by the declaration the name
    // refers to, not by the name, which another kernel or a helper may reuse.
    bool writableElement(CXCursor element) const {
        const CXCursor ref = rootReference(element);
        if (clang_Cursor_isNull(ref)) return false;
        const CXCursor target = clang_getCursorReferenced(ref);
        if (clang_getCursorKind(target) == CXCursor_ParmDecl)
            return isFloatPointer(clang_getCursorType(target)) &&
                   !clang_isConstQualifiedType(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(target))));
        return m_sharedDeclarations.count(declarationAt(ref)) > 0;
    }

    // The name of the array an element or row belongs to (s for s[i][j]).
    static std::string rootArray(CXCursor c) {
        while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
            const std::vector<CXCursor> kids = children(c);
            if (kids.empty()) return {};
            c = unwrap(kids[0]);
        }
        return clang_getCursorKind(c) == CXCursor_DeclRefExpr ? str(clang_getCursorSpelling(c)) : std::string();
    }

    // Writes `static_cast<float>(` before the name at `at` and `)` after it and
    // its `brackets` subscripts, when the text there is that.
    bool readAsFloat(unsigned at, const std::string& name, int brackets, const std::string& as = "float") {
        if (m_readAsFloat.count(at)) return true;
        if (at == UINT_MAX || m_text.compare(at, name.size(), name) != 0) return false;
        std::size_t end = at + name.size();
        for (int b = 0; b < brackets; ++b) {
            while (end < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[end]))) ++end;
            if (end >= m_text.size() || m_text[end] != '[') return false;
            int depth = 0;
            for (; end < m_text.size(); ++end) {
                depth += m_text[end] == '[' ? 1 : m_text[end] == ']' ? -1 : 0;
                if (depth == 0) break;
            }
            if (end >= m_text.size()) return false;
            ++end;
        }
        m_readAsFloat.insert(at);
        edit(at, at, "static_cast<" + as + ">(");
        close(static_cast<unsigned>(end), ")");
        return true;
    }
    // What an element is read as: float, or an int or unsigned array's own type.
    static std::string readAs(CXCursor element) {
        const CXTypeKind k = clang_getCanonicalType(clang_getCursorType(element)).kind;
        return k == CXType_Int ? "int" : k == CXType_UInt ? "unsigned int" : "float";
    }

    void elementRead(CXCursor c) {
        if (!elementKind(clang_getCanonicalType(clang_getCursorType(c)).kind, true)) return;  // a row, not an element
        if (!writableElement(c)) return;  // reads of N and of the mask give floats already
        const std::string array = rootArray(c);
        const unsigned at = spellingOf(c);
        if (m_lvalues.count(at)) return;
        int brackets = 0;
        for (CXCursor e = c; clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr; ++brackets) {
            const std::vector<CXCursor> kids = children(e);
            if (kids.empty()) return;
            e = unwrap(kids[0]);
        }
        // Not spelled where it is used: written by a macro's definition.
        if (!readAsFloat(at, array, brackets, readAs(c))) macroElementRead(c);
    }

    // An element a macro's definition writes (`#define SH(i) s[(i)]`), read as
    // a value: where the macro's use is that element and nothing more (its
    // parent expression reaches beyond the use), the use is read as a float.
    void macroElementRead(CXCursor c) {
        const unsigned begin = beginOf(c), end = endOf(c);
        if (begin >= end) {
            nestedMacroElementRead(c, begin);
            return;
        }
        if (m_readAsFloat.count(begin)) return;
        for (std::size_t i = m_ancestors.size() - 1; i-- > 0;) {
            const CXCursor a = m_ancestors[i];
            const CXCursorKind k = clang_getCursorKind(a);
            if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr) {
                if (beginOf(a) == begin && endOf(a) == end) continue;
            }
            if (beginOf(a) == begin && endOf(a) == end) return;  // the macro holds more than the element
            break;
        }
        m_readAsFloat.insert(begin);
        edit(begin, begin, "static_cast<" + readAs(c) + ">(");
        close(end, ")");
    }

    // The same, with the macro's use inside another macro's arguments
    // (`ID(SH(t))`), where the parser gives the element no extent of its own:
    // the inner use, `SH(t)`, is found where the file spells it.
    void nestedMacroElementRead(CXCursor c, unsigned outer) {
        CXFile file = nullptr;
        unsigned line, column, at;
        clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), &file, &line, &column, &at);
        if (!file || !clang_File_isEqual(file, t_mainFile) || at <= outer || m_readAsFloat.count(at)) return;
        std::size_t end = at;
        while (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
            ++end;
        if (end == at || end >= m_text.size() || m_text[end] != '(') return;  // not a macro's use
        int depth = 0;
        for (; end < m_text.size(); ++end) {
            depth += m_text[end] == '(' ? 1 : m_text[end] == ')' ? -1 : 0;
            if (depth == 0) break;
        }
        if (end >= m_text.size()) return;
        m_readAsFloat.insert(at);
        edit(at, at, "static_cast<" + readAs(c) + ">(");
        close(static_cast<unsigned>(end + 1), ")");
    }

    // A `float&` bound to an element is that element: reading it loads it.
    void elementReferenceRead(CXCursor c) {
        const CXCursor target = clang_getCursorReferenced(c);
        if (clang_getCursorKind(target) != CXCursor_VarDecl) return;
        if (!m_elementReferences.count(expansion(clang_getCursorLocation(target)).offset)) return;
        const unsigned at = spellingOf(c);
        if (!m_lvalues.count(at)) readAsFloat(at, str(clang_getCursorSpelling(c)), 0);
    }

    // `float& e = s[t]` or `const float& c = s[j]`: the reference is the element
    // (`auto e = s[t]`, an ElementRef), so that a later store to s[t] is seen.
    bool elementReference(CXCursor c) {
        const CXType type = clang_getCanonicalType(clang_getCursorType(c));
        if (type.kind != CXType_LValueReference ||
            clang_getCanonicalType(clang_getPointeeType(type)).kind != CXType_Float)
            return false;
        CXCursor init{};
        bool found = false;
        for (CXCursor child : children(c))
            if (clang_isExpression(clang_getCursorKind(child))) {
                init = unwrap(child);
                found = true;
            }
        // `float& e{s[t]}`: the braces hold the element.
        if (found && clang_getCursorKind(init) == CXCursor_InitListExpr) {
            const std::vector<CXCursor> inner = children(init);
            found = inner.size() == 1;
            if (found) init = unwrap(inner[0]);
        }
        const unsigned begin = beginOf(c);
        const bool element = found && clang_getCursorKind(init) == CXCursor_ArraySubscriptExpr && writableElement(init);
        if (!element) return false;
        const unsigned nameAt = expansion(clang_getCursorLocation(c)).offset;
        std::size_t amp;
        if (declaratorComma(begin, &amp) != std::string::npos && amp != std::string::npos) {
            // `, &b = s[j]` after `const float& a = s[i]`: the same auto, without its &.
            if (!m_declarationIsAuto)
                reject(lineOf(c), "declare a reference to an array element in a declaration of its own, not beside "
                                  "other names");
            edit(static_cast<unsigned>(amp), static_cast<unsigned>(amp + 1), " ");
        } else {
            if (spellingOf(c) != begin || nameAt <= begin)
                reject(lineOf(c), "a reference to an array element declared through a macro is not supported: "
                                  "write float& e = s[i]; as it is");
            edit(begin, nameAt, "auto ");  // `const float& a` -> `auto a`
            m_declarationIsAuto = true;
        }
        m_lvalues.insert(spellingOf(init));
        m_elementReferences.insert(nameAt);
        return true;
    }

    // A declarator after the first of its declaration (`b` in `float& a = x,
    // &b = y;` or `__shared__ float a[32], b[8];`), whose extent starts at its
    // name: where the comma before it is, or npos. `amp`, when given, is set
    // to where its `&` is (npos without one).
    std::size_t declaratorComma(unsigned begin, std::size_t* amp = nullptr) const {
        std::size_t k = begin;
        if (amp) *amp = std::string::npos;
        while (k > 0 && (std::isspace(static_cast<unsigned char>(m_text[k - 1])) || m_text[k - 1] == '&' ||
                         m_text[k - 1] == '*')) {
            if (amp && m_text[k - 1] == '&') *amp = k - 1;
            --k;
        }
        return k > 0 && m_text[k - 1] == ',' ? k - 1 : std::string::npos;
    }

    // An assignment into a __constant__ array: constant memory is read-only to kernels.
    void constantWrite(CXCursor c) {
        const std::vector<CXCursor> kids = children(c);
        if (kids.size() != 2) return;
        CXCursor base = unwrap(kids[0]);
        if (clang_getCursorKind(base) != CXCursor_ArraySubscriptExpr) return;
        while (clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr) {
            const std::vector<CXCursor> sub = children(base);
            if (sub.empty()) return;
            base = unwrap(sub[0]);
        }
        const std::string name = str(clang_getCursorSpelling(base));
        if (!m_constantNames.count(name)) return;
        const std::string op = operatorOf(c);
        if (op.size() >= 1 && op.back() == '=' && op != "==" && op != "<=" && op != ">=" && op != "!=")
            reject(lineOf(c), "a kernel writes " + name + ", a __constant__ array: constant memory is "
                              "read-only to kernels (launch() fills it with cudaMemcpyToSymbol)");
    }

    // `sum += x` on a local float: one multiply-add, recorded on its line.
    bool compoundAssign(CXCursor c, Scope& scope) {
        const std::vector<CXCursor> kids = children(c);
        if (kids.size() != 2) return false;
        const CXCursor lhs = unwrap(kids[0]);
        if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr) return false;
        const CXCursor target = clang_getCursorReferenced(lhs);
        if (clang_getCursorKind(target) != CXCursor_VarDecl) return false;
        if (clang_getCanonicalType(clang_getCursorType(target)).kind != CXType_Float) return false;
        if (clang_Cursor_getStorageClass(target) != CX_SC_None) return false;
        const Operator op = binaryOperator(c);
        if (op.spelling != "+=") return false;
        const std::string var = str(clang_getCursorSpelling(lhs));
        edit(beginOf(kids[0]), op.end, "tsAddTo(" + var + ", ");
        close(endOf(c), ", " + std::to_string(lineOf(c)) + ")");
        statement(kids[1], scope);
        return true;
    }

    void localVariable(CXCursor c, Scope& scope) {
        const std::string name = str(clang_getCursorSpelling(c));
        const unsigned line = lineOf(c);
        const CXType type = clang_getCursorType(c);
        const bool device = scope.context != Context::Host;
        attributes(c);
        if (hasAttr(c, CXCursor_CUDASharedAttr)) {
            if (scope.context != Context::Kernel)
                reject(line, "__shared__ " + name + " outside a kernel: declare it in the __global__ function");
            KernelDeclaration& k = *scope.kernel;
            SharedDeclaration d{name, 1, 0, k.staticSharedFloats, false, line};
            const CXType canonical = clang_getCanonicalType(type);
            if (canonical.kind == CXType_IncompleteArray &&
                clang_getCanonicalType(clang_getArrayElementType(canonical)).kind == CXType_Float) {
                d.dynamic = true;
            } else if (const auto sizes = floatArray(type, line, "__shared__ " + name, kSharedLimit, true)) {
                d.rows = sizes->first;
                d.cols = sizes->second;
                d.element = elementSpelling(type);
                if (is2D(type)) m_shared2D.insert(name);
                k.staticSharedFloats += d.rows * d.cols;
            } else if (const auto sizes3 = floatArray3D(type, line, "__shared__ " + name, true)) {
                d.element = elementSpelling(type);
                d.planes = (*sizes3)[0];
                d.rows = (*sizes3)[1];
                d.cols = (*sizes3)[2];
                m_shared3D.insert(name);
                k.staticSharedFloats += d.planes * d.rows * d.cols;
            } else {
                reject(line, "__shared__ " + name + " is " + typeName(type) +
                                 ": shared arrays here are float, int or unsigned arrays of one, two or three "
                                 "dimensions whose sizes are known at compile time (#define them), or extern "
                                 "__shared__ float " + name + "[]");
            }
            unsigned begin = beginOf(c);
            const unsigned end = endOf(c);
            // `__shared__ float a[32], b[4][8];`: b's declaration starts at its
            // name, after the comma, which becomes the end of a's statement.
            const std::size_t comma = declaratorComma(begin);
            const bool later = comma != std::string::npos;
            if (later) begin = static_cast<unsigned>(comma);
            m_sharedEdits.push_back({{begin, end}, k.shared.size(), later});
            k.shared.push_back(d);
            m_sharedDeclarations.insert(expansion(clang_getCursorLocation(c)).offset);
            return;
        }
        if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
            reject(line, "extern variable " + name + ": a kernel file may not declare a variable defined elsewhere "
                                                     "(the C library's environ, say)");
        if (device && clang_getCanonicalType(type).kind == CXType_Pointer)
            reject(line, "pointer variable " + name + ": index the kernel's arrays directly (N[i]), so that every "
                                                      "access is traced");
        if (device && isFunctionType(type))
            reject(line, "function pointer " + name + ": a kernel file calls functions by their name, and holds no "
                                                      "pointer to one");
        if (device && (clang_Cursor_getStorageClass(c) == CX_SC_Static))
            reject(line, "static variable " + name + " in device code is not supported: use a local variable, or a "
                         "__shared__ array for what the block shares");
        if (device) {
            // The first declarator of a declaration, or one after it (`, b`).
            const bool later = declaratorComma(beginOf(c)) != std::string::npos;
            if (!elementReference(c)) {
                if (later && m_declarationIsAuto)
                    reject(line, "declare a reference to an array element in a declaration of its own, not beside "
                                 "other names");
                if (!later) m_declarationIsAuto = false;
            }
        }
        for (CXCursor child : children(c)) statement(child, scope);
        if (!device) hostVariable(c, name, line, type);
    }

    // What launch() and its host functions declare: numbers, dim3, events,
    // streams and cudaError_t. A pointer or an array is refused once the body
    // has been read (hostBody); a static variable's initialiser is a constant,
    // which runs no code.
    void hostVariable(CXCursor c, const std::string& name, unsigned line, CXType type) {
        const CXType t = clang_getCanonicalType(type);
        if (isFunctionType(t)) {
            if (!m_hostVariable)
                m_hostVariable = HostVariable{line, "function pointer " + name + ": a kernel file calls functions by "
                                                    "their name, and holds no pointer to one"};
            return;
        }
        if (t.kind == CXType_Pointer && !isEventOrStream(t)) {
            if (!m_hostVariable)
                m_hostVariable = HostVariable{line, "pointer variable " + name + " in host code: launch() passes N, M "
                                                    "and P to the kernel as they are (const_cast<float*>(N) too), and "
                                                    "holds no other pointer; cudaMalloc, malloc and new are not needed"};
            return;
        }
        if (isArrayType(t)) {
            if (!m_hostVariable)
                m_hostVariable = HostVariable{line, "array " + name + " in host code: launch() and its host functions "
                                                    "hold numbers, dim3, cudaEvent_t and cudaStream_t; arrays belong "
                                                    "in kernels"};
            return;
        }
        if (!isHostType(t))
            reject(line, name + " is " + typeName(type) + ": launch() and its host functions declare numbers, dim3, "
                                                          "cudaEvent_t, cudaStream_t and cudaError_t");
        if (clang_Cursor_getStorageClass(c) == CX_SC_Static && !constantInitialiser(c))
            reject(line, "static variable " + name + " with an initialiser that is not a constant: it would run code "
                                                     "at a time of its own; give it a number, or make it a local "
                                                     "variable");
    }

    void call(CXCursor c, Scope& scope) {
        if (launchConfiguration(str(clang_getCursorSpelling(c)))) {
            const std::vector<CXCursor> kids = children(c);
            for (std::size_t i = 1; i < kids.size(); ++i) statement(kids[i], scope);  // <<<grid, block>>>'s values
            return;
        }
        const std::string name = str(clang_getCursorSpelling(c));
        const unsigned line = lineOf(c);
        // A kernel launch is a call with a launch configuration, whatever the
        // <<< >>> hold (a macro, a call) and however they are spaced.
        const std::vector<CXCursor> kids = children(c);
        const bool launch = std::any_of(kids.begin(), kids.end(), [](CXCursor k) {
            k = unwrap(k);
            return clang_getCursorKind(k) == CXCursor_CallExpr &&
                   launchConfiguration(str(clang_getCursorSpelling(k)));
        });
        if (launch) {
            if (scope.context != Context::Host)
                reject(line, "a kernel launch inside device code (dynamic parallelism) is not supported");
            kernelLaunch(c, tokens(c), scope);
            return;
        }
        const CXCursor callee = clang_getCursorReferenced(c);
        const CXCursorKind calleeKind = clang_getCursorKind(callee);
        // dim3's and uint3's constructors and assignments (`dim3 b; b = dim3(16, 16);`, `t = blockIdx;`).
        const std::string calleeOwner = str(clang_getCursorSpelling(clang_getCursorSemanticParent(callee)));
        const bool dim3Member = (calleeKind == CXCursor_CXXMethod || calleeKind == CXCursor_Constructor) &&
                                (calleeOwner == "dim3" || calleeOwner == "uint3");
        if (calleeKind == CXCursor_Constructor || calleeKind == CXCursor_ConversionFunction || name == "dim3" ||
            dim3Member) {
            for (CXCursor child : children(c)) statement(child, scope);
            return;
        }
        if (!clang_Cursor_isNull(callee) && builtinFunction(callee))
            reject(line, whyNotCompilerName(str(clang_getCursorSpelling(callee))));
        if (compilerName(name)) reject(line, whyNotCompilerName(name));
        // A call names the function it calls: anything else (a variable, *p,
        // a cast, a choice) calls through a pointer, to wherever it points.
        const CXCursor calleeExpression = kids.empty() ? clang_getNullCursor() : unwrap(kids[0]);
        const CXCursorKind named = clang_getCursorKind(clang_getCursorReferenced(calleeExpression));
        if (clang_getCursorKind(calleeExpression) != CXCursor_DeclRefExpr ||
            (named != CXCursor_FunctionDecl && named != CXCursor_FunctionTemplate))
            reject(line, "a call through " +
                             (clang_getCursorKind(calleeExpression) == CXCursor_DeclRefExpr
                                  ? "the variable " + str(clang_getCursorSpelling(calleeExpression))
                                  : std::string("an expression")) +
                             ": a kernel file calls functions by their name (f(x)), never through a pointer or a "
                             "variable");
        builtinReference(calleeExpression);
        globalQualifier(calleeExpression);
        const bool ownFunction = !clang_Cursor_isNull(callee) && expansion(clang_getCursorLocation(callee)).mainFile;
        if (ownFunction && calleeKind == CXCursor_FunctionDecl && !hasAttr(callee, CXCursor_CUDAGlobalAttr)) {
            // Declared in the file, defined nowhere in it: the compiler would
            // link it to whatever function of that name it finds (`extern "C"
            // int system(const char*);`).
            const CXCursor definition = clang_getCursorDefinition(callee);
            if (clang_Cursor_isNull(definition) || !expansion(clang_getCursorLocation(definition)).mainFile)
                reject(line, name + " is declared in the file but not defined in it: a kernel file may call only "
                                    "its own functions and CUDA's and C's documented ones");
        }
        if (scope.context != Context::Host) {
            if (!ownFunction && !listed(name, kKernelCalls) && !listed(name, kMathCalls) && !vectorMaker(callee))
                reject(line, whyNotCall(name));
            if (ownFunction && hasAttr(callee, CXCursor_CUDAGlobalAttr))
                reject(line, "a kernel launching a kernel (dynamic parallelism) is not supported");
            if (!ownFunction && (name == "fmaf" || name == "__fmaf_rn")) fusedMultiplyAdd(c, name);
        } else {
            if (!ownFunction && !listed(name, kHostCalls) && !listed(name, kMathCalls) && !vectorMaker(callee))
                reject(line, whyNotCall(name));
            if (name == "cudaMemcpyToSymbol") {
                const std::vector<CXCursor> kids = children(c);
                // children: the callee, then the arguments
                if (kids.size() >= 2) {
                    const CXCursor symbol = unwrap(kids[1]);
                    const std::string s = str(clang_getCursorSpelling(symbol));
                    if (clang_getCursorKind(symbol) != CXCursor_DeclRefExpr || !m_constantNames.count(s))
                        reject(line, "cudaMemcpyToSymbol copies into a __constant__ array declared in this file");
                    m_subscripted.insert(beginOf(symbol));
                }
            }
        }
        if (name == "printf") printfCall(c, kids);
        // The arguments; the callee was read above.
        for (std::size_t i = 1; i < kids.size(); ++i)
            if (scope.context != Context::Kernel && scope.context != Context::Device && eventAddress(name, i, kids[i]))
                continue;
            else
                statement(kids[i], scope);
    }

    // `fmaf(a, b, c)` in device code, written out where the file spells it:
    // one multiply-add, fused as CUDA's, recorded on its line as `sum += a * b`
    // is (tsFmaf, own_language.inl). Through a macro or `::fmaf` it is left
    // as it is: computed, not counted.
    void fusedMultiplyAdd(CXCursor c, const std::string& name) {
        const unsigned begin = beginOf(c), end = endOf(c);
        if (end <= begin + name.size() || end > m_text.size() || m_text.compare(begin, name.size(), name) != 0 ||
            m_text[end - 1] != ')')
            return;
        edit(begin, begin + static_cast<unsigned>(name.size()), "tsFmaf");
        close(end - 1, ", " + std::to_string(lineOf(c)));
    }

    // `cudaEventCreate(&start)`, `cudaEventElapsedTime(&ms, start, stop)`:
    // the one place host code takes an address, of a local variable of its own.
    static bool eventAddress(const std::string& function, std::size_t argument, CXCursor e) {
        if (argument != 1 || (function != "cudaEventCreate" && function != "cudaEventElapsedTime")) return false;
        e = unwrap(e);
        if (clang_getCursorKind(e) != CXCursor_UnaryOperator) return false;
        const std::vector<CXCursor> kids = children(e);
        if (kids.size() != 1 || clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Pointer) return false;
        const CXCursor variable = unwrap(kids[0]);
        if (clang_getCursorKind(variable) != CXCursor_DeclRefExpr) return false;
        const CXCursor target = clang_getCursorReferenced(variable);
        if (clang_getCursorKind(target) != CXCursor_VarDecl || !expansion(clang_getCursorLocation(target)).mainFile ||
            clang_getCursorKind(clang_getCursorSemanticParent(target)) == CXCursor_TranslationUnit)
            return false;
        const CXType t = clang_getCursorType(target);
        return function == "cudaEventCreate" ? isEventOrStream(t) : clang_getCanonicalType(t).kind == CXType_Float;
    }

    // printf's format is a literal the check reads: no %n (which writes
    // through its argument), a string (%s) only from a literal or
    // cudaGetErrorString, and no fewer values than the format takes (printf
    // would read values that are not there).
    void printfCall(CXCursor c, const std::vector<CXCursor>& kids) const {
        const unsigned line = lineOf(c);
        if (kids.size() < 2 || clang_getCursorKind(unwrap(kids[1])) != CXCursor_StringLiteral)
            reject(line, "printf's format is a string literal here (printf(\"%d\\n\", x)), so that TileScope "
                         "knows what it reads");
        std::string format;
        bool evaluated = false;
        // The literal as the compiler reads it (escapes, pieces joined), through
        // the conversion to a pointer that printf's parameter makes.
        for (const CXCursor literal : {kids[1], unwrap(kids[1])}) {
            if (evaluated) break;
            if (const CXEvalResult value = clang_Cursor_Evaluate(literal)) {
                if (clang_EvalResult_getKind(value) == CXEval_StrLiteral) {
                    format = clang_EvalResult_getAsStr(value);
                    evaluated = true;
                }
                clang_EvalResult_dispose(value);
            }
        }
        if (!evaluated) reject(line, "printf's format is a plain string literal here (printf(\"%d\\n\", x))");
        auto any = [](char ch, const char* set) { return ch != '\0' && std::string(set).find(ch) != std::string::npos; };
        std::vector<char> takes;  // per value: its conversion, '*' for a width or a precision
        for (std::size_t i = 0; i < format.size(); ++i) {
            if (format[i] != '%') continue;
            if (++i < format.size() && format[i] == '%') continue;
            while (i < format.size() && any(format[i], "-+ #0'")) ++i;
            if (i < format.size() && format[i] == '*') {
                takes.push_back('*');
                ++i;
            }
            while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
            if (i < format.size() && format[i] == '$')
                reject(line, "printf's numbered values (%1$d) are not supported: pass the values in the order the "
                             "format takes them");
            if (i < format.size() && format[i] == '.') {
                ++i;
                if (i < format.size() && format[i] == '*') {
                    takes.push_back('*');
                    ++i;
                }
                while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
            }
            while (i < format.size() && any(format[i], "hlLqjzt")) ++i;
            const char conversion = i < format.size() ? format[i] : '\0';
            if (conversion == 'n')
                reject(line, "printf's %n writes through its argument: a kernel file may not use it");
            if (!any(conversion, "diouxXeEfFgGaAcsp"))
                reject(line, std::string("printf's format holds %") +
                                 (std::isprint(static_cast<unsigned char>(conversion)) ? std::string(1, conversion)
                                                                                      : std::string()) +
                                 ", which a kernel file's printf does not take (%d, %u, %x, %f, %e, %g, %c, %s, %p "
                                 "and %% do)");
            takes.push_back(conversion);
        }
        const std::size_t values = kids.size() - 2;
        if (values < takes.size())
            reject(line, "printf's format takes " + std::to_string(takes.size()) + " values and the call passes " +
                             std::to_string(values) + ": printf would read values that are not there");
        for (std::size_t v = 0; v < values; ++v) {
            const CXCursor value = unwrap(kids[2 + v]);
            const bool string = clang_getCursorKind(value) == CXCursor_StringLiteral ||
                                (clang_getCursorKind(value) == CXCursor_CallExpr &&
                                 str(clang_getCursorSpelling(value)) == "cudaGetErrorString");
            if ((v < takes.size() && takes[v] == 's' && !string) ||
                (!string && isPointerType(clang_getCursorType(kids[2 + v]))))
                reject(line, "printf's %s takes a string literal or cudaGetErrorString(err) here, and printf no "
                             "other pointer");
        }
    }

    void kernelLaunch(CXCursor c, const std::vector<Token>& toks, Scope& scope) {
        const unsigned line = lineOf(c);
        const std::vector<CXCursor> kids = children(c);
        if (kids.empty()) reject(line, "a kernel launch TileScope cannot read: write kernel<<<grid, block>>>(arguments)");
        const CXCursor callee = unwrap(kids[0]);
        const std::string kernel = str(clang_getCursorSpelling(callee));
        if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr) globalQualifier(callee);

        if (!m_kernels.count(kernel) && !m_declaredKernels.count(kernel))
            reject(line, "launch() may launch only a __global__ kernel declared above it in this file");
        auto open = std::find_if(toks.begin(), toks.end(), [](const Token& t) { return t.spelling == "<<<"; });
        auto close = std::find_if(open, toks.end(), [](const Token& t) { return t.spelling == ">>>"; });
        if (open == toks.end() || close == toks.end()) reject(line, "a kernel launch without its closing >>>");
        int commas = 0, depth = 0;
        for (auto t = open + 1; t != close; ++t) {
            if (t->spelling == "(" || t->spelling == "{" || t->spelling == "[") ++depth;
            if (t->spelling == ")" || t->spelling == "}" || t->spelling == "]") --depth;
            if (t->spelling == "," && depth == 0) ++commas;
        }
        if (commas > 3) reject(line, "<<<grid, block, bytes, stream>>> takes at most four values");
        m_launchesKernel = true;
        Launch launch{kernel, beginOf(callee), open->begin, open->end, close->begin, close->end, {}};
        // Which of launch()'s arrays (N, M, P: its first three parameters) each argument passes.
        for (std::size_t i = 1; i < kids.size(); ++i) {
            const CXCursor arg = unwrap(kids[i]);
            if (clang_getCursorKind(arg) == CXCursor_CallExpr &&
                launchConfiguration(str(clang_getCursorSpelling(arg))))
                continue;
            // Seen through its casts and parentheses: `(float*)N`, `static_cast<const float*>(N)` and
            // `const_cast<float*>(P)` pass N and P on as well.
            CXCursor passed = arg;
            for (;;) {
                const CXCursorKind k = clang_getCursorKind(passed);
                if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
                    k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXConstCastExpr &&
                    k != CXCursor_CXXFunctionalCastExpr)
                    break;
                CXCursor operand = clang_getNullCursor();
                for (CXCursor child : children(passed))
                    if (clang_isExpression(clang_getCursorKind(child))) operand = child;
                if (clang_Cursor_isNull(operand)) break;
                passed = operand;
            }
            std::uint8_t array = kArrayNone;
            if (clang_getCursorKind(passed) == CXCursor_DeclRefExpr) {
                const std::string name = str(clang_getCursorSpelling(passed));
                for (std::size_t p = 0; p < m_launchParams.size() && p < 3; ++p)
                    if (m_launchParams[p] == name)
                        array = p == 0 ? kArrayInput : p == 1 ? kArrayMask : kArrayOutput;
            }
            launch.arrays.push_back(array);
        }
        m_launches.push_back(launch);
        for (std::size_t i = 1; i < kids.size(); ++i) statement(kids[i], scope);
    }

public:
    // The launch edits need each kernel's static shared size, known only once
    // every kernel has been read. The first launch names the kernel the run follows.
    void finishLaunches(Translation& out) {
        if (!m_launches.empty()) out.launched = m_launches.front().kernel;
        for (const Launch& l : m_launches) {
            KernelDeclaration* k = nullptr;
            for (KernelDeclaration& d : out.kernels)
                if (d.name == l.kernel) k = &d;
            const int bytes = k ? k->staticSharedFloats * 4 : 0;
            if (k && k->arrayOf.empty()) k->arrayOf = l.arrays;
            edit(l.calleeBegin, l.calleeBegin, "::tilescope::own_user::launchKernel(");
            edit(l.openBegin, l.openEnd, ", \"" + l.kernel + "\", " + std::to_string(bytes) + ", ");
            edit(l.closeBegin, l.closeEnd, ")");  // replaces >>>
        }
    }

    void noteConstants(const Translation& out) {
        for (const ConstantDeclaration& c : out.constants) m_constantNames.insert(c.name);
    }

private:
    struct Launch {
        std::string kernel;
        unsigned calleeBegin, openBegin, openEnd, closeBegin, closeEnd;
        std::vector<std::uint8_t> arrays;  // per argument: the launch() array it passes, or kArrayNone
    };
    std::vector<std::string> m_launchParams;

    const std::string& m_path;
    const std::string& m_text;
    CXTranslationUnit m_tu;
    std::vector<Edit> m_edits;
    unsigned m_editCount = 0;
    std::vector<Edit> m_hostOnly;     // blanked in the device sources
    std::vector<Edit> m_cpuOnly;      // the CPU executor's source alone
    std::vector<Edit> m_plainDevice;  // the edits of the plain device source
    std::vector<Launch> m_launches;
    struct SharedEdit {
        std::pair<unsigned, unsigned> span;
        std::size_t declaration;
        bool later;  // a declarator after the first: its span starts at the comma
    };
    std::vector<SharedEdit> m_sharedEdits;
    std::set<std::string> m_arrays, m_arrayParams, m_shared2D, m_shared3D, m_constantNames, m_kernels;
    std::set<unsigned> m_subscripted;  // offsets of array names used as a[...]
    std::set<unsigned> m_sharedDeclarations;  // where each __shared__ array's name is declared
    std::set<std::string> m_declaredKernels;  // kernels declared ahead of their definition
    std::set<unsigned> m_lvalues;            // where an element assigned to is spelled
    std::set<unsigned> m_readAsFloat;        // where static_cast<float>( was written
    std::set<unsigned> m_elementReferences;  // the names of float& bound to elements
    bool m_declarationIsAuto = false;  // the declaration under way is written as auto (references to elements)
    std::vector<CXCursor> m_ancestors;                 // the cursors statement() is inside, innermost last
    unsigned m_nesting = 0;                            // how many of them the student wrote (no conversions)
    struct HostVariable {
        unsigned line;
        std::string message;
    };
    std::optional<HostVariable> m_hostVariable;
    std::optional<Diagnostic> m_hostSignature;  // the first host function that takes or returns what it may not  // the first pointer or array variable of the host body under way
    bool m_sawLaunch = false;
    bool m_launchesKernel = false;
    unsigned m_launchLine = 1;
    int m_dims = 2;
};

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

}  // namespace

namespace {

// [SECTION] Function templates, written out at the arguments the file uses.
//
// libclang sees a template's instantiations (`conv<float><<<g, b>>>(...)`,
// or its arguments deduced from the call) but walks only the template as
// written. So a file with function templates is read twice: first to learn,
// for each, the one set of arguments the file uses it with; then as the text
// it stands for, the `template <...>` header blanked, each parameter's name
// in the template replaced by its argument (`T` -> `float`, `TILE` -> `16`)
// and the explicit arguments at each use blanked. Lines stay where they were.

struct TemplateText {
    std::optional<std::string> text;        // the file written out, when it has templates
    std::optional<Diagnostic> refused;
};

struct TemplateUse {
    CXCursor declaration;  // the template's canonical cursor
    std::vector<std::string> arguments;
    unsigned line = 0;
    unsigned argumentsBegin = 0, argumentsEnd = 0;  // `<float>` after the name, if written
};

struct TemplateScan {
    std::vector<CXCursor> templates;  // canonical cursors
    std::vector<TemplateUse> uses;
    std::optional<Diagnostic> refused;
    const std::string* path;
    const std::string* text;
};

bool sameCursor(CXCursor a, CXCursor b) { return clang_equalCursors(a, b) != 0; }

CXChildVisitResult scanTemplateUse(CXCursor c, CXCursor, CXClientData data) {
    TemplateScan& scan = *static_cast<TemplateScan*>(data);
    if (scan.refused) return CXChildVisit_Break;
    const CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr) {
        const Where at = expansion(clang_getCursorLocation(c));
        const CXCursor referenced = clang_getCursorReferenced(c);
        const CXCursor pattern = clang_getSpecializedCursorTemplate(referenced);
        if (at.mainFile && !clang_Cursor_isNull(pattern)) {
            const CXCursor canonical = clang_getCanonicalCursor(pattern);
            for (const CXCursor& t : scan.templates) {
                if (!sameCursor(t, canonical)) continue;
                TemplateUse use{canonical, {}, at.line, 0, 0};
                const int n = clang_Cursor_getNumTemplateArguments(referenced);
                for (int i = 0; i < n; ++i) {
                    const CXTemplateArgumentKind k = clang_Cursor_getTemplateArgumentKind(referenced, static_cast<unsigned>(i));
                    if (k == CXTemplateArgumentKind_Type) {
                        use.arguments.push_back(str(clang_getTypeSpelling(
                            clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(referenced, static_cast<unsigned>(i))))));
                    } else if (k == CXTemplateArgumentKind_Integral) {
                        use.arguments.push_back(
                            std::to_string(clang_Cursor_getTemplateArgumentValue(referenced, static_cast<unsigned>(i))));
                    } else {
                        scan.refused = Diagnostic{*scan.path, at.line, 0,
                                                  str(clang_getCursorSpelling(t)) + "'s template arguments are "
                                                  "neither types nor numbers: write it as a plain function"};
                        return CXChildVisit_Break;
                    }
                }
                // `name<float, 16>`: the written arguments, after the name.
                const std::string name = str(clang_getCursorSpelling(t));
                const unsigned begin = expansion(clang_getRangeStart(clang_getCursorExtent(c))).offset;
                unsigned end = 0;
                clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), nullptr, nullptr, nullptr, &end);
                const std::string& text = *scan.text;
                std::size_t after = text.find(name, begin);
                if (after != std::string::npos && after < end) {
                    after += name.size();
                    while (after < end && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
                    if (after < end && text[after] == '<' && text[end - 1] == '>') {
                        use.argumentsBegin = static_cast<unsigned>(after);
                        use.argumentsEnd = end;
                    }
                }
                scan.uses.push_back(use);
            }
        }
    }
    return CXChildVisit_Recurse;
}

// The `template <...>` that opens a template's text: [begin, end) in the file.
std::pair<unsigned, unsigned> templateHeader(CXTranslationUnit tu, CXCursor t) {
    CXToken* tokens = nullptr;
    unsigned count = 0;
    clang_tokenize(tu, clang_getCursorExtent(t), &tokens, &count);
    std::pair<unsigned, unsigned> header{0, 0};
    int depth = 0;
    for (unsigned i = 0; i < count; ++i) {
        const std::string spelling = str(clang_getTokenSpelling(tu, tokens[i]));
        unsigned offset = 0;
        clang_getExpansionLocation(clang_getTokenLocation(tu, tokens[i]), nullptr, nullptr, nullptr, &offset);
        if (i == 0) {
            if (spelling != "template") break;
            header.first = offset;
            continue;
        }
        if (spelling == "<") ++depth;
        else if (spelling == ">") --depth;
        else if (spelling == ">>") depth -= 2;
        if (depth <= 0 && i > 1) {
            header.second = offset + static_cast<unsigned>(spelling.size());
            break;
        }
    }
    clang_disposeTokens(tu, tokens, count);
    return header;
}

// `last`: the last reading there will be, where a template still unused is
// dropped (before it, one may be used by a template written out this time:
// `f(x)` in a template's body names f's instantiation once x has a type).
TemplateText instantiateTemplates(const std::string& path, CXTranslationUnit tu, const std::string& text, bool last) {
    TemplateScan scan{{}, {}, std::nullopt, &path, &text};
    std::vector<CXCursor> written;  // every declaration of a template, prototype and definition
    for (CXCursor c : children(clang_getTranslationUnitCursor(tu))) {
        if (clang_getCursorKind(c) != CXCursor_FunctionTemplate || !expansion(clang_getCursorLocation(c)).mainFile)
            continue;
        written.push_back(c);
        const CXCursor canonical = clang_getCanonicalCursor(c);
        bool known = false;
        for (const CXCursor& t : scan.templates) known = known || sameCursor(t, canonical);
        if (!known) scan.templates.push_back(canonical);
    }
    if (written.empty()) return {};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), scanTemplateUse, &scan);
    if (scan.refused) return {std::nullopt, scan.refused};

    struct Replacement {
        unsigned begin, end;
        std::string text;
    };
    std::vector<Replacement> replacements;
    auto blank = [&](unsigned begin, unsigned end) {
        std::string spaces = text.substr(begin, end - begin);
        for (char& ch : spaces)
            if (ch != '\n') ch = ' ';
        replacements.push_back({begin, end, spaces});
    };
    for (const CXCursor& declaration : written) {
        const CXCursor canonical = clang_getCanonicalCursor(declaration);
        const std::string name = str(clang_getCursorSpelling(declaration));
        const unsigned line = expansion(clang_getRangeStart(clang_getCursorExtent(declaration))).line;
        const std::vector<std::string>* arguments = nullptr;
        for (const TemplateUse& use : scan.uses) {
            if (!sameCursor(use.declaration, canonical)) continue;
            if (arguments && *arguments != use.arguments) {
                auto listed = [](const std::vector<std::string>& a) {
                    std::string s = "<";
                    for (std::size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i];
                    return s + ">";
                };
                return {std::nullopt,
                        Diagnostic{path, use.line, 0,
                                   name + " is used at " + listed(*arguments) + " and at " + listed(use.arguments) +
                                       ": a kernel file's template is written out at one set of arguments; write "
                                       "a function of its own for each"}};
            }
            arguments = &use.arguments;
        }
        const auto header = templateHeader(tu, declaration);
        if (header.second <= header.first)
            return {std::nullopt, Diagnostic{path, line, 0, "the template " + name + " cannot be read: write it as "
                                                           "a plain function"}};
        unsigned end = 0;
        clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(declaration)), nullptr, nullptr, nullptr,
                                   &end);
        if (!arguments) {
            // Never used: nothing of it runs, and nothing of it is compiled.
            if (last || scan.uses.empty()) blank(header.first, end);
            continue;
        }
        // Its parameters, in order.
        std::vector<std::string> parameters;
        for (CXCursor p : children(declaration)) {
            const CXCursorKind k = clang_getCursorKind(p);
            if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter)
                parameters.push_back(str(clang_getCursorSpelling(p)));
            else if (k == CXCursor_TemplateTemplateParameter)
                return {std::nullopt, Diagnostic{path, line, 0, name + " takes a template as a parameter: write it "
                                                                "as a plain function"}};
        }
        if (parameters.size() != arguments->size())
            return {std::nullopt, Diagnostic{path, line, 0, name + "'s parameters and arguments do not pair up (a "
                                                            "parameter pack?): write it as a plain function"}};
        blank(header.first, header.second);
        // Each use of a parameter's name in the rest of it.
        CXToken* tokens = nullptr;
        unsigned count = 0;
        clang_tokenize(tu, clang_getCursorExtent(declaration), &tokens, &count);
        for (unsigned i = 0; i < count; ++i) {
            if (clang_getTokenKind(tokens[i]) != CXToken_Identifier) continue;
            unsigned offset = 0;
            clang_getExpansionLocation(clang_getTokenLocation(tu, tokens[i]), nullptr, nullptr, nullptr, &offset);
            if (offset < header.second) continue;
            const std::string spelling = str(clang_getTokenSpelling(tu, tokens[i]));
            for (std::size_t p = 0; p < parameters.size(); ++p)
                if (!parameters[p].empty() && spelling == parameters[p] &&
                    text.compare(offset, spelling.size(), spelling) == 0)
                    replacements.push_back({offset, offset + static_cast<unsigned>(spelling.size()), (*arguments)[p]});
        }
        clang_disposeTokens(tu, tokens, count);
    }
    for (const TemplateUse& use : scan.uses)
        if (use.argumentsEnd > use.argumentsBegin) blank(use.argumentsBegin, use.argumentsEnd);
    std::sort(replacements.begin(), replacements.end(),
              [](const Replacement& a, const Replacement& b) { return a.begin > b.begin; });
    std::string out = text;
    unsigned lastBegin = static_cast<unsigned>(out.size()) + 1;
    for (const Replacement& r : replacements) {
        if (r.end > lastBegin || r.end > out.size()) continue;  // overlapping (a use inside a blanked template)
        out.replace(r.begin, r.end - r.begin, r.text);
        lastBegin = r.begin;
    }
    return {out, std::nullopt};
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
                          j->result.emplace(translateHere(*j->path, *j->text, *j->scratch, j->diagnostic));
                          return nullptr;
                      },
                      &job) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) return translateHere(path, text, scratch, diagnostic);  // no thread to be had: this one
    pthread_join(thread, nullptr);
    return std::move(*job.result);
}

#else

Result<Translation> translate(const std::string& path, const std::string&, const std::string&, Diagnostic* diagnostic) {
    Diagnostic d{path, 0, 0, "reading a kernel file needs libclang, which this build of TileScope did not find "
                             "(Debian: apt-get install libclang-dev, then build again)"};
    if (diagnostic) *diagnostic = d;
    return badInput(d.text());
}

#endif

}  // namespace tilescope::own
