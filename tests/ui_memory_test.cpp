// The memory the hardware moves, as the app shows it: the Counts panel's
// rows of warp requests and of the cache model against `tilescope stats`,
// stepping by warp request through exactly the selected warp's requests, the
// grid's sector outlines against the request's sector count, the shared tile
// in its banks' colours, and no text clipped at 1920 x 1080 in either mode.
// The screenshots need an X display (xvfb-run) and skip without one; the
// stepping itself is checked first, without one.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "api/runner.hpp"
#include "app_driver.hpp"
#include "io/image_file.hpp"
#include "model/inputs.hpp"
#include "model/masks.hpp"
#include "model/memory_view.hpp"
#include "trace/trace_index.hpp"
#include "trace/warp_requests.hpp"
#include "ui/theme.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The app's built-in photo and box mask, traced whole on the CPU executor (what the app traces).
std::unique_ptr<TraceModel> traceOf(const std::string& kernel, int size, int radius, int block) {
    const int dims = kernel.rfind("conv1d", 0) == 0 ? 1 : 2;
    ui::InputSpec spec;
    spec.source = ui::InputSource::Photo;
    spec.width = spec.height = spec.length = size;
    auto input = ui::loadInput(spec, dims);
    EXPECT_TRUE(input.ok());
    const Mask mask = *ui::makePresetMask(ui::MaskPreset::BoxBlur, dims, radius);
    RunRequest request;
    request.kernel = kernel;
    request.input = &*input;
    request.mask = &mask;
    request.block = block;
    request.backend = Backend::Cpu;
    request.trace = true;
    auto run = runKernel(request);
    EXPECT_TRUE(run.ok() && run->trace) << (run.ok() ? "" : run.error().message);
    if (!run.ok() || !run->trace)
        return nullptr;
    return std::make_unique<TraceModel>(*run->trace);
}

// [SECTION] Stepping by warp request, without a window

TEST(WarpRequestSteps, VisitEachWarpsRequestsInOrderForwardAndBack) {
    for (const char* kernel : {"conv2d_basic", "conv2d_tiled_in", "conv2d_tiled_out", "conv2d_tiled_cached",
                               "conv1d_tiled", "conv2d_fast"}) {
        SCOPED_TRACE(kernel);
        const auto model = traceOf(kernel, 40, 2, kernel == std::string("conv1d_tiled") ? 64 : 16);
        ASSERT_TRUE(model);
        for (std::size_t b : {std::size_t{0}, model->blockCount() / 2}) {
            const BlockReplay& replay = model->block(b);
            const ui::BlockRequests requests(replay);
            const std::vector<WarpRequest> model_ = warpRequests(replay.trace(), b);
            ASSERT_EQ(requests.all().size(), model_.size());
            for (unsigned warp = 0; warp < replay.warpCount(); ++warp) {
                // The warp's requests, every one of them, in the order of their steps.
                std::multiset<std::uint32_t> expectedSteps, listedSteps;
                for (const WarpRequest& r : model_)
                    if (r.warp == warp)
                        expectedSteps.insert(r.step);
                const std::vector<std::uint32_t>& list = requests.ofWarp(warp);
                for (std::size_t k = 0; k < list.size(); ++k) {
                    const WarpRequest& r = requests.request(list[k]);
                    EXPECT_EQ(r.warp, warp);
                    listedSteps.insert(r.step);
                    if (k > 0) {
                        EXPECT_LE(requests.request(list[k - 1]).step, r.step);
                    }
                    // Shown once its warp's part of its step has happened.
                    const Cursor at = requests.shownAt(list[k]);
                    ASSERT_GT(at, 0u);
                    EXPECT_EQ(replay.stepAt(at - 1), r.step);
                    EXPECT_EQ(replay.threadOf(replay.eventAt(at - 1)) / kWarpSize, warp);
                }
                EXPECT_EQ(listedSteps, expectedSteps);

                // Forward from the start: each request once, in order; one more: the end.
                std::vector<std::uint32_t> visited;
                ui::RequestStep at{0, std::nullopt};
                for (std::size_t k = 0; k < list.size(); ++k) {
                    at = ui::nextRequest(requests, warp, at.cursor, at.request);
                    ASSERT_TRUE(at.request);
                    visited.push_back(*at.request);
                    EXPECT_EQ(at.cursor, requests.shownAt(*at.request));
                }
                EXPECT_EQ(visited, list);
                at = ui::nextRequest(requests, warp, at.cursor, at.request);
                EXPECT_EQ(at.cursor, replay.size());
                // Back from the end (standing on the last request, where it is shown
                // at the end): the same, reversed, then the start.
                std::vector<std::uint32_t> back;
                if (at.request)
                    back.push_back(*at.request);
                for (std::size_t guard = 0; guard <= list.size() + 1; ++guard) {
                    at = ui::previousRequest(requests, warp, at.cursor, at.request);
                    if (!at.request)
                        break;
                    back.push_back(*at.request);
                }
                std::reverse(back.begin(), back.end());
                EXPECT_EQ(back, list);
                EXPECT_EQ(at.cursor, 0u);
            }
        }
    }
}

