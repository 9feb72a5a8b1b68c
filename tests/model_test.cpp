// The app's models, driven with no window: the runner (work off the calling
// thread, cancel, supersede), the set-up rules and their messages, the mask
// presets, the inputs, the settings file, the student's kernel file (its
// compile off the calling thread, its reloads, the exercises), and the trace
// session (the step-through's traces, selection and stepping). Each links
// tilescope_model alone: no ImGui, no OpenGL, no display.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/runner.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "io/files.hpp"
#include "model/assets.hpp"
#include "model/code_rows.hpp"
#include "model/inputs.hpp"
#include "model/kernel_file.hpp"
#include "model/masks.hpp"
#include "model/runner.hpp"
#include "model/settings.hpp"
#include "model/setup_rules.hpp"
#include "model/trace_session.hpp"
#include "own/own_kernel.hpp"
#include "text_files.hpp"
#include "trace/sources.hpp"
#include "trace/trace_index.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;

// [SECTION] The runner: the UI thread never waits

ui::RunJob photoJob(int size, int radius, Backend backend = Backend::Cpu) {
    ui::RunJob job;
    job.kernel = "conv2d_tiled_in";
    job.dims = 2;
    job.input.source = ui::InputSource::Photo;
    job.input.width = job.input.height = size;
    job.mask = *ui::makePresetMask(ui::MaskPreset::BoxBlur, 2, radius);
    job.block = 32;
    job.backend = backend;
    return job;
}

template <class F>
double millisecondsOf(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::shared_ptr<const ui::RunOutcome> waitFor(ui::Runner& runner, std::uint64_t id, double seconds = 60) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        auto latest = runner.latest();
        if (latest && latest->id == id)
            return latest;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return nullptr;
}

TEST(Runner, RunsOffTheCallingThreadAndChecksAgainstTheReference) {
    ui::Runner runner;
    std::uint64_t id = 0;
    EXPECT_LT(millisecondsOf([&] { id = runner.submit(photoJob(48, 2)); }), 20.0);
    const auto outcome = waitFor(runner, id);
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->result) << (outcome->runError ? outcome->runError->message : "");
    EXPECT_EQ(outcome->input->width, 48);
    EXPECT_LE(outcome->maxDifference, outcome->tolerance);
    EXPECT_FALSE(runner.progress().busy);
    EXPECT_EQ(runner.knownShape(outcome->job.input, 2)->width, 48);
}

TEST(Runner, ANewJobSupersedesTheRunningOneAndCancelStopsIt) {
    ui::Runner runner;
    // Large enough to take seconds on the CPU executor.
    const std::uint64_t slow = runner.submit(photoJob(1024, 7));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    double worst = 0;
    for (int i = 0; i < 20; ++i) {  // what the UI does every frame, while the worker is busy
        worst = std::max(worst, millisecondsOf([&] {
                             (void)runner.progress();
                             (void)runner.latest();
                         }));
    }
    EXPECT_LT(worst, 20.0) << "reading progress never waits for the work";
    const std::uint64_t quick = runner.submit(photoJob(32, 1));
    const auto outcome = waitFor(runner, quick, 30);
    ASSERT_TRUE(outcome) << "the superseding job finished";
    EXPECT_TRUE(outcome->result);
    EXPECT_NE(outcome->id, slow);

    const std::uint64_t again = runner.submit(photoJob(1024, 7));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_TRUE(runner.progress().busy);
    runner.cancel();
    const auto cancelled = waitFor(runner, again, 30);
    ASSERT_TRUE(cancelled);
    EXPECT_TRUE(cancelled->cancelled);
    EXPECT_FALSE(cancelled->result);
}

TEST(Runner, AnInputThatCannotBeReadIsAnOutcomeNotACrash) {
    ui::Runner runner;
    ui::RunJob job = photoJob(16, 1);
    job.input.source = ui::InputSource::File;
    job.input.path = "/no/such/file.png";
    const auto outcome = waitFor(runner, runner.submit(job));
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->inputError);
    EXPECT_NE(outcome->inputError->message.find("does not exist"), std::string::npos);
}

// [SECTION] The set-up rules

TEST(SetupRules, SwitchingBetween1DAnd2DKernelsPicksWhatFits) {
    ui::SetupState s = ui::demoSetup(ui::GpuStatus{});
    EXPECT_EQ(s.backend, Backend::Cpu);
    const KernelInfo& twoD = *findKernel(s.kernel);
    const KernelInfo& oneD = *findKernel("conv1d_tiled");
    ui::adaptToKernel(s, twoD, oneD);
    EXPECT_EQ(s.preset, ui::MaskPreset::BookOneD);
    EXPECT_EQ(s.input.source, ui::InputSource::BookOneToSeven);
    EXPECT_EQ(s.block, defaultBlock(oneD));
    s.kernel = "conv1d_tiled";
    EXPECT_TRUE(ui::checkSetup(s, std::nullopt, ui::GpuStatus{}, nullptr).runnable());
    ui::adaptToKernel(s, oneD, twoD);
    EXPECT_EQ(s.preset, ui::MaskPreset::Figure7_4);
    EXPECT_EQ(s.input.source, ui::InputSource::Photo);
}

