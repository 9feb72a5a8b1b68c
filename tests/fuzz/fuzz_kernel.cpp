// libFuzzer target: the translator of a student's kernel file
// (own/translate.cpp), which parses the file with libclang and rewrites it
// into the traced kernel language. The input is the file's text, written to
// input.cu as a student's file would be, and translated in a scratch folder
// of its own, as compileKernelText does.
//
// Besides "no crash, no sanitizer report, no exception", it checks what the
// translator promises (translate.hpp, docs/own-kernel.md):
//   - a refusal is a Diagnostic and an exit code 2 error whose message is the
//     diagnostic's text(), on one line, naming the file; its line (and
//     column) is within the file, and 0 only for what concerns the whole
//     file (no kernel, no launch(), a file the parser cannot read) or for a
//     parser error in another file that the student's file #includes; its
//     message shows none of TileScope's internal names (own_user, ElementRef,
//     tilescope::, ...), unless the student wrote them;
//   - a translation has kernels with names and lines within the file, one
//     __constant__ array at most, shared arrays laid out one after another,
//     barrier lines within the file, and three non-empty sources; the two
//     device sources keep every line break where the student put it (one
//     #line directive first);
//   - the scratch folder holds afterwards only the parser's stand-in headers
//     in parse/, the same files every time, and $TMPDIR (a folder of this
//     process) nothing at all.
// Lines are counted as the compilers count them: \n, \r\n and a lone \r
// each end one.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "fuzz_support.hpp"
#include "own/translate.hpp"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

// Where it all happens, inside fuzz_support's scratch directory (removed at exit):
//   input.cu      the kernel file
//   translate/    the translator's scratch folder
//   tmp/          $TMPDIR, for whatever libclang would write there
struct Places {
    fs::path translate, tmp;
};

const Places& places() {
    static const Places p = [] {
        const fs::path root = fuzz::scratchDirectory();
        Places q{root / "translate", root / "tmp"};
        std::error_code error;
        fs::create_directories(q.translate, error);
        fs::create_directories(q.tmp, error);
        if (error) fuzz::broken("setup", "cannot create the folders in " + root.string());
        return q;
    }();
    return p;
}

// The file's lines; lengths[i] is the length of line i + 1, without its line break.
std::vector<std::size_t> lineLengths(const std::string& text) {
    std::vector<std::size_t> lengths;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n' && text[i] != '\r') continue;
        lengths.push_back(i - start);
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        start = i + 1;
    }
    lengths.push_back(text.size() - start);
    return lengths;
}

std::string lineText(unsigned line) { return "line " + std::to_string(line); }

// The stand-in headers' names: what translate() wrote into parse/include/.
std::set<std::string> standInHeaders() {
    std::set<std::string> names;
    std::error_code error;
    for (auto it = fs::directory_iterator(places().translate / "parse" / "include", error);
         !error && it != fs::end(it); it.increment(error))
        names.insert(it->path().filename().string());
    return names;
}

