// `tilescope stats` and `tilescope trace`, through the real binary: the fixed
// JSON keys, the book's numbers read off the output (Figure 7.14 of the 4th
// edition, Figure 7.22 of the 3rd, §7.4), what-if marked in every output, and
// one clear line with exit code 2 for every refusal. And the mask --radius
// generates, which `check` names.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/options.hpp"
#include "trace/trace_io.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct Outcome {
    int code;
    std::string out;
    std::string err;
};

class TraceCommands : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("tilescope-trace-cli-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    Outcome tilescope(const std::string& args) {
        const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
        const std::string command =
            std::string(TILESCOPE_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string();
        const int status = std::system(command.c_str());
        return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }
    Json json(const Outcome& o) {
        Json j = Json::parse(o.out, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON: " << o.out << o.err;
        return j;
    }
    static std::string slurp(const fs::path& p) {
        std::ifstream f(p, std::ios::binary);
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }
    fs::path m_dir;
};

const char* kCounters[] = {"global_loads",  "global_load_bytes", "input_loads",   "shared_loads",
                           "shared_stores", "constant_loads",    "global_stores", "flops",
                           "barriers",      "ghost_refs",        "threads",       "threads_computing"};

// `device`: each limit beside the launch's use and the setting it bounds,
// the same rows as the app's device panel; the planner's refusal otherwise.
TEST_F(TraceCommands, DeviceNamesTheSettingEachLimitBounds) {
    const Outcome o = tilescope("device --kernel conv2d_tiled_in --size 100x100 --radius 3 --block 20");
    ASSERT_EQ(o.code, 0) << o.err;
    // 1024 threads per block on every GPU: IN_TILE_DIM <= 32, OUT_TILE_DIM <= 32 - 2*3 = 26.
    EXPECT_NE(o.out.find("this launch: 400"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("OUT_TILE_DIM = IN_TILE_DIM - 2r <= 26 at r = 3"), std::string::npos) << o.out;
    // OUT_TILE_DIM = 20 - 6 = 14: ceil(100 / 14) = 8 blocks a side.
    EXPECT_NE(o.out.find("a grid of 8 x 8 blocks of 20 x 20 threads"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("this one is 20 x 20 x 4 B = 1600 B"), std::string::npos) << o.out;
    // The 7 x 7 mask: 49 floats = 196 bytes of constant memory.
    EXPECT_NE(o.out.find("this launch: 196 B (mask)"), std::string::npos) << o.out;

    const Outcome tooBig = tilescope("device --kernel conv2d_basic --size 64x64 --radius 1 --block 40");
    EXPECT_EQ(tooBig.code, 2);
    EXPECT_TRUE(tooBig.out.empty());
    EXPECT_NE(tooBig.err.find("1600 threads"), std::string::npos) << tooBig.err;

    const Outcome whatIf = tilescope("device --kernel conv2d_basic --size 64x64 --radius 1 --block 40 --what-if");
    ASSERT_EQ(whatIf.code, 0) << whatIf.err;
    EXPECT_NE(whatIf.out.find("this launch: 1600 (over)"), std::string::npos) << whatIf.out;
}

TEST_F(TraceCommands, StatsPrintsTheFixedKeysAndFigure7_14) {
    // IN_TILE_DIM 16, r 2 (Figure 7.14: 7.03 FLOP/B) on an input where block (1,1) is interior.
    const Outcome o =
        tilescope("stats --kernel conv2d_tiled_in --size 64x64 --radius 2 --block 16 --trace-blocks 1,1 --backend cpu");
    ASSERT_EQ(o.code, 0) << o.err;
    const Json j = json(o);
    for (const char* key : {"kernel", "backend", "grid", "block_dim", "totals", "blocks", "what_if"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["kernel"], "conv2d_tiled_in");
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["what_if"], false);
    EXPECT_EQ(j["block_dim"], Json::array({16, 16}));
    EXPECT_EQ(j["grid"], Json::array({6, 6}));  // ceil(64 / OUT_TILE_DIM 12)
    for (const char* key : kCounters)
        EXPECT_TRUE(j["totals"].contains(key)) << key;
    ASSERT_EQ(j["blocks"].size(), 1u);
    const Json& b = j["blocks"][0];
    EXPECT_EQ(b["block"], Json::array({1, 1}));
    EXPECT_EQ(b["interior"], true);
    for (const char* key : kCounters)
        EXPECT_TRUE(b.contains(key)) << key;
    EXPECT_NEAR(b["flops"].get<double>() / b["global_load_bytes"].get<double>(), 7.03, 0.005);
    EXPECT_NEAR(b["flop_per_byte"].get<double>(), 7.03, 0.005);
    EXPECT_EQ(b["input_loads"], 256);  // IN_TILE_DIM^2
    EXPECT_EQ(b["threads"], 256);
    EXPECT_EQ(b["threads_computing"], 144);  // OUT_TILE_DIM^2
    EXPECT_EQ(b["ghost_refs"], 0);
}

TEST_F(TraceCommands, StatsMarksWhatIfAndReproducesFigure7_22) {
    // O_TILE_WIDTH 32, Mask_Width 5: BLOCK_WIDTH 36, 1296 threads, over the limit.
    const std::string args =
        "stats --kernel conv2d_tiled_pitched --size 101x101 --radius 2 --block 36 "
        "--trace-blocks 1,1 --backend cpu";
    const Outcome refused = tilescope(args);
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("--what-if"), std::string::npos) << refused.err;
    EXPECT_TRUE(refused.out.empty());

    const Outcome o = tilescope(args + " --what-if");
    ASSERT_EQ(o.code, 0) << o.err;
    const Json j = json(o);
    EXPECT_EQ(j["what_if"], true);
    EXPECT_NE(j["what_if_reason"].get<std::string>().find("1296"), std::string::npos);
    const Json& b = j["blocks"][0];
    EXPECT_EQ(b["interior"], true);
    // 25 loads per output for the basic kernel, (32 + 4)^2 per tile of 32^2 outputs: 19.7.
    EXPECT_NEAR(25.0 * b["global_stores"].get<double>() / b["input_loads"].get<double>(), 19.7, 0.06);
    EXPECT_NEAR(b["input_load_reduction"].get<double>(), 19.7, 0.06);
    // The mask comes through a pointer: a global load, not an input load.
    EXPECT_EQ(b["global_loads"].get<long long>(), b["input_loads"].get<long long>() + b["flops"].get<long long>() / 2);
}

TEST_F(TraceCommands, StatsOfOneDimensionalBlocks) {
    // §7.4: the first and last blocks of conv1d_const skip n(n+1)/2 = 3 ghost loads.
    const Outcome o = tilescope("stats --kernel conv1d_const --size 512 --radius 2 --block 128 --backend cpu");
    ASSERT_EQ(o.code, 0) << o.err;
    const Json j = json(o);
    ASSERT_EQ(j["blocks"].size(), 4u);
    for (int b = 0; b < 4; ++b) {
        const bool boundary = b == 0 || b == 3;
        EXPECT_EQ(j["blocks"][b]["block"], Json::array({b, 0}));
        EXPECT_EQ(j["blocks"][b]["interior"], !boundary);
        EXPECT_EQ(j["blocks"][b]["ghost_refs"], boundary ? 3 : 0);
        EXPECT_EQ(j["blocks"][b]["input_loads"], 128 * 5 - (boundary ? 3 : 0));
    }
    EXPECT_EQ(j["totals"]["ghost_refs"], 6);
    EXPECT_EQ(j["interior_blocks"], 2);
}

TEST_F(TraceCommands, RefusalsSayWhy) {
    // Figure 7.14: IN_TILE_DIM 8 with r = 4 leaves no output tile.
    Outcome o = tilescope("stats --kernel conv2d_tiled_in --size 64x64 --radius 4 --block 8");
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("no output tile"), std::string::npos) << o.err;
    o = tilescope("stats --kernel conv2d_tiled_in --size 64x64 --radius 2 --block 16 --trace-blocks 9,9");
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("outside the grid"), std::string::npos) << o.err;
    o = tilescope("stats --kernel conv2d_tiled_in --size 64x64 --radius 2 --block 16 --trace-blocks one");
    EXPECT_EQ(o.code, 2);
    o = tilescope("trace --kernel conv2d_basic --size 64x64 --radius 2 --event-budget 1000 --backend cpu --out " +
                  (m_dir / "t.json").string());
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("--trace-blocks"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(m_dir / "t.json"));
    o = tilescope("trace --kernel conv2d_basic --size 16x16 --radius 1");  // no --out
    EXPECT_EQ(o.code, 2);
}