TEST(WarpRequestSteps, BankColoursAreThirtyTwoDistinctColours) {
    std::set<ImU32> colours;
    for (int b = 0; b < 32; ++b)
        colours.insert(ui::bankColour(b));
    EXPECT_EQ(colours.size(), 32u);
    EXPECT_EQ(ui::bankColour(33), ui::bankColour(1));
}

// [SECTION] The app, drawn

class MemoryUiTest : public ::testing::Test {
protected:
    void SetUp() override {
        const char* display = std::getenv("DISPLAY");
        if (!display || !*display)
            GTEST_SKIP() << "no X display: run under xvfb-run";
        m_app = std::make_unique<AppDriver>(std::string("memory_") +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    }

    int run(const std::string& arguments, std::string* out = nullptr, std::string* errors = nullptr) {
        return m_app->run(arguments, out, errors);
    }
    // A screenshot on the CPU backend (the same on every machine).
    AppShot screenshot(const std::string& arguments, const std::string& size = "1600x900") {
        return m_app->screenshot("--backend cpu --size " + size + " " + arguments);
    }

    std::unique_ptr<AppDriver> m_app;
};

// "12.5%" -> 12.5; "1,234" -> 1234
double numberIn(std::string text) {
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    return std::stod(text);
}

// The percentages in a line, in order.
std::vector<double> percentsIn(const std::string& line) {
    std::vector<double> out;
    const std::regex percent("([0-9]+(\\.[0-9]+)?)%");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), percent); it != std::sregex_iterator(); ++it)
        out.push_back(std::stod((*it)[1]));
    return out;
}

