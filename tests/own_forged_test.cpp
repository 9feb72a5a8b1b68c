// What the kernel's process writes is believed only past the caller's
// checks (own/worker_protocol.hpp readResult). The worker runs the
// student's code in its own process, which can write any bytes into the job
// folder: these tests forge the worker's answer, from raw C++ cases
// (tests/own/sandbox/forge_*.cpp, built by CMake; no kernel file can become
// one) run through runOwnKernel with the sandbox off and required, and from
// files made by hand, and check that the caller survives, refuses in one
// line naming the field ("the kernel's process returned a result TileScope
// did not ask for"), with exit code 2, and never calls such a run right.
// The replay and the problem detector, the wall behind those checks, are
// fed traces no launch makes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "own/own_kernel.hpp"
#include "own/worker_protocol.hpp"
#include "fuzz/worker_result_job.hpp"
#include "reference/reference.hpp"
#include "scratch_dir.hpp"
#include "trace/problems.hpp"
#include "trace/steps.hpp"
#include "trace/trace_index.hpp"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using own::SandboxMode;

constexpr const char* kNotAsked = "the kernel's process returned a result TileScope did not ask for";

bool printable(const std::string& text) {
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
    return text.find("\xc2\x9b") == std::string::npos && text.find("\xe2\x80\xae") == std::string::npos;
}

struct Outcome {
    bool ok = false;
    Error error;
    RunResult result;
};

// Runs case `name` (tests/own/sandbox/NAME.cpp) as a kernel file's compiled
// object would run, on a 45 x 37 image with a 3 x 3 mask.
Outcome runCase(const std::string& name, SandboxMode mode, bool check) {
    Outcome o;
    std::string dir = (fs::temp_directory_path() / "tilescope-kernel-XXXXXX").string();
    if (!mkdtemp(dir.data())) {
        ADD_FAILURE() << "no scratch folder";
        return o;
    }
    {
        own::OwnKernel kernel;
        kernel.directory = dir;
        kernel.library = dir + "/kernel.so";
        fs::copy_file(std::string(TILESCOPE_SANDBOX_CASES) + "/" + name + ".so", kernel.library);
        kernel.translation.path = name + ".cu";
        kernel.translation.dims = 2;
        kernel.translation.text = std::string(30, '\n');
        own::KernelDeclaration k;
        k.name = "conv";
        kernel.translation.kernels.push_back(k);
        own::OwnEntryDescription d;
        d.name = "conv";
        d.path = name + ".cu";
        d.dims = 2;
        d.arrayNames = {"N", "M", "P", ""};
        kernel.entry.emplace(std::move(d));
        kernel.info = &kernel.entry->info();
        kernel.sandbox = mode;

        Image input = Image::planar(45, 37);
        for (std::size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>(i % 7) * 0.25f;
        std::vector<float> values(9);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i + 1) / 45.0f;
        const Mask mask = Mask::square(3, values);
        RunRequest req;
        req.input = &input;
        req.mask = &mask;
        req.backend = Backend::Cpu;
        req.timeLimitSeconds = 20.0;
        req.check = check;
        auto r = own::runOwnKernel(kernel, req);
        o.ok = static_cast<bool>(r);
        if (r)
            o.result = std::move(*r);
        else
            o.error = r.error();
    }
    return o;
}

// The caller survived to say, in one line, that it did not ask for this.
void expectRefused(const Outcome& o, const std::string& field) {
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.error.code, ExitCode::BadInput) << o.error.message;
    EXPECT_NE(o.error.message.find(kNotAsked), std::string::npos) << o.error.message;
    EXPECT_NE(o.error.message.find(field), std::string::npos) << o.error.message;
    EXPECT_EQ(o.error.message.find('\n'), std::string::npos) << o.error.message;
}

class Forged : public ::testing::TestWithParam<SandboxMode> {
protected:
    void SetUp() override {
        if (GetParam() == SandboxMode::Required && !own::sandboxStatus().available)
            GTEST_SKIP() << "the sandbox cannot run here: " << own::sandboxStatus().reason;
    }
};

