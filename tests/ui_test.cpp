// The app as the user sees it: each UiTest runs the real binary under the X
// display that xvfb-run provides, takes a screenshot, and checks pixels at
// the places the app reports with --layout (the legend's colour bars, the
// result images, the messages), against colours computed here from the
// inputs, the reference convolution and the colour maps. Without a display
// ($DISPLAY unset) they skip. Before them, the colour maps, which need no
// display. The app's models, driven with no window, are model_test.cpp's.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api/runner.hpp"
#include "app_driver.hpp"
#include "core/planner.hpp"
#include "gfx/colormap.hpp"
#include "io/files.hpp"
#include "io/image_file.hpp"
#include "model/inputs.hpp"
#include "model/masks.hpp"
#include "model/panel_table.hpp"
#include "model/settings.hpp"
#include "own/own_kernel.hpp"
#include "reference/reference.hpp"
#include "text_files.hpp"
#include "trace/trace_index.hpp"
#include "trace/trace_io.hpp"
#include "ui/theme.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The shot of a screenshot and its rectangles (app_driver.hpp).
using Rect = ShotRect;
using Screenshot = AppShot;

::testing::AssertionResult near(gfx::Rgb8 actual, gfx::Rgb8 expected, int tolerance = 8) {
    const int d =
        std::max({std::abs(actual.r - expected.r), std::abs(actual.g - expected.g), std::abs(actual.b - expected.b)});
    if (d <= tolerance)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "pixel " << describeColour(actual) << ", expected "
                                         << describeColour(expected);
}

// The colour ImGui draws at `u` (0 left edge, 1 right edge) of a colour bar:
// the 256-entry map sampled with linear filtering at texture coordinate u.
gfx::Rgb8 barColour(gfx::ColorMap map, float u) {
    const float entry = std::clamp(u * gfx::kColormapSize - 0.5f, 0.0f, gfx::kColormapSize - 1.0f);
    return gfx::colourOfValue(map, entry / (gfx::kColormapSize - 1), 0.0f, 1.0f);
}

// Pixels along a colour bar, away from its frame and its zero mark, against the map.
void expectBar(const Screenshot& shot, const std::string& name, gfx::ColorMap map) {
    const Rect r = shot.rect(name);
    const float y = (r.y0 + r.y1) / 2;
    for (float u : {0.02f, 0.1f, 0.3f, 0.45f, 0.55f, 0.7f, 0.9f, 0.98f}) {
        const int x = static_cast<int>(r.x0 + u * r.width());
        const float centre = (static_cast<float>(x) + 0.5f - r.x0) / r.width();
        EXPECT_TRUE(near(shot.pixel(static_cast<float>(x), y), barColour(map, centre))) << name << " at " << u;
    }
}

// [SECTION] The colour maps

TEST(Colormaps, LightnessCarriesTheValue) {
    // Sequential: lighter with every step; diverging: lightest at zero and
    // equally dark at both ends.
    float previous = -1.0f;
    for (int i = 0; i < gfx::kColormapSize; i += 5) {
        const float l = gfx::luminance(gfx::colormapColour(gfx::ColorMap::Sequential, i / 255.0f));
        EXPECT_GT(l, previous) << "entry " << i;
        previous = l;
    }
    const float zero = gfx::luminance(gfx::colormapColour(gfx::ColorMap::Diverging, 0.5f));
    const float low = gfx::luminance(gfx::colormapColour(gfx::ColorMap::Diverging, 0.0f));
    const float high = gfx::luminance(gfx::colormapColour(gfx::ColorMap::Diverging, 1.0f));
    EXPECT_GT(zero, 0.85f);
    EXPECT_LT(low, 0.25f);
    EXPECT_LT(high, 0.25f);
    EXPECT_NEAR(low, high, 0.08f);
}

// [SECTION] The app, drawn

class UiTest : public ::testing::Test {
protected:
    void SetUp() override {
        const char* display = std::getenv("DISPLAY");
        if (!display || !*display)
            GTEST_SKIP() << "no X display: run under xvfb-run";
        m_app = std::make_unique<AppDriver>(::testing::UnitTest::GetInstance()->current_test_info()->name());
    }

    // Runs `tilescope <arguments>`; returns its exit code, stdout in `out`.
    int run(const std::string& arguments, std::string* out = nullptr, std::string* errors = nullptr) {
        return m_app->run(arguments, out, errors);
    }

    // A screenshot at 1280 x 800 on the CPU backend (the same on every machine).
    Screenshot screenshot(const std::string& arguments) {
        return m_app->screenshot("--backend cpu --size 1280x800 " + arguments);
    }

    // The same at another window size; `name` names its files.
    Screenshot screenshotAt(const std::string& size, const std::string& arguments, const std::string& name) {
        return m_app->screenshot("--backend cpu --size " + size + " " + arguments, name);
    }

    fs::path dir() const { return m_app->dir(); }

private:
    std::unique_ptr<AppDriver> m_app;
};

// [SECTION] The legend

TEST_F(UiTest, LegendIsAtTheBottomWithAColourBarPerImage) {
    const Screenshot shot = screenshot("--input-size 16x16");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    ASSERT_EQ(shot.picture.width, 1280);
    ASSERT_EQ(shot.picture.height, 800);
    const Rect legend = shot.rect("legend");
    EXPECT_NEAR(legend.y1, 800.0f, 1.0f) << "the legend sits on the bottom edge";
    EXPECT_NEAR(legend.width(), 1280.0f, 1.0f) << "and spans the window";
    for (const char* bar : {"legend.bar.0", "legend.bar.1"}) {
        EXPECT_GE(shot.rect(bar).y0, legend.y0);
        // The photograph and its blur are non-negative: the sequential map.
        expectBar(shot, bar, gfx::ColorMap::Sequential);
    }
    EXPECT_EQ(shot.text("legend.bar.0"), "Input N");
    EXPECT_EQ(shot.text("legend.bar.1"), "Output P");
}

// [SECTION] The result images

// Identity on a checkerboard: the output is the input, 0 and 1, so every
// cell of P has the first or the last colour of the sequential map.
TEST_F(UiTest, OutputCellsHaveTheirValuesColour) {
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --block 8 --builtin checkerboard --input-size 16x16 --preset identity --radius 1");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const Rect out = shot.rect("result.output");
    const float cell = out.width() / 16.0f;
    EXPECT_NEAR(out.height() / 16.0f, cell, 0.5f) << "cells are square";
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            // The asset is 8 x 8 one-pixel squares, repeated to 16 x 16.
            const float value = static_cast<float>((x / 2 + y / 2) % 2);
            // Off the centre (where a label may be) and off the cell lines.
            const gfx::Rgb8 seen = shot.pixel(out.x0 + (x + 0.25f) * cell, out.y0 + (y + 0.25f) * cell);
            EXPECT_TRUE(near(seen, gfx::colormapColour(gfx::ColorMap::Sequential, value)))
                << "P[" << y << "][" << x << "]";
        }
}

// Sobel x on the gradient: signed output, drawn with the diverging map
// symmetric about zero; each cell's colour follows from the reference.
TEST_F(UiTest, SignedOutputUsesTheDivergingMap) {
    const Screenshot shot =
        screenshot("--kernel conv2d_basic --builtin gradient --input-size 12x12 --preset sobel-x --radius 1");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;

    ui::InputSpec spec;
    spec.source = ui::InputSource::Gradient;
    spec.width = spec.height = 12;
    auto input = ui::loadInput(spec, 2);
    ASSERT_TRUE(input.ok());
    auto mask = ui::makePresetMask(ui::MaskPreset::SobelX, 2, 1);
    ASSERT_TRUE(mask.ok());
    const std::vector<double> expected = reference::convolve(*input, *mask);
    double largest = 0;
    for (double v : expected)
        largest = std::max(largest, std::abs(v));
    ASSERT_GT(largest, 0.0);

    const Rect out = shot.rect("result.output");
    const float cell = out.width() / 12.0f;
    for (int y = 0; y < 12; ++y)
        for (int x = 0; x < 12; ++x) {
            const float v = static_cast<float>(expected[static_cast<std::size_t>(y) * 12 + x]);
            const gfx::Rgb8 want = gfx::colourOfValue(gfx::ColorMap::Diverging, v, static_cast<float>(-largest),
                                                      static_cast<float>(largest));
            const gfx::Rgb8 seen = shot.pixel(out.x0 + (x + 0.2f) * cell, out.y0 + (y + 0.2f) * cell);
            EXPECT_TRUE(near(seen, want)) << "P[" << y << "][" << x << "] = " << v;
        }
    // The gradient's legend bar is sequential, the output's diverging.
    expectBar(shot, "legend.bar.0", gfx::ColorMap::Sequential);
    expectBar(shot, "legend.bar.1", gfx::ColorMap::Diverging);
}

// The book's 1D example: N = 1..7 with 3 4 5 4 3 gives P[2] = 57.
TEST_F(UiTest, OneDimensionalArraysLineUpCellForCell) {
    const Screenshot shot = screenshot("--kernel conv1d_basic --builtin book-1-7 --preset book-1d");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const Rect in = shot.rect("result.input"), out = shot.rect("result.output");
    EXPECT_NEAR(in.x0, out.x0, 0.5f);
    EXPECT_NEAR(in.width(), out.width(), 0.5f) << "P[i] sits under N[i]";
    EXPECT_NEAR(in.width() / 7.0f, in.height(), 0.5f) << "one row of seven square cells";
    EXPECT_NE(shot.text("result.status").find("Largest difference"), std::string::npos);
}

// [SECTION] Problems are shown, not fatal

TEST_F(UiTest, MissingInputFileShowsAMessageInPlace) {
    const fs::path missing = dir() / "no such picture.png";
    const Screenshot shot = screenshot("--input '" + missing.string() + "'");
    ASSERT_EQ(shot.exitCode, 0) << "the app shows the problem instead of exiting: " << shot.errors;
    ASSERT_TRUE(shot.has("setup.problem.input"));
    EXPECT_NE(shot.text("setup.problem.input").find("does not exist"), std::string::npos)
        << shot.text("setup.problem.input");
    // The message's bar at its left is drawn in the error colour.
    const Rect r = shot.rect("setup.problem.input");
    ASSERT_GT(r.height(), 5.0f);
    EXPECT_TRUE(near(shot.pixel(r.x0 + 0.5f, (r.y0 + r.y1) / 2), {0xFF, 0x8A, 0x5C}, 4));
    EXPECT_TRUE(shot.has("result.problem.input"));
}