TEST_F(TraceCommands, TraceWritesJsonForSmallAndBinaryForLargeTraces) {
    const fs::path small = m_dir / "small.out", large = m_dir / "large.out";
    Outcome o = tilescope(
        "trace --kernel conv2d_tiled_in --size 24x24 --radius 1 --block 8 --trace-blocks 1,1 "
        "--backend cpu --out " +
        small.string());
    ASSERT_EQ(o.code, 0) << o.err;
    Json summary = json(o);
    EXPECT_EQ(summary["format"], "json");
    EXPECT_EQ(summary["what_if"], false);
    EXPECT_EQ(summary["blocks"], Json::array({Json::array({1, 1})}));
    const Json file = Json::parse(slurp(small));
    EXPECT_EQ(file["format"], "tilescope-trace");
    EXPECT_EQ(file["kernel"], "conv2d_tiled_in");
    EXPECT_EQ(file["what_if"], false);
    // 64 threads: load, store, barrier; 36 of them also compute 9 taps (3 events each) and store.
    EXPECT_EQ(file["blocks"][0]["events"].size(), 64u * 3 + 36u * (9 * 3 + 1));
    EXPECT_EQ(summary["events"], file["blocks"][0]["events"].size());

    o = tilescope("trace --kernel conv2d_tiled_in --size 200x200 --radius 2 --block 16 --backend cpu --out " +
                  large.string());
    ASSERT_EQ(o.code, 0) << o.err;
    summary = json(o);
    EXPECT_EQ(summary["format"], "binary");
    EXPECT_GT(summary["events"].get<long long>(), 100000);
    EXPECT_LT(summary["bytes_per_event"].get<double>(), 8.0);
    EXPECT_EQ(slurp(large).substr(0, 7), "TSTRACE");
    auto back = readTrace(large.string());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->eventCount(), summary["events"].get<std::size_t>());
}

