// `tilescope list` and `tilescope run`, through the real binary: every kernel
// agrees with the reference, and every bad input gets one line, exit code 2
// (3 for an unavailable backend) and no output file.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "io/files.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;

struct Outcome {
    int code;
    std::string out;
    std::string err;
};

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("tilescope-cli-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    Outcome tilescope(const std::string& args) {
        const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
        const std::string command = std::string(TILESCOPE_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string();
        const int status = std::system(command.c_str());
        return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }
    static std::string slurp(const fs::path& p) {
        std::ifstream f(p);
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }
    fs::path write(const std::string& name, const std::string& text) {
        std::ofstream(m_dir / name) << text;
        return m_dir / name;
    }
    fs::path m_dir;
};

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST_F(Cli, ListPrintsEveryKernel) {
    Outcome o = tilescope("list");
    EXPECT_EQ(o.code, 0);
    // The corrected kernels, then the listings as printed under their heading.
    std::string expected, printed;
    for (const KernelInfo& k : allKernels())
        (k.asPrinted ? printed : expected) += std::string(k.name) + "\n";
    expected += "\nListings as printed (tilescope check shows what goes wrong):\n" + printed;
    EXPECT_EQ(o.out, expected);
    // The ten chapter-7 kernels and conv2d_fast, a blank line and the heading, nine listings as printed.
    EXPECT_EQ(lines(o.out), 11 + 2 + 9);

    Outcome v = tilescope("list -v");
    EXPECT_EQ(v.code, 0);
    for (const KernelInfo& k : allKernels()) {
        if (!k.asPrinted)
            continue;
        EXPECT_NE(v.out.find(std::string(k.defect)), std::string::npos) << k.name;
    }
}

TEST_F(Cli, RunAgreesWithTheReferenceForEveryKernel) {
    const Image image = randomImage(23, 17, 1, 3);
    const Image signal = randomSignal(45, 4);
    ASSERT_TRUE(io::writeOutput(m_dir / "image.npy", image).ok());
    ASSERT_TRUE(io::writeOutput(m_dir / "signal.npy", signal).ok());
    write("mask2d.txt", "0.1 0.2 0.1\n0.2 -0.4 0.2\n0.1 0.2 0.1\n");
    write("mask1d.txt", "3 4 5 4 3\n");
    const Mask mask2d = Mask::square(3, {0.1f, 0.2f, 0.1f, 0.2f, -0.4f, 0.2f, 0.1f, 0.2f, 0.1f});
    const Mask mask1d = Mask::row({3, 4, 5, 4, 3});
    for (const KernelInfo& k : allKernels()) {
        // A listing as printed is wrong on purpose (as_printed_test.cpp checks it).
        if (k.asPrinted)
            continue;
        const bool oneD = k.dims == 1;
        const fs::path out = m_dir / (std::string(k.name) + ".npy");
        Outcome o = tilescope("run --kernel " + std::string(k.name) + " --input " +
                              (m_dir / (oneD ? "signal.npy" : "image.npy")).string() + " --mask " +
                              (m_dir / (oneD ? "mask1d.txt" : "mask2d.txt")).string() + " --output " + out.string() +
                              " --block 8");
        ASSERT_EQ(o.code, 0) << k.name << ": " << o.err;
        EXPECT_NE(o.err.find("ran on"), std::string::npos) << o.err;  // the backend and why, on stderr
        auto result = io::readInput(out);
        ASSERT_TRUE(result.ok()) << result.error().message;
        EXPECT_TRUE(matchesReference(oneD ? signal : image, oneD ? mask1d : mask2d, *result)) << k.name;
    }
}

struct BadCase {
    const char* what;
    std::string args;
    int code;
};

