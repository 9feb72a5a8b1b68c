// Bad input, answered: every case of tests/bad_input_cases.txt (the same
// records docs/bad-input.md is rendered from) runs through the real binary,
// which must exit with the case's code (2 or 3), print exactly the case's one
// line on stderr and nothing on stdout, leave no file behind, and not crash.
// Each case is its own test, named after it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "api/runner.hpp"
#include "io/files.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

// [SECTION] The cases, from tests/bad_input_cases.txt

struct BadCase {
    std::string group, name, input, args;
    int exit = 0;
    std::vector<std::string> stderrLines;  // alternatives
    std::string needs;
};

std::vector<BadCase> loadCases() {
    std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/tests/bad_input_cases.txt");
    std::vector<BadCase> cases;
    BadCase current;
    bool open = false;
    auto finish = [&] {
        if (open) cases.push_back(current);
        current = BadCase{};
        open = false;
    };
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] == '#') continue;
        if (line.empty()) {
            finish();
            continue;
        }
        const std::size_t colon = line.find(": ");
        const std::string key = line.substr(0, colon);
        const std::string value = colon == std::string::npos ? "" : line.substr(colon + 2);
        open = true;
        if (key == "group") current.group = value;
        else if (key == "case") current.name = value;
        else if (key == "input") current.input = value;
        else if (key == "args") current.args = value;
        else if (key == "exit") current.exit = std::atoi(value.c_str());
        else if (key == "stderr") current.stderrLines.push_back(value);
        else if (key == "needs") current.needs = value;
        else current.name = "malformed_record_key_" + key;  // fails below, visibly
    }
    finish();
    return cases;
}

// How gtest names a case in its output (instead of 192 bytes in hex).
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

const std::vector<BadCase>& allCases() {
    static const std::vector<BadCase> cases = loadCases();
    return cases;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// [SECTION] The files the cases name: {dir}/NAME

Bytes bytesOf(const std::string& text) { return Bytes(text.begin(), text.end()); }

template <class T>
Bytes rawBytes(std::initializer_list<T> values) {
    Bytes bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.begin(), bytes.size());
    return bytes;
}

// A .npy file as NumPy lays it out (version 1.0), with any header text.
// Built as a string: GCC 12 misreports vector::insert after a short
// initializer list as out of bounds (-Warray-bounds), as app/io/npy.cpp notes.
Bytes npy(const std::string& dict, const Bytes& payload) {
    std::string header = dict;
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    bytes.append(payload.begin(), payload.end());
    return Bytes(bytes.begin(), bytes.end());
}
Bytes npy(const std::string& descr, const std::string& shape, const Bytes& payload) {
    return npy("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }", payload);
}
Bytes floats(std::size_t count, float first = 0.0f, float step = 1.0f / 64) {
    Bytes bytes(count * sizeof(float));
    for (std::size_t i = 0; i < count; ++i) {
        const float v = first + step * static_cast<float>(i);
        std::memcpy(bytes.data() + i * sizeof(float), &v, sizeof v);
    }
    return bytes;
}
Bytes withValueAt(Bytes bytes, std::size_t element, float value) {
    std::memcpy(bytes.data() + element * sizeof(float), &value, sizeof value);
    return bytes;
}

// A PNG from our own writer (an 8 x 8 grey ramp), to be damaged.
Bytes goodPng(const fs::path& scratch) {
    Image image = Image::planar(8, 8);
    for (std::size_t i = 0; i < image.data.size(); ++i) image.data[i] = static_cast<float>(i) / 64.0f;
    const fs::path file = scratch / "good.png";
    EXPECT_TRUE(io::writeOutput(file, image).ok());
    std::ifstream in(file, std::ios::binary);
    Bytes bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    fs::remove(file);
    return bytes;
}

// A grading spec: the [assignment] of `dims`, then `rest` from line 5.
Bytes gradeSpec(const std::string& dims, const std::string& rest) {
    return bytesOf("[assignment]\nname = \"ex\"\ndims = " + dims + "\n\n" + rest);
}