// A file larger than the app takes, dropped after a good run: it is refused
// in words that say what to do, and the last good pictures stay, marked.
TEST_F(UiTest, AnInputTooLargeForTheAppIsRefusedAndTheLastGoodResultStays) {
    const fs::path huge = dir() / "wide.png";
    Image wide = Image::planar(ui::kMaxInputEdge + 8, 4, 1);
    ASSERT_TRUE(io::writeOutput(huge, wide).ok());
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --block 8 --builtin checkerboard --input-size 16x16 --preset identity "
        "--radius 1 --panels setup,result --then-open '" +
        huge.string() + "'");
    ASSERT_EQ(shot.exitCode, 0) << "the app shows the problem instead of exiting: " << shot.errors;
    const std::string message = shot.text("result.problem.input");
    EXPECT_NE(message.find(std::to_string(ui::kMaxInputEdge + 8) + " x 4 pixels"), std::string::npos) << message;
    EXPECT_NE(message.find("fit to the size below"), std::string::npos) << message;
    EXPECT_NE(shot.text("setup.problem.input").find("more than the app takes"), std::string::npos);
    EXPECT_NE(shot.text("result.last-good").find("conv2d_tiled_in on"), std::string::npos)
        << shot.text("result.last-good");
    // The checkerboard's output (identity) is still drawn, cell for cell.
    ASSERT_TRUE(shot.has("result.output"));
    const Rect out = shot.rect("result.output");
    const float cell = out.width() / 16.0f;
    for (int y = 0; y < 16; y += 3)
        for (int x = 0; x < 16; x += 3) {
            const float value = static_cast<float>((x / 2 + y / 2) % 2);
            const gfx::Rgb8 seen = shot.pixel(out.x0 + (x + 0.25f) * cell, out.y0 + (y + 0.25f) * cell);
            EXPECT_TRUE(near(seen, gfx::colormapColour(gfx::ColorMap::Sequential, value)))
                << "P[" << y << "][" << x << "]";
        }
}

// The step-through views trace a small input whole; past the event budget
// they trace the selected block only and say why, and a block that alone is
// over the budget is explained in place. The budgets come from the trace's
// own counts for this launch.
TEST_F(UiTest, ATraceOverTheBudgetFallsBackToTheSelectedBlockAndSaysSo) {
    ui::InputSpec spec;
    spec.source = ui::InputSource::Photo;
    spec.width = spec.height = 48;
    auto input = ui::loadInput(spec, 2);
    ASSERT_TRUE(input.ok());
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::BoxBlur, 2, 2);
    RunRequest request;
    request.kernel = "conv2d_tiled_in";
    request.input = &*input;
    request.mask = &mask;
    request.block = 16;
    request.backend = Backend::Cpu;
    request.trace = true;
    auto whole = runKernel(request);
    ASSERT_TRUE(whole.ok() && whole->trace);
    std::size_t all = 0, corner = 0;
    for (const auto& b : whole->trace->blocks) {
        all += b.events.size();
        if (b.block.x == 0 && b.block.y == 0)
            corner = b.events.size();
    }
    ASSERT_GT(corner, 0u);
    ASSERT_GT(all, 4 * corner) << "16 blocks";
    const std::string launch =
        "--kernel conv2d_tiled_in --builtin photo --input-size 48x48 --radius 2 --block 16 --select 0,0 --panels "
        "grid,threads ";

    const std::size_t between = 2 * corner;  // over the whole launch, enough for one block
    const Screenshot fallback = screenshot(launch + "--event-budget " + std::to_string(between));
    ASSERT_EQ(fallback.exitCode, 0) << fallback.errors;
    const std::string note = fallback.text("trace.note");
    EXPECT_NE(note.find("Only the selected block is traced"), std::string::npos) << note;
    EXPECT_NE(note.find(std::to_string(between) + " events"), std::string::npos) << note;
    EXPECT_TRUE(fallback.has("grid.cell0")) << "the selected block is drawn";
    EXPECT_FALSE(fallback.has("trace.problem"));

    const std::size_t under = corner / 2;  // not even one block
    const Screenshot refused = screenshot(launch + "--event-budget " + std::to_string(under));
    ASSERT_EQ(refused.exitCode, 0) << refused.errors;
    const std::string problem = refused.text("trace.problem");
    EXPECT_NE(problem.find("this block alone would record more than " + std::to_string(under)), std::string::npos)
        << problem;
    EXPECT_FALSE(refused.has("grid.cell0"));

    const Screenshot plenty = screenshot(launch + "--event-budget " + std::to_string(all));
    ASSERT_EQ(plenty.exitCode, 0) << plenty.errors;
    EXPECT_FALSE(plenty.has("trace.note")) << "the whole launch fits: every block is traced";
    EXPECT_TRUE(plenty.has("grid.cell0"));
}

// Each limit of the device panel says, in words, which setting it bounds,
// with the numbers of the launch on screen.
TEST_F(UiTest, DevicePanelSaysWhatEachLimitConstrains) {
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --builtin photo --input-size 64x64 --preset box "
        "--radius 3 --block 20 --panels setup,result,device");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    std::string all;
    for (int i = 0; shot.has("device.limit." + std::to_string(i)); ++i)
        all += shot.text("device.limit." + std::to_string(i)) + "\n";
    // 1024 threads: a block edge of 32 at most, so OUT_TILE_DIM <= 32 - 2*3 = 26.
    EXPECT_NE(all.find("threads per block: The block edge: 32 x 32"), std::string::npos) << all;
    EXPECT_NE(all.find("<= 26 at r = 3"), std::string::npos) << all;
    // This tile: 20 x 20 floats = 1600 bytes.
    EXPECT_NE(all.find("this one is 20 x 20 x 4 B = 1600 B"), std::string::npos) << all;
    EXPECT_NE(all.find("constant memory: The mask"), std::string::npos) << all;
}

TEST_F(UiTest, ImpossibleBlockIsExplainedWithThePlannersWords) {
    const Screenshot shot = screenshot("--kernel conv2d_tiled_in --preset box --radius 3 --block 5");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const std::string message = shot.text("setup.problem.plan");
    EXPECT_NE(message.find("OUT_TILE_DIM = 5 - 2*3 = -1"), std::string::npos) << message;
    EXPECT_NE(message.find("block edge of 7 or more"), std::string::npos) << message;
    EXPECT_TRUE(shot.has("result.problem"));
    EXPECT_FALSE(shot.has("result.output")) << "nothing ran";
}

TEST_F(UiTest, BadMaskFileIsShownNextToTheMask) {
    const fs::path mask = dir() / "even.txt";
    std::ofstream(mask) << "1 1\n1 1\n";
    const Screenshot shot = screenshot("--mask '" + mask.string() + "'");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_NE(shot.text("setup.problem.maskfile").find("even"), std::string::npos)
        << shot.text("setup.problem.maskfile");
}

TEST_F(UiTest, UnknownNamesOnTheCommandLineAreRefused) {
    std::string errors;
    EXPECT_EQ(run("screenshot --out x.png --preset blurry", nullptr, &errors), 2);
    EXPECT_NE(errors.find("unknown --preset 'blurry'"), std::string::npos) << errors;
    EXPECT_EQ(run("screenshot --out x.png --compare conv1d_basic", nullptr, &errors), 2);
    EXPECT_NE(errors.find("same dimension"), std::string::npos) << errors;
}

// A panel focused away is not drawn, so the charts' sweep it would wait for
// never starts: the picture of the focused panel does not wait for it.
TEST_F(UiTest, APanelFocusedAwayDoesNotHoldThePictureBack) {
    const auto start = std::chrono::steady_clock::now();
    const Screenshot shot = screenshot("--input-size 16x16 --panels all --focus grid");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.errors.find("did not finish"), std::string::npos) << shot.errors;
    EXPECT_LT(seconds, 60.0);
}

// --focus offers, and its help lists, only the panels that can fill the window.
TEST_F(UiTest, FocusNamesOnlyThePanelsThatCanFillTheWindow) {
    const std::string panels = ui::focusPanelNameList();
    EXPECT_EQ(panels.find("help"), std::string::npos) << panels;
    std::string errors;
    EXPECT_EQ(run("screenshot --out x.png --focus help", nullptr, &errors), 2);
    EXPECT_NE(errors.find("--focus: unknown panel 'help' (the panels: " + panels + ")"), std::string::npos) << errors;
    std::string help;
    EXPECT_EQ(run("screenshot --help", &help), 0);
    EXPECT_NE(help.find("a panel that fills the window: " + panels), std::string::npos) << help;
}

// [SECTION] Lecture-hall mode, the view options, persistence, the benchmark

TEST_F(UiTest, LectureModeIsLargerAndDarkOnLight) {
    const Screenshot everyday = screenshot("--input-size 16x16");
    const Screenshot lecture = screenshot("--input-size 16x16 --lecture");
    ASSERT_EQ(everyday.exitCode, 0) << everyday.errors;
    ASSERT_EQ(lecture.exitCode, 0) << lecture.errors;
    const Rect small = everyday.rect("legend"), large = lecture.rect("legend");
    EXPECT_GT(large.height(), small.height() * 1.3f) << "larger type";
    // The legend's background, just inside its frame: white against dark.
    const gfx::Rgb8 light = lecture.pixel(large.x0 + 6, large.y0 + 6);
    const gfx::Rgb8 dark = everyday.pixel(small.x0 + 6, small.y0 + 6);
    EXPECT_TRUE(near(light, {255, 255, 255}, 2));
    EXPECT_LT(gfx::luminance(dark), 0.05f);
}