TEST(SetupRules, EveryProblemIsASentenceForItsSection) {
    ui::SetupState s = ui::demoSetup(ui::GpuStatus{});
    s.preset = ui::MaskPreset::BoxBlur;
    s.radius = 3;
    s.block = 5;
    ui::SetupCheck check = ui::checkSetup(s, std::nullopt, ui::GpuStatus{}, nullptr);
    EXPECT_FALSE(check.runnable());
    EXPECT_NE(check.planProblem.find("use a block edge of 7 or more"), std::string::npos) << check.planProblem;

    s = ui::demoSetup(ui::GpuStatus{});
    s.input.source = ui::InputSource::BookOneToSeven;  // a 1D array for a 2D kernel
    check = ui::checkSetup(s, std::nullopt, ui::GpuStatus{}, nullptr);
    EXPECT_NE(check.planProblem.find("2D kernel but the input is a 1D array of 7"), std::string::npos);

    s = ui::demoSetup(ui::GpuStatus{});
    s.backend = Backend::Cuda;
    check = ui::checkSetup(s, std::nullopt, ui::GpuStatus{false, "", "no CUDA device"}, nullptr);
    EXPECT_EQ(check.backendProblem, "CUDA is not available: no CUDA device");

    s = ui::demoSetup(ui::GpuStatus{});
    s.kernel = "conv1d_basic";
    s.preset = ui::MaskPreset::SobelY;
    check = ui::checkSetup(s, std::nullopt, ui::GpuStatus{}, nullptr);
    EXPECT_EQ(check.maskProblem, "Sobel y exists only for 2D kernels");
    EXPECT_EQ(check.firstProblem(), check.maskProblem);
}

// The set-up name "own" is the kernel file's entry its holder passes in:
// before it has compiled, nothing (and any catalogue kernel may be compared
// with it); once it has, a kernel of its dimension like any other.
TEST(SetupRules, TheOwnKernelIsWhatTheCallerPasses) {
    KernelInfo own = *findKernel("conv1d_basic");
    own.id = KernelId::Own;
    const std::string key(ui::kOwnKernelKey);
    EXPECT_EQ(ui::setupKernel(key, nullptr), nullptr);
    EXPECT_EQ(ui::setupKernel(key, &own), &own);
    EXPECT_EQ(ui::setupKernel("conv1d_tiled", &own), findKernel("conv1d_tiled"));

    EXPECT_TRUE(ui::compareFits(key, "conv2d_basic", nullptr));
    EXPECT_FALSE(ui::compareFits(key, "conv2d_basic", &own));
    EXPECT_TRUE(ui::compareFits(key, "conv1d_tiled", &own));
    EXPECT_TRUE(ui::compareFits("conv1d_tiled", key, &own));

    ui::SetupState s = ui::demoSetup(ui::GpuStatus{});
    s.kernel = key;
    ui::SetupCheck check = ui::checkSetup(s, std::nullopt, ui::GpuStatus{}, nullptr);
    EXPECT_EQ(check.kernel, nullptr);
    EXPECT_NE(check.kernelProblem.find("has not compiled yet"), std::string::npos) << check.kernelProblem;
    s.preset = ui::MaskPreset::BookOneD;
    s.input.source = ui::InputSource::BookOneToSeven;
    check = ui::checkSetup(s, std::nullopt, ui::GpuStatus{}, &own);
    EXPECT_EQ(check.kernel, &own);
    EXPECT_TRUE(check.runnable()) << check.firstProblem();
    EXPECT_FALSE(check.plan) << "the student's launch() chooses the grid and the block";
}

std::vector<float> presetValues(ui::MaskPreset preset, int dims, int radius) {
    auto mask = ui::makePresetMask(preset, dims, radius);
    EXPECT_TRUE(mask.ok());
    return mask ? mask->values : std::vector<float>{};
}