std::map<std::string, Bytes> fixtureFiles(const fs::path& scratch) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Bytes png = goodPng(scratch);
    Bytes truncatedPng(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(png.size() / 2));
    Bytes hugePng = png;  // IHDR width and height, big-endian, at bytes 16..23
    for (int i = 0; i < 2; ++i) {
        const std::uint32_t side = 100000;
        for (int b = 0; b < 4; ++b) hugePng[16 + 4 * i + b] = static_cast<unsigned char>(side >> (24 - 8 * b));
    }
    // After IHDR (8 + 25 bytes), an empty chunk of type "N\nG!": critical
    // (upper-case first letter) and unknown, so stb refuses it by name.
    Bytes chunkPng(png.begin(), png.begin() + 33);
    for (unsigned char b : std::string("\0\0\0\0N\nG!\0\0\0\0", 12)) chunkPng.push_back(b);
    chunkPng.insert(chunkPng.end(), png.begin() + 33, png.end());

    std::string taps17;
    for (int i = 0; i < 17; ++i) taps17 += "1 ";

    return {
        {"image.npy", npy("<f4", "(8, 8)", floats(64))},
        {"rgb.npy", npy("<f4", "(8, 8, 3)", floats(192, 0.0f, 1.0f / 192))},
        {"signal.npy", npy("<f4", "(16,)", floats(16))},
        {"m3.txt", bytesOf("1 2 1\n2 4 2\n1 2 1\n")},
        {"m1.txt", bytesOf("1 2 1\n")},
        {"image.tiff", bytesOf("II*\0")},
        {"picture", bytesOf("P5\n1 1\n255\n\x01")},
        // .npy
        {"empty.npy", {}},
        {"text.npy", bytesOf("this is not an array\n")},
        {"header-cut.npy",
         [] {
             Bytes b = npy("<f4", "(2, 2)", floats(4));
             b.resize(30);
             return b;
         }()},
        {"truncated.npy", npy("<f4", "(4, 4)", floats(3))},
        {"extra.npy", npy("<f4", "(2, 2)", floats(5))},
        {"no-order.npy", npy("{'descr': '<f4', 'shape': (2, 2), }", floats(4))},
        {"big-endian.npy", npy(">f4", "(2, 2)", floats(4))},
        {"int32.npy", npy("<i4", "(2, 2)", rawBytes<std::int32_t>({1, 2, 3, 4}))},
        {"fortran.npy", npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", floats(4))},
        {"scalar.npy", npy("<f4", "()", floats(1))},
        {"zero.npy", npy("<f4", "(0, 5)", {})},
        {"four-d.npy", npy("<f4", "(1, 2, 2, 1)", floats(4))},
        {"five-channels.npy", npy("<f4", "(2, 2, 5)", floats(20))},
        {"absurd.npy", npy("<f4", "(1000000, 1000000)", {})},
        {"too-many.npy", npy("<f4", "(65536, 8192)", {})},
        {"nan.npy", npy("<f4", "(4, 4)", withValueAt(floats(16), 5, nan))},
        {"inf.npy", npy("<f4", "(4, 4)", withValueAt(floats(16), 9, inf))},
        {"f8-range.npy", npy("<f8", "(2, 2)", rawBytes<double>({1.0, 2.0, 1e300, 4.0}))},
        // Pictures
        {"text.png", bytesOf("not a picture\n")},
        {"truncated.png", truncatedPng},
        {"huge.png", hugePng},
        {"chunk.png", chunkPng},
        {"corrupt.jpg", Bytes{0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43, 0x00, 1, 1, 1, 1, 1, 1, 1, 1}},
        // SOI, then a DHT segment whose one table counts 255 codes of every length (4080 in all).
        {"huffman.jpg",
         [] {
             Bytes b{0xff, 0xd8, 0xff, 0xc4, 0x00, 0x13, 0x00};
             b.insert(b.end(), 16, 0xff);
             return b;
         }()},
        // "BM", a file header of zeros, an info header that says 40 bytes and holds 0xff.
        {"corrupt.bmp",
         bytesOf(std::string("BM") + std::string(12, '\0') + std::string("\x28\0\0\0", 4) + std::string(20, '\xff'))},
        {"absurd.ppm", bytesOf("P6\n1000000000 1000000000\n255\n\x01\x02\x03")},
        {"huge.pgm", bytesOf("P5\n65536 65536\n255\n\x01")},
        {"truncated.pgm", bytesOf("P5\n4 4\n255\n\x01\x02\x03")},
        {"maxval.pgm", bytesOf("P5\n2 2\n70000\n\x01\x02\x03\x04\x05\x06\x07\x08")},
        {"over.pgm", bytesOf("P2\n2 2\n255\n0 300 2 3\n")},
        {"word.pgm", bytesOf("P2\n2 2\n255\n0 1 two 3\n")},
        {"bitmap.pgm", bytesOf("P4\n8 1\n\xff")},
        // Masks
        {"text-mask.txt", bytesOf("1 2 1\n2 x 2\n1 2 1\n")},
        {"even.txt", bytesOf("1 1\n1 1\n")},
        {"wide.txt", bytesOf("1 2 3 2 1\n1 2 3 2 1\n1 2 3 2 1\n")},
        {"ragged.txt", bytesOf("1 2 1\n2 4\n1 2 1\n")},
        {"nan-mask.txt", bytesOf("1 2 1\n2 nan 2\n1 2 1\n")},
        {"inf-mask.txt", bytesOf("inf 1 1\n1 1 1\n1 1 1\n")},
        {"range-mask.txt", bytesOf("1 2 1\n2 1e39 2\n1 2 1\n")},
        {"comments.txt", bytesOf("# nothing but a comment\n\n")},
        {"count.raw", bytesOf("3 3\n1 2 3\n4 5 6\n7 8\n")},
        {"header.csv", bytesOf("3,3\n1,2,1\n2,4,2\n")},
        {"empty-field.csv", bytesOf("1,,1\n2,4,2\n1,2,1\n")},
        {"mask-3d.npy", npy("<f4", "(1, 3, 3)", floats(9))},
        {"taps17.txt", bytesOf(taps17 + "\n")},
        // tilescope grade's specs (docs/grading.md)
        {"grade.toml", gradeSpec("2", "[[case]]\nsize = \"8x8\"\nradius = 1\n")},
        {"grade-syntax.toml", gradeSpec("2", "[[case]\nsize = \"8x8\"\n")},
        {"grade-key.toml", gradeSpec("2", "[[case]]\nsize = \"8x8\"\nradius = 1\npionts = 2\n")},
        {"grade-type.toml", gradeSpec("2", "[[case]]\nsize = \"8x8\"\nradius = \"one\"\n")},
        {"grade-dims.toml", gradeSpec("1", "[[case]]\nsize = \"8x8\"\nradius = 1\n")},
        {"grade-radius.toml", gradeSpec("2", "[[case]]\nsize = \"8x8\"\nradius = 8\n")},
        {"grade-mask.toml", gradeSpec("2", "[[case]]\nsize = \"8x8\"\nradius = 1\nmask = \"none.txt\"\n")},
    };
}