// Whether a row break before `at` falls inside a token of a line of code:
// the line's tokens found here (literals, identifiers
// with their member accesses, numbers, operators of two or three characters).
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
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < line.size() &&
                   (word(line[i]) || line[i] == '.' ||
                    ((line[i] == '+' || line[i] == '-') && (line[i - 1] == 'e' || line[i - 1] == 'E'))))
                ++i;
        } else if (word(c)) {
            while (i < line.size() && (word(line[i]) || (line[i] == '.' && i + 1 < line.size() && word(line[i + 1]))))
                ++i;
        } else {
            std::size_t length = 1;
            for (const char* op : {"<<=", ">>=", "->", "::", "<<", ">>", "++", "--", "+=", "-=", "*=", "/=",
                                   "%=",  "&=",  "|=", "^=", "<=", ">=", "==", "!=", "&&", "||", "/*", "*/"})
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

// Lecture-hall mode on a projector, as it opens on the demo: at 1920 x 1080
// and at 1280 x 720, few panels, none over another or the legend; the
// result's images at least 240 pixels on their short side; every line of
// code broken into rows only between tokens; no text clipped; the legend
// whole inside the window, saying which key brings the other panels back.
TEST_F(UiTest, LectureModeHoldsOnAProjector) {
    for (const char* size : {"1920x1080", "1280x720"}) {
        SCOPED_TRACE(size);
        const Screenshot shot = screenshotAt(size, "--lecture", size);
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        const float width = shot.layout["framebuffer"][0].get<float>(),
                    height = shot.layout["framebuffer"][1].get<float>();
        auto inside = [](const Rect& r, const Rect& room) {
            return r.x0 >= room.x0 - 0.5f && r.y0 >= room.y0 - 0.5f && r.x1 <= room.x1 + 0.5f && r.y1 <= room.y1 + 0.5f;
        };
        auto describe = [](const Rect& r) {
            return "(" + std::to_string(r.x0) + ", " + std::to_string(r.y0) + ") - (" + std::to_string(r.x1) + ", " +
                   std::to_string(r.y1) + ")";
        };
        const Rect window{0, 0, width, height};
        std::vector<std::pair<std::string, Rect>> windows;
        int images = 0, codeLines = 0, wrappedLines = 0;
        for (const json& item : shot.layout["items"]) {
            const std::string name = item["name"], text = item["text"];
            const auto& v = item["rect"];
            const Rect r{v[0].get<float>(), v[1].get<float>(), v[2].get<float>(), v[3].get<float>()};
            if (name == "clipped")
                ADD_FAILURE() << "clipped text: " << text << " at " << describe(r);
            if (name == "window")
                windows.emplace_back(text, r);
            if (name == "result.input" || name == "result.output") {
                ++images;
                EXPECT_GE(std::min(r.width(), r.height()), 240.0f)
                    << name << " is " << r.width() << " x " << r.height();
            }
            if (name.rfind("source.code.", 0) == 0) {
                // The rows of a line, a newline where one ends.
                ++codeLines;
                std::string line;
                std::vector<std::size_t> breaks;
                for (char c : text) {
                    if (c == '\n')
                        breaks.push_back(line.size());
                    else
                        line += c;
                }
                wrappedLines += !breaks.empty();
                for (std::size_t at : breaks)
                    EXPECT_FALSE(breakInsideToken(line, at)) << "line " << name << " wrapped inside a token: '"
                                                             << line.substr(0, at) << "' | '" << line.substr(at) << "'";
            }
        }
        EXPECT_EQ(images, 2) << "the input and the output";
        EXPECT_GT(codeLines, 20) << "the source is shown";
        EXPECT_GT(std::stoi(shot.text("glyphs")), 200);
        std::printf("[ lecture %s ] images %.0f and %.0f px; %d code lines, %d of them in rows\n", size,
                    shot.rect("result.input").height(), shot.rect("result.output").height(), codeLines, wrappedLines);

        // Few panels, each inside the window, none over another (the menu bar and the legend included).
        int panels = 0;
        for (const auto& [name, r] : windows) {
            EXPECT_TRUE(inside(r, window)) << name << " at " << describe(r);
            panels += name.find("###") != std::string::npos && name != "Legend###legend";
        }
        EXPECT_GE(panels, 2);
        EXPECT_LE(panels, 4);
        for (std::size_t a = 0; a < windows.size(); ++a)
            for (std::size_t b = a + 1; b < windows.size(); ++b) {
                const Rect &p = windows[a].second, &q = windows[b].second;
                const float overlapX = std::min(p.x1, q.x1) - std::max(p.x0, q.x0);
                const float overlapY = std::min(p.y1, q.y1) - std::max(p.y0, q.y0);
                EXPECT_FALSE(overlapX > 1.0f && overlapY > 1.0f)
                    << windows[a].first << " " << describe(p) << " overlaps " << windows[b].first << " " << describe(q);
            }

        // The legend: whole, inside the window, its bars and swatches inside it, and the key for the other panels.
        const Rect legend = shot.rect("legend");
        EXPECT_TRUE(inside(legend, window)) << describe(legend);
        for (const json& item : shot.layout["items"]) {
            const std::string name = item["name"];
            if (name.rfind("legend.", 0) != 0)
                continue;
            const auto& v = item["rect"];
            const Rect r{v[0].get<float>(), v[1].get<float>(), v[2].get<float>(), v[3].get<float>()};
            EXPECT_TRUE(inside(r, legend)) << name << " '" << item["text"] << "' at " << describe(r);
        }
        EXPECT_TRUE(shot.has("legend.bar.0") && shot.has("legend.bar.1")) << "the input's and the output's colour bars";
        EXPECT_NE(shot.text("legend.keys").find("F2"), std::string::npos) << shot.text("legend.keys");
    }
}

TEST_F(UiTest, ViewOptionsAreAcceptedAndDrawn) {
    const Screenshot shot = screenshot("--input-size 16x16 --select 3,2 --step 10 --compare conv2d_basic");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.errors.find("not built yet"), std::string::npos) << shot.errors;
    EXPECT_TRUE(shot.has("grid.cell0")) << "the step-through views draw them";
    EXPECT_TRUE(shot.has("threads.cell0"));
}

TEST_F(UiTest, HelpOverlayListsTheShortcuts) {
    const Screenshot shot = screenshot("--input-size 16x16 --panels setup,result,help");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const Rect help = shot.rect("help");
    EXPECT_GT(help.width(), 100.0f);
    EXPECT_FALSE(shot.has("result.problem"));
}