TEST_F(Cli, BadInputGetsOneLineAnExitCodeAndNoOutput) {
    const Image image = randomImage(8, 8, 1, 3);
    ASSERT_TRUE(io::writeOutput(m_dir / "image.npy", image).ok());
    ASSERT_TRUE(io::writeOutput(m_dir / "signal.npy", randomSignal(8, 3)).ok());
    const std::string img = (m_dir / "image.npy").string(), sig = (m_dir / "signal.npy").string();
    const std::string m3 = write("m3.txt", "1 2 1\n2 4 2\n1 2 1\n").string();
    const std::string m1 = write("m1.txt", "1 2 1\n").string();
    const std::string even = write("even.txt", "1 1\n1 1\n").string();
    const std::string wide = write("wide.txt", "1 2 3 2 1\n1 2 3 2 1\n1 2 3 2 1\n").string();
    std::string seventeen;
    for (int i = 0; i < 17; ++i) seventeen += "1 ";
    const std::string big = write("big.txt", seventeen + "\n").string();
    const std::string corrupt = write("corrupt.npy", "\x93NUMPY garbage").string();
    const std::string text = write("text.txt", "1 2 x\n").string();
    const std::string out = (m_dir / "out.npy").string();
    const std::vector<BadCase> cases{
        {"unknown kernel", "run --kernel conv3d --input " + img + " --mask " + m3 + " --output " + out, 2},
        {"even mask", "run --kernel conv2d_basic --input " + img + " --mask " + even + " --output " + out, 2},
        {"non-square mask", "run --kernel conv2d_basic --input " + img + " --mask " + wide + " --output " + out, 2},
        {"2D input, 1D kernel", "run --kernel conv1d_basic --input " + img + " --mask " + m1 + " --output " + out, 2},
        {"1D input, 2D kernel", "run --kernel conv2d_basic --input " + sig + " --mask " + m3 + " --output " + out, 2},
        {"missing file", "run --kernel conv2d_basic --input /nonexistent.npy --mask " + m3 + " --output " + out, 2},
        {"corrupt file", "run --kernel conv2d_basic --input " + corrupt + " --mask " + m3 + " --output " + out, 2},
        {"mask with text", "run --kernel conv1d_basic --input " + sig + " --mask " + text + " --output " + out, 2},
        {"radius over 7", "run --kernel conv1d_basic --input " + sig + " --mask " + big + " --output " + out, 2},
        {"no output tile", "run --kernel conv2d_tiled_in --input " + img + " --mask " + m3 + " --block 2 --output " + out, 2},
        {"block too large", "run --kernel conv2d_basic --input " + img + " --mask " + m3 + " --block 64 --output " + out, 2},
        {"negative block", "run --kernel conv2d_basic --input " + img + " --mask " + m3 + " --block -3 --output " + out, 2},
        {"unknown backend", "run --kernel conv2d_basic --input " + img + " --mask " + m3 + " --backend opencl --output " + out, 2},
        {"unknown option", "run --kernel conv2d_basic --frobnicate", 2},
        {"unwritable output", "run --kernel conv2d_basic --input " + img + " --mask " + m3 + " --output /nonexistent/dir/out.npy", 2},
    };
    for (const BadCase& c : cases) {
        Outcome o = tilescope(c.args);
        EXPECT_EQ(o.code, c.code) << c.what << ": " << o.err;
        EXPECT_EQ(lines(o.err), 1) << c.what << ": " << o.err;
        EXPECT_EQ(o.err.rfind("tilescope: ", 0), 0u) << c.what << ": " << o.err;
        EXPECT_FALSE(fs::exists(out)) << c.what << " left an output file";
        fs::remove(out);
    }
}

TEST_F(Cli, CudaWithoutAGpuIsExitCode3) {
    if (gpuAvailable()) GTEST_SKIP() << "a GPU is present";
    ASSERT_TRUE(io::writeOutput(m_dir / "image.npy", randomImage(8, 8, 1, 3)).ok());
    const std::string m3 = write("m3.txt", "1 2 1\n2 4 2\n1 2 1\n").string();
    Outcome o = tilescope("run --kernel conv2d_basic --backend cuda --input " + (m_dir / "image.npy").string() +
                          " --mask " + m3 + " --output " + (m_dir / "out.npy").string());
    EXPECT_EQ(o.code, 3) << o.err;
    EXPECT_EQ(lines(o.err), 1) << o.err;
    EXPECT_FALSE(fs::exists(m_dir / "out.npy"));
}

TEST_F(Cli, ExistingOutputSurvivesAFailedRun) {
    const fs::path out = write("keep.npy", "precious");
    const std::string m3 = write("m3.txt", "1 2 1\n2 4 2\n1 2 1\n").string();
    Outcome o = tilescope("run --kernel conv2d_basic --input /nonexistent.png --mask " + m3 + " --output " + out.string());
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(slurp(out), "precious");
}

}  // namespace
}  // namespace tilescope::test