// [SECTION] Running the binary

struct Outcome {
    bool signalled = false;
    int signal = 0;
    int code = -1;
    std::string out, err;
};

std::vector<std::string> splitArgs(const std::string& args) {
    std::istringstream in(args);
    return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// fork + exec rather than system(): no shell between us and the binary, so a
// signal shows as a signal, not as the shell's exit code 128 + n.
Outcome runTilescope(const std::vector<std::string>& args, const fs::path& logs) {
    const fs::path out = logs / "stdout.txt", err = logs / "stderr.txt";
    std::vector<char*> argv;
    std::string binary = TILESCOPE_BINARY;
    argv.push_back(binary.data());
    std::vector<std::string> copies = args;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);

    const pid_t child = ::fork();
    if (child == 0) {
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0) ::_exit(125);
        ::alarm(120);  // a hang becomes SIGALRM, which the test reports
        ::execv(argv[0], argv.data());
        ::_exit(126);
    }
    Outcome outcome;
    int status = 0;
    if (child < 0 || ::waitpid(child, &status, 0) != child) return outcome;
    outcome.signalled = WIFSIGNALED(status);
    outcome.signal = outcome.signalled ? WTERMSIG(status) : 0;
    outcome.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    outcome.out = slurp(out);
    outcome.err = slurp(err);
    return outcome;
}

std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) names.insert(entry.path().string());
    return names;
}

bool matches(const std::string& line, const std::string& expected) {
    constexpr std::string_view kAnything = "...";
    if (expected.size() >= kAnything.size() && expected.compare(expected.size() - kAnything.size(), kAnything.size(),
                                                                kAnything) == 0)
        return line.rfind(expected.substr(0, expected.size() - kAnything.size()), 0) == 0;
    return line == expected;
}