TEST(MaskPresets, MatchTheBookAndTheClassicFilters) {
    const Mask fig = *ui::makePresetMask(ui::MaskPreset::Figure7_4, 2, 0);
    EXPECT_EQ(fig.width, 5);
    EXPECT_DOUBLE_EQ(fig.absSum(), 65.0);
    EXPECT_EQ(fig.at(2, 2), 5.0f);
    EXPECT_EQ(presetValues(ui::MaskPreset::BookOneD, 1, 7), (std::vector<float>{3, 4, 5, 4, 3}));
    EXPECT_EQ(presetValues(ui::MaskPreset::SobelX, 2, 1), (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
    EXPECT_EQ(presetValues(ui::MaskPreset::SobelY, 2, 1), (std::vector<float>{-1, -2, -1, 0, 0, 0, 1, 2, 1}));
    EXPECT_EQ(presetValues(ui::MaskPreset::Gaussian, 1, 1), (std::vector<float>{0.25f, 0.5f, 0.25f}));
    for (int r = 0; r <= kMaxRadius; ++r) {
        double sum = 0;
        for (float v : presetValues(ui::MaskPreset::Sharpen, 2, r))
            sum += v;
        EXPECT_NEAR(sum, 1.0, 1e-5) << "sharpening keeps the mean, r = " << r;
        EXPECT_EQ(presetValues(ui::MaskPreset::Shift, 1, r).back(), 1.0f);
    }
    EXPECT_FALSE(ui::makePresetMask(ui::MaskPreset::SobelX, 2, 0).ok()) << "a derivative needs a neighbour";
}

TEST(Inputs, BuiltInsLoadAtTheAskedSize) {
    ui::InputSpec spec;
    spec.source = ui::InputSource::BookOneToSeven;
    EXPECT_EQ(ui::loadInput(spec, 1)->data, (std::vector<float>{1, 2, 3, 4, 5, 6, 7}));
    spec.source = ui::InputSource::BookShort;
    EXPECT_EQ(ui::loadInput(spec, 1)->data, (std::vector<float>{4, 1, 3, 2, 3}));
    for (auto source : {ui::InputSource::Photo, ui::InputSource::Checkerboard, ui::InputSource::Gradient}) {
        spec.source = source;
        spec.width = 40;
        spec.height = 24;
        spec.length = 100;
        const Image picture = *ui::loadInput(spec, 2);
        EXPECT_EQ(picture.width, 40);
        EXPECT_EQ(picture.height, 24);
        EXPECT_EQ(picture.rank, 2);
        const Image row = *ui::loadInput(spec, 1);
        EXPECT_EQ(row.rank, 1) << "a 1D kernel gets the middle row";
        EXPECT_EQ(row.width, 100);
        EXPECT_EQ(ui::predictedShape(spec, 2)->width, 40);
        for (float v : picture.data) {
            EXPECT_GE(v, 0.0f);
            EXPECT_LE(v, 1.0f);
        }
    }
    spec.source = ui::InputSource::Checkerboard;
    spec.width = spec.height = 16;
    const Image board = *ui::loadInput(spec, 2);
    for (float v : board.data)
        EXPECT_TRUE(v == 0.0f || v == 1.0f) << "squares stay sharp";
}

// The built-in inputs come from the binary, byte for byte the files of
// assets/, and read as those files read.
TEST(Inputs, BuiltInsAreCarriedInTheBinary) {
    const fs::path assets = fs::path(TILESCOPE_SOURCE_DIR) / "assets";
    for (const ui::InputSourceInfo& info : ui::inputSources()) {
        if (info.assetFile.empty())
            continue;
        const auto embedded = ui::embeddedAsset(info.assetFile);
        ASSERT_TRUE(embedded) << info.assetFile;
        std::ifstream in(assets / info.assetFile, std::ios::binary);
        const std::string onDisk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(embedded->data()), embedded->size()), onDisk)
            << info.assetFile;
        auto fromFile = io::readInput(assets / info.assetFile);
        auto fromBinary = io::readInputBytes(std::string(info.assetFile), *embedded);
        ASSERT_TRUE(fromFile.ok() && fromBinary.ok()) << info.assetFile;
        EXPECT_EQ(fromBinary->data, fromFile->data) << info.assetFile;
    }
    EXPECT_FALSE(ui::embeddedAsset("no_such.pgm"));
}