TEST_F(UiTest, AppOpensOnTheDemoAndRemembersItsSettings) {
    const fs::path config = dir() / "config";
    ASSERT_EQ(run("--frames 10 --lecture --config-dir '" + config.string() + "'"), 0);
    ASSERT_TRUE(fs::exists(config / "settings.json"));
    EXPECT_TRUE(fs::exists(config / "imgui.ini"));
    auto read = [&] { return json::parse(std::ifstream(config / "settings.json")); };
    EXPECT_EQ(read()["lecture"], true);
    EXPECT_EQ(read()["setup"]["kernel"], "conv2d_tiled_in") << "the demo";
    // Lecture-hall mode showed its own panels; the everyday ones are kept for later.
    for (const ui::PanelInfo& p : ui::kPanelTable)
        if (p.persists) {
            EXPECT_EQ(read()["lecturePanels"][std::string(p.key)], ui::PanelVisibility::lecture()[p.id]) << p.key;
            EXPECT_EQ(read()["panels"][std::string(p.key)], p.shownAtFirst) << p.key;
        }

    // A second start without --lecture keeps the saved choice.
    ASSERT_EQ(run("--frames 5 --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["lecture"], true);

    // Compare mode, chosen on the command line, is remembered; a second kernel
    // of another dimension than the set-up's is not compared with.
    ASSERT_EQ(run("--frames 5 --compare conv2d_tiled_cached --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["compare"], "conv2d_tiled_cached");
    ASSERT_EQ(run("--frames 5 --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["compare"], "conv2d_tiled_cached") << "loaded and kept";
    ASSERT_EQ(run("--frames 5 --compare conv1d_tiled --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["compare"], "") << "a 1D kernel beside the 2D demo";
    EXPECT_EQ(run("--frames 5 --compare conv9d --config-dir '" + config.string() + "'"), 2);

    // A damaged settings file is reported and ignored, not fatal.
    std::ofstream(config / "settings.json") << "{ not json";
    EXPECT_EQ(run("--frames 5 --config-dir '" + config.string() + "'"), 0);
}

TEST_F(UiTest, UiBenchPrintsMedianAndWorstFrameTimes) {
    std::string out;
    ASSERT_EQ(run("ui-bench --frames 20 --backend cpu --input-size 16x16", &out), 0);
    double median = -1, worst = -1;
    const auto at = out.find("median");
    ASSERT_NE(at, std::string::npos) << out;
    ASSERT_EQ(std::sscanf(out.c_str() + at, "median %lf ms, worst %lf ms", &median, &worst), 2) << out;
    EXPECT_GT(median, 0.0);
    EXPECT_GE(worst, median);
}

// [SECTION] The step-through views, checked against the trace model

// The demo's launch (conv2d_tiled_in, Figure 7.4's 5x5 mask, 16x16 blocks,
// 64x64 input), traced for one block here, so that the test knows what the
// app must draw: which cells are ghosts or halo, what each thread is doing.
// The input's values do not change any of that.
struct DemoTrace {
    std::unique_ptr<TraceModel> model;
    const BlockReplay* replay = nullptr;
};

DemoTrace traceDemoBlock(Dim3 block, const char* kernel = "conv2d_tiled_in") {
    DemoTrace demo;
    Image input = Image::planar(64, 64, 1);
    for (std::size_t i = 0; i < input.data.size(); ++i)
        input.data[i] = static_cast<float>(i % 7);
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::Figure7_4, 2, 2);
    RunRequest request;
    request.kernel = kernel;
    request.input = &input;
    request.mask = &mask;
    request.block = 16;
    request.backend = Backend::Cpu;
    request.trace = true;
    request.traceBlocks = {block};
    auto result = runKernel(request);
    EXPECT_TRUE(result.ok()) << (result ? "" : result.error().message);
    if (!result || !result->trace)
        return demo;
    demo.model = std::make_unique<TraceModel>(std::move(*result->trace));
    if (auto b = demo.model->findBlock(block))
        demo.replay = &demo.model->block(*b);
    return demo;
}

// The everyday palette (theme.cpp): Okabe-Ito.
constexpr gfx::Rgb8 kGhost{0xCC, 0x79, 0xA7};
constexpr gfx::Rgb8 kHalo{0xE6, 0x9F, 0x00};
constexpr gfx::Rgb8 kSwitchedOff{0x8C, 0x8C, 0x8C};
constexpr gfx::Rgb8 kComputing{0x00, 0x9E, 0x73};

// --step S shows the block after S lockstep steps: this S is a few steps
// into the computing phase (after the barrier that ends the tile load).
long long computeStep(const BlockReplay& replay) {
    return static_cast<long long>(replay.stepAt(replay.phaseBegin(1))) + 3;
}

// The grid of N of a screenshot showing the corner block of conv2d_tiled_in
// (IN_TILE_DIM 16, r = 2): ghost cells in the ghost colour, halo cells
// banded in the halo colour, internal cells in neither, where `replay` says.
void expectCornerBlockGhostsAndHalo(const Screenshot& shot, const BlockReplay& replay) {
    const Rect cell0 = shot.rect("grid.cell0");
    const float cell = cell0.width();
    ASSERT_GE(cell, 12.0f) << "the grid zooms to the selected block";
    const Rect view = shot.rect("grid.view");
    auto at = [&](int x, int y, float u, float v) {
        return std::pair{cell0.x0 + (static_cast<float>(x) + u) * cell, cell0.y0 + (static_cast<float>(y) + v) * cell};
    };
    auto visible = [&](std::pair<float, float> p) {
        return p.first > view.x0 && p.first < view.x1 && p.second > view.y0 && p.second < view.y1;
    };
    const BlockGeometry& g = replay.geometry();
    int ghosts = 0, halos = 0;
    for (int y = g.footprint.y0; y < g.footprint.y1; ++y)
        for (int x = g.footprint.x0; x < g.footprint.x1; ++x) {
            const CellKind kind = replay.cellKind(x, y);
            if (kind == CellKind::Ghost) {
                // conv2d_tiled_in stores 0 for every ghost cell of its tile.
                EXPECT_EQ(replay.ghostHandling(x, y), GhostHandling::StoredZero) << x << "," << y;
                const auto p = at(x, y, 0.3f, 0.5f);
                ASSERT_TRUE(visible(p)) << "ghost cell " << x << "," << y << " is in view";
                EXPECT_TRUE(near(shot.pixel(p.first, p.second), kGhost)) << "ghost cell " << x << "," << y;
                ++ghosts;
            } else if (kind == CellKind::Halo && y >= 1 && y < g.computed.y1 - 1) {
                // The band round a halo cell, at its bottom edge (away from the tiles' outlines).
                const auto p = at(x, y, 0.5f, 0.86f);
                ASSERT_TRUE(visible(p));
                EXPECT_TRUE(near(shot.pixel(p.first, p.second), kHalo)) << "halo cell " << x << "," << y;
                ++halos;
            } else if (kind == CellKind::Internal && x >= 3 && x < 10 && y >= 3 && y < 10) {
                // Inside the output tile: neither colour.
                const auto p = at(x, y, 0.5f, 0.86f);
                EXPECT_FALSE(near(shot.pixel(p.first, p.second), kHalo, 30)) << "internal cell " << x << "," << y;
            }
        }
    EXPECT_EQ(ghosts, 16 * 16 - 14 * 14) << "the corner block's two ghost rows and columns";
    EXPECT_GT(halos, 10);
}

TEST_F(UiTest, CornerBlockOfTiledInShowsGhostsAndHaloWhereTheTraceSaysSo) {
    const DemoTrace demo = traceDemoBlock({0, 0, 0});
    ASSERT_NE(demo.replay, nullptr);
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --builtin photo --input-size 64x64 --block 16 "
        "--preset fig-7.4 --select 0,0 --step " +
        std::to_string(computeStep(*demo.replay)));
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    expectCornerBlockGhostsAndHalo(shot, *demo.replay);
}

// A trace file written by `tilescope trace` is stepped through like a trace
// of the app's own: the same corner block, ghosts and halo where the file's
// events put them, with the file named above the grid.
TEST_F(UiTest, ATraceFileIsSteppedThroughInTheStepThroughViews) {
    const fs::path file = dir() / "corner.tstrace";
    std::string out, errors;
    ASSERT_EQ(run("trace --kernel conv2d_tiled_in --size 64x64 --radius 2 --block 16 --backend cpu --out '" +
                      file.string() + "'",
                  &out, &errors),
              0)
        << errors;
    auto trace = readTrace(file.string());
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const TraceModel model(std::move(*trace));
    const auto corner = model.findBlock(Dim3{0, 0, 0});
    ASSERT_TRUE(corner);
    const BlockReplay& replay = model.block(*corner);

    const Screenshot shot = screenshot("--open-trace '" + file.string() + "' --select 0,0 --step " +
                                       std::to_string(computeStep(replay)) + " --panels grid,counts");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const std::string note = shot.text("trace.note");
    EXPECT_NE(note.find("Trace file corner.tstrace (conv2d_tiled_in, recorded on the CPU executor, 36 of 36 blocks)"),
              std::string::npos)
        << note;
    expectCornerBlockGhostsAndHalo(shot, replay);
}

TEST_F(UiTest, EdgeThreadsOfTiledInAreSwitchedOffInTheThreadView) {
    const DemoTrace demo = traceDemoBlock({1, 1, 0});
    ASSERT_NE(demo.replay, nullptr);
    const BlockReplay& replay = *demo.replay;
    const long long step = computeStep(replay);
    const Cursor cursor = replay.step(static_cast<std::uint32_t>(step - 1)).end;
    // Output (12,12) belongs to block (1,1) (OUT_TILE_DIM = 12).
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --builtin photo --input-size 64x64 --block 16 "
        "--preset fig-7.4 --select 13,13 --step " +
        std::to_string(step));
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const Rect cell0 = shot.rect("threads.cell0");
    const int columns = std::stoi(shot.text("threads.cell0"));
    ASSERT_EQ(columns, 16);
    const float cell = cell0.width();
    ASSERT_GE(cell, 6.0f);
    int switchedOff = 0, computing = 0;
    for (unsigned t = 0; t < replay.threadCount(); ++t) {
        const float x = cell0.x0 + (static_cast<float>(t % 16) + 0.3f) * cell;
        const float y = cell0.y0 + (static_cast<float>(t / 16) + 0.35f) * cell;
        const ThreadState state = replay.threadState(t, cursor);
        const Dim3 c = replay.threadCoords(t);
        const bool edge = c.x < 2 || c.x >= 14 || c.y < 2 || c.y >= 14;
        if (state == ThreadState::SwitchedOff) {
            EXPECT_TRUE(edge) << "only the r threads at each edge are switched off: " << c.x << "," << c.y;
            EXPECT_TRUE(near(shot.pixel(x, y), kSwitchedOff)) << "thread " << c.x << "," << c.y;
            ++switchedOff;
        } else if (state == ThreadState::Computing) {
            EXPECT_TRUE(near(shot.pixel(x, y), kComputing)) << "thread " << c.x << "," << c.y;
            ++computing;
        }
    }
    EXPECT_EQ(switchedOff, 16 * 16 - 12 * 12) << "every edge thread, at a step of the computing phase";
    EXPECT_GT(computing, 0);
}

// Compare mode: each kernel's threads, one above the other, at the same
// step. At a step of the computing phase conv2d_tiled_in has switched off
// its 2r-wide edge (112 of 256 threads) and conv2d_tiled_cached, whose block
// is its output tile, none; each cell's colour is its thread's state in its
// own trace.
TEST_F(UiTest, CompareModeShowsEachKernelsThreadsAtTheSameStep) {
    // Output (13,13): block (1,1) of conv2d_tiled_in (OUT_TILE_DIM 12), block
    // (0,0) of conv2d_tiled_cached (TILE_DIM 16).
    const DemoTrace in = traceDemoBlock({1, 1, 0});
    const DemoTrace cached = traceDemoBlock({0, 0, 0}, "conv2d_tiled_cached");
    ASSERT_TRUE(in.replay && cached.replay);
    const long long step = computeStep(*in.replay);
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --compare conv2d_tiled_cached --builtin photo "
        "--input-size 64x64 --block 16 --preset fig-7.4 --select 13,13 --step " +
        std::to_string(step) + " --panels grid,threads");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    struct Case {
        const char* probe;
        const BlockReplay* replay;
        int switchedOff;
    };
    for (const Case& c :
         {Case{"threads.cell0", in.replay, 16 * 16 - 12 * 12}, Case{"threads.cell0.1", cached.replay, 0}}) {
        ASSERT_TRUE(shot.has(c.probe)) << c.probe;
        const Rect cell0 = shot.rect(c.probe);
        ASSERT_EQ(std::stoi(shot.text(c.probe)), 16);
        const float cell = cell0.width();
        ASSERT_GE(cell, 4.0f);
        const std::uint32_t s = std::min<std::uint32_t>(static_cast<std::uint32_t>(step), c.replay->stepCount());
        const Cursor cursor = c.replay->step(s - 1).end;
        int switchedOff = 0, computing = 0;
        for (unsigned t = 0; t < c.replay->threadCount(); ++t) {
            const float x = cell0.x0 + (static_cast<float>(t % 16) + 0.3f) * cell;
            const float y = cell0.y0 + (static_cast<float>(t / 16) + 0.35f) * cell;
            const ThreadState state = c.replay->threadState(t, cursor);
            if (state == ThreadState::SwitchedOff) {
                EXPECT_TRUE(near(shot.pixel(x, y), kSwitchedOff)) << c.probe << " thread " << t;
                ++switchedOff;
            } else if (state == ThreadState::Computing) {
                EXPECT_TRUE(near(shot.pixel(x, y), kComputing)) << c.probe << " thread " << t;
                ++computing;
            }
        }
        EXPECT_EQ(switchedOff, c.switchedOff) << c.probe;
        EXPECT_GT(computing, 0) << c.probe;
    }
}

TEST_F(UiTest, SteppingThroughAWholeTraceWithEveryPanelOpen) {
    const std::string panels = "--panels setup,result,device,help,grid,threads,shared,output,source,counts";
    // A picture at the end of the trace...
    const Screenshot shot =
        screenshot("--input-size 32x32 --select 20,5 --step 1000000 --compare conv2d_basic " + panels);
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_TRUE(shot.has("grid.cell0"));
    EXPECT_TRUE(shot.has("shared.cell0"));
    // ...and every step on the way, one a frame.
    std::string out;
    ASSERT_EQ(run("ui-bench --frames 120 --step-every 1 --backend cpu --input-size 32x32 " + panels, &out), 0) << out;
    EXPECT_NE(out.find("(the end)"), std::string::npos) << out;
}

// [SECTION] What goes wrong: the Problems panel and its marks

// The everyday palette's problem marks (theme.cpp).
constexpr gfx::Rgb8 kProblem{0xFF, 0x2A, 0x2A};
constexpr gfx::Rgb8 kProblemArrow{0xFF, 0x4D, 0xFF};

// How many pixels of `r` are `colour`.
int pixelsOf(const Screenshot& shot, const Rect& r, gfx::Rgb8 colour, int tolerance = 30) {
    int n = 0;
    for (int y = static_cast<int>(r.y0); y < static_cast<int>(r.y1); ++y)
        for (int x = static_cast<int>(r.x0); x < static_cast<int>(r.x1); ++x)
            if (x >= 0 && y >= 0 && x < shot.picture.width && y < shot.picture.height &&
                near(shot.pixel(static_cast<float>(x), static_cast<float>(y)), colour, tolerance))
                ++n;
    return n;
}

// The launch the app's step-through views run for these options, checked
// as they check it (every block traced, the problem detector, the reference).
Result<RunResult> checkedRun(const Image& input, const Mask& mask, const char* kernel, int block,
                             std::vector<unsigned> dropped) {
    RunRequest request;
    request.kernel = kernel;
    request.input = &input;
    request.mask = &mask;
    request.block = block;
    request.backend = Backend::Cpu;
    request.trace = true;
    request.check = true;
    request.drop.lines = std::move(dropped);
    request.schedule = request.drop.any() ? Schedule::Reverse : Schedule::InOrder;
    return runKernel(request);
}

Image photo(int size) {
    ui::InputSpec spec;
    spec.source = ui::InputSource::Photo;
    spec.width = spec.height = size;
    auto input = ui::loadInput(spec, 2);
    EXPECT_TRUE(input.ok());
    return input ? *input : Image{};
}

// conv2d_tiled_in with its __syncthreads() (line 23) unticked: the Problems
// panel lists the races in shared memory, and --problem 0 (a click on the
// first) goes to its step, outlines its element of N_s and draws the arrow
// from the thread that wrote it to the thread that reads it too early.
TEST_F(UiTest, ADroppedBarriersRacesAreListedAndTheFirstIsMarkedAtItsStep) {
    const Image input = photo(32);
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::Figure7_4, 2, 2);
    auto run = checkedRun(input, mask, "conv2d_tiled_in", 16, {23});
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_TRUE(run->problems && run->trace);
    const ProblemSet& set = *run->problems;
    ASSERT_GT(set.count(ProblemKind::SharedRace), 0u);
    const ProblemReport& first = set.items.front();
    ASSERT_EQ(first.kind, ProblemKind::SharedRace);
    ASSERT_TRUE(first.first.valid() && first.second.valid());
    ASSERT_NE(first.first.thread, first.second.thread);
    const TraceModel model(*run->trace);
    const BlockReplay& replay = model.block(first.second.block);
    const Cursor cursor = std::max(replay.positionOf(first.first.event), replay.positionOf(first.second.event)) + 1;

    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --builtin photo --input-size 32x32 --block 16 --preset fig-7.4 "
        "--drop-barrier 23 --problem 0");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;

    // Listed, by kind, with the count; the first row and the selection in the detector's words.
    const Rect panel = shot.rect("problems.window");
    const Rect header = shot.rect("problems.kind.shared_race");
    EXPECT_EQ(shot.text("problems.kind.shared_race"),
              "Races in shared memory (" + std::to_string(set.count(ProblemKind::SharedRace)) + ")");
    EXPECT_GE(header.y0, panel.y0);
    EXPECT_LE(header.y1, panel.y1) << "the header is in view";
    EXPECT_EQ(shot.text("problems.row.0"), describeProblem(*run->trace, first));
    EXPECT_EQ(shot.text("problems.selected"), describeProblem(*run->trace, first));
    EXPECT_NE(shot.text("problems.summary").find("shared races"), std::string::npos);
    EXPECT_FALSE(shot.has("problems.clean"));
    // The barrier is unticked in the Source panel, and the result says it was dropped.
    EXPECT_EQ(shot.text("source.barrier.23"), "dropped");
    EXPECT_NE(shot.text("result.dropped").find("__syncthreads() at line 23 dropped: a race demonstration"),
              std::string::npos)
        << shot.text("result.dropped");

    // The selected step: just after the later of the two accesses, in their block.
    EXPECT_EQ(shot.text("trace.cursor"), std::to_string(cursor) + " " + std::to_string(first.second.block));
    EXPECT_EQ(replay.stepAt(cursor - 1), first.second.step) << "the step of the problem's second access";

    // The shared-memory panel: the element outlined, the arrow drawn.
    const Rect shared = shot.rect("shared.window");
    EXPECT_GT(pixelsOf(shot, shared, kProblem), 20) << "the element's outline";
    EXPECT_GT(pixelsOf(shot, shared, kProblemArrow), 20) << "the arrow";
    const Rect element = shot.rect("shared.problem.element");
    EXPECT_EQ(shot.text("shared.problem.element"), elementName(*run->trace, kArrayShared, first.index));
    EXPECT_TRUE(near(shot.pixel(element.x0 - 1.0f, (element.y0 + element.y1) / 2), kProblem, 30))
        << "the outline, left of the element";
    const Rect arrow = shot.rect("shared.problem.arrow");  // from its start to its tip
    EXPECT_TRUE(near(shot.pixel((arrow.x0 + arrow.x1) / 2, (arrow.y0 + arrow.y1) / 2), kProblemArrow, 30))
        << "the middle of the arrow's shaft";
    // It starts at the writer's own element: here the element of the race itself.
    EXPECT_NEAR(arrow.x0, (element.x0 + element.x1) / 2, 1.5f);
    EXPECT_NEAR(arrow.y0, (element.y0 + element.y1) / 2, 1.5f);

    // The Threads panel frames both threads.
    for (const char* name : {"threads.problem.first", "threads.problem.second"}) {
        const Rect t = shot.rect(name);
        EXPECT_TRUE(near(shot.pixel(t.x0 - 1.0f, (t.y0 + t.y1) / 2), kProblemArrow, 30)) << name;
    }
}

// The outputs that differ from the reference are outlined, in the Output
// view and on the Result panel's image, and no other: conv2d_tiled_pitched
// on a colour image, without the barrier that keeps the next channel from
// overwriting a tile still being read (line 51), gets some outputs wrong.
TEST_F(UiTest, WrongOutputsAreOutlinedInTheOutputViewAndTheResult) {
    const int size = 24;
    Image rgb = Image::planar(size, size, 3);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            rgb.at(x, y, 0) = static_cast<float>((x * 10) % 256) / 255.0f;
            rgb.at(x, y, 1) = static_cast<float>((y * 10) % 256) / 255.0f;
            rgb.at(x, y, 2) = static_cast<float>((x * 37 + y * 91) % 256) / 255.0f;
        }
    const fs::path file = dir() / "colour.png";
    ASSERT_TRUE(io::writeOutput(file, rgb).ok());
    ui::InputSpec spec;
    spec.source = ui::InputSource::File;
    spec.path = file.string();
    auto input = ui::loadInput(spec, 2);
    ASSERT_TRUE(input.ok()) << input.error().message;
    ASSERT_EQ(input->channels, 3);
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::BoxBlur, 2, 1);
    auto run = checkedRun(*input, mask, "conv2d_tiled_pitched", 8, {51});
    ASSERT_TRUE(run.ok()) << run.error().message;
    const std::vector<double> expected = reference::convolve(*input, mask);
    const double tolerance = reference::float32Tolerance(*input, mask);
    std::vector<bool> wrong(static_cast<std::size_t>(size) * size, false);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const float got = run->output.data[i];
        if (std::isnan(got) || std::abs(got - expected[i]) > tolerance)
            wrong[i / 3] = true;
    }
    const auto wrongCount = std::count(wrong.begin(), wrong.end(), true);
    ASSERT_GT(wrongCount, 0);
    ASSERT_LT(wrongCount, size * size) << "some outputs right, some wrong";

    const Screenshot shot = screenshot("--kernel conv2d_tiled_pitched --input '" + file.string() +
                                       "' --radius 1 --block 8 --drop-barrier 51 --panels output,problems,result");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_TRUE(shot.has("problems.kind.wrong_result"));
    EXPECT_TRUE(shot.has("output.wrong"));
    // Along each cell's left edge, just inside it: the outline's colour where
    // the output is wrong, never where it is right.
    for (const char* view : {"output.cell0", "result.output"}) {
        const Rect r = shot.rect(view);
        const float cell = std::string(view) == "output.cell0" ? r.width() : r.width() / size;
        ASSERT_GE(cell, 6.0f) << view;
        int outlined = 0;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                const bool isWrong = wrong[static_cast<std::size_t>(y) * size + x];
                bool red = false, reddish = false;
                for (float dx : {1.0f, 2.0f, 3.0f}) {
                    const gfx::Rgb8 seen = shot.pixel(r.x0 + cell * x + dx, r.y0 + cell * (y + 0.5f));
                    red = red || near(seen, kProblem, 30);
                    reddish = reddish || near(seen, kProblem, 60);
                }
                if (isWrong) {
                    EXPECT_TRUE(red) << view << " P(" << x << "," << y << ") is wrong";
                    outlined += red;
                } else {
                    EXPECT_FALSE(reddish) << view << " P(" << x << "," << y << ") is right";
                }
            }
        EXPECT_EQ(outlined, wrongCount) << view;
    }
}

