// A student's CUDA file, read with a real C++ parser (libclang, in CUDA mode)
// and turned into the kernel language the traced executions compile:
//   const float* N            ->  Global<const float> N
//   __shared__ float T[A][B]  ->  SharedArray2D<float> T(tsSharedAt(offset, A*B, part), A, B)
//   __constant__ float M[A]   ->  ConstantArray<float[A]> M
//   sum += x  (a local float) ->  tsAddTo(sum, x, LINE)  (one multiply-add, recorded)
//   s[t] read as a value      ->  static_cast<float>(s[t])
//   const float& c = s[t]     ->  auto c = s[t]        (the element itself)
//   k<<<g, b, s>>>(args)      ->  launchKernel(k, "k", staticBytes, g, b, s)(args)
// Only those spans change; every other byte, and every line break, stays
// where the student put it, so each recorded line and each compiler message
// names a line of the student's file. What the executions cannot follow
// (atomics, pointer arithmetic, classes, ...) is refused with its line and
// the reason; docs/own-kernel.md lists what is supported.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "trace/event.hpp"

namespace tilescope::own {

struct SharedDeclaration {
    std::string name;
    int rows = 1, cols = 0;  // a 1D array has rows = 1
    int offset = 0;          // in floats, from the start of the block's shared memory
    bool dynamic = false;    // extern __shared__ float x[]: sized by the launch
    unsigned line = 0;
    int planes = 1;  // a 3D array's first size (float s[planes][rows][cols])
    std::string element = "float";  // or "int", "unsigned int": 4 bytes, one slot each
    int dims = 1;                    // subscripts as declared: s[c] 1, s[r][c] 2, s[p][r][c] 3
};

struct ConstantDeclaration {
    std::string name;
    int rows = 1, cols = 0;
    unsigned line = 0;
};

struct KernelParameter {
    std::string name;
    bool array = false;     // a float pointer
    bool writable = false;  // float* rather than const float*
};

struct KernelDeclaration {
    std::string name;
    // Which of launch()'s arrays each parameter receives (ArrayId), read off
    // the launch; kArrayNone for numbers, and for a kernel never launched.
    std::vector<std::uint8_t> arrayOf;
    unsigned line = 0;
    std::vector<KernelParameter> parameters;
    std::vector<SharedDeclaration> shared;
    int staticSharedFloats = 0;

    // `shared`'s indices by offset (declarations at one offset in their
    // order): the order of the trace's SharedParts, and each array's
    // Subscript2D::part is its place in it.
    std::vector<std::size_t> sharedInMemoryOrder() const;
};

struct Translation {
    std::string path;  // the student's file, as named
    std::string text;  // its exact bytes
    int dims = 2;      // from launch()'s signature
    std::vector<KernelDeclaration> kernels;
    // The kernel launch()'s first launch names (another may be declared
    // before it): the one the run follows, its report and its views.
    std::string launched;
    std::vector<ConstantDeclaration> constants;
    std::vector<unsigned> barrierLines;  // lines that hold a __syncthreads()
    // The generated sources. cpuSource is a complete C++ file for the CPU
    // executor (own_cpu_prelude.hpp first); deviceSource is the student's
    // kernels alone, as written, for NVRTC; tracedDeviceSource the same
    // kernels in the kernel language, for the instrumented build.
    std::string cpuSource;
    std::string deviceSource;
    std::string tracedDeviceSource;

    const KernelDeclaration* kernel(const std::string& name) const;
};

// One message about the student's file: where, and what.
struct Diagnostic {
    std::string path;
    unsigned line = 0, column = 0;
    std::string message;
    std::string text() const;  // "file.cu:12:5: message", on one line
};

// Reads and translates the file. `scratch` is a folder the parser may write
// its stand-in headers into. On failure the Error's message is the first
// diagnostic's text(), and `diagnostic` (when given) holds it apart.
Result<Translation> translate(const std::string& path, const std::string& text, const std::string& scratch,
                              Diagnostic* diagnostic = nullptr);

// A compiler's message about the translation in the student's words: the
// kernel language's names (its namespaces, ElementRef, Global<const float>,
// SharedArray2D, ConstantArray, Accumulator, ...) given as the CUDA types
// they stand for.
std::string inStudentsWords(std::string message);

// The line a diagnostic's text names ("file.cu:12:5: ..." -> 12), 0 if none.
unsigned diagnosticLine(const std::string& message, const std::string& path);

}  // namespace tilescope::own
