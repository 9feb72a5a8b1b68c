#include "ui/panel_counts.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "model/memory_view.hpp"
#include "model/trace_session.hpp"
#include "ui/layout_probe.hpp"
#include "ui/opened_trace.hpp"
#include "ui/panel_legend.hpp"
#include "ui/run_status.hpp"
#include "ui/theme.hpp"

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
    TraceSession& session = m_session;
    const int runs = session.runCount();
    if (!session.replay()) {
        ImGui::TextDisabled("no trace yet");
        ImGui::End();
        return;
    }
    // The measured time: the result panel's run (the real kernel when a GPU
    // is there); a trace file's counts are its own.
    // Words wrap at the panel's edge (the panel scrolls, never sideways).
    auto disabled = [](const std::string& text) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", text.c_str());
        ImGui::PopStyleColor();
    };
    char line[256];
    if (session.showingFile()) {
        disabled("counts from the trace file " + std::filesystem::path(m_openedTrace.path).filename().string() +
                 " (recorded on " + session.replay()->trace().backend + ")");
    } else if (const auto& outcome = m_run.outcome; outcome && outcome->result) {
        std::snprintf(line, sizeof line, "%s: %.3f ms on %s", outcome->job.kernel.c_str(), outcome->result->millis,
                      backendName(outcome->result->backend));
        ImGui::TextWrapped("%s", line);
    }
    for (int i = 0; i < runs && !session.showingFile(); ++i) {
        const TracedRun& run = session.run(i);
        if (run.outcome && run.outcome->result) {
            std::snprintf(line, sizeof line, "traced run of %s: %.3f ms on %s (instrumented)", run.kernel.c_str(),
                          run.outcome->result->millis, backendName(run.outcome->result->backend));
            disabled(line);
        }
    }

    if (const BlockReplay* first = session.replay(); first && !first->geometry().interior) {
        std::snprintf(line, sizeof line,
                      "block (%u,%u) touches ghost cells; the book's figures are for an interior block",
                      first->block().x, first->block().y);
        disabled(line);
    }
    // The launch through the caches (every block traced): made once per trace, with it.
    for (int i = 0; i < runs; ++i) {
        const MemoryFigures* memory = session.memory(i);
        if (!memory || !memory->caches)
            continue;
        const std::vector<std::string> lines = cacheLines(*memory);
        std::snprintf(
            line, sizeof line,
            "%s%sthe whole launch through an H100's caches (cache model: L1 %d KiB and %d block%s per SM, L2 50 MiB):",
            runs > 1 ? session.run(i).kernel.c_str() : "", runs > 1 ? ", " : "", memory->l1Bytes / 1024,
            memory->blocksPerSm, memory->blocksPerSm == 1 ? "" : "s");
        disabled(line);
        for (std::size_t k = 0; k < lines.size(); ++k) {
            ImGui::Bullet();
            ImGui::TextWrapped("%s", lines[k].c_str());
            m_context.probe.record("counts.cache." + std::to_string(i) + "." + std::to_string(k), ImGui::GetItemRectMin(),
                                 ImGui::GetItemRectMax(), lines[k]);
        }
    }
    const int columns = 1 + runs * 3;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("counts", columns, flags))
        return ImGui::End();
    // Names and the book's formulas wrap; the numbers keep their width.
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.0f);
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
        c.book = bookFor(trace.plan, trace.dims(), kernelOf(trace.plan).maskSpace);
        cols.push_back(c);
        const std::string prefix = runs > 1 ? run.kernel + ": " : std::string();
        char blockName[64];
        std::snprintf(blockName, sizeof blockName, "%sblock (%u,%u)", prefix.c_str(), run.replay->block().x,
                      run.replay->block().y);
        ImGui::TableSetupColumn(blockName, ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("the book", ImGuiTableColumnFlags_WidthStretch, 1.2f);
        ImGui::TableSetupColumn(run.model->blockCount() > 1 ? "traced grid" : "traced block",
                                ImGuiTableColumnFlags_WidthFixed);
    }
    ImGui::TableHeadersRow();

    auto row = [&](const char* name, auto blockValue, auto gridValue, auto bookFigure) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", name);
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
                disabled(number(f->value) + " = " + f->formula);
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
    // The warps' requests (the memory model), with what each counts in the book's column.
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("the warps' requests");
    for (int i = 0; i < runs * 3; ++i)
        ImGui::TableNextColumn();
    std::vector<std::vector<MemoryRow>> memory(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        const MemoryFigures* figures = session.memory(i);
        const BlockReplay* replay = session.replay(i);
        if (figures && replay && replay->blockIndex() < figures->blocks.size())
            memory[static_cast<std::size_t>(i)] = memoryRows(figures->blocks[replay->blockIndex()], figures->totals);
    }
    const std::vector<MemoryRow> names = memoryRows({}, {});
    for (std::size_t k = 0; k < names.size(); ++k) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", names[k].label);
        for (int i = 0; i < runs; ++i) {
            const std::vector<MemoryRow>& rows = memory[static_cast<std::size_t>(i)];
            ImGui::TableNextColumn();
            if (rows.empty()) {
                ImGui::TableNextColumn();
                ImGui::TableNextColumn();
                continue;
            }
            const MemoryRow& r = rows[k];
            ImGui::TextUnformatted(r.block.c_str());
            const ImVec2 blockMin = ImGui::GetItemRectMin();
            ImGui::TableNextColumn();
            if (*r.explanation)
                disabled(r.explanation);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.launch.c_str());
            // For tests: "<block> <launch>", as shown.
            m_context.probe.record("counts.memory." + std::string(r.key) + (i > 0 ? "." + std::to_string(i) : ""),
                                 blockMin, ImGui::GetItemRectMax(), r.block + " " + r.launch);
        }
    }
    ImGui::EndTable();
    ImGui::End();
}

}  // namespace tilescope::ui