TEST(Settings, RoundTripAndSurviveDamage) {
    ui::Settings s;
    s.lecture = true;
    s.panels[ui::PanelId::Device] = false;
    s.setup.kernel = "conv1d_tiled";
    s.setup.preset = ui::MaskPreset::Custom;
    s.setup.radius = 1;
    s.setup.customValues = {1, -2, 1};
    s.setup.input.source = ui::InputSource::File;
    s.setup.input.path = "/tmp/a picture.png";
    s.compare = "conv1d_tiled_cached";
    auto back = ui::settingsFromJson(ui::settingsToJson(s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->lecture, true);
    EXPECT_EQ(back->panels[ui::PanelId::Device], false);
    EXPECT_EQ(back->setup, s.setup);
    EXPECT_EQ(back->compare, "conv1d_tiled_cached");
    // A kernel that does not exist is not compared with.
    EXPECT_EQ(ui::settingsFromJson(R"({"compare": "conv9d"})")->compare, "");

    EXPECT_FALSE(ui::settingsFromJson("{ not json").ok());
    // Wrong types and unknown names keep the defaults.
    auto odd = ui::settingsFromJson(R"({"lecture": "yes", "setup": {"kernel": "conv9d", "radius": 99, "block": -3}})");
    ASSERT_TRUE(odd.ok());
    EXPECT_FALSE(odd->lecture);
    EXPECT_EQ(odd->setup.kernel, ui::SetupState{}.kernel);
    EXPECT_EQ(odd->setup.radius, kMaxRadius);
    EXPECT_EQ(odd->setup.block, 1);
}

// Each mode keeps its own panels: lecture-hall mode starts with the
// lecture's three, and the file names each set the same whichever mode is on.
TEST(Settings, EachModeKeepsItsOwnPanels) {
    ui::Settings s;
    EXPECT_EQ(s.otherModePanels, ui::PanelVisibility::lecture());
    const ui::PanelVisibility lecture = ui::PanelVisibility::lecture();
    for (const ui::PanelInfo& p : ui::kPanelTable) {
        const bool listed = std::find(std::begin(ui::kLecturePanels), std::end(ui::kLecturePanels), p.id) !=
                            std::end(ui::kLecturePanels);
        EXPECT_EQ(lecture[p.id], listed) << p.key;
    }
    // Lecture-hall mode on: the panels shown are its own, written as "lecturePanels".
    s.lecture = true;
    s.panels = ui::PanelVisibility::lecture();
    s.panels[ui::PanelId::Threads] = true;
    s.otherModePanels = ui::PanelVisibility();
    s.otherModePanels[ui::PanelId::Counts] = false;
    const auto j = nlohmann::json::parse(ui::settingsToJson(s));
    EXPECT_EQ(j["lecturePanels"]["threads"], true);
    EXPECT_EQ(j["lecturePanels"]["setup"], false);
    EXPECT_EQ(j["panels"]["setup"], true);
    EXPECT_EQ(j["panels"]["counts"], false);
    auto back = ui::settingsFromJson(j.dump());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->panels, s.panels);
    EXPECT_EQ(back->otherModePanels, s.otherModePanels);
    // A file of before lecture-hall mode had its own panels: its panels are the everyday ones.
    auto old = ui::settingsFromJson(R"({"lecture": true, "panels": {"setup": false}})");
    ASSERT_TRUE(old.ok());
    EXPECT_EQ(old->panels, ui::PanelVisibility::lecture());
    EXPECT_FALSE(old->otherModePanels[ui::PanelId::Setup]);
    EXPECT_TRUE(old->otherModePanels[ui::PanelId::Result]);
}

// [SECTION] Long lines of code in rows (the Source panel)

// Whether a row break before `at` falls inside a token of `line`, by a lexer
// of its own: string and character literals (none in a comment, whose
// words it lexes as code), identifiers with their member accesses
// (threadIdx.x), numbers (0.5f, 1e-5), the operators of two and three characters.
bool breakInsideToken(const std::string& line, std::size_t at) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); };
    std::size_t i = 0;
    bool comment = false;
    while (i < line.size()) {
        const std::size_t begin = i;
        const char c = line[i];
        if (c == ' ' || c == '\t') {
            ++i;
            continue;
        }
        if (line.compare(i, 2, "//") == 0) {
            comment = true;  // its words are lexed as code, and its quotes open nothing
            if (i < at && at < i + 2)
                return true;
            i += 2;
            continue;
        }
        if ((c == '"' || c == '\'') && !comment) {
            for (++i; i < line.size() && line[i] != c; ++i)
                if (line[i] == '\\')
                    ++i;
            ++i;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
            while (i < line.size() &&
                   (word(line[i]) || line[i] == '.' ||
                    ((line[i] == '+' || line[i] == '-') && (line[i - 1] == 'e' || line[i - 1] == 'E'))))
                ++i;
        } else if (word(c)) {
            // An identifier and its member accesses.
            while (i < line.size() && (word(line[i]) || (line[i] == '.' && i + 1 < line.size() && word(line[i + 1]))))
                ++i;
        } else {
            static const char* kOperators[] = {"<<=", ">>=", "->*", "...", "->", "::", "<<", ">>", "++",
                                               "--",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=",
                                               "<=",  ">=",  "==",  "!=",  "&&", "||", "/*", "*/", "##"};
            std::size_t length = 1;
            for (const char* op : kOperators)
                if (line.compare(i, std::strlen(op), op) == 0) {
                    length = std::strlen(op);
                    break;
                }
            i += length;
        }
        if (begin < at && at < i)
            return true;
    }
    return false;
}

