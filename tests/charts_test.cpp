// The Charts panel plots the sweep's own numbers: every measured point of
// every strategy and mask size, at its block edge, the book's formula beside
// it where the book gives one, and nothing for a point with no numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "api/sweep.hpp"
#include "model/chart_series.hpp"

namespace tilescope {
namespace {

const ui::ChartLine* findLine(const std::vector<ui::ChartLine>& lines, const std::string& kernel, int radius) {
    for (const ui::ChartLine& line : lines)
        if (line.kernel == kernel && line.radius == radius) return &line;
    return nullptr;
}

// y at x in a series; empty when x is not there.
std::optional<double> at(const ui::ChartXY& xy, int x) {
    for (std::size_t i = 0; i < xy.x.size(); ++i)
        if (xy.x[i] == x) return xy.y[i];
    return std::nullopt;
}

TEST(Charts, TheSeriesAreTheSweepsMeasuredFigures) {
    SweepRequest request = ui::chartRequest();
    request.radii = {2, 4};  // the book's 5 x 5 and 9 x 9 (Figure 7.14, 4th ed.)
    auto points = sweep(request);
    ASSERT_TRUE(points) << points.error().message;
    // A time for some points, as timeSweep() gives them with a GPU.
    std::vector<std::optional<double>> gpuMs(points->size());
    for (std::size_t i = 0; i < gpuMs.size(); i += 2) gpuMs[i] = 0.125 * static_cast<double>(i + 1);
    const auto lines = ui::chartSeries(*points, gpuMs);
    EXPECT_EQ(lines.size(), ui::kChartKernels.size() * request.radii.size());

    int plotted = 0, skipped = 0;
    for (std::size_t i = 0; i < points->size(); ++i) {
        const SweepPoint& p = (*points)[i];
        const ui::ChartLine* line = findLine(lines, p.kernel, p.radius);
        ASSERT_TRUE(line) << p.kernel << " r " << p.radius;
        EXPECT_EQ(ui::kChartKernels[static_cast<std::size_t>(line->strategy)], p.kernel);
        if (!p.skipped.empty()) {
            ++skipped;
            EXPECT_FALSE(at(line->flopPerByte, p.block)) << "a point with no numbers is not plotted";
            EXPECT_FALSE(at(line->loadsPerOutput, p.block));
            continue;
        }
        ++plotted;
        EXPECT_EQ(at(line->flopPerByte, p.block), p.measured.flopPerByte) << p.kernel << " " << p.block;
        EXPECT_EQ(at(line->loadsPerOutput, p.block), p.measured.globalLoadsPerOutput) << p.kernel << " " << p.block;
        EXPECT_EQ(at(line->bookFlopPerByte, p.block), p.bookFlopPerByte);
        EXPECT_EQ(at(line->bookLoadsPerOutput, p.block), p.bookGlobalLoadsPerOutput);
        EXPECT_EQ(at(line->gpuMs, p.block), gpuMs[i]);
    }
    EXPECT_GT(plotted, 20);
    EXPECT_EQ(skipped, 1) << "conv2d_tiled_in at IN_TILE_DIM 8 has no output tile for a 9 x 9 mask";

    // Figure 7.14's numbers, as the chart draws them (IN_TILE_DIM 32: 9.57 and 22.78).
    EXPECT_NEAR(*at(findLine(lines, "conv2d_tiled_in", 2)->flopPerByte, 32), 9.57, 0.005);
    EXPECT_NEAR(*at(findLine(lines, "conv2d_tiled_in", 4)->flopPerByte, 32), 22.78, 0.005);
    // The caches' share has no formula in the book: measured points only.
    EXPECT_TRUE(findLine(lines, "conv2d_tiled_cached", 2)->bookFlopPerByte.x.empty());
    EXPECT_EQ(findLine(lines, "conv2d_tiled_cached", 2)->flopPerByte.x.size(), 3u);
}

// The floor `tilescope bench` reports: max(copy, multiply-adds at the peak), here on an H200's figures for a
// 4096 x 4096 image (a copy of 64 MiB in 0.033 ms, 66908 GFLOP/s).
TEST(Charts, EachMasksFloorIsTheLargerOfTheCopyAndTheMultiplyAdds) {
    const double copy = 0.033, peak = 66908.0;
    // 3x3: 2 x 9 x 4096^2 FLOP = 0.302 GFLOP, 0.00451 ms at the peak: the copy is the floor.
    const ui::ChartFloor three = ui::chartFloor(1, 4096, copy, peak);
    EXPECT_EQ(three.radius, 1);
    EXPECT_DOUBLE_EQ(three.millis, copy);
    EXPECT_FALSE(three.fmaBound);
    // 9x9: 2 x 81 x 4096^2 FLOP = 2.718 GFLOP, 0.04062 ms at the peak: over the copy.
    const ui::ChartFloor nine = ui::chartFloor(4, 4096, copy, peak);
    EXPECT_NEAR(nine.millis, 2.0 * 81 * 4096.0 * 4096.0 / (peak * 1e9) * 1e3, 1e-12);
    EXPECT_NEAR(nine.millis, 0.04062, 5e-5);
    EXPECT_TRUE(nine.fmaBound);
    // No peak known: the copy alone.
    EXPECT_DOUBLE_EQ(ui::chartFloor(4, 4096, copy, 0.0).millis, copy);
}

TEST(Charts, WithoutTimesThereIsNoTimeSeries) {
    auto points = sweep(SweepRequest{{"conv2d_basic"}, {8, 16}, {1}});
    ASSERT_TRUE(points) << points.error().message;
    const auto lines = ui::chartSeries(*points);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(lines[0].gpuMs.x.empty());
    EXPECT_EQ(lines[0].flopPerByte.x, (std::vector<double>{8, 16}));
}

}  // namespace
}  // namespace tilescope
