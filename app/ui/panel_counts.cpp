#include "ui/panel_counts.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "api/kernels.hpp"
#include "ui/app.hpp"
#include "ui/trace_session.hpp"

namespace tilescope::ui {

namespace {

std::string number(double v) {
    char text[32];
    if (v == std::floor(v) && std::abs(v) < 1e15)
        std::snprintf(text, sizeof text, "%.0f", v);
    else
        std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

// The book's figure for one interior block of this launch, with its formula.
struct BookFigure {
    std::string formula;
    double value = NAN;
};

struct Book {
    BookFigure inputLoads, flops, flopPerByte, reduction;
};

Book bookFor(const LaunchPlan& plan, int dims, Space maskSpace) {
    Book b;
    const double taps = std::pow(2.0 * plan.radius + 1.0, dims);
    const char* sq = dims == 2 ? "\xC2\xB2" : "";  // "²"
    const std::string mask = dims == 2 ? "(2r+1)\xC2\xB2" : "(2r+1)";
    if (plan.inTile > 0 && plan.outTile > 0) {
        const double in = std::pow(plan.inTile, dims), out = std::pow(plan.outTile, dims);
        b.inputLoads = {std::string("IN_TILE_DIM") + sq, in};
        b.flops = {std::string("2 OUT_TILE_DIM") + sq + " " + mask, 2.0 * out * taps};
        b.flopPerByte = {std::string("2 OUT_TILE_DIM") + sq + " " + mask + " / (4 IN_TILE_DIM" + sq + ")",
                         2.0 * out * taps / (4.0 * in)};
        b.reduction = {std::string("OUT_TILE_DIM") + sq + " " + mask + " / IN_TILE_DIM" + sq, out * taps / in};
    } else {
        const double outputs = std::pow(plan.outTile > 0 ? plan.outTile : plan.block.x, dims);
        b.inputLoads = {"outputs x " + mask, outputs * taps};
        b.flops = {"2 outputs x " + mask, 2.0 * outputs * taps};
        if (maskSpace == Space::Constant)
            b.flopPerByte = {"2 FLOP / 4 B (N only: the mask is in constant memory)", 0.5};
        else
            b.flopPerByte = {"2 FLOP / 8 B (N and the mask from global memory)", 0.25};
        b.reduction = {"1 (the basic kernel itself)", 1.0};
    }
    return b;
}

}  // namespace

void CountsPanel::draw(bool* open) {
    if (!ImGui::Begin("Counts###counts", open)) {
        ImGui::End();
        return;
    }
    TraceSession& session = m_app.traceSession();
    const int runs = session.runCount();
    if (!session.replay()) {
        ImGui::TextDisabled("no trace yet");
        ImGui::End();
        return;
    }
    // The measured time: the result panel's run (the real kernel when a GPU
    // is there); a trace file's counts are its own.
    if (session.showingFile())
        ImGui::TextDisabled("counts from the trace file %s (recorded on %s)",
                            std::filesystem::path(m_app.openedTracePath()).filename().string().c_str(),
                            session.replay()->trace().backend.c_str());
    else if (const auto& outcome = m_app.outcome(); outcome && outcome->result)
        ImGui::Text("%s: %.3f ms on %s", outcome->job.kernel.c_str(), outcome->result->millis,
                    backendName(outcome->result->backend));
    for (int i = 0; i < runs && !session.showingFile(); ++i) {
        const TracedRun& run = session.run(i);
        if (run.outcome && run.outcome->result)
            ImGui::TextDisabled("traced run of %s: %.3f ms on %s (instrumented)", run.kernel.c_str(),
                                run.outcome->result->millis, backendName(run.outcome->result->backend));
    }

    if (const BlockReplay* first = session.replay(); first && !first->geometry().interior)
        ImGui::TextDisabled("block (%u,%u) touches ghost cells; the book's figures are for an interior block",
                            first->block().x, first->block().y);
    const int columns = 1 + runs * 3;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("counts", columns, flags))
        return ImGui::End();
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("");
    struct Column {
        const BlockReplay* replay;
        const TraceModel* model;
        Counters block;
        Counters grid;
        DerivedFigures blockDerived, gridDerived;
        Book book;
    };
    std::vector<Column> cols;
    for (int i = 0; i < runs; ++i) {
        const TracedRun& run = session.run(i);
        if (!run.replay || !run.model) {
            cols.push_back({});
            continue;
        }
        const Trace& trace = run.model->trace();
        Column c{run.replay, run.model.get(), run.replay->counters(), run.model->counts().totals, {}, {}, {}};
        c.blockDerived = run.model->derived(c.block);
        c.gridDerived = run.model->derived(c.grid);
        c.book = bookFor(trace.plan, trace.dims(), kernelInfo(trace.plan.kernel).maskSpace);
        cols.push_back(c);
        const std::string prefix = runs > 1 ? run.kernel + ": " : std::string();
        char blockName[64];
        std::snprintf(blockName, sizeof blockName, "%sblock (%u,%u)", prefix.c_str(), run.replay->block().x,
                      run.replay->block().y);
        ImGui::TableSetupColumn(blockName);
        ImGui::TableSetupColumn("the book (interior block)");
        ImGui::TableSetupColumn(run.model->blockCount() > 1 ? "traced grid" : "traced block");
    }
    ImGui::TableHeadersRow();