// A correct kernel: one line says that nothing was found, and none of the
// problem marks is drawn anywhere in the step-through views or the result.
TEST_F(UiTest, ACorrectKernelShowsTheCleanLineAndNoProblemMarks) {
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --builtin photo --input-size 32x32 --block 16 --preset fig-7.4 --problem 0 "
        "--panels problems,threads,shared,output,result,source");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.text("problems.clean"),
              "no problems found: every shared access is ordered by a barrier, nothing outside the arrays, the output "
              "matches the reference");
    EXPECT_FALSE(shot.has("problems.summary"));
    EXPECT_FALSE(shot.has("shared.problem.element"));
    EXPECT_EQ(shot.text("source.barrier.23"), "kept");
    EXPECT_NE(shot.errors.find("--problem 0: the trace has 0 problems listed"), std::string::npos) << shot.errors;
    for (const char* area : {"threads.window", "shared.window", "output.window", "result.output"}) {
        const Rect r = shot.rect(area);
        EXPECT_EQ(pixelsOf(shot, r, kProblem, 24), 0) << area;
        EXPECT_EQ(pixelsOf(shot, r, kProblemArrow, 24), 0) << area;
    }
}

// An input too large to trace whole is traced, and checked, one block at a
// time: the panel says so, and wrong outputs (which need every block) are
// not listed there.
TEST_F(UiTest, ALargeInputIsCheckedOneBlockAtATimeAndTheProblemsPanelSaysSo) {
    const Screenshot shot = screenshot(
        "--kernel conv2d_tiled_in --builtin photo --input-size 160x160 --block 16 --preset fig-7.4 "
        "--drop-barrier 23 --select 30,30 --panels problems,grid");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const std::string scope = shot.text("problems.scope");
    EXPECT_NE(scope.find("Only block (2,2) was checked"), std::string::npos) << scope;
    EXPECT_TRUE(shot.has("problems.kind.shared_race"));
    EXPECT_FALSE(shot.has("problems.kind.wrong_result"));
}

// The set-up with barriers dropped persists, and the command line refuses a
// line that holds no barrier, in the runner's words.
TEST_F(UiTest, DroppedBarriersAreCheckedOnTheCommandLineAndRemembered) {
    std::string errors;
    EXPECT_EQ(run("screenshot --out x.png --kernel conv2d_tiled_in --drop-barrier 24", nullptr, &errors), 2);
    EXPECT_NE(errors.find("holds no __syncthreads(); its barriers are on line 23"), std::string::npos) << errors;
    EXPECT_EQ(run("screenshot --out x.png --kernel conv2d_basic --drop-barrier all", nullptr, &errors), 2);
    EXPECT_NE(errors.find("has no __syncthreads() to drop"), std::string::npos) << errors;

    ui::Settings s;
    s.setup.droppedBarriers = {23, 99};  // 99 holds no barrier: forgotten
    s.setup.schedule = Schedule::Random;
    s.panels[ui::PanelId::Problems] = false;
    auto back = ui::settingsFromJson(ui::settingsToJson(s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->setup.droppedBarriers, (std::vector<unsigned>{23}));
    EXPECT_EQ(back->setup.schedule, Schedule::Random);
    EXPECT_FALSE(back->panels[ui::PanelId::Problems]);
}

// [SECTION] The hardware panel

// A trace of the demo's launch with a hand-made hardware record, as an
// instrumented GPU run would write it: block k on SM 2(k mod 3) (SMs 0, 2
// and 4: the panel has a row for each SM that ran a block, none for 1 and 3),
// starting at 1000 + 200k ns and running 500 ns.
fs::path writeHardwareTrace(const fs::path& dir) {
    Image input = Image::planar(64, 64, 1);
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::Figure7_4, 2, 2);
    RunRequest request;
    request.kernel = "conv2d_tiled_in";
    request.input = &input;
    request.mask = &mask;
    request.block = 16;
    request.backend = Backend::Cpu;
    request.trace = true;
    request.traceBlocks = {Dim3{0, 0, 0}};
    auto result = runKernel(request);
    EXPECT_TRUE(result.ok() && result->trace) << (result ? "" : result.error().message);
    if (!result || !result->trace)
        return {};
    Trace trace = std::move(*result->trace);
    trace.backend = "cuda";
    const Dim3 grid = trace.plan.grid;
    for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x) {
            const unsigned k = trace.linearBlock({x, y, 0});
            trace.hardware.push_back(BlockHardware{
                Dim3{x, y, 0}, (k % 3) * 2, 1000 + 200ull * k, 1500 + 200ull * k, {k % 48, (k + 1) % 48}});
        }
    const fs::path file = dir / "hardware.tstrace";
    auto written = writeTrace(trace, file.string(), TraceFormat::Binary);
    EXPECT_TRUE(written.ok()) << (written ? "" : written.error().message);
    return file;
}

