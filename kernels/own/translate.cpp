// The translator's public face, beside translate() itself (translate_parse.cpp):
// a compiler's message in the student's words, and the line it names.
// translate_parts.hpp lists the translator's parts and what each holds.
#include "own/translate.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <string>

namespace tilescope::own {

const KernelDeclaration* Translation::kernel(const std::string& name) const {
    for (const KernelDeclaration& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

std::vector<std::size_t> KernelDeclaration::sharedInMemoryOrder() const {
    std::vector<std::size_t> order(shared.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return shared[a].offset < shared[b].offset; });
    return order;
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

}  // namespace tilescope::own