// Every line of every kernel's source, at widths from a phone's to a
// projector's: the rows put back together are the line; no break falls
// inside a token; a row is no wider than asked unless it holds one token
// alone; and a line that fits is one row.
TEST(CodeRows, BreakAtBlanksOrBetweenTokensNeverInsideOne) {
    auto measure = [](std::string_view piece) { return static_cast<float>(piece.size()); };
    auto trimmed = [](std::string_view r) {
        while (!r.empty() && (r.back() == ' ' || r.back() == '\t'))
            r.remove_suffix(1);
        return r;
    };
    int lines = 0, broken = 0;
    for (const KernelInfo& kernel : allKernels()) {
        const std::string_view text = kernelSource(kernel);
        for (std::size_t start = 0; start < text.size();) {
            std::size_t end = text.find('\n', start);
            if (end == std::string_view::npos)
                end = text.size();
            const std::string line(text.substr(start, end - start));
            start = end + 1;
            ++lines;
            for (float width : {12.0f, 20.0f, 33.0f, 47.0f, 80.0f}) {
                const std::vector<std::size_t> rows = ui::codeRowStarts(line, width, measure);
                ASSERT_FALSE(rows.empty());
                EXPECT_EQ(rows.front(), 0u);
                std::string back;
                for (std::size_t k = 0; k < rows.size(); ++k) {
                    const std::size_t rowEnd = k + 1 < rows.size() ? rows[k + 1] : line.size();
                    ASSERT_TRUE(rows[k] < rowEnd || line.empty()) << line;
                    const std::string_view row = std::string_view(line).substr(rows[k], rowEnd - rows[k]);
                    back += row;
                    if (k > 0) {
                        EXPECT_FALSE(breakInsideToken(line, rows[k]))
                            << "width " << width << ", row " << k << ": " << line;
                    }
                    // Wider than asked only when the row holds one token
                    // or word (after the indentation of the line's first row).
                    if (trimmed(row).size() > width) {
                        std::string_view content = trimmed(row);
                        while (!content.empty() && content.front() == ' ')
                            content.remove_prefix(1);
                        EXPECT_EQ(content.find(' '), std::string_view::npos)
                            << "width " << width << ": row '" << row << "' of " << line;
                    }
                }
                EXPECT_EQ(back, line);
                if (trimmed(line).size() <= width) {
                    EXPECT_EQ(rows.size(), 1u) << line;
                }
                broken += rows.size() > 1;
            }
        }
    }
    EXPECT_GT(lines, 200);
    EXPECT_GT(broken, 100) << "the widths are narrow enough to break lines";
    // The cases the UI's own word wrap cut: a member access, a decimal number, an arrow.
    for (const char* line : {"N_s[threadIdx.y][threadIdx.x] = N[row];", "x = 0.25f * y;", "p->next->value"}) {
        for (float width = 4; width < 30; width += 1) {
            const auto rows = ui::codeRowStarts(line, width, measure);
            for (std::size_t k = 1; k < rows.size(); ++k)
                EXPECT_FALSE(breakInsideToken(line, rows[k])) << line << " at width " << width;
        }
    }
    // A hanging indent: the rows after the first have that much less room.
    const std::string statement = "        for (int fRow = 0; fRow < 2 * r + 1; fRow++) {";
    const auto hung = ui::codeRowStarts(statement, 30, measure, 10);
    ASSERT_GT(hung.size(), 2u);
    for (std::size_t k = 1; k < hung.size(); ++k) {
        const std::size_t end = k + 1 < hung.size() ? hung[k + 1] : statement.size();
        EXPECT_LE(trimmed(std::string_view(statement).substr(hung[k], end - hung[k])).size(), 20u) << k;
        EXPECT_FALSE(breakInsideToken(statement, hung[k]));
    }
    EXPECT_TRUE(breakInsideToken("a = threadIdx.x;", 14));
    EXPECT_FALSE(breakInsideToken("a = threadIdx.x;", 4));
    EXPECT_TRUE(ui::cutsToken("a = threadIdx.x;", 14));
    EXPECT_TRUE(ui::cutsToken("a = 0.5f;", 6));
    EXPECT_TRUE(ui::cutsToken("p->q", 2));
    EXPECT_FALSE(ui::cutsToken("f(a, b)", 2));
}

// [SECTION] The student's own kernel file: its compile, its reloads, the exercises

const fs::path kStudentDir = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "own" / "good";

// Polls as the app's frame does, until the compile in progress has been taken in.
void waitForCompile(ui::KernelFile& file, double seconds = 60) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
        (void)file.poll(now);
        if (!file.busy())
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "the compile did not end";
}

