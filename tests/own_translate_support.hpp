// What the translator's in-process tests share: a whole 1D kernel file with
// a hole in the kernel's body and one in launch()'s, and the translation of
// a text as student.cu, timed, its scratch folder removed.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>

#include "own/translate.hpp"

namespace tilescope::test {

// `kernel` is put at the start of the kernel's body (line 4 when `top` is
// empty), `host` at the start of launch()'s (line 9 when `kernel` is empty),
// `top` ahead of both.
inline std::string kernelFile(const std::string& kernel, const std::string& host = "", const std::string& top = "") {
    return top +
           "__global__ void k(const float* N, float* P, int width) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i >= width) return;\n" +
           kernel +
           "    P[i] = N[i];\n"
           "}\n"
           "\n"
           "void launch(const float* N, const float* M, float* P, int r, int width)\n"
           "{\n" +
           host + "    k<<<(width + 31) / 32, 32>>>(N, P, width);\n}\n";
}

struct Translated {
    bool ok = false;
    own::Diagnostic diagnostic;
    std::string message;
    own::Translation translation;
    std::chrono::duration<double> took{};
};

inline Translated translateText(const std::string& text) {
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("tilescope-translate-" + std::to_string(::getpid()));
    Translated t;
    const auto start = std::chrono::steady_clock::now();
    auto r = own::translate("student.cu", text, scratch.string(), &t.diagnostic);
    t.took = std::chrono::steady_clock::now() - start;
    std::filesystem::remove_all(scratch);
    t.ok = static_cast<bool>(r);
    if (r)
        t.translation = std::move(*r);
    else
        t.message = r.error().message;
    return t;
}

}  // namespace tilescope::test