// The Counts panel's numbers are the model's, as `tilescope stats` prints them.
TEST_F(MemoryUiTest, CountsPanelShowsTheNumbersOfStats) {
    for (const char* kernel : {"conv2d_tiled_cached", "conv1d_tiled_cached", "conv2d_tiled_out"}) {
        SCOPED_TRACE(kernel);
        const bool oneD = std::string(kernel).rfind("conv1d", 0) == 0;
        const std::string size = oneD ? "256" : "40x40";
        const std::string launch = std::string("--kernel ") + kernel + " --radius 2 --block " + (oneD ? "32" : "16");
        const AppShot shot = screenshot(launch + " --builtin photo --input-size " + size + " --select " +
                                     (oneD ? "70" : "20,20") + " --panels counts,grid");
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        std::string out, errors;
        ASSERT_EQ(run("stats " + launch + " --backend cpu --size " + size, &out, &errors), 0) << errors;
        const json stats = json::parse(out);
        // The selected block: "<cursor> <block index>".
        const std::string cursor = shot.text("trace.cursor");
        ASSERT_FALSE(cursor.empty()) << "no stepping bar";
        const std::size_t block = std::stoul(cursor.substr(cursor.find(' ') + 1));
        ASSERT_LT(block, stats["blocks"].size());
        const json& b = stats["blocks"][block];
        const json& t = stats["totals"];
        int rows = 0;
        for (const char* key :
             {"global_load_requests", "global_load_sectors", "global_store_requests", "global_store_sectors",
              "shared_load_requests", "shared_load_wavefronts", "shared_store_requests", "shared_store_wavefronts",
              "constant_load_requests", "constant_load_serialised"}) {
            const std::string shown = shot.text(std::string("counts.memory.") + key);
            ASSERT_FALSE(shown.empty()) << key << " not shown";
            const auto space = shown.find(' ');
            EXPECT_EQ(numberIn(shown.substr(0, space)), b[key].get<double>()) << key << " of the block";
            EXPECT_EQ(numberIn(shown.substr(space + 1)), t[key].get<double>()) << key << " of the launch";
            ++rows;
        }
        for (const char* key : {"global_load_efficiency", "global_store_efficiency"}) {
            const std::string shown = shot.text(std::string("counts.memory.") + key);
            const auto space = shown.find(' ');
            EXPECT_NEAR(numberIn(shown.substr(0, space)), 100.0 * b[key].get<double>(), 0.051) << key;
            EXPECT_NEAR(numberIn(shown.substr(space + 1)), 100.0 * t[key].get<double>(), 0.051) << key;
        }
        for (const auto& [key, requests, wavefronts] :
             {std::tuple{"shared_load_conflict", "shared_load_requests", "shared_load_wavefronts"},
              std::tuple{"shared_store_conflict", "shared_store_requests", "shared_store_wavefronts"}}) {
            const std::string shown = shot.text(std::string("counts.memory.") + key);
            const auto space = shown.find(' ');
            if (t[requests].get<double>() > 0) {
                EXPECT_NEAR(numberIn(shown.substr(space + 1)), t[wavefronts].get<double>() / t[requests].get<double>(),
                            0.0051)
                    << key;
            }
        }
        EXPECT_EQ(rows, 10);

        // The cache model: the whole launch is traced.
        const json& c = stats["caches"];
        ASSERT_TRUE(c.is_object());
        const std::string l1 = shot.text("counts.cache.0.0"), l2 = shot.text("counts.cache.0.1"),
                          dram = shot.text("counts.cache.0.2");
        ASSERT_FALSE(percentsIn(l1).empty()) << l1;
        EXPECT_NEAR(percentsIn(l1)[0], 100.0 * c["l1_hit_rate"].get<double>(), 0.051) << l1;
        std::smatch of;
        ASSERT_TRUE(std::regex_search(l1, of, std::regex("of ([0-9,]+) global load sectors"))) << l1;
        EXPECT_EQ(numberIn(of[1]), c["load_sectors"].get<double>()) << l1;
        ASSERT_FALSE(percentsIn(l2).empty()) << l2;
        EXPECT_NEAR(percentsIn(l2)[0], 100.0 * c["l2_hit_rate"].get<double>(), 0.051) << l2;
        std::smatch m;
        ASSERT_TRUE(std::regex_search(dram, m, std::regex("DRAM read ([0-9,]+) bytes"))) << dram;
        EXPECT_EQ(numberIn(m[1]), c["dram_read_bytes"].get<double>()) << dram;

        // Beside the book's assumption: where the halo loads came from. The
        // halo line: of the lines of N, not the first (the tile's), the one
        // with the most sectors.
        const std::string halo = shot.text("counts.cache.0.3");
        if (std::string(kernel).find("cached") == std::string::npos) {
            EXPECT_TRUE(halo.empty()) << halo;
            continue;
        }
        int tileLine = 1 << 30;
        for (const json& l : c["lines"])
            if (l["array"] == "N")
                tileLine = std::min(tileLine, l["line"].get<int>());
        const json* best = nullptr;
        for (const json& l : c["lines"])
            if (l["array"] == "N" && l["line"].get<int>() != tileLine &&
                (!best || l["sectors"].get<long long>() > (*best)["sectors"].get<long long>()))
                best = &l;
        ASSERT_TRUE(best);
        EXPECT_NE(halo.find("hopefully"), std::string::npos) << halo;
        EXPECT_NE(halo.find("(line " + std::to_string((*best)["line"].get<int>()) + ")"), std::string::npos) << halo;
        const std::vector<double> p = percentsIn(halo);
        ASSERT_EQ(p.size(), 3u) << halo;
        const double sectors = (*best)["sectors"].get<double>();
        EXPECT_NEAR(p[0], 100.0 * (*best)["l1_hits"].get<double>() / sectors, 0.051) << halo;
        EXPECT_NEAR(p[1], 100.0 * (*best)["l2_hits"].get<double>() / sectors, 0.051) << halo;
        EXPECT_NEAR(p[2], 100.0 * (*best)["dram_sectors"].get<double>() / sectors, 0.051) << halo;
    }
}

