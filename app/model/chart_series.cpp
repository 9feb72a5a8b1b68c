#include "model/chart_series.hpp"

#include <algorithm>
#include <utility>

#include "exec/backends.hpp"

namespace tilescope::ui {

std::vector<ChartLine> chartSeries(const std::vector<SweepPoint>& points,
                                   const std::vector<std::optional<double>>& gpuMs) {
    std::vector<ChartLine> lines;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        auto line = std::find_if(lines.begin(), lines.end(),
                                 [&](const ChartLine& l) { return l.kernel == p.kernel && l.radius == p.radius; });
        if (line == lines.end()) {
            ChartLine made;
            made.kernel = p.kernel;
            made.radius = p.radius;
            const auto at = std::find(kChartKernels.begin(), kChartKernels.end(), p.kernel);
            made.strategy = at == kChartKernels.end() ? -1 : static_cast<int>(at - kChartKernels.begin());
            lines.push_back(std::move(made));
            line = lines.end() - 1;
        }
        if (!p.skipped.empty())
            continue;
        const double x = p.block;
        auto add = [x](ChartXY& xy, double y) {
            xy.x.push_back(x);
            xy.y.push_back(y);
        };
        add(line->flopPerByte, p.measured.flopPerByte);
        add(line->loadsPerOutput, p.measured.globalLoadsPerOutput);
        if (p.bookFlopPerByte)
            add(line->bookFlopPerByte, *p.bookFlopPerByte);
        if (p.bookGlobalLoadsPerOutput)
            add(line->bookLoadsPerOutput, *p.bookGlobalLoadsPerOutput);
        if (i < gpuMs.size() && gpuMs[i])
            add(line->gpuMs, *gpuMs[i]);
    }
    return lines;
}

ChartFloor chartFloor(int radius, int edge, double copyMs, double peakGflops) {
    const int width = 2 * radius + 1;
    const double flops = 2.0 * width * width * static_cast<double>(edge) * edge;
    const double fmaMs = peakGflops > 0 ? flops / (peakGflops * 1e9) * 1e3 : 0.0;
    return ChartFloor{radius, std::max(copyMs, fmaMs), fmaMs > copyMs};
}

SweepRequest chartRequest() {
    SweepRequest request;
    request.kernels = kChartKernels;
    request.blocks = kChartBlocks;
    request.radii = kChartRadii;
    return request;
}

ChartData computeChartData() {
    ChartData data;
    auto points = sweep(chartRequest());
    if (!points) {
        data.error = points.error().message;
        return data;
    }
    const auto gpuMs = timeSweep(*points, kChartGpuEdge, kChartGpuEdge, &data.noGpuReason);
    data.gpuTimed = std::any_of(gpuMs.begin(), gpuMs.end(), [](const auto& t) { return t.has_value(); });
    data.lines = chartSeries(*points, gpuMs);
    if (data.gpuTimed) {
        // The floor's two parts, timed on the same GPU: a copy of the image and the device's FMA peak.
        cuda::BenchOptions copyTiming;
        copyTiming.millisPerCase = 50.0;
        const auto device = cuda::benchDevice();
        const auto copy =
            cuda::benchCopy(static_cast<std::size_t>(kChartGpuEdge) * kChartGpuEdge * sizeof(float), copyTiming);
        if (device && copy)
            for (int r : kChartRadii)
                data.floors.push_back(chartFloor(r, kChartGpuEdge, copy->medianMs, device->peakGflops()));
    }
    return data;
}

}  // namespace tilescope::ui