TEST_P(Forged, AForgedBlockOfZeroThreadsIsRefused) {
    expectRefused(runCase("forge_zero_block", GetParam(), true), "a block of (0,0,0)");
}

TEST_P(Forged, AForgedBlockOfFourBillionThreadsASideIsRefused) {
    expectRefused(runCase("forge_huge_block", GetParam(), true), "a block of (4294967295,4294967295,4294967295)");
}

TEST_P(Forged, AForgedEmptyOutputIsRefused) {
    expectRefused(runCase("forge_empty_output", GetParam(), true), "an output of 0 bytes, not 45 x 37 floats");
    expectRefused(runCase("forge_empty_output", GetParam(), false), "an output of 0 bytes");
}

TEST_P(Forged, TheRightOutputWithNoStoreInTheTraceIsNeverRight) {
    const Outcome o = runCase("forge_output_without_stores", GetParam(), true);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.error.code, ExitCode::BadInput);
    EXPECT_NE(o.error.message.find("forge_output_without_stores.cu: the kernel stored nothing into P"),
              std::string::npos)
        << o.error.message;
    EXPECT_EQ(o.error.message.find('\n'), std::string::npos);
}

TEST_P(Forged, ATwentyMegabyteMessageOfEscapesNeverReachesTheTerminalRaw) {
    const Outcome o = runCase("forge_escape_message", GetParam(), true);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.error.code, ExitCode::BadInput) << o.error.message;
    EXPECT_LE(o.error.message.size(), 8192u);
    EXPECT_TRUE(printable(o.error.message)) << o.error.message.substr(0, 200);
    EXPECT_EQ(o.error.message.find("owned"), std::string::npos) << o.error.message.substr(0, 200);
}

TEST_P(Forged, AShortMessageOfEscapesIsShownAsPrintableTextOnOneLine) {
    const Outcome o = runCase("forge_escape_short", GetParam(), true);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.error.code, ExitCode::BadInput);
    EXPECT_TRUE(printable(o.error.message)) << o.error.message;
    EXPECT_NE(o.error.message.find("forge_escape_short.cu: "), std::string::npos) << o.error.message;
    EXPECT_NE(o.error.message.find("see?here"), std::string::npos) << o.error.message;
}

INSTANTIATE_TEST_SUITE_P(Sandbox, Forged, ::testing::Values(SandboxMode::Off, SandboxMode::Required),
                         [](const ::testing::TestParamInfo<SandboxMode>& info) {
                             return info.param == SandboxMode::Off ? std::string("Off") : std::string("Required");
                         });

// [SECTION] readResult on files made by hand

using test::fixedBounds;
using test::fixedJob;

own::WorkerResult rightResult() {
    own::WorkerResult r;
    r.ok = true;
    r.kernel = "conv";
    r.grid = Dim3{2, 2, 1};
    r.block = Dim3{4, 3, 1};
    r.sharedBytes = 6 * 5 * 4;
    r.millis = 0.25;
    r.output.assign(48, 0.5f);
    for (unsigned y = 0; y < 2; ++y)
        for (unsigned x = 0; x < 2; ++x) {
            BlockEvents b{Dim3{x, y, 0}, {}};
            for (std::uint16_t t = 0; t < 12; ++t) {
                const int px = static_cast<int>(x * 4 + t % 4), py = static_cast<int>(y * 3 + t / 4);
                b.events.push_back(Event{py * 8 + px, 0.5f, t, 12, 0, Op::Load, kArrayInput});
                b.events.push_back(Event{t, 0.5f, t, 13, 0, Op::Store, kArrayShared});
                b.events.push_back(Event{-1, 0.0f, t, 14, 0, Op::Barrier, kArrayNone});
                b.events.push_back(Event{4, 0.1f, t, 15, 1, Op::Load, kArrayMask});
                b.events.push_back(Event{-1, 0.05f, t, 15, 1, Op::MultiplyAdd, kArrayNone});
                b.events.push_back(Event{90, 0.0f, t, 16, 1, Op::LoadOutside, kArrayShared});
                b.events.push_back(Event{py * 8 + px, 0.5f, t, 17, 1, Op::Store, kArrayOutput});
            }
            r.blocks.push_back(std::move(b));
        }
    return r;
}