// --request K steps by warp request from the start, K + 1 times: the view
// stands on the selected warp's K-th request, in the model's order.
TEST_F(MemoryUiTest, SteppingByWarpRequestShowsTheWarpsRequestsInOrder) {
    // Thread (3,3) of block (1,1) of conv2d_tiled_out (16 x 16 outputs): thread 51, warp 1.
    const auto model = traceOf("conv2d_tiled_out", 40, 2, 16);
    ASSERT_TRUE(model);
    const auto block = model->findBlock(Dim3{1, 1, 0});
    ASSERT_TRUE(block);
    const BlockReplay& replay = model->block(*block);
    const ui::BlockRequests requests(replay);
    const std::vector<std::uint32_t>& list = requests.ofWarp(1);
    ASSERT_GT(list.size(), 4u);
    const std::string launch =
        "--kernel conv2d_tiled_out --builtin photo --input-size 40x40 --radius 2 --block 16 --select 19,19 "
        "--panels grid,shared,threads ";
    for (std::size_t k : {std::size_t{0}, std::size_t{1}, list.size() / 2, list.size() - 1, list.size()}) {
        SCOPED_TRACE("request " + std::to_string(k));
        const AppShot shot = screenshot(launch + "--request " + std::to_string(k));
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        const std::string cursor = shot.text("trace.cursor");
        ASSERT_EQ(std::stoul(cursor.substr(cursor.find(' ') + 1)), *block);
        std::istringstream shown(shot.text("trace.request"));
        std::size_t index = 0, length = 0, request = 0, step = 0, line = 0;
        ASSERT_TRUE(shown >> index >> length >> request >> step >> line) << shot.text("trace.request");
        EXPECT_EQ(length, list.size());
        // Past the last request: the end of the trace, the last request still shown.
        const std::size_t expected = std::min(k, list.size() - 1);
        EXPECT_EQ(index, expected);
        EXPECT_EQ(request, list[expected]);
        EXPECT_EQ(step, requests.request(list[expected]).step);
        EXPECT_EQ(line, requests.request(list[expected]).line);
        const Cursor at = k < list.size() ? requests.shownAt(list[k]) : replay.size();
        EXPECT_EQ(std::stoul(cursor.substr(0, cursor.find(' '))), at);
    }
}