// Polls for `seconds`, as the app's frames do; whether a new kernel came in.
bool pollFor(ui::KernelFile& file, double seconds) {
    bool fresh = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline || file.busy()) {
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
        fresh = file.poll(now) || fresh;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return fresh;
}

fs::path scratchDir(const char* name) {
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope_model_test_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// The compile runs off the calling thread (the UI's frame only polls); a
// save made here is not taken for a change on disk; a save made by another
// editor reloads the text and compiles it again.
TEST(KernelFile, CompilesOffTheCallingThreadAndReloadsWhatAnotherEditorSaves) {
    const fs::path dir = scratchDir("kernel_file");
    const fs::path file = dir / "mine.cu";
    const std::string good = readFile(kStudentDir / "conv2d_basic_student.cu");
    writeFile(file, good);

    ui::KernelFile kernel;
    ASSERT_TRUE(kernel.open(file).ok());
    EXPECT_TRUE(kernel.busy());
    EXPECT_EQ(kernel.state().compile, ui::CompileState::Compiling);
    double worst = 0;
    for (int i = 0; i < 20; ++i)
        worst = std::max(worst, millisecondsOf([&] { (void)kernel.poll(0.0); }));
    EXPECT_LT(worst, 20.0) << "a frame never waits for the compiler";
    waitForCompile(kernel);
    ASSERT_TRUE(kernel.kernel()) << kernel.state().errorMessage;
    EXPECT_EQ(kernel.state().compile, ui::CompileState::Compiled);
    EXPECT_EQ(kernel.kernel()->info->name, "conv2d_basic");

    // Edited here and saved with Ctrl+S: compiled once, never reloaded.
    const std::uint64_t version = kernel.state().textVersion;
    kernel.state().text = "// edited in the app\n" + good;
    kernel.state().modified = true;
    kernel.compile();
    waitForCompile(kernel);
    EXPECT_EQ(readFile(file), "// edited in the app\n" + good);
    EXPECT_FALSE(kernel.state().modified);
    const auto ours = kernel.kernel();
    EXPECT_FALSE(pollFor(kernel, 2.5)) << "the app's own save is not a change on disk";
    EXPECT_EQ(kernel.kernel(), ours);
    EXPECT_EQ(kernel.state().textVersion, version);
    EXPECT_TRUE(kernel.state().fileNote.empty()) << kernel.state().fileNote;

    // Saved by another editor: the text is reloaded and compiled again.
    const std::string theirs = replaced(good, "int maskWidth = 2 * r + 1;", "int maskWidth = 2 * r + 1;  // theirs");
    writeFile(file, theirs);
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(2));
    EXPECT_TRUE(pollFor(kernel, 2.5));
    EXPECT_EQ(kernel.state().text, theirs);
    EXPECT_GT(kernel.state().textVersion, version);
    EXPECT_NE(kernel.state().fileNote.find("reloaded"), std::string::npos);
    ASSERT_TRUE(kernel.kernel());
    EXPECT_NE(kernel.kernel(), ours);
    EXPECT_EQ(kernel.kernel()->translation.text, theirs);

    // Edited here while another editor saves: nothing is thrown away unasked.
    kernel.state().text += "// mine\n";
    kernel.state().modified = true;
    writeFile(file, theirs + "// and theirs\n");
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(4));
    (void)pollFor(kernel, 1.5);
    EXPECT_TRUE(kernel.state().changedOnDisk);
    EXPECT_EQ(kernel.state().text, theirs + "// mine\n");
    kernel.reload();
    EXPECT_EQ(kernel.state().text, theirs + "// and theirs\n");
    waitForCompile(kernel);
    fs::remove_all(dir);
}

// A compile error names the student's line; Cancel stops a compile.
TEST(KernelFile, ACompileErrorNamesItsLineAndACompileCanBeCancelled) {
    const fs::path dir = scratchDir("kernel_file_error");
    const fs::path file = dir / "broken.cu";
    const std::string good = readFile(kStudentDir / "conv2d_tiled_student.cu");
    const std::string broken =
        replaced(good, "N_ds[ty][tx] = N[row * width + col];", "N_ds[ty][tx] = N[row * width + col]");
    writeFile(file, broken);
    const auto line = static_cast<unsigned>(
        std::count(broken.begin(), broken.begin() + static_cast<long>(broken.find("N[row * width + col]")), '\n') + 1);

    ui::KernelFile kernel;
    ASSERT_TRUE(kernel.open(file).ok());
    waitForCompile(kernel);
    EXPECT_FALSE(kernel.kernel());
    EXPECT_EQ(kernel.state().compile, ui::CompileState::Failed);
    EXPECT_EQ(kernel.state().errorLine, line);
    EXPECT_NE(kernel.state().errorMessage.find("expected ';'"), std::string::npos) << kernel.state().errorMessage;

    kernel.state().text = good;
    kernel.state().modified = true;
    kernel.compile();
    kernel.cancelCompile();
    waitForCompile(kernel, 10);
    EXPECT_EQ(kernel.state().compile, ui::CompileState::Cancelled);
    EXPECT_FALSE(kernel.kernel());
    fs::remove_all(dir);
}

