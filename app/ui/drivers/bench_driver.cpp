#include "ui/drivers/bench_driver.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "base/clock.hpp"
#include "gfx/gl.hpp"
#include "model/trace_session.hpp"
#include "ui/drivers/frames.hpp"
#include "ui/frame_renderer.hpp"
#include "ui/panel_costs.hpp"

namespace tilescope::ui {

namespace {

// What the timed frames showed: the median and the worst, and what the
// last frame drew.
void printFrameTimes(App& app, const BenchOptions& bench, const std::vector<double>& times, int results) {
    gfx::Window& window = app.window();
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const auto worst = std::max_element(times.begin(), times.end());
    std::printf("ui-bench: %d frames, %dx%d, lecture mode %s, %s\n", static_cast<int>(times.size()),
                window.framebufferWidth(), window.framebufferHeight(), app.lecture() ? "on" : "off",
                window.renderer().c_str());
    std::printf("ui-bench: median %.2f ms, worst %.2f ms (frame %d)", sorted[sorted.size() / 2], *worst,
                static_cast<int>(worst - times.begin()));
    if (bench.recomputeEvery > 0)
        std::printf(", %d new results shown", results);
    std::printf("\n");
    std::printf(
        "ui-bench: the last frame drew %.0f%% of the window again (the rest was as the frame before), "
        "%d windows hidden under an opaque one not drawn\n",
        app.frameRenderer().redrawnLastFrame() * 100.0, app.frameRenderer().hiddenLastFrame());
    if (bench.stepEvery > 0) {
        TraceSession& session = app.traceSession();
        const BlockReplay* replay = session.replay();
        if (replay)
            std::printf("ui-bench: stepped the trace of block (%u,%u) to event %u of %u (%s)\n", replay->block().x,
                        replay->block().y, session.cursor(), replay->size(),
                        session.cursor() >= replay->size() ? "the end" : "not the end");
        else
            std::printf("ui-bench: no trace to step: %s\n", session.status().c_str());
    }
}

}  // namespace

int runBench(AppOptions options, const BenchOptions& bench) {
    options.mode = AppMode::Bench;
    App app(std::move(options));
    if (const int code = openApp(app))
        return code;
    gfx::Window& window = app.window();
    // Warm up: fonts, the first result and its textures are start-up costs, not frame costs.
    const double deadline = base::seconds() + kDriverTimeoutSeconds;
    for (int settledFrames = 0; settledFrames < kSettleFrames && base::seconds() < deadline;) {
        window.pollEvents();
        app.frame();
        settledFrames = app.settled() ? settledFrames + 1 : 0;
    }
    const int frames = bench.frames > 0 ? bench.frames : 300;
    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(frames));
    int results = 0;
    std::uint64_t lastOutcome = app.outcome() ? app.outcome()->id : 0;
    for (int i = 0; i < frames; ++i) {
        if (bench.recomputeEvery > 0 && i % bench.recomputeEvery == bench.recomputeEvery - 1)
            app.setup().whatIf = !app.setup().whatIf;  // any change re-runs; this one never makes the set-up invalid
        if (bench.stepEvery > 0 && i % bench.stepEvery == 0)
            app.traceSession().stepForward();
        const double start = base::seconds();
        window.pollEvents();
        app.frame();
        glFinish();  // count the drawing, not just the submitting
        times.push_back((base::seconds() - start) * 1000.0);
        if (app.outcome() && app.outcome()->id != lastOutcome) {
            ++results;
            lastOutcome = app.outcome()->id;
        }
    }
    printFrameTimes(app, bench, times, results);
    if (bench.panelCosts) {
        // As many frames again, stepping as the timed ones did, each panel timed.
        PanelCosts costs;
        app.timePanels(&costs);
        for (int i = 0; i < frames; ++i) {
            if (bench.stepEvery > 0 && i % bench.stepEvery == 0)
                app.traceSession().stepForward();
            window.pollEvents();
            app.frame();
        }
        app.timePanels(nullptr);
        costs.print(stdout);
    }
    return 0;
}

}  // namespace tilescope::ui