// The grid draws the warp's global request of N: one outline per sector it
// moves, and the label says how many and how much of them is used.
TEST_F(MemoryUiTest, GridOutlinesEachSectorOfTheRequest) {
    for (const char* kernel : {"conv2d_basic", "conv2d_tiled_in"}) {
        SCOPED_TRACE(kernel);
        const auto model = traceOf(kernel, 40, 2, 16);
        ASSERT_TRUE(model);
        const auto block = model->findBlock(Dim3{1, 1, 0});
        ASSERT_TRUE(block);
        const ui::BlockRequests requests(model->block(*block));
        // The warp of the thread that computes the selected output.
        const int sx = std::string(kernel) == "conv2d_basic" ? 16 : 14, sy = sx;
        const std::string select = std::to_string(sx) + "," + std::to_string(sy);
        const int output = model->trace().arrays[kArrayOutput].indexOf(sx, sy);
        unsigned warp = 0;
        for (unsigned t = 0; t < model->block(*block).threadCount(); ++t)
            if (model->block(*block).thread(t).output == output)
                warp = t / kWarpSize;
        const std::vector<std::uint32_t>& list = requests.ofWarp(warp);
        // Each of the warp's first few global loads of N (the tiled kernel has one: its tile's).
        const int wanted = std::string(kernel) == "conv2d_basic" ? 2 : 1;
        int checked = 0;
        for (std::size_t k = 0; k < list.size() && checked < wanted; ++k) {
            const WarpRequest& r = requests.request(list[k]);
            if (!ui::isGlobalRequestOfN(r))
                continue;
            ++checked;
            const AppShot shot = screenshot(std::string("--kernel ") + kernel +
                                         " --builtin photo --input-size 40x40 --radius 2 --block 16 --select " +
                                         select + " --panels grid --lecture --request " + std::to_string(k));
            ASSERT_EQ(shot.exitCode, 0) << shot.errors;
            EXPECT_EQ(shot.count("grid.request.sector."), static_cast<int>(r.sectors)) << "request " << k;
            EXPECT_EQ(shot.text("grid.request.label"), "request: " + ui::sectorSummary(r));
            // The lanes' elements in the request's colour (white): most of them, at a
            // corner of the cell, where no tile outline, load mark or label falls.
            ASSERT_TRUE(shot.has("grid.cell0"));
            const ShotRect cell0 = shot.rect("grid.cell0");
            const float w = cell0.width();
            ASSERT_GE(w, 12.0f);
            int white = 0, lanes = 0;
            for (std::uint32_t i : r.events) {
                const Event& e = model->block(*block).events()[i];
                const ArrayInfo::Coords c = model->trace().arrays[kArrayInput].coords(e.index);
                const int px = static_cast<int>(cell0.x0 + w * (static_cast<float>(c.x) + 0.3f));
                const int py = static_cast<int>(cell0.y0 + w * (static_cast<float>(c.y) + 0.75f));
                if (px < 0 || py < 0 || px >= shot.picture.width || py >= shot.picture.height)
                    continue;
                ++lanes;
                white += shot.picture.at(px, py, 0) > 0.97f && shot.picture.at(px, py, 1) > 0.97f &&
                         shot.picture.at(px, py, 2) > 0.97f;
            }
            EXPECT_GT(lanes, 16);
            EXPECT_GE(white * 4, lanes * 3) << white << " of " << lanes << " lanes' cells are white";
        }
        EXPECT_EQ(checked, wanted);
    }
}