// "New from exercise" copies the starting file and never overwrites a file.
TEST(KernelFile, AnExerciseIsCopiedBesideEarlierCopiesNeverOverThem) {
    const fs::path dir = scratchDir("exercises");
    const fs::path source = fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "exercises" / "exercise_08.cu";
    for (const ui::Exercise& e : ui::exercises())
        EXPECT_TRUE(fs::exists(source.parent_path() / e.file)) << e.file;
    writeFile(dir / "exercise_08.cu", "my own work\n");
    auto first = ui::copyExercise(source, dir);
    ASSERT_TRUE(first.ok()) << first.error().message;
    EXPECT_EQ(first->filename(), "exercise_08-2.cu");
    auto second = ui::copyExercise(source, dir);
    ASSERT_TRUE(second.ok()) << second.error().message;
    EXPECT_EQ(second->filename(), "exercise_08-3.cu");
    EXPECT_EQ(readFile(dir / "exercise_08.cu"), "my own work\n") << "left alone";
    EXPECT_EQ(readFile(*first), readFile(source));
    EXPECT_FALSE(ui::copyExercise(dir / "no_such.cu", dir).ok());
    fs::remove_all(dir);
}

// The exercises are files beside the program (share/tilescope/exercises; in a
// build tree, a link to assets/exercises), the same files as the source tree's.
TEST(KernelFile, TheExercisesAreFoundBesideTheProgram) {
    const fs::path folder = ui::exercisesDirectory();
    for (const ui::Exercise& e : ui::exercises()) {
        ASSERT_TRUE(fs::exists(folder / e.file)) << folder / e.file;
        EXPECT_EQ(readFile(folder / e.file),
                  readFile(fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "exercises" / e.file));
    }
}

TEST(Settings, RememberTheKernelFile) {
    ui::Settings s;
    s.kernelFile = "/home/student/exercise_08.cu";
    s.setup.kernel = std::string(ui::kOwnKernelKey);
    s.setup.droppedBarriers = {40};
    s.compare = "conv2d_basic";
    s.panels[ui::PanelId::Editor] = true;
    auto back = ui::settingsFromJson(ui::settingsToJson(s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->kernelFile, s.kernelFile);
    EXPECT_EQ(back->setup.kernel, "own");
    EXPECT_EQ(back->setup.droppedBarriers, std::vector<unsigned>{40});
    EXPECT_TRUE(back->panels[ui::PanelId::Editor]);
    // "own" without a kernel file names nothing.
    EXPECT_EQ(ui::settingsFromJson(R"({"setup": {"kernel": "own"}})")->setup.kernel, ui::SetupState{}.kernel);
}

// [SECTION] The trace session: the step-through's traces, with no window

// What the App keeps for the session, and the session reading it: a small
// demo set-up, its check, the view, the result's runner, a trace file
// (none at first).
struct SessionHost {
    static ui::SetupState smallDemo() {
        ui::SetupState setup = ui::demoSetup(ui::GpuStatus{});
        setup.input.width = setup.input.height = 32;
        return setup;
    }

    ui::SetupState setup = smallDemo();
    ui::SetupCheck check = ui::checkSetup(setup, std::nullopt, ui::GpuStatus{}, nullptr);
    ui::ViewState view;
    ui::Runner runner;
    std::shared_ptr<const Trace> file;
    fs::path filePath;
    std::atomic<int> wakes{0};
    ui::TraceSession session{ui::TraceSessionInputs{.setup = setup,
                                                    .check = check,
                                                    .view = view,
                                                    .eventBudget = 1'000'000,
                                                    .openedTraceFile = file,
                                                    .openedTracePath = filePath,
                                                    .runner = runner,
                                                    .ownKernel = {}},
                             ui::TraceSessionCallbacks{.wake = [this] { ++wakes; }}};

    // Runs the set-up on the result's runner, as the App does first: then
    // the input's size is known.
    bool runSetup() {
        ui::RunJob job;
        job.kernel = setup.kernel;
        job.dims = 2;
        job.input = setup.input;
        job.mask = *check.mask;
        job.block = setup.block;
        job.backend = Backend::Cpu;
        return waitFor(runner, runner.submit(job)) != nullptr;
    }

    // Updates as the App's frames do, until every trace asked for is in.
    bool settle(double seconds = 60) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < deadline) {
            session.update();
            if (session.settled())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return false;
    }
};