class ReadResult : public ::testing::Test {
protected:
    // Writes `r` as the worker does, then lets `change` alter result.json.
    Result<own::WorkerResult> read(const own::WorkerResult& r, const std::function<void(json&)>& change = {},
                                   const own::WorkerJob& job = fixedJob()) {
        EXPECT_TRUE(own::writeResult(dir.path(), r));
        if (change) {
            std::ifstream in(dir.path() / "result.json");
            json j = json::parse(in);
            change(j);
            std::ofstream(dir.path() / "result.json", std::ios::trunc) << j.dump();
        }
        return own::readResult(dir.path(), job, fixedBounds());
    }
    void expectRefused(const Result<own::WorkerResult>& r, const std::string& field) {
        ASSERT_FALSE(r) << "read: " << field;
        EXPECT_EQ(r.error().code, ExitCode::BadInput) << r.error().message;
        EXPECT_EQ(r.error().message.rfind(std::string("mine.cu: ") + kNotAsked + " (", 0), 0u) << r.error().message;
        EXPECT_NE(r.error().message.find(field), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
    test::ScratchDir dir{"tilescope-forged"};
};

TEST_F(ReadResult, TheWorkersOwnResultReadsBackWhole) {
    const own::WorkerResult want = rightResult();
    auto got = read(want);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_TRUE(got->ok);
    EXPECT_EQ(got->kernel, "conv");
    EXPECT_EQ(got->grid, want.grid);
    EXPECT_EQ(got->block, want.block);
    EXPECT_EQ(got->sharedBytes, want.sharedBytes);
    EXPECT_EQ(got->output, want.output);
    ASSERT_EQ(got->blocks.size(), want.blocks.size());
    for (std::size_t b = 0; b < want.blocks.size(); ++b) {
        EXPECT_EQ(got->blocks[b].block, want.blocks[b].block);
        EXPECT_EQ(got->blocks[b].events, want.blocks[b].events);
    }
    // A failure, and a GPU that could not be used, read too.
    own::WorkerResult failed;
    failed.message = "launch() returned without launching a kernel";
    failed.line = 31;
    auto f = read(failed);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_FALSE(f->ok);
    EXPECT_EQ(f->line, 31u);
    EXPECT_EQ(f->message, failed.message);
    own::WorkerJob cuda = fixedJob();
    cuda.backend = "cuda";
    own::WorkerResult unavailable;
    unavailable.unavailable = true;
    unavailable.message = "no CUDA driver";
    auto u = read(unavailable, {}, cuda);
    ASSERT_TRUE(u) << u.error().message;
    EXPECT_TRUE(u->unavailable);
}

TEST_F(ReadResult, EachFieldOfResultJsonOutOfRangeIsRefusedNamingIt) {
    struct Case {
        const char* field;
        std::function<void(json&)> change;
    };
    const std::vector<Case> cases = {
        {"no \"grid\"", [](json& j) { j.erase("grid"); }},
        {"\"ok\" is not true or false", [](json& j) { j["ok"] = 1; }},
        {"\"message\" is not text", [](json& j) { j["message"] = json::array(); }},
        {"\"line\" is 41, past 40", [](json& j) { j["line"] = 41; }},
        {"\"line\" is not a count", [](json& j) { j["line"] = -1; }},
        {"a kernel named \"system\"", [](json& j) { j["kernel"] = "system"; }},
        {"a block of (0,0,0)", [](json& j) { j["block"] = {0, 0, 0}; }},
        {"a block of (2048,1,1)", [](json& j) { j["block"] = {2048, 1, 1}; }},
        {"a block of (32,32,2)", [](json& j) { j["block"] = {32, 32, 2}; }},
        {"\"block\" holds a size past 2^32", [](json& j) { j["block"] = {4294967296ull, 1, 1}; }},
        {"\"block\" holds a negative or fractional size", [](json& j) { j["block"] = {-4, 1, 1}; }},
        {"\"grid\" is not three sizes", [](json& j) { j["grid"] = {2, 2}; }},
        {"a grid of (0,2,1)", [](json& j) { j["grid"] = {0, 2, 1}; }},
        {"a grid of (2,65536,1)", [](json& j) { j["grid"] = {2, 65536, 1}; }},
        {"a grid of (65536,65536,1)", [](json& j) { j["grid"] = {65536, 65536, 1}; }},
        {"more threads than the CPU runs", [](json& j) { j["grid"] = {65536, 1024, 1}; }},
        {"49153 bytes of shared memory", [](json& j) { j["shared_bytes"] = 49153; }},
        {"its time is not a time", [](json& j) { j["millis"] = -1.0; }},
        {"its time is not a number", [](json& j) { j["millis"] = "soon"; }},
        {"\"barrier_mismatches\" is 5, past 4", [](json& j) { j["barrier_mismatches"] = 5; }},
        {"\"blocks\" is 5, past 4", [](json& j) { j["blocks"] = 5; }},
        {"a backend that is neither cpu nor cuda", [](json& j) { j["backend"] = "fpga"; }},
        {"a run on cuda, not cpu", [](json& j) { j["backend"] = "cuda"; }},
        {"a CPU run that says the GPU is unavailable", [](json& j) { j["unavailable"] = true; }},
        {"a CPU run that skipped", [](json& j) { j["plain_skipped"] = true; }},
        {"events.bin holds bytes after its last block", [](json& j) { j["blocks"] = 3; }},
    };
    for (const Case& c : cases) expectRefused(read(rightResult(), c.change), c.field);
    // Not JSON, and past its size.
    ASSERT_TRUE(own::writeResult(dir.path(), rightResult()));
    std::ofstream(dir.path() / "result.json", std::ios::trunc) << "{\"ok\": tru";
    expectRefused(own::readResult(dir.path(), fixedJob(), fixedBounds()), "result.json is not a JSON object");
    std::ofstream(dir.path() / "result.json", std::ios::trunc) << std::string((2u << 20), ' ');
    expectRefused(own::readResult(dir.path(), fixedJob(), fixedBounds()), "result.json is over 1048576 bytes");
    // An untraced job's result holds no blocks.
    own::WorkerJob untraced = fixedJob();
    untraced.trace = false;
    expectRefused(read(rightResult(), {}, untraced), "\"blocks\" is 4, past 0");
}

TEST_F(ReadResult, AnOutputOfAnyOtherSizeIsRefused) {
    own::WorkerResult r = rightResult();
    r.output.clear();
    expectRefused(read(r), "an output of 0 bytes, not 8 x 6 floats");
    r.output.assign(49, 1.0f);
    expectRefused(read(r), "an output of 196 bytes, not 8 x 6 floats");
}

TEST_F(ReadResult, EachEventOutOfRangeIsRefusedNamingIt) {
    struct Case {
        const char* field;
        std::function<void(own::WorkerResult&)> change;
    };
    const std::vector<Case> cases = {
        {"an event of thread 12, outside its block of 12", [](own::WorkerResult& r) { r.blocks[0].events.back().thread = 12; }},
        {"events out of order", [](own::WorkerResult& r) { std::swap(r.blocks[0].events[0], r.blocks[0].events.back()); }},
        {"a thread's phases go backwards", [](own::WorkerResult& r) { r.blocks[0].events[3].phase = 0; r.blocks[0].events[4].phase = 0; r.blocks[0].events[5].phase = 0; r.blocks[0].events[2].phase = 7; }},
        {"an unknown op", [](own::WorkerResult& r) { r.blocks[0].events[0].op = static_cast<Op>(6); }},
        {"an unknown array", [](own::WorkerResult& r) { r.blocks[0].events[0].array = 4; }},
        {"an unknown array", [](own::WorkerResult& r) { r.blocks[0].events[2].array = 9; }},
        {"an access of element 48 of array 0", [](own::WorkerResult& r) { r.blocks[0].events[0].index = 48; }},
        {"an access of element -1 of array 2", [](own::WorkerResult& r) { r.blocks[0].events[6].index = -1; }},
        {"an access of element 9 of array 1", [](own::WorkerResult& r) { r.blocks[0].events[3].index = 9; }},
        {"an access of element 30 of array 3", [](own::WorkerResult& r) { r.blocks[0].events[1].index = 30; }},
        {"line 41, past the file's 40", [](own::WorkerResult& r) { r.blocks[1].events[0].line = 41; }},
        {"a traced block outside the grid", [](own::WorkerResult& r) { r.blocks[3].block = Dim3{2, 1, 0}; }},
        {"a traced block outside the grid", [](own::WorkerResult& r) { r.blocks[3].block = Dim3{1, 1, 1}; }},
        {"traced blocks out of order", [](own::WorkerResult& r) { std::swap(r.blocks[1], r.blocks[2]); }},
        {"traced blocks out of order", [](own::WorkerResult& r) { r.blocks[1] = r.blocks[0]; }},
    };
    for (const Case& c : cases) {
        own::WorkerResult r = rightResult();
        c.change(r);
        expectRefused(read(r), c.field);
    }
    // Blocks not asked for, more events than the budget, bytes after the last block, a count past the file.
    own::WorkerJob some = fixedJob();
    some.traceBlocks = {Dim3{0, 0, 0}, Dim3{1, 1, 1}};
    expectRefused(read(rightResult(), {}, some), "block (1,0,0) traced, which was not asked for");
    own::WorkerJob small = fixedJob();
    small.eventBudget = 100;
    expectRefused(read(rightResult(), {}, small), "more events than the trace's budget");
    ASSERT_TRUE(own::writeResult(dir.path(), rightResult()));
    std::ofstream(dir.path() / "events.bin", std::ios::app | std::ios::binary) << "x";
    expectRefused(own::readResult(dir.path(), fixedJob(), fixedBounds()), "events.bin holds bytes after its last block");
    ASSERT_TRUE(own::writeResult(dir.path(), rightResult()));
    {
        std::fstream events(dir.path() / "events.bin", std::ios::in | std::ios::out | std::ios::binary);
        const std::uint64_t huge = ~0ull / 2;
        events.seekp(24);
        events.write(reinterpret_cast<const char*>(&huge), sizeof huge);
    }
    expectRefused(own::readResult(dir.path(), fixedJob(), fixedBounds()), "events.bin is cut short");
}

TEST_F(ReadResult, MessagesAreMadePrintableAndCapped) {
    own::WorkerResult failed;
    failed.message = "\x1b]0;owned\x07\x1b[2Jsee\nhere\xc2\x9b" "31m\xe2\x80\xae" "ok tab\there";
    auto f = read(failed);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->message, "?]0;owned??[2Jsee?here?31m?ok tab\there");
    failed.message = std::string(100000, 'a');
    auto capped = read(failed);
    ASSERT_TRUE(capped) << capped.error().message;
    EXPECT_LE(capped->message.size(), own::kMaxMessageBytes + 8);
    EXPECT_EQ(capped->message.substr(capped->message.size() - 6), " [...]");
}

// [SECTION] The fuzz target's seeds (tests/fuzz/fuzz_worker_result.cpp)

// The job folder's files as one fuzz input: u32 J, u32 F, result.json (J
// bytes), P.f32 (F bytes), events.bin.
std::string packed(const fs::path& dir) {
    auto bytes = [&](const char* name) {
        std::ifstream in(dir / name, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const std::string json = bytes("result.json"), floats = bytes("P.f32"), events = bytes("events.bin");
    const std::uint32_t sizes[2] = {static_cast<std::uint32_t>(json.size()), static_cast<std::uint32_t>(floats.size())};
    return std::string(reinterpret_cast<const char*>(sizes), sizeof sizes) + json + floats + events;
}

// The seeds are the worker's own writeResult output for the target's fixed
// job: a right result, a failure, one traced block. With
// $TILESCOPE_WRITE_FUZZ_SEEDS set, this writes them afresh.
TEST_F(ReadResult, TheFuzzSeedsAreTheWorkersOwnFormat) {
    own::WorkerResult failed;
    failed.message = "launch() returned without launching a kernel";
    failed.line = 31;
    own::WorkerResult one = rightResult();
    one.blocks.resize(1);
    const std::vector<std::pair<std::string, own::WorkerResult>> seeds = {
        {"right", rightResult()}, {"failed", failed}, {"one_block", one}};
    const fs::path corpus = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / "worker_result";
    const bool write = std::getenv("TILESCOPE_WRITE_FUZZ_SEEDS") != nullptr;
    for (const auto& [name, result] : seeds) {
        ASSERT_TRUE(own::writeResult(dir.path(), result));
        ASSERT_TRUE(own::readResult(dir.path(), fixedJob(), fixedBounds())) << name;
        const std::string bytes = packed(dir.path());
        if (write) {
            fs::create_directories(corpus);
            std::ofstream(corpus / name, std::ios::binary | std::ios::trunc) << bytes;
        }
        std::ifstream in(corpus / name, std::ios::binary);
        const std::string seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(seed, bytes) << "tests/fuzz/corpus/worker_result/" << name
                               << " is not the worker's format: run with TILESCOPE_WRITE_FUZZ_SEEDS=1";
    }
}

TEST(PrintableText, KeepsUtf8AndTabsAndCutsAtACharacter) {
    EXPECT_EQ(own::printableText("größe\t∑ ok"), "größe\t∑ ok");
    EXPECT_EQ(own::printableText("\x7f\xc0\xaf\xed\xa0\x80"), "??????");  // DEL, an overlong '/', a surrogate
    // "é" is two bytes: a cut never splits it.
    EXPECT_EQ(own::printableText("ééé", 5), "éé [...]");
    EXPECT_EQ(own::printableText("\xe2\x80\xa8\xe2\x81\xa6x"), "??x");  // a line separator, an isolate
}

// [SECTION] The replay and the detector bear any trace

Trace ownLikeTrace(const KernelInfo& info, Dim3 block) {
    Trace t;
    t.kernel = std::string(info.name);
    t.backend = "cpu";
    t.plan.kernel = KernelId::Own;
    t.plan.entry = &info;
    t.plan.grid = Dim3{2, 2, 1};
    t.plan.block = block;
    t.plan.radius = 1;
    t.plan.maskWidth = 3;
    t.plan.width = 8;
    t.plan.height = 6;
    t.plan.pitch = 8;
    for (int a : {int(kArrayInput), int(kArrayOutput)}) {
        t.arrays[a].name = a == kArrayInput ? "N" : "P";
        t.arrays[a].width = 8;
        t.arrays[a].height = 6;
        t.arrays[a].pitch = 8;
        t.arrays[a].size = 48;
    }
    t.arrays[kArrayMask].name = "M";
    t.arrays[kArrayMask].size = 9;
    t.arrays[kArrayMask].width = t.arrays[kArrayMask].height = t.arrays[kArrayMask].pitch = 3;
    return t;
}

// Builds the model, steps through every block and thread, describes every
// event and every problem: nothing may fault.
void useEverything(const Trace& trace) {
    const ProblemSet problems = detectProblems(trace);
    for (const ProblemReport& p : problems.items) {
        EXPECT_FALSE(problemLine(trace, p).empty());
        EXPECT_FALSE(describeProblem(trace, p).empty());
    }
    const TraceModel model(trace);
    for (std::size_t b = 0; b < model.blockCount(); ++b) {
        const BlockReplay& r = model.block(b);
        for (Cursor c = 0; c < r.size(); c = r.next(c, Granularity::Step)) {
            for (unsigned lane = 0; lane < r.laneCount(); ++lane) (void)r.threadState(lane, c);
        }
        for (std::uint32_t e = 0; e < r.events().size(); ++e) EXPECT_FALSE(r.describe(e).empty());
        (void)r.outputAt(0, 0, 0, r.size());
        (void)r.sharedAt(0, r.size());
    }
    (void)model.inputReadCounts();
    (void)model.ghostCellCount();
}

TEST(ReplayOfAnyTrace, BlocksNoLaunchMakesAndEventsOutOfRangeNeverFault) {
    own::OwnEntryDescription d;
    d.name = "conv";
    d.path = "mine.cu";
    d.dims = 2;
    d.arrayNames = {"N", "M", "P", ""};
    const own::OwnEntry entry(d);
    const Event store{5, 1.0f, 3, 7, 0, Op::Store, kArrayOutput};
    const Event load{9, 1.0f, 1, 6, 0, Op::Load, kArrayInput};

    EXPECT_EQ(replayThreads(Dim3{0, 4, 1}), 0u);
    EXPECT_EQ(replayThreads(Dim3{4294967295u, 4294967295u, 4294967295u}), 0u);
    EXPECT_EQ(replayThreads(Dim3{65536, 65536, 1}), 0u);
    EXPECT_EQ(replayThreads(Dim3{16, 16, 1}), 256u);
    const std::vector<Event> wild = {store, Event{0, 0.0f, 65535, 1, 0, Op::Store, kArrayOutput}, load};
    const BlockSteps steps = replaySteps(wild, 4294967295u);
    EXPECT_EQ(steps.threadBegin.size(), 1u);
    EXPECT_EQ(steps.stepOf.size(), wild.size());

    const std::vector<Dim3> blocks = {Dim3{0, 0, 0}, Dim3{0, 0, 1}, Dim3{4294967295u, 4294967295u, 4294967295u},
                                      Dim3{65536, 65536, 1}, Dim3{4, 3, 1}, Dim3{1024, 1, 1}};
    for (const Dim3& block : blocks) {
        SCOPED_TRACE("block " + std::to_string(block.x) + "x" + std::to_string(block.y) + "x" +
                     std::to_string(block.z));
        Trace t = ownLikeTrace(entry.info(), block);
        // In order, out of order, a thread past the block, unknown ops and arrays, indices anywhere.
        BlockEvents first{Dim3{0, 0, 0}, {store, load, Event{0, 0.0f, 65535, 1, 3, Op::Barrier, kArrayNone},
                                          Event{-7, 0.0f, 2, 1, 0, Op::Load, kArrayShared},
                                          Event{1 << 30, 0.0f, 2, 1, 0, Op::Store, kArrayOutput},
                                          Event{3, 0.0f, 0, 1, 0, static_cast<Op>(200), 77},
                                          Event{3, 0.0f, 0, 1, 0, Op::Load, 77},
                                          Event{kSubscripted + 5, 0.0f, 0, 9, 0, Op::LoadOutside, kArrayShared}}};
        t.blocks.push_back(first);
        t.blocks.push_back(BlockEvents{Dim3{9, 9, 9}, {store}});       // outside the grid
        t.blocks.push_back(BlockEvents{Dim3{1, 0, 0}, {load, store}});  // in order
        t.blocks.push_back(BlockEvents{Dim3{0, 0, 0}, {store}});       // out of order
        useEverything(t);
        // Tiles, a radius and a shared array past anything a launch makes.
        t.plan.outTile = 1 << 20;
        t.plan.inTile = -3;
        t.arrays[kArrayShared].size = 1 << 30;
        t.arrays[kArrayShared].space = Space::Shared;
        useEverything(t);
        t.plan.outTile = 0;
        t.plan.radius = 1 << 20;
        useEverything(t);
    }
}

}  // namespace
}  // namespace tilescope
