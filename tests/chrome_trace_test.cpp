// The Chrome trace export of a GPU run's hardware record.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "trace/chrome_trace.hpp"

namespace tilescope::test {
namespace {

TEST(ChromeTrace, OneSlicePerBlockOnItsSmTrackInMicroseconds) {
    Trace t;
    t.kernel = "conv2d_tiled_in";
    t.backend = "cuda";
    t.plan.kernel = KernelId::Conv2dTiledIn;
    t.plan.grid = Dim3{2, 1, 1};
    t.plan.block = Dim3{16, 16, 1};
    t.hardware = {BlockHardware{Dim3{0, 0, 0}, 3, 1'000'000, 1'004'500, {1, 5}},
                  BlockHardware{Dim3{1, 0, 0}, 7, 1'002'000, 1'003'000, {0, 2}}};
    const auto doc = nlohmann::json::parse(chromeTraceJson(t));
    std::vector<nlohmann::json> slices;
    for (const auto& e : doc["traceEvents"])
        if (e["ph"] == "X") slices.push_back(e);
    ASSERT_EQ(slices.size(), 2u);
    EXPECT_EQ(slices[0]["tid"], 3);
    EXPECT_DOUBLE_EQ(slices[0]["ts"].get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(slices[0]["dur"].get<double>(), 4.5);
    EXPECT_EQ(slices[1]["tid"], 7);
    EXPECT_DOUBLE_EQ(slices[1]["ts"].get<double>(), 2.0);
    EXPECT_EQ(slices[1]["args"]["warp_slots"], nlohmann::json::array({0, 2}));
    EXPECT_EQ(slices[0]["name"], "block (0,0)");
    EXPECT_EQ(slices[1]["name"], "block (1,0)");
}

TEST(ChromeTrace, CpuTracesHaveNoHardwareSlices) {
    Trace t;
    t.kernel = "conv1d_basic";
    t.backend = "cpu";
    const auto doc = nlohmann::json::parse(chromeTraceJson(t));
    for (const auto& e : doc["traceEvents"]) EXPECT_NE(e["ph"], "X");
}

}  // namespace
}  // namespace tilescope::test