TEST_F(TraceCommands, TraceMarksWhatIfInTheFile) {
    const fs::path out = m_dir / "what_if.tstrace";
    const Outcome o = tilescope(
        "trace --kernel conv2d_tiled_pitched --size 80x80 --radius 2 --block 36 --what-if "
        "--trace-blocks 0,0 --backend cpu --out " +
        out.string());
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_EQ(json(o)["what_if"], true);
    EXPECT_NE(o.err.find("what-if"), std::string::npos);
    auto back = readTrace(out.string());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_TRUE(back->plan.whatIf);
    EXPECT_FALSE(back->plan.whatIfReason.empty());
}

// Where the sandbox cannot be had (here: no bwrap), `auto` runs the kernel
// file as before and says so once on stderr; `required` refuses with the
// reason and exit status 3; `off` says nothing. (own_sandbox_test tests the
// sandbox itself.)
TEST_F(TraceCommands, AKernelFileWithoutASandboxSaysSo) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "a kernel file cannot run in a worker built with AddressSanitizer";
#endif
    const std::string file = std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/good/conv1d_basic_student.cu";
    const std::string run = "check --kernel-file " + file + " --size 300 --radius 2 --backend cpu";
    const std::string noBwrap = (m_dir / "no-bwrap").string() + " cannot be run: No such file or directory";
    setenv("TILESCOPE_BWRAP", (m_dir / "no-bwrap").c_str(), 1);
    unsetenv("TILESCOPE_SANDBOX");
    // Neither bubblewrap nor Landlock: auto says what is left, required refuses.
    setenv("TILESCOPE_LANDLOCK", "off", 1);
    const Outcome automatic = tilescope(run);
    const Outcome required = tilescope(run + " --sandbox required");
    const Outcome off = tilescope(run + " --sandbox off");
    unsetenv("TILESCOPE_LANDLOCK");
    // Without bubblewrap, where the kernel has Landlock: the second wall, and required is met.
    const Outcome landlock = tilescope(run);
    const Outcome landlockRequired = tilescope(run + " --sandbox required");
    unsetenv("TILESCOPE_BWRAP");
    EXPECT_EQ(automatic.code, 0) << automatic.err;
    const std::string firstLine = automatic.err.substr(0, automatic.err.find('\n'));
    EXPECT_EQ(firstLine.rfind("tilescope: note: kernel files run ", 0), 0u) << automatic.err;
    EXPECT_NE(firstLine.find(noBwrap), std::string::npos) << automatic.err;
    EXPECT_NE(firstLine.find("Landlock is turned off"), std::string::npos) << automatic.err;
    EXPECT_NE(automatic.err.find("no problems"), std::string::npos) << automatic.err;
    EXPECT_EQ(required.code, 3) << required.err;
    EXPECT_EQ(required.err.rfind("tilescope: the sandbox is required but cannot be had: " + noBwrap, 0), 0u)
        << required.err;
    EXPECT_EQ(std::count(required.err.begin(), required.err.end(), '\n'), 1) << required.err;
    EXPECT_EQ(off.code, 0) << off.err;
    EXPECT_EQ(off.err.find("note:"), std::string::npos) << off.err;
    if (landlock.err.find("Landlock (ABI") != std::string::npos) {
        EXPECT_EQ(landlock.code, 0) << landlock.err;
        EXPECT_EQ(landlock.err.rfind("tilescope: note: kernel files run behind Landlock (ABI ", 0), 0u)
            << landlock.err;
        EXPECT_EQ(landlockRequired.code, 0) << landlockRequired.err;
        EXPECT_NE(landlockRequired.err.find("no problems"), std::string::npos) << landlockRequired.err;
    }
}