// The everyday palette: blocks in sky blue, the selected one in orange.
constexpr gfx::Rgb8 kBlockBar{0x56, 0xB4, 0xE9};
constexpr gfx::Rgb8 kSelectedBar{0xE6, 0x9F, 0x00};

TEST_F(UiTest, HardwarePanelDrawsEachBlockOnItsSmsRow) {
    const fs::path file = writeHardwareTrace(dir());
    ASSERT_FALSE(file.empty());
    const Screenshot shot = screenshot("--panels hardware,grid --open-trace '" + file.string() + "'");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    ASSERT_FALSE(shot.has("hardware.message")) << shot.text("hardware.message");
    EXPECT_TRUE(shot.has("hardware.sm0"));
    EXPECT_TRUE(shot.has("hardware.sm2"));
    EXPECT_TRUE(shot.has("hardware.sm4"));
    EXPECT_FALSE(shot.has("hardware.sm1")) << "no row for an SM that ran nothing";
    EXPECT_LT(shot.rect("hardware.sm0").y0, shot.rect("hardware.sm2").y0);
    EXPECT_LT(shot.rect("hardware.sm2").y0, shot.rect("hardware.sm4").y0);
    int checked = 0, selected = 0;
    for (unsigned k = 0; k < 36; ++k) {
        const std::string name = "hardware.block" + std::to_string(k);
        ASSERT_TRUE(shot.has(name)) << name;
        const Rect bar = shot.rect(name), row = shot.rect("hardware.sm" + std::to_string((k % 3) * 2));
        EXPECT_GE(bar.y0, row.y0) << name;
        EXPECT_LE(bar.y1, row.y1) << name;
        ASSERT_GE(bar.width(), 8.0f) << name;
        const bool isSelected = shot.text(name).find("selected") != std::string::npos;
        selected += isSelected;
        // Inside the bar (past its outline, above its label): the block's colour...
        const gfx::Rgb8 inside = shot.pixel(bar.x0 + 4, bar.y0 + 4);
        EXPECT_TRUE(near(inside, isSelected ? kSelectedBar : kBlockBar)) << name;
        // ...and just before it on its row, the gap after the SM's previous block.
        const gfx::Rgb8 before = shot.pixel(bar.x0 - 3, bar.y0 + 4);
        if (k >= 3) {
            EXPECT_FALSE(near(before, kBlockBar, 30)) << name;
        }
        ++checked;
    }
    EXPECT_EQ(checked, 36);
    EXPECT_LE(selected, 1);
}

TEST_F(UiTest, HardwarePanelSaysWhyACpuRunHasNoSms) {
    const Screenshot shot = screenshot("--panels hardware");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.text("hardware.message"),
              "the CPU executor has no SMs: run on a GPU, or open a trace recorded on one");
}

// [SECTION] The student's own kernel file: the editor, its compile, its check

namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::stringstream s(text);
    for (std::string line; std::getline(s, line);)
        lines.push_back(line);
    return lines;
}

const fs::path kStudentDir = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "own" / "good";

}  // namespace

// The editor shows the file, each line beside its number.
TEST_F(UiTest, TheEditorShowsTheKernelFileWithLineNumbers) {
    const fs::path file = kStudentDir / "conv2d_tiled_student.cu";
    const Screenshot shot = screenshot("--kernel-file '" + file.string() + "' --input-size 32x32 --step 40");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.text("editor.file"), file.string());
    EXPECT_NE(shot.text("editor.status").find("compiled in"), std::string::npos) << shot.text("editor.status");
    const std::vector<std::string> lines = linesOf(readFile(file));
    const Rect window = shot.rect("editor.window");
    int shown = 0;
    for (std::size_t n = 1; n <= lines.size(); ++n) {
        const std::string key = std::to_string(n);
        if (!shot.has("editor.gutter." + key))
            continue;
        ++shown;
        EXPECT_EQ(shot.text("editor.gutter." + key), key);
        EXPECT_EQ(shot.text("editor.line." + key), lines[n - 1]) << "line " << n;
        // Numbers in a column, one line under the other, inside the window.
        const Rect number = shot.rect("editor.gutter." + key), text = shot.rect("editor.line." + key);
        EXPECT_LT(number.x1, text.x0 + 1.0f);
        EXPECT_NEAR(number.y0, text.y0, 0.5f);
        EXPECT_GE(number.x0, window.x0);
        // The next line's number a row or more lower (a long line wraps onto more rows).
        if (shot.has("editor.gutter." + std::to_string(n + 1))) {
            const float rows = (shot.rect("editor.gutter." + std::to_string(n + 1)).y0 - number.y0) / number.height();
            EXPECT_GE(rows, 0.99f);
            EXPECT_NEAR(rows, std::round(rows), 0.05f);
        }
    }
    EXPECT_GE(shown, 12) << "a screenful of lines";
    // The digits are drawn: some pixels of a number's box differ from the gutter's background.
    const Rect first = shot.rect("editor.gutter." + std::to_string(std::stoi(shot.text("editor.current")) - 1));
    const gfx::Rgb8 background = shot.pixel(first.x0 - 2.0f, first.y0 + 1.0f);
    int ink = 0;
    for (float y = first.y0; y < first.y1; y += 1.0f)
        for (float x = first.x0; x < first.x1; x += 1.0f)
            ink += !near(shot.pixel(x, y), background, 40);
    EXPECT_GT(ink, 10) << "the line number's digits";
    // Step 40 stands in the loop: its line is highlighted, and in view.
    const int current = std::stoi(shot.text("editor.current"));
    EXPECT_NE(lines[static_cast<std::size_t>(current - 1)].find("Pvalue +="), std::string::npos);
    EXPECT_TRUE(shot.has("editor.gutter." + std::to_string(current)));
}

// A file that does not compile: its line marked in the gutter and tinted,
// the compiler's words under the text, and nothing run.
TEST_F(UiTest, ACompileErrorIsMarkedAtItsLine) {
    const std::string good = readFile(kStudentDir / "conv2d_tiled_student.cu");
    const std::string broken =
        replaced(good, "N_ds[ty][tx] = N[row * width + col];", "N_ds[ty][tx] = N[row * width + col]");
    const fs::path file = dir() / "broken.cu";
    writeFile(file, broken);
    const int line = static_cast<int>(
        std::count(broken.begin(), broken.begin() + static_cast<long>(broken.find("N[row * width + col]")), '\n') + 1);

    const Screenshot shot = screenshot("--kernel-file '" + file.string() + "' --input-size 32x32");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.text("editor.error.mark"), std::to_string(line));
    EXPECT_EQ(shot.text("editor.error.line"), std::to_string(line));
    EXPECT_EQ(shot.text("editor.status"), "\xE2\x9C\x97 does not compile: line " + std::to_string(line));
    const std::string message = shot.text("editor.error");
    EXPECT_EQ(message.rfind("line " + std::to_string(line) + ", column ", 0), 0u) << message;
    EXPECT_NE(message.find("expected ';'"), std::string::npos) << message;
    // The mark: red, in the gutter, on the line's row; the line tinted red, the next one not.
    const Rect mark = shot.rect("editor.error.mark"), tinted = shot.rect("editor.error.line");
    EXPECT_TRUE(near(shot.pixel((mark.x0 + mark.x1) / 2, (mark.y0 + mark.y1) / 2), kProblem, 30));
    EXPECT_LT(mark.x1, tinted.x0);
    EXPECT_GE(mark.y0, tinted.y0 - 1.0f);
    EXPECT_LE(mark.y1, tinted.y1 + 1.0f);
    const Rect next = shot.rect("editor.line." + std::to_string(line + 1));
    const gfx::Rgb8 red = shot.pixel(tinted.x1 - 4.0f, (tinted.y0 + tinted.y1) / 2);
    const gfx::Rgb8 plain = shot.pixel(next.x1 - 4.0f, (next.y0 + next.y1) / 2);
    EXPECT_GT(red.r - plain.r, 30) << describeColour(red) << " against " << describeColour(plain);
    EXPECT_LT(std::abs(red.g - plain.g), 20);
    // Nothing ran: the result says why.
    EXPECT_NE(shot.text("result.problem").find("your kernel does not compile"), std::string::npos);
    EXPECT_FALSE(shot.has("editor.verdict"));
}

// [SECTION] The editor's marks, its undo and its find, through scripted input

namespace {

// The student's tiled kernel with its first barrier gone: every thread's
// store into the tile (lines 36 and 38) races with the neighbours' loads
// (line 51). The line numbers stay the file's.
std::string racyKernel() {
    return replaced(readFile(kStudentDir / "conv2d_tiled_student.cu"),
                    "    __syncthreads();                        // the whole input tile is loaded",
                    "    // (no barrier here)");
}

int lineOf(const std::string& text, const std::string& piece) {
    return static_cast<int>(
        std::count(text.begin(), text.begin() + static_cast<long>(text.find(piece)), '\n') + 1);
}

// Whether `inner` lies within the rows of `outer` (a mark beside its line).
bool onRow(const Rect& inner, const Rect& outer) {
    return inner.y0 >= outer.y0 - 1.0f && inner.y1 <= outer.y1 + 1.0f;
}

}  // namespace