// A small input, once read, is traced whole, off the calling thread; the
// cursor steps through it unit by unit, and a selection is written back into
// the view.
TEST(TraceSession, TracesTheSetUpOffTheCallingThreadAndStepsThroughIt) {
    SessionHost host;
    ASSERT_TRUE(host.check.runnable()) << host.check.firstProblem();
    ASSERT_TRUE(host.runSetup());
    ASSERT_TRUE(host.settle()) << host.session.status();
    EXPECT_GT(host.wakes.load(), 0) << "the window loop is woken when a trace is in";
    EXPECT_EQ(host.session.status(), "");
    EXPECT_EQ(host.session.note(), "");
    const TraceModel& model = *host.session.run(0).model;
    EXPECT_EQ(model.blockCount(), model.trace().plan.grid.count()) << "every block";
    ASSERT_TRUE(host.session.problems());
    EXPECT_TRUE(host.session.problemsOfWholeLaunch());
    EXPECT_TRUE(host.session.problems()->items.empty()) << "the book's kernel is right";

    const BlockReplay* replay = host.session.replay();
    ASSERT_TRUE(replay);
    EXPECT_EQ(host.session.cursor(), 0u);
    const std::vector<Cursor> steps = host.session.cursorPositions(0, Granularity::Step);
    ASSERT_GE(steps.size(), 3u);
    EXPECT_EQ(steps.front(), 0u);
    EXPECT_EQ(steps.back(), replay->size());
    host.session.stepForward();
    EXPECT_EQ(host.session.cursor(), steps[1]);
    host.session.stepForward();
    EXPECT_EQ(host.session.cursor(), steps[2]);
    host.session.stepBack();
    EXPECT_EQ(host.session.cursor(), steps[1]);
    host.session.end();
    EXPECT_EQ(host.session.cursor(), replay->size());
    EXPECT_EQ(ui::TraceSession::stepCursor(*replay, -1), replay->size());
    host.session.home();
    EXPECT_EQ(host.session.cursor(), 0u);

    host.session.selectOutput(20, 5);
    EXPECT_EQ(host.view.selectedOutput, (std::array<int, 2>{20, 5}));
    ASSERT_TRUE(host.session.replay());
    EXPECT_TRUE(host.session.replay()->geometry().computed.contains(20, 5));
}

// Before the input has been read its size is not known: one block is
// traced, the selected output's, and selecting an output of another block
// traces that one.
TEST(TraceSession, AnInputNotYetReadIsTracedOneBlockAtATime) {
    SessionHost host;
    ASSERT_TRUE(host.settle()) << host.session.status();
    ASSERT_TRUE(host.session.replay());
    EXPECT_EQ(host.session.run(0).model->blockCount(), 1u);
    EXPECT_TRUE(host.session.replay()->geometry().computed.contains(0, 0));
    EXPECT_FALSE(host.session.problemsOfWholeLaunch());
    EXPECT_NE(host.session.problemsScope().find("Only block (0,0) was checked"), std::string::npos)
        << host.session.problemsScope();

    host.session.selectOutput(20, 5);
    EXPECT_FALSE(host.session.replay()) << "that block is not in the trace yet";
    ASSERT_TRUE(host.settle()) << host.session.status();
    ASSERT_TRUE(host.session.replay());
    EXPECT_EQ(host.session.run(0).model->blockCount(), 1u);
    EXPECT_TRUE(host.session.replay()->geometry().computed.contains(20, 5));
}

// A trace file takes the place of the set-up's trace while it is open; when
// it closes, the set-up is traced again.
TEST(TraceSession, ATraceFileTakesThePlaceOfTheSetUpsTraceUntilItCloses) {
    SessionHost host;
    ASSERT_TRUE(host.runSetup());
    ASSERT_TRUE(host.settle()) << host.session.status();
    const std::size_t blocks = host.session.run(0).model->blockCount();
    host.file = std::make_shared<const Trace>(host.session.run(0).model->trace());
    host.filePath = "/recorded/elsewhere/demo.trace";
    host.session.update();
    EXPECT_TRUE(host.session.showingFile());
    EXPECT_EQ(host.session.note().rfind("Trace file demo.trace (conv2d_tiled_in, recorded on the CPU executor, ", 0),
              0u)
        << host.session.note();
    ASSERT_TRUE(host.session.replay());
    EXPECT_EQ(host.session.run(0).model->blockCount(), blocks);

    host.file.reset();
    host.session.update();
    EXPECT_FALSE(host.session.showingFile());
    EXPECT_EQ(host.session.note(), "");
    ASSERT_TRUE(host.settle()) << host.session.status();
    ASSERT_TRUE(host.session.replay());
}

}  // namespace
}  // namespace tilescope::test