// Stepping by warp request colours the shared tile by bank: word w in bank
// w mod 32's colour; the request's conflicting elements outlined and counted.
TEST_F(MemoryUiTest, SharedElementsTakeTheirBanksColourAndConflictsAreOutlined) {
    // conv2d_tiled_out at 16 x 16 outputs and r = 2: a 20-wide tile, read by
    // warps of two 16-thread rows: words 20 apart share banks 0 to 3.
    const auto model = traceOf("conv2d_tiled_out", 40, 2, 16);
    ASSERT_TRUE(model);
    const auto block = model->findBlock(Dim3{1, 1, 0});
    ASSERT_TRUE(block);
    const BlockReplay& replay = model->block(*block);
    const ui::BlockRequests requests(replay);
    const std::vector<std::uint32_t>& list = requests.ofWarp(0);
    std::size_t k = 0;
    while (k < list.size() &&
           !(ui::isSharedRequest(requests.request(list[k])) && requests.request(list[k]).wavefronts > 1))
        ++k;
    ASSERT_LT(k, list.size()) << "a conflicting shared request";
    const WarpRequest& r = requests.request(list[k]);
    const AppShot shot = screenshot(
        "--kernel conv2d_tiled_out --builtin photo --input-size 40x40 --radius 2 --block 16 --select 16,16 "
        "--panels shared --request " +
        std::to_string(k));
    ASSERT_EQ(shot.exitCode, 0) << shot.errors;
    EXPECT_NE(shot.text("shared.request").find(ui::wavefrontSummary(r)), std::string::npos)
        << shot.text("shared.request");
    std::set<int> conflicting, inRequest;
    const std::vector<bool> waits = conflictingEvents(r, replay.events());
    for (std::size_t e = 0; e < r.events.size(); ++e) {
        inRequest.insert(replay.events()[r.events[e]].index);
        if (waits[e])
            conflicting.insert(replay.events()[r.events[e]].index);
    }
    EXPECT_EQ(shot.count("shared.conflict"), static_cast<int>(conflicting.size()));
    ASSERT_TRUE(shot.has("shared.cell0"));
    const ShotRect cell0 = shot.rect("shared.cell0");
    const int columns = std::stoi(shot.text("shared.cell0"));
    const float cell = cell0.width();
    ASSERT_GE(cell, 8.0f);
    int compared = 0;
    for (int w = 0; w < replay.sharedSize(); ++w) {
        if (inRequest.count(w))
            continue;  // outlined
        const float x = cell0.x0 + cell * (static_cast<float>(w % columns) + 0.18f);
        const float y = cell0.y0 + cell * (static_cast<float>(w / columns) + 0.18f);
        const ImU32 want = ui::bankColour(w % 32);
        const int r8 =
            static_cast<int>(std::lround(shot.picture.at(static_cast<int>(x), static_cast<int>(y), 0) * 255));
        const int g8 =
            static_cast<int>(std::lround(shot.picture.at(static_cast<int>(x), static_cast<int>(y), 1) * 255));
        const int b8 =
            static_cast<int>(std::lround(shot.picture.at(static_cast<int>(x), static_cast<int>(y), 2) * 255));
        EXPECT_NEAR(r8, static_cast<int>(want & 0xff), 4) << "word " << w;
        EXPECT_NEAR(g8, static_cast<int>((want >> 8) & 0xff), 4) << "word " << w;
        EXPECT_NEAR(b8, static_cast<int>((want >> 16) & 0xff), 4) << "word " << w;
        ++compared;
    }
    EXPECT_GT(compared, 300);
}

// Every view of the memory the hardware moves, at 1920 x 1080 in both modes: no text cut off.
TEST_F(MemoryUiTest, NoTextIsClippedAtFullHdInEitherMode) {
    for (const bool lecture : {false, true})
        for (const char* setup :
             {"--kernel conv2d_tiled_cached --request 0", "--kernel conv2d_tiled_out --request 3 --select 16,16",
              "--kernel conv1d_tiled_cached --input-size 256 --block 32 --request 2"}) {
            SCOPED_TRACE(std::string(setup) + (lecture ? " (lecture)" : ""));
            const std::string size =
                std::string(setup).find("conv1d") == std::string::npos ? " --input-size 40x40" : "";
            const AppShot shot = screenshot(std::string(setup) + size +
                                             " --builtin photo --radius 2 --panels grid,shared,counts,threads" +
                                             (lecture ? " --lecture" : ""),
                                         "1920x1080");
            ASSERT_EQ(shot.exitCode, 0) << shot.errors;
            for (const nlohmann::json& i : shot.layout["items"])
                if (i["name"] == "clipped")
                    ADD_FAILURE() << "clipped text in " << i["text"] << " at (" << i["rect"][0] << ", " << i["rect"][1]
                                  << ")";
            ASSERT_TRUE(shot.has("glyphs"));
            EXPECT_GT(std::stoi(shot.text("glyphs")), 200);
            EXPECT_TRUE(shot.has("trace.request")) << "stepping by warp request";
        }
}

}  // namespace
}  // namespace tilescope::test