// A race is marked at both of its lines, each mark naming the two as the
// Problems panel does; hovering one says so.
TEST_F(UiTest, ARaceIsMarkedInTheEditorAtBothOfItsLines) {
    const std::string text = racyKernel();
    const fs::path file = dir() / "racy.cu";
    writeFile(file, text);
    const int store = lineOf(text, "N_ds[ty][tx] = N[row * width + col];");
    const int load = lineOf(text, "Pvalue += Mc");
    const Screenshot shot = screenshot("--kernel-file '" + file.string() +
                                       "' --input-size 32x32 --panels editor,problems --do hover:editor.marker." +
                                       std::to_string(load));
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const std::string lines = "lines " + std::to_string(store) + " \xE2\x86\x92 " + std::to_string(load);
    for (const int line : {store, load}) {
        const std::string mark = "editor.marker." + std::to_string(line);
        ASSERT_TRUE(shot.has(mark)) << "no mark at line " << line;
        EXPECT_NE(shot.text(mark).find("shared race"), std::string::npos) << shot.text(mark);
        EXPECT_NE(shot.text(mark).find(lines), std::string::npos) << shot.text(mark);
        // Beside its line, left of the text.
        const Rect r = shot.rect(mark), row = shot.rect("editor.line." + std::to_string(line));
        EXPECT_TRUE(onRow(r, row)) << mark;
        EXPECT_LT(r.x1, row.x0);
        // Drawn: its middle is the marks' colour, not the background's.
        const gfx::Rgb8 middle = shot.pixel((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
        EXPECT_FALSE(near(middle, shot.pixel(r.x0 - 3.0f, r.y0 - 3.0f), 30)) << describeColour(middle);
        EXPECT_FALSE(shot.has(mark + ".stale"));
    }
    EXPECT_FALSE(shot.has("editor.marker.20"));
    // The hover says what the mark says.
    ASSERT_TRUE(shot.has("editor.tooltip"));
    EXPECT_NE(shot.text("editor.tooltip").find(lines), std::string::npos) << shot.text("editor.tooltip");
}

// The Editor in lecture-hall mode on a projector: the lecture's layout with
// the Editor in the Source panel's place shows a screenful of code at
// lecture size, no panel over another, and the view at the check's first
// problem by itself (the page opens the same layout: tests/web/).
TEST_F(UiTest, TheEditorInTheLectureLayoutShowsAScreenfulAtTheFirstProblem) {
    const std::string text = racyKernel();
    const fs::path file = dir() / "racy.cu";
    writeFile(file, text);
    const int first = std::min(lineOf(text, "N_ds[ty][tx] = N[row * width + col];"), lineOf(text, "Pvalue += Mc"));
    const Screenshot shot = screenshotAt(
        "1920x1080", "--lecture --kernel-file '" + file.string() + "' --input-size 32x32 --panels grid,result,editor",
        "lecture-editor");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_GE(shot.count("editor.line."), 15);
    EXPECT_TRUE(shot.has("editor.line." + std::to_string(first))) << "the first problem's line " << first;
    std::vector<std::pair<std::string, Rect>> windows;
    for (const json& item : shot.layout["items"])
        if (item["name"] == "window" && item["text"].get<std::string>().rfind("##Tooltip", 0) != 0) {
            const auto& v = item["rect"];
            windows.emplace_back(item["text"],
                                 Rect{v[0].get<float>(), v[1].get<float>(), v[2].get<float>(), v[3].get<float>()});
        }
    for (std::size_t i = 0; i < windows.size(); ++i)
        for (std::size_t j = i + 1; j < windows.size(); ++j) {
            const Rect &a = windows[i].second, &b = windows[j].second;
            EXPECT_FALSE(std::min(a.x1, b.x1) - std::max(a.x0, b.x0) > 1.0f &&
                         std::min(a.y1, b.y1) - std::max(a.y0, b.y0) > 1.0f)
                << windows[i].first << " over " << windows[j].first;
        }
}

// A click on a problem's mark selects it in the Problems panel, which steps
// the views to it: the selected thread then stands on the race's line.
TEST_F(UiTest, ClickingAMarkSelectsItsProblemAndStepsTheViews) {
    const std::string text = racyKernel();
    const fs::path file = dir() / "racy.cu";
    writeFile(file, text);
    const int load = lineOf(text, "Pvalue += Mc");
    const Screenshot before =
        screenshot("--kernel-file '" + file.string() + "' --input-size 32x32 --panels editor,problems,threads");
    ASSERT_EQ(before.exitCode, 0) << before.errors;
    EXPECT_FALSE(before.has("problems.selected"));
    const Screenshot shot = screenshot("--kernel-file '" + file.string() +
                                       "' --input-size 32x32 --panels editor,problems,threads --do click:editor.marker." +
                                       std::to_string(load));
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    ASSERT_TRUE(shot.has("problems.selected"));
    EXPECT_NE(shot.text("problems.selected").find("race"), std::string::npos) << shot.text("problems.selected");
    ASSERT_TRUE(shot.has("editor.current"));
    const int current = std::stoi(shot.text("editor.current"));
    EXPECT_TRUE(current == load || current == lineOf(text, "N_ds[ty][tx] = N[row * width + col];"))
        << "the views stand on line " << current;
}

// Once the text changes, the check's marks are stale until it runs again.
TEST_F(UiTest, MarksTurnStaleWhenTheTextChanges) {
    const std::string text = racyKernel();
    const fs::path file = dir() / "racy.cu";
    writeFile(file, text);
    const int load = lineOf(text, "Pvalue += Mc");
    const Screenshot shot = screenshot("--kernel-file '" + file.string() +
                                       "' --input-size 32x32 --panels editor,problems --do click:editor.line.40 "
                                       "--do type:x");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_TRUE(shot.has("editor.marker." + std::to_string(load) + ".stale"));
    EXPECT_NE(shot.text("editor.line.40").find('x'), std::string::npos) << shot.text("editor.line.40");
}

// Typing changes the text; Ctrl+Z takes it back, Ctrl+Y brings it again.
TEST_F(UiTest, UndoInTheEditorRestoresTheText) {
    const fs::path file = kStudentDir / "conv2d_tiled_student.cu";
    const std::vector<std::string> lines = linesOf(readFile(file));
    const std::string base = "--kernel-file '" + file.string() + "' --input-size 32x32 --panels editor,result";
    const Screenshot typed = screenshot(base + " --do click:editor.line.24 --do key:end --do type:z");
    ASSERT_EQ(typed.exitCode, 0) << typed.errors;
    EXPECT_EQ(typed.text("editor.line.24"), lines[23] + "z");
    EXPECT_EQ(typed.text("editor.file"), file.string());
    const Screenshot undone = screenshot(base + " --do click:editor.line.24 --do key:end --do type:z --do key:ctrl+z");
    ASSERT_EQ(undone.exitCode, 0) << undone.errors;
    EXPECT_EQ(undone.text("editor.line.24"), lines[23]);
    const Screenshot redone = screenshot(base +
                                         " --do click:editor.line.24 --do key:end --do type:z --do key:ctrl+z "
                                         "--do key:ctrl+y");
    ASSERT_EQ(redone.exitCode, 0) << redone.errors;
    EXPECT_EQ(redone.text("editor.line.24"), lines[23] + "z");
}

// Ctrl+F, then the words: the cursor goes to their first place, selected, in view.
TEST_F(UiTest, FindMovesTheCursorToTheMatch) {
    const fs::path file = kStudentDir / "conv2d_tiled_student.cu";
    const std::string text = readFile(file);
    const int target = lineOf(text, "P[row * width + col] = Pvalue;");
    const Screenshot shot = screenshot("--kernel-file '" + file.string() +
                                       "' --input-size 32x32 --panels editor,result --do click:editor.line.2 "
                                       "--do key:ctrl+f --do 'type:P[row'");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    const std::string cursor = shot.text("editor.cursor");
    ASSERT_FALSE(cursor.empty());
    EXPECT_EQ(std::stoi(cursor.substr(0, cursor.find(':'))), target) << cursor;
    EXPECT_EQ(shot.text("editor.selection"), "P[row");
    EXPECT_TRUE(shot.has("editor.line." + std::to_string(target)));
}

// A correct kernel file: the editor says so at once, as the Problems panel does.
TEST_F(UiTest, ACorrectKernelFileIsReportedRight) {
    const Screenshot shot = screenshot("--kernel-file '" + (kStudentDir / "conv2d_tiled_student.cu").string() +
                                       "' --input-size 40x40 --preset fig-7.4");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.text("editor.verdict"), "\xE2\x9C\x93 your kernel is right");
    EXPECT_EQ(shot.text("editor.verdict.detail"),
              "all 1600 outputs match the reference; the check found no race and no access outside an array");
    EXPECT_TRUE(shot.has("problems.clean"));
    EXPECT_NE(shot.text("result.status").find("\xE2\x9C\x93"), std::string::npos) << shot.text("result.status");
    EXPECT_FALSE(shot.has("editor.error"));
}

// What the kernel file prints (printf, in the kernel and in launch()) is
// shown under the editor's verdict, in a section that folds, at most 100
// lines and a count of the rest.
TEST_F(UiTest, WhatTheKernelFilePrintsIsShownUnderTheVerdict) {
    std::string text = readFile(kStudentDir / "conv2d_basic_student.cu");
    text = replaced(text, "        P[row * width + col] = Pvalue;\n",
                    "        P[row * width + col] = Pvalue;\n"
                    "        if (row == 0 && col < 150) printf(\"P(%d,0) = %.3f\\n\", col, Pvalue);\n");
    text = replaced(text, "    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);\n",
                    "    printf(\"launching %u x %u blocks\\n\", grid.x, grid.y);\n"
                    "    conv2d_basic<<<grid, block>>>(N, M, P, r, width, height);\n");
    const fs::path file = dir() / "talking.cu";
    writeFile(file, text);
    const Screenshot shot =
        screenshot("--kernel-file '" + file.string() + "' --input-size 160x40 --preset fig-7.4 --panels editor,result");
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_EQ(shot.text("editor.verdict"), "\xE2\x9C\x93 your kernel is right");
    EXPECT_EQ(shot.text("editor.printout"), "printf output of the kernel (151 lines)");
    EXPECT_EQ(shot.text("editor.printout.line.1"), "launching 5 x 5 blocks");
    EXPECT_EQ(shot.text("editor.printout.line.2").rfind("P(0,0) = ", 0), 0u) << shot.text("editor.printout.line.2");
    EXPECT_TRUE(shot.has("editor.printout.line.100"));
    EXPECT_FALSE(shot.has("editor.printout.line.101"));
    EXPECT_EQ(shot.text("editor.printout.rest"), "... and 51 more lines");
    // Under the verdict, above the file's text.
    EXPECT_GE(shot.rect("editor.printout").y0, shot.rect("editor.verdict").y1);
    int first = 1;
    while (first < 60 && !shot.has("editor.line." + std::to_string(first)))
        ++first;
    ASSERT_LT(first, 60) << "no line of the file in view";
    EXPECT_LT(shot.rect("editor.printout.line.1").y1, shot.rect("editor.line." + std::to_string(first)).y0);

    // A kernel that prints nothing shows no such section.
    const Screenshot quiet = screenshot("--kernel-file '" + (kStudentDir / "conv2d_basic_student.cu").string() +
                                        "' --input-size 40x40 --preset fig-7.4 --panels editor");
    ASSERT_EQ(quiet.exitCode, 0) << quiet.errors;
    EXPECT_TRUE(quiet.has("editor.verdict"));
    EXPECT_FALSE(quiet.has("editor.printout"));
}

// A wrong kernel file (the ghost-cell test off by one: the last column taken
// for a ghost cell): the editor says how many outputs are wrong, and the
// Output view and the Result outline those outputs and no others.
TEST_F(UiTest, AWrongKernelFileIsReportedWrongWithItsOutputsOutlined) {
    const std::string good = readFile(kStudentDir / "conv2d_basic_student.cu");
    const fs::path file = dir() / "off_by_one.cu";
    writeFile(file, replaced(good, "col >= 0 && col < width;", "col >= 0 && col < width - 1;"));
    const int size = 24;
    const Image input = photo(size);
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::BoxBlur, 2, 1);
    auto kernel = own::compileKernelFile(file.string());
    ASSERT_TRUE(kernel.ok()) << kernel.error().message;
    RunRequest request;
    request.own = *kernel;
    request.kernel = std::string((*kernel)->info->name);
    request.input = &input;
    request.mask = &mask;
    request.check = true;
    auto run = runKernel(request);
    ASSERT_TRUE(run.ok()) << run.error().message;
    const std::vector<double> expected = reference::convolve(input, mask);
    const double tolerance = reference::float32Tolerance(input, mask);
    std::vector<bool> wrong(expected.size(), false);
    for (std::size_t i = 0; i < expected.size(); ++i)
        wrong[i] = std::isnan(run->output.data[i]) || std::abs(run->output.data[i] - expected[i]) > tolerance;
    const auto wrongCount = std::count(wrong.begin(), wrong.end(), true);
    ASSERT_GT(wrongCount, 0);
    ASSERT_LT(wrongCount, size * size) << "some outputs right, some wrong";

    // The editor and the Output view; then the Result panel given the room
    // the editor takes (the right-hand column holds both).
    const std::string options = "--kernel-file '" + file.string() + "' --builtin photo --input-size 24x24 --radius 1 ";
    for (const char* panels : {"output,problems,editor", "result,problems"}) {
        const Screenshot shot = screenshot(options + "--panels " + panels);
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        EXPECT_TRUE(shot.has("problems.kind.wrong_result")) << panels;
        const bool editor = std::string(panels).find("editor") != std::string::npos;
        if (editor) {
            EXPECT_EQ(shot.text("editor.verdict"), "\xE2\x9C\x97 your kernel is wrong at " +
                                                       std::to_string(wrongCount) + " of " +
                                                       std::to_string(size * size) + " outputs");
            EXPECT_NE(shot.text("editor.verdict.detail").find("outlined in the Result and in Output P"),
                      std::string::npos);
        }
        const std::string view = editor ? "output.cell0" : "result.output";
        const Rect r = shot.rect(view);
        const float cell = editor ? r.width() : r.width() / size;
        ASSERT_GE(cell, 6.0f) << view;
        int outlined = 0;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                bool red = false, reddish = false;
                for (float dx : {1.0f, 2.0f, 3.0f}) {
                    const gfx::Rgb8 seen = shot.pixel(r.x0 + cell * x + dx, r.y0 + cell * (y + 0.5f));
                    red = red || near(seen, kProblem, 30);
                    reddish = reddish || near(seen, kProblem, 60);
                }
                if (wrong[static_cast<std::size_t>(y) * size + x]) {
                    EXPECT_TRUE(red) << view << " P(" << x << "," << y << ") is wrong";
                    outlined += red;
                } else {
                    EXPECT_FALSE(reddish) << view << " P(" << x << "," << y << ") is right";
                }
            }
        EXPECT_EQ(outlined, wrongCount) << view;
    }
}