// Whether the file may include a file other than the stand-in headers: a
// line that says include or import other than `#include <stand-in>` (or
// with quotes), or a backslash-newline that may join a directive's words.
bool includesOtherFiles(const std::string& text) {
    static const std::regex plain(R"(^[ \t]*#[ \t]*include[ \t]*[<"]([^<>"]+)[>"][ \t]*(//.*)?$)");
    const std::set<std::string> standIns = standInHeaders();
    if (text.find("\\\n") != std::string::npos || text.find("\\\r") != std::string::npos) return true;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find_first_of("\r\n", start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        if (line.find("include") != std::string::npos || line.find("import") != std::string::npos) {
            std::smatch m;
            if (!std::regex_match(line, m, plain) || !standIns.count(m[1].str())) return true;
        }
        start = end + 1;
    }
    return false;
}

void checkLine(const char* what, unsigned line, const std::vector<std::size_t>& lines) {
    if (line < 1 || line > lines.size())
        fuzz::broken(what, lineText(line) + " of a file of " + std::to_string(lines.size()) + " lines");
}

// Names of TileScope's inside that a student must never be shown.
constexpr const char* kInternalNames[] = {"own_user",   "ElementRef",  "Addend",      "tilescope::", "Accumulator",
                                          "InputArray", "OutputArray", "tilescope_",  "TS_REFUSED",  "TS_MATH1"};

void checkRefusal(const Error& error, const own::Diagnostic& d, const std::string& path, const std::string& text,
                  const std::vector<std::size_t>& lines) {
    const std::string& m = error.message;
    if (error.code != ExitCode::BadInput) fuzz::broken("a refusal has exit code 2", m);
    if (m.find_first_of(std::string("\n\r\0", 3)) != std::string::npos) fuzz::broken("a refusal is one line", m);
    if (d.path != path) fuzz::broken("the diagnostic names the file", d.path + " for " + path);
    if (d.text() != m) fuzz::broken("the error's message is the diagnostic's text", d.text() + " | " + m);
    if (m.rfind(path + ":", 0) != 0) fuzz::broken("a refusal names the file first", m);
    if (d.message.empty()) fuzz::broken("a refusal says why", m);
    if (d.line == 0) {
        // The whole file's faults (Translator::run, and a file libclang
        // cannot parse at all), or the parser's first error where it is not
        // in the student's file: translate() gives those no line. The
        // stand-in headers are empty, so only a file that includes some
        // other file can have such an error.
        const bool wholeFile = d.message.rfind("the file has no __global__ kernel", 0) == 0 ||
                               d.message.rfind("the file has no launch()", 0) == 0 ||
                               d.message == "the C++ parser could not read the file";
        const bool parserElsewhere = d.message.rfind("error: ", 0) == 0 && includesOtherFiles(text);
        if (!wholeFile && !parserElsewhere) fuzz::broken("a refusal names its line", m);
        if (d.column != 0) fuzz::broken("a column comes with a line", m);
    } else {
        checkLine("a refusal's line is within the file", d.line, lines);
        if (d.column > lines[d.line - 1] + 1)
            fuzz::broken("a refusal's column is within its line",
                         m + " (the line has " + std::to_string(lines[d.line - 1]) + " characters)");
    }
    for (const char* name : kInternalNames)
        if (m.find(name) != std::string::npos && text.find(name) == std::string::npos)
            fuzz::broken("a refusal shows no internal name", std::string(name) + " in: " + m);
    if (d.message.find(fuzz::scratchDirectory().string() + "/") != std::string::npos)
        fuzz::broken("a refusal names no scratch folder beyond the file itself", m);
}

void checkTranslation(const own::Translation& t, const std::string& path, const std::string& text,
                      const std::vector<std::size_t>& lines) {
    if (t.path != path || t.text != text) fuzz::broken("a translation keeps the file's name and text", t.path);
    if (t.dims != 1 && t.dims != 2) fuzz::broken("a translation is 1D or 2D", std::to_string(t.dims));
    if (t.kernels.empty()) fuzz::broken("a translation has a kernel", path);
    std::set<std::string> names;
    for (const own::KernelDeclaration& k : t.kernels) {
        if (k.name.empty()) fuzz::broken("a kernel has a name", lineText(k.line));
        if (!names.insert(k.name).second) fuzz::broken("kernels have names of their own", k.name);
        checkLine("a kernel's line is within the file", k.line, lines);
        for (const own::KernelParameter& p : k.parameters)
            if (p.name.empty()) fuzz::broken("a kernel's parameters have names", k.name);
        if (k.arrayOf.size() > k.parameters.size())
            fuzz::broken("a kernel's launch passes at most one array per parameter", k.name);
        for (std::uint8_t a : k.arrayOf)
            if (a != kArrayInput && a != kArrayMask && a != kArrayOutput && a != kArrayNone)
                fuzz::broken("a kernel's parameters receive N, M, P or a number", k.name);
        // Static shared arrays one after another from offset 0, the dynamic one after them all.
        long long next = 0;
        for (const own::SharedDeclaration& s : k.shared) {
            if (s.name.empty()) fuzz::broken("a shared array has a name", k.name);
            checkLine("a shared array's line is within the file", s.line, lines);
            if (s.dynamic) {
                if (s.offset != k.staticSharedFloats)
                    fuzz::broken("the dynamic shared array follows the static ones", s.name);
                continue;
            }
            if (s.rows < 1 || s.cols < 0 || s.planes < 1) fuzz::broken("a shared array has a size", s.name);
            if (s.offset != next)
                fuzz::broken("shared arrays are laid out one after another",
                             s.name + " at " + std::to_string(s.offset) + ", expected " + std::to_string(next));
            next += static_cast<long long>(s.planes) * s.rows * s.cols;  // a 3-D array: its planes of rows
        }
        if (k.staticSharedFloats != next)
            fuzz::broken("a kernel's static shared memory is the sum of its arrays",
                         k.name + ": " + std::to_string(k.staticSharedFloats) + " floats, its arrays hold " +
                             std::to_string(next));
    }
    if (t.constants.size() > 1) fuzz::broken("one __constant__ array at most", t.constants[1].name);
    for (const own::ConstantDeclaration& c : t.constants) {
        if (c.name.empty()) fuzz::broken("a constant array has a name", lineText(c.line));
        checkLine("a constant array's line is within the file", c.line, lines);
        if (c.rows < 1 || c.cols < 0) fuzz::broken("a constant array has a size", c.name);
    }
    unsigned previous = 0;
    for (unsigned line : t.barrierLines) {
        checkLine("a barrier's line is within the file", line, lines);
        if (line <= previous) fuzz::broken("barrier lines are listed once each, in order", lineText(line));
        previous = line;
    }
    if (t.cpuSource.empty() || t.deviceSource.empty() || t.tracedDeviceSource.empty())
        fuzz::broken("a translation has its three sources", path);
    // Line breaks as the compilers count them (\n, \r\n, a lone \r).
    const auto breaks = [](const std::string& s) { return lineLengths(s).size() - 1; };
    const auto expected = breaks(text) + 1;  // the #line directive's
    if (breaks(t.deviceSource) != expected || breaks(t.tracedDeviceSource) != expected)
        fuzz::broken("the device sources keep every line break where it was",
                     std::to_string(breaks(t.deviceSource)) + " and " + std::to_string(breaks(t.tracedDeviceSource)) +
                         " line breaks, expected " + std::to_string(expected));
}

// What translate() leaves: its stand-in headers under parse/, the same files
// each time (the folder is the caller's, removed with the kernel), and in
// $TMPDIR nothing.
void checkLeftovers() {
    static std::set<std::string> first;
    std::set<std::string> now;
    std::error_code error;
    for (auto it = fs::recursive_directory_iterator(places().translate, error); !error && it != fs::end(it);
         it.increment(error)) {
        const std::string relative = fs::relative(it->path(), places().translate).string();
        if (relative != "parse" && relative.rfind("parse/", 0) != 0)
            fuzz::broken("the translator writes only into parse/ of its scratch folder", relative);
        now.insert(relative);
    }
    if (error) fuzz::broken("setup", "cannot list " + places().translate.string() + ": " + error.message());
    if (first.empty()) first = now;
    if (now != first) {
        std::string extra;
        for (const std::string& f : now)
            if (!first.count(f)) extra += " " + f;
        fuzz::broken("the translator leaves the same stand-in headers every time", "new:" + extra);
    }
    for (auto it = fs::directory_iterator(places().tmp, error); !error && it != fs::end(it); it.increment(error))
        fuzz::broken("the translator leaves nothing in $TMPDIR", it->path().string());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // libclang (and anything it runs) writes temporary files here, where they can be seen.
    ::setenv("TMPDIR", places().tmp.c_str(), 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 1'000'000) return -1;  // compileKernelFile refuses a file over 1 MB before translating
    const std::string path = fuzz::writeInput(data, size, ".cu").string();
    const std::string text(reinterpret_cast<const char*>(data), size);
    own::Diagnostic diagnostic;
    diagnostic.line = 123456789;  // overwritten on a refusal
    auto translation = own::translate(path, text, places().translate.string(), &diagnostic);
    const std::vector<std::size_t> lines = lineLengths(text);
    if (translation) checkTranslation(*translation, path, text, lines);
    else checkRefusal(translation.error(), diagnostic, path, text, lines);
    checkLeftovers();
    return 0;
}