// A kernel file's printf output (in the kernel and in launch()) is shown by
// every command that runs it, on stderr under its own heading, so that the
// JSON on stdout stays JSON; a long output is cut after 100 lines.
TEST_F(TraceCommands, AKernelFilesPrintfOutputIsShownOnStderr) {
#if defined(__SANITIZE_ADDRESS__)
    // The worker built with AddressSanitizer runs a kernel file under its
    // memory limit, which ASan's own reservations fill: the kernel's shared
    // object cannot be mapped. The own tests run kernel files without ASan.
    GTEST_SKIP() << "a kernel file cannot run in a worker built with AddressSanitizer";
#endif
    const fs::path file = m_dir / "talk.cu";
    std::ofstream(file) << "__global__ void talk(const float* N, float* P, int width)\n"
                           "{\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i < 3) printf(\"thread %d here\\n\", i);\n"
                           "    if (i == 0) for (int k = 0; k < 200; k++) printf(\"k = %d\\n\", k);\n"
                           "    if (i < width) P[i] = N[i];\n"
                           "}\n"
                           "void launch(const float* N, const float* M, float* P, int r, int width)\n"
                           "{\n"
                           "    printf(\"launch: width %d\\n\", width);\n"
                           "    talk<<<(width + 63) / 64, 64>>>(N, P, width);\n"
                           "}\n";
    const std::string heading = "printf output of the kernel (204 lines):\n"
                                "  | launch: width 300\n"
                                "  | thread 0 here\n"
                                "  | k = 0\n";
    Outcome o = tilescope("check --kernel-file " + file.string() + " --size 300 --radius 0 --backend cpu");
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_NE(o.err.find(heading), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("  | k = 97\n... and 104 more lines\n"), std::string::npos) << o.err;
    EXPECT_EQ(o.out.find("k = "), std::string::npos) << o.out;

    o = tilescope("check --kernel-file " + file.string() + " --size 300 --radius 0 --backend cpu --json");
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_EQ(json(o)["total"], 0);
    EXPECT_NE(o.err.find(heading), std::string::npos) << o.err;

    o = tilescope("stats --kernel-file " + file.string() + " --size 300 --radius 1 --backend cpu");
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_TRUE(json(o).contains("totals"));
    EXPECT_NE(o.err.find(heading), std::string::npos) << o.err;

    o = tilescope("trace --kernel-file " + file.string() + " --size 300 --radius 1 --backend cpu --out " +
                  (m_dir / "talk.json").string());
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_TRUE(json(o).contains("events"));
    EXPECT_NE(o.err.find(heading), std::string::npos) << o.err;
}