// Compare mode: your kernel beside a book kernel, on either side; the
// editor's verdict comes from whichever side it is on.
TEST_F(UiTest, YourKernelIsComparedWithABookKernelOnEitherSide) {
    const std::string file = (kStudentDir / "conv2d_tiled_student.cu").string();
    for (const std::string& sides : {"--kernel-file '" + file + "' --compare conv2d_tiled_in",
                                     "--kernel conv2d_tiled_in --kernel-file '" + file + "' --compare own"}) {
        const Screenshot shot = screenshot(sides + " --input-size 32x32 --step 20 --panels grid,threads,editor");
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        EXPECT_EQ(shot.text("editor.verdict").rfind("\xE2\x9C\x93 your kernel is right", 0), 0u)
            << sides << ": " << shot.text("editor.verdict");
        EXPECT_TRUE(shot.has("editor.current")) << sides;
        // Both kernels traced: the cursor stands at step 20 of each.
        EXPECT_TRUE(shot.has("trace.cursor"));
    }
    std::string errors;
    EXPECT_EQ(run("screenshot --out '" + (dir() / "x.png").string() + "' --kernel conv2d_tiled_in --kernel-file '" +
                      file + "'",
                  nullptr, &errors),
              2);
    EXPECT_NE(errors.find("--compare own"), std::string::npos) << errors;
}

// The kernel file open last is opened again at the next start.
TEST_F(UiTest, TheAppRemembersTheLastKernelFile) {
    const fs::path config = dir() / "config";
    const fs::path file = dir() / "mine.cu";
    writeFile(file, readFile(kStudentDir / "conv2d_basic_student.cu"));
    auto read = [&] { return json::parse(std::ifstream(config / "settings.json")); };
    ASSERT_EQ(run("--frames 5 --kernel-file '" + file.string() + "' --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["kernelFile"], fs::absolute(file).lexically_normal().string());
    EXPECT_EQ(read()["setup"]["kernel"], "own");
    EXPECT_EQ(read()["panels"]["editor"], true);
    ASSERT_EQ(run("--frames 5 --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["kernelFile"], fs::absolute(file).lexically_normal().string()) << "opened again, and kept";
    EXPECT_EQ(read()["setup"]["kernel"], "own");
    // Gone from disk: the demo's kernel again.
    fs::remove(file);
    ASSERT_EQ(run("--frames 5 --config-dir '" + config.string() + "'"), 0);
    EXPECT_EQ(read()["kernelFile"], "");
    EXPECT_EQ(read()["setup"]["kernel"], "conv2d_tiled_in");
}

// [SECTION] The Charts panel

gfx::Rgb8 rgbOf(ImU32 colour) {
    return {static_cast<std::uint8_t>(colour & 0xff), static_cast<std::uint8_t>((colour >> 8) & 0xff),
            static_cast<std::uint8_t>((colour >> 16) & 0xff)};
}

// How many pixels of a rectangle are within `tolerance` of a colour.
int countNear(const Screenshot& shot, const Rect& r, gfx::Rgb8 colour, int tolerance = 24) {
    int count = 0;
    for (int y = static_cast<int>(r.y0); y < static_cast<int>(r.y1); ++y)
        for (int x = static_cast<int>(r.x0); x < static_cast<int>(r.x1); ++x)
            count += near(shot.pixel(static_cast<float>(x), static_cast<float>(y)), colour, tolerance) ? 1 : 0;
    return count;
}

bool inside(const Rect& inner, const Rect& outer) {
    return inner.x0 >= outer.x0 - 1 && inner.y0 >= outer.y0 - 1 && inner.x1 <= outer.x1 + 1 && inner.y1 <= outer.y1 + 1;
}

// Figure 7.14 as charts: for the book's two masks, FLOP per byte and global
// loads per output over the block edge, a marker per measured point in its
// strategy's colour, the book's formula dashed through them, one legend with
// every strategy; the GPU times, or why there are none.
TEST_F(UiTest, TheChartsDrawTheMeasuredStrategiesWithTheBooksFormulaDashed) {
    for (const bool lecture : {false, true}) {
        SCOPED_TRACE(lecture ? "lecture mode" : "everyday mode");
        const Screenshot shot = screenshot(std::string("--panels charts") + (lecture ? " --lecture" : ""));
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        const ui::Palette palette = ui::paletteFor(lecture);
        const Rect window = shot.rect("charts.window");
        for (const char* plot :
             {"charts.plot.flop.r2", "charts.plot.flop.r4", "charts.plot.loads.r2", "charts.plot.loads.r4"}) {
            const Rect r = shot.rect(plot);
            EXPECT_GT(r.width(), 100.0f) << plot;
            EXPECT_GT(r.height(), 60.0f) << plot;
            EXPECT_TRUE(inside(r, window)) << plot;
        }
        // The plots of a row side by side, the rows one above the other, nothing overlapping.
        EXPECT_LE(shot.rect("charts.plot.flop.r2").x1, shot.rect("charts.plot.flop.r4").x0);
        EXPECT_LE(shot.rect("charts.plot.flop.r2").y1, shot.rect("charts.plot.loads.r2").y0);
        // Without a GPU the panel says so; with one, a row of GPU times.
        if (shot.has("charts.no-gpu"))
            EXPECT_EQ(shot.text("charts.no-gpu"), "no GPU: times not measured");
        else
            EXPECT_TRUE(shot.has("charts.plot.gpu.r2"));

        // The legend: above the plots, a swatch of every strategy's colour.
        const Rect legend = shot.rect("charts.legend");
        EXPECT_TRUE(inside(legend, window));
        EXPECT_LE(legend.y1, shot.rect("charts.plot.flop.r2").y0);
        for (int s = 0; s < 5; ++s)
            EXPECT_GT(countNear(shot, legend, rgbOf(palette.series[s]), 12), 9) << "strategy " << s << " in the legend";

        // tiled_in's measured points: its colour at each marker, inside the plot.
        const gfx::Rgb8 tiledIn = rgbOf(palette.series[2]);
        const Rect plot = shot.rect("charts.plot.flop.r2");
        for (int block : {8, 16, 32}) {
            const std::string name = "charts.point.flop.r2.conv2d_tiled_in.b" + std::to_string(block);
            const Rect marker = shot.rect(name);
            const float cx = (marker.x0 + marker.x1) / 2, cy = (marker.y0 + marker.y1) / 2;
            EXPECT_TRUE(cx >= plot.x0 && cx <= plot.x1 && cy >= plot.y0 && cy <= plot.y1) << name;
            EXPECT_GT(countNear(shot, marker, tiledIn), 4) << name;
        }
        // Between two markers, the book's formula in dashes: the colour, then a gap, then the colour again.
        const Rect a = shot.rect("charts.point.flop.r2.conv2d_tiled_in.b8");
        const Rect b = shot.rect("charts.point.flop.r2.conv2d_tiled_in.b16");
        const float ax = (a.x0 + a.x1) / 2, ay = (a.y0 + a.y1) / 2, bx = (b.x0 + b.x1) / 2, by = (b.y0 + b.y1) / 2;
        int on = 0, off = 0, changes = 0;
        bool last = false;
        for (float t = 0.2f; t <= 0.8f; t += 0.005f) {
            const float x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
            bool hit = false;  // the line is a few pixels thick: look one pixel either side
            for (int dy = -1; dy <= 1; ++dy)
                hit |= near(shot.pixel(x, y + static_cast<float>(dy)), tiledIn, 40);
            (hit ? on : off)++;
            changes += t > 0.2f && hit != last ? 1 : 0;
            last = hit;
        }
        EXPECT_GT(on, 10) << "the formula's line runs between the points";
        EXPECT_GT(off, 10) << "with gaps: dashed";
        EXPECT_GE(changes, 4) << "dash, gap, dash";
    }
}

}  // namespace
}  // namespace tilescope::test