// [SECTION] The tests

class BadInput : public ::testing::TestWithParam<BadCase> {
protected:
    // One scratch folder per process (ctest runs cases in parallel): the
    // fixtures in files/, the child's stdout and stderr in logs/.
    static void SetUpTestSuite() {
        s_root = fs::temp_directory_path() / ("tilescope-bad-input-" + std::to_string(::getpid()));
        fs::remove_all(s_root);
        fs::create_directories(s_root / "files");
        fs::create_directories(s_root / "logs");
        for (const auto& [name, bytes] : fixtureFiles(s_root / "logs")) {
            std::ofstream out(s_root / "files" / name, std::ios::binary);
            out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        }
        fs::create_directory(s_root / "files" / "folder.npy");
        ASSERT_EQ(::mkfifo((s_root / "files" / "pipe.npy").c_str(), 0644), 0);
    }
    static void TearDownTestSuite() {
        std::error_code ignored;
        fs::remove_all(s_root, ignored);
    }
    static fs::path s_root;
};

fs::path BadInput::s_root;

TEST_P(BadInput, OneLineAnExitCodeNoOutputNoCrash) {
    const BadCase& c = GetParam();
    ASSERT_FALSE(c.name.empty() || c.args.empty() || c.stderrLines.empty()) << "incomplete record " << c.name;
    ASSERT_TRUE(c.exit == 2 || c.exit == 3) << c.name << ": exit codes for bad input are 2 and 3";
    if (c.needs == "no-gpu" && gpuAvailable()) GTEST_SKIP() << "a GPU is present";
#ifndef TILESCOPE_TEST_HAVE_APP
    if (c.needs == "app") GTEST_SKIP() << "this build has no app (TILESCOPE_APP=OFF)";
#endif

    const fs::path dir = s_root / "files";
    const std::string args = replaceAll(replaceAll(c.args, "{dir}", dir.string()), "{out}", (dir / "out.npy").string());
    const std::set<std::string> before = listing(dir);
    const Outcome o = runTilescope(splitArgs(args), s_root / "logs");
    const std::set<std::string> after = listing(dir);

    SCOPED_TRACE("tilescope " + args);
    ASSERT_FALSE(o.signalled) << "killed by signal " << o.signal << "\n" << o.err;
    EXPECT_EQ(o.code, c.exit) << o.err;
    EXPECT_EQ(o.out, "") << "stdout";
    ASSERT_FALSE(o.err.empty()) << "nothing on stderr";
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_EQ(o.err.back(), '\n') << o.err;
    EXPECT_EQ(o.err.rfind("tilescope: ", 0), 0u) << o.err;
    const std::string line = o.err.substr(0, o.err.find('\n'));
    bool any = false;
    std::string expected;
    for (const std::string& e : c.stderrLines) {
        const std::string text = replaceAll(e, "{dir}", dir.string());
        any = any || matches(line, text);
        expected += "\n  " + text;
    }
    EXPECT_TRUE(any) << "stderr:\n  " << line << "\nexpected (tests/bad_input_cases.txt):" << expected;
    for (const std::string& name : after)
        EXPECT_TRUE(before.count(name)) << "left behind: " << name;
}

std::string caseName(const ::testing::TestParamInfo<BadCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Cases, BadInput, ::testing::ValuesIn(allCases()), caseName);

// The records themselves: names usable as test names and unique, at least
// the 30 rows the issue asks for.
TEST(BadInputCases, AreWellFormed) {
    const std::vector<BadCase>& cases = allCases();
    EXPECT_GE(cases.size(), 30u);
    std::set<std::string> names;
    for (const BadCase& c : cases) {
        EXPECT_FALSE(c.group.empty() || c.input.empty()) << c.name;
        EXPECT_TRUE(names.insert(c.name).second) << "repeated case " << c.name;
        for (char ch : c.name)
            EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') << "case name " << c.name;
        EXPECT_TRUE(c.needs.empty() || c.needs == "no-gpu" || c.needs == "app") << c.name << ": needs " << c.needs;
    }
}

}  // namespace
}  // namespace tilescope::test