// The mask --radius generates: no flip (left-right, top-bottom, both) and no
// transpose of it equals it, so that `check` tells a kernel that reads the
// mask the wrong way round; positive weights adding up to 1; the same every time.
TEST(GeneratedMask, NoFlipOrTransposeOfItIsEqualToIt) {
    for (int dims : {1, 2})
        for (int r = 0; r <= 7; ++r) {
            const Mask m = cli::generatedMask(dims, r);
            const int w = 2 * r + 1, h = dims == 1 ? 1 : w;
            ASSERT_EQ(m.width, w);
            ASSERT_EQ(m.height, h);
            ASSERT_EQ(m.values.size(), static_cast<std::size_t>(w * h));
            EXPECT_EQ(m.values, cli::generatedMask(dims, r).values);
            double sum = 0.0;
            for (float v : m.values) {
                EXPECT_GT(v, 0.0f);
                sum += v;
            }
            EXPECT_NEAR(sum, 1.0, 1e-5);
            if (r == 0) continue;  // one weight: nothing to flip
            auto at = [&](int y, int x) { return m.values[static_cast<std::size_t>(y * w + x)]; };
            bool flipX = true, flipY = true, both = true, transpose = true;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    flipX = flipX && at(y, x) == at(y, w - 1 - x);
                    flipY = flipY && at(y, x) == at(h - 1 - y, x);
                    both = both && at(y, x) == at(h - 1 - y, w - 1 - x);
                    transpose = transpose && (dims == 1 || at(y, x) == at(x, y));
                }
            EXPECT_FALSE(flipX) << dims << "D r=" << r;
            EXPECT_FALSE(both) << dims << "D r=" << r;
            if (dims == 2) {
                EXPECT_FALSE(flipY) << "r=" << r;
                EXPECT_FALSE(transpose) << "r=" << r;
            }
        }
}

// `check` says which mask it used, and a right kernel is right with the
// generated mask (as with a mask file).
TEST_F(TraceCommands, CheckSaysWhichMaskItUsed) {
    Outcome o = tilescope("check --kernel conv2d_tiled_in --size 40x40 --radius 2 --block 16 --backend cpu");
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_NE(o.err.find("mask: generated 5x5, asymmetric (no flip or transpose of it is equal to it)"),
              std::string::npos)
        << o.err;
    EXPECT_NE(o.err.find("no problems"), std::string::npos) << o.err;

    o = tilescope("check --kernel conv1d_tiled --size 500 --radius 3 --backend cpu --json");
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_EQ(json(o)["mask"].get<std::string>().rfind("generated 7 wide, asymmetric (its mirror image", 0), 0u)
        << o.out;

    const fs::path file = m_dir / "mask3.txt";
    std::ofstream(file) << "1 2 1\n2 4 2\n1 2 1\n";
    o = tilescope("check --kernel conv2d_basic --size 20x20 --mask " + file.string() + " --backend cpu");
    EXPECT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_NE(o.err.find("mask: " + file.string() + ", 3x3\n"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace tilescope::test