    auto row = [&](const char* name, auto blockValue, auto gridValue, auto bookFigure) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(name);
        for (const Column& c : cols) {
            if (!c.replay) {
                for (int k = 0; k < 3; ++k)
                    ImGui::TableNextColumn();
                continue;
            }
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(number(blockValue(c)).c_str());
            ImGui::TableNextColumn();
            const BookFigure* f = bookFigure(c);
            if (f && !std::isnan(f->value))
                ImGui::TextDisabled("%s = %s", number(f->value).c_str(), f->formula.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(number(gridValue(c)).c_str());
        }
    };
    auto none = [](const Column&) -> const BookFigure* { return nullptr; };
#define COUNTER(label, field, book)                                                \
    row(                                                                           \
        label, [](const Column& c) { return static_cast<double>(c.block.field); }, \
        [](const Column& c) { return static_cast<double>(c.grid.field); }, book)
    COUNTER("threads", threads, none);
    COUNTER("threads writing an output", threadsComputing, none);
    COUNTER("loads of N (global)", inputLoads, [](const Column& c) { return &c.book.inputLoads; });
    COUNTER("all global loads", globalLoads, none);
    COUNTER("shared stores", sharedStores, none);
    COUNTER("shared loads", sharedLoads, none);
    COUNTER("constant loads (mask)", constantLoads, none);
    COUNTER("stores to P", globalStores, none);
    COUNTER("FLOPs", flops, [](const Column& c) { return &c.book.flops; });
    COUNTER("barriers passed", barriers, none);
    COUNTER("ghost references", ghostRefs, none);
#undef COUNTER
    row(
        "FLOP per byte of global loads", [](const Column& c) { return c.blockDerived.flopPerByte; },
        [](const Column& c) { return c.gridDerived.flopPerByte; }, [](const Column& c) { return &c.book.flopPerByte; });
    row(
        "loads of N per output", [](const Column& c) { return c.blockDerived.inputLoadsPerOutput; },
        [](const Column& c) { return c.gridDerived.inputLoadsPerOutput; }, none);
    row(
        "reduction of loads of N vs basic", [](const Column& c) { return c.blockDerived.inputLoadReduction; },
        [](const Column& c) { return c.gridDerived.inputLoadReduction; },
        [](const Column& c) { return &c.book.reduction; });
    ImGui::EndTable();
    ImGui::End();
}

}  // namespace tilescope::ui
