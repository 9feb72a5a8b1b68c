#include "ui/panel_setup.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "model/setup_rules.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/run_status.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

// Custom values of one radius re-centred in a mask of another (cropped or
// padded with zeros), so that changing r keeps what was typed.
std::vector<float> recentre(const std::vector<float>& values, int dims, int fromRadius, int toRadius) {
    const int from = 2 * fromRadius + 1, to = 2 * toRadius + 1;
    const int rowsFrom = dims == 1 ? 1 : from, rowsTo = dims == 1 ? 1 : to;
    std::vector<float> out(static_cast<std::size_t>(to) * rowsTo, 0.0f);
    const int shift = toRadius - fromRadius;
    for (int y = 0; y < rowsFrom; ++y)
        for (int x = 0; x < from; ++x) {
            const int tx = x + shift, ty = dims == 1 ? 0 : y + shift;
            if (tx < 0 || ty < 0 || tx >= to || ty >= rowsTo)
                continue;
            const std::size_t i = static_cast<std::size_t>(y) * from + x;
            if (i < values.size())
                out[static_cast<std::size_t>(ty) * to + tx] = values[i];
        }
    return out;
}

std::string kernelLabel(const KernelInfo& k) {
    return std::string(k.name) + "   " + std::string(k.figure);
}

}  // namespace

void SetupPanel::draw(bool* open) {
    if (!ImGui::Begin("Set-up###setup", open)) {
        ImGui::End();
        return;
    }
    m_problemsNow.clear();
    drawKernel();
    drawMask();
    drawLaunch();
    drawInput();
    drawBackend();
    m_problemsShown = std::move(m_problemsNow);
    ImGui::End();
}

void SetupPanel::problem(const char* probeName, const std::string& message) {
    problemMessage(m_context.theme, m_context.probe, probeName, message);
    // A problem that has just appeared is scrolled into view: the panel is
    // taller than the window on small screens, and the message is the point.
    if (std::find(m_problemsShown.begin(), m_problemsShown.end(), message) == m_problemsShown.end())
        ImGui::SetScrollHereY(0.5f);
    m_problemsNow.push_back(message);
}

// [SECTION] Kernel

void SetupPanel::drawKernel() {
    const Theme& theme = m_context.theme;
    SetupState& setup = m_setup;
    heading(theme, "Kernel");
    const KernelInfo* yours = m_actions.ownKernel();
    const KernelInfo* current = setupKernel(setup.kernel, yours);
    const std::string own = m_actions.ownKernelLabel();
    const std::string label = isOwnKernel(setup.kernel) ? (own.empty() ? "your kernel" : own)
                              : current                 ? kernelLabel(*current)
                                                        : setup.kernel;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##kernel", label.c_str(), ImGuiComboFlags_HeightLargest)) {
        // The student's own kernel file first: the one open in the editor.
        ImGui::TextDisabled("Your kernel");
        ImGui::Indent();
        if (!own.empty()) {
            const bool selected = isOwnKernel(setup.kernel);
            ImGui::BeginDisabled(!yours);
            if (ImGui::Selectable(own.c_str(), selected) && !selected && yours) {
                const KernelInfo previous = current ? *current : *yours;
                setup.kernel = std::string(kOwnKernelKey);
                if (isOwnKernel(m_view.compareKernel))
                    m_view.compareKernel = std::string(previous.name);
                adaptToKernel(setup, previous, *yours);
            }
            ImGui::EndDisabled();
        }
        if (ImGui::Selectable("open a kernel file...  (Ctrl+K)", false))
            m_actions.openKernel();
        ImGui::Unindent();
        for (int group : {1, 2, 0}) {  // 1D, 2D, then the listings as printed
            ImGui::TextDisabled(group == 1 ? "1D kernels" : group == 2 ? "2D kernels" : "Listings as printed");
            for (const KernelInfo& k : allKernels()) {
                if (group == 0 ? !k.asPrinted : (k.asPrinted || k.dims != group))
                    continue;
                const bool selected = current && current->id == k.id;
                ImGui::Indent();
                if (ImGui::Selectable(kernelLabel(k).c_str(), selected) && !selected) {
                    const KernelInfo previous = current ? *current : k;
                    if (m_view.compareKernel == k.name && isOwnKernel(setup.kernel))
                        m_view.compareKernel = std::string(kOwnKernelKey);  // the two change places
                    setup.kernel = std::string(k.name);
                    adaptToKernel(setup, previous, k);
                }
                ImGui::Unindent();
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s", std::string(k.asPrinted ? k.defect : k.strategy).c_str());
                if (selected)
                    ImGui::SetItemDefaultFocus();
            }
        }
        ImGui::EndCombo();
    }
    if (current) {
        colouredText(theme.palette.muted, current->id == KernelId::Own
                                              ? "your own kernel, from the file in the Editor panel"
                                              : std::string(current->strategy));
    } else {
        problem("setup.problem.kernel", m_run.check.kernelProblem);
        return;
    }

    // Compare mode: a second kernel of the same dimension, traced on the same
    // input, mask and block, stepping together with the first.
    std::string& compare = m_view.compareKernel;
    if (!compare.empty() && !compareFits(setup.kernel, compare, yours))
        compare.clear();  // the kernel changed under it
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("compare with");
    helpMarker("The step-through views show both kernels side by side, on the same input and mask, stepping "
               "together; the counts panel puts their counts in columns.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);
    const std::string compareLabel = compare.empty()                        ? "(nothing)"
                                     : isOwnKernel(compare) && !own.empty() ? own
                                     : isOwnKernel(compare)                 ? "your kernel"
                                                                            : compare;
    if (ImGui::BeginCombo("##compare", compareLabel.c_str())) {
        if (ImGui::Selectable("(nothing)", compare.empty()))
            compare.clear();
        if (!own.empty() && compareFits(setup.kernel, std::string(kOwnKernelKey), yours) &&
            ImGui::Selectable(own.c_str(), isOwnKernel(compare)))
            compare = std::string(kOwnKernelKey);
        for (const KernelInfo& k : allKernels()) {
            if (!compareFits(setup.kernel, std::string(k.name), yours))
                continue;
            if (ImGui::Selectable(kernelLabel(k).c_str(), compare == k.name))
                compare = std::string(k.name);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", std::string(k.strategy).c_str());
        }
        ImGui::EndCombo();
    }
}

// [SECTION] Mask

void SetupPanel::drawMask() {
    const Theme& theme = m_context.theme;
    SetupState& setup = m_setup;
    const SetupCheck& check = m_run.check;
    const KernelInfo* kernel = check.kernel;
    const int dims = kernel ? kernel->dims : 2;
    heading(theme, "Mask (M, F)");

    const MaskPresetInfo& currentPreset = maskPresetInfo(setup.preset);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##preset", std::string(currentPreset.label).c_str(), ImGuiComboFlags_HeightLargest)) {
        for (const MaskPresetInfo& p : maskPresets()) {
            const bool available = dims == 1 ? p.oneD : p.twoD;
            ImGui::BeginDisabled(!available);
            if (ImGui::Selectable(std::string(p.label).c_str(), p.id == setup.preset)) {
                if (p.id == MaskPreset::Custom && check.mask)
                    setup.customValues = check.mask->values;
                setup.preset = p.id;
                if (p.fixedRadius >= 0)
                    setup.radius = p.fixedRadius;
            }
            ImGui::EndDisabled();
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s%s", std::string(p.about).c_str(),
                                  available ? "" : (dims == 1 ? "\n(2D kernels only)" : "\n(1D kernels only)"));
        }
        ImGui::EndCombo();
    }

    const bool fixed = currentPreset.fixedRadius >= 0;
    ImGui::BeginDisabled(fixed);
    int radius = setup.radius;
    ImGui::SetNextItemWidth(theme.fontPixels * 8.0f);
    if (ImGui::SliderInt("radius r", &radius, 0, kMaxRadius, "%d", ImGuiSliderFlags_AlwaysClamp) &&
        radius != setup.radius) {
        if (setup.preset == MaskPreset::Custom)
            setup.customValues = recentre(setup.customValues, dims, setup.radius, radius);
        setup.radius = radius;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    const int width = 2 * (fixed ? currentPreset.fixedRadius : setup.radius) + 1;
    if (dims == 1)
        ImGui::TextDisabled("width 2r+1 = %d", width);
    else
        ImGui::TextDisabled("%d x %d", width, width);
    if (fixed)
        ImGui::TextDisabled("This mask's size is fixed by the book.");

    if (check.mask)
        drawMaskGrid();
    if (!check.maskProblem.empty())
        problem("setup.problem.mask", check.maskProblem);

    ImGui::SetNextItemWidth(-theme.fontPixels * 4.0f);
    const bool enter = ImGui::InputTextWithHint("##maskfile", "mask file (.txt .csv .raw .npy)", &m_maskPath,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Load##mask") || enter) && !m_maskPath.empty())
        m_actions.loadMaskFile(m_maskPath);
    if (!m_maskFileProblem.empty())
        problem("setup.problem.maskfile", m_maskFileProblem);
}

void SetupPanel::drawMaskGrid() {
    const Theme& theme = m_context.theme;
    SetupState& setup = m_setup;
    const Mask& mask = *m_run.check.mask;
    const float cellWidth = theme.fontPixels * 3.2f;
    const float gridWidth = cellWidth * mask.width + ImGui::GetStyle().ItemSpacing.x * (mask.width - 1);
    const float gridHeight = ImGui::GetFrameHeightWithSpacing() * mask.height + ImGui::GetStyle().WindowPadding.y;
    const bool scroll = gridWidth > ImGui::GetContentRegionAvail().x;
    ImGui::BeginChild("maskgrid", {0.0f, gridHeight + (scroll ? ImGui::GetStyle().ScrollbarSize : 0.0f)}, ImGuiChildFlags_None,
                      ImGuiWindowFlags_HorizontalScrollbar);
    for (int y = 0; y < mask.height; ++y) {
        for (int x = 0; x < mask.width; ++x) {
            if (x > 0)
                ImGui::SameLine();
            const std::size_t i = static_cast<std::size_t>(y) * mask.width + x;
            float v = mask.values[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::SetNextItemWidth(cellWidth);
            if (ImGui::InputFloat("##w", &v, 0.0f, 0.0f, "%g")) {
                // Editing any weight turns the mask into a custom one holding the same values.
                setup.customValues = mask.values;
                setup.customValues[i] = v;
                setup.preset = MaskPreset::Custom;
                setup.radius = mask.width / 2;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(mask.height == 1 ? "M[%d]" : "F[%d][%d]", mask.height == 1 ? x : y, x);
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
    double sum = 0;
    for (float v : mask.values)
        sum += v;
    ImGui::TextDisabled("sum of weights %.4g, sum of |weights| %.4g", sum, mask.absSum());
}

// [SECTION] Launch

void SetupPanel::drawLaunch() {
    const Theme& theme = m_context.theme;
    SetupState& setup = m_setup;
    const SetupCheck& check = m_run.check;
    heading(theme, "Launch");
    const bool twoD = check.kernel && check.kernel->dims == 2;
    int block = setup.block;
    ImGui::BeginDisabled(check.kernel && check.kernel->id == KernelId::Own);  // its launch() sets the block
    ImGui::SetNextItemWidth(theme.fontPixels * 8.0f);
    if (ImGui::InputInt("block edge", &block, 1, 8))
        setup.block = std::clamp(block, 1, kMaxWhatIfThreads);
    ImGui::EndDisabled();
    helpMarker(twoD ? "blockDim.x = blockDim.y = this edge; the block has edge x edge threads."
                    : "blockDim.x: the number of threads in a block.");

    if (check.kernel) {
        const int r = check.mask ? check.mask->width / 2 : setup.radius;
        const int b = setup.block;
        char text[160] = "";
        switch (check.kernel->tiles) {
            case TileShape::None:
                std::snprintf(text, sizeof text,
                              check.kernel->id == KernelId::Own
                                  ? "Your launch() chooses the grid and the block (the block edge here is not used)."
                                  : "One thread per output element.");
                break;
            case TileShape::BlockIsTile:
                std::snprintf(text, sizeof text, "TILE_DIM = %d", b);
                break;
            case TileShape::BlockIsInputTile:
                std::snprintf(text, sizeof text, "IN_TILE_DIM = %d, OUT_TILE_DIM = %d - 2r = %d", b, b, b - 2 * r);
                break;
            case TileShape::BlockIsOutputTile:
                std::snprintf(text, sizeof text, "OUT_TILE_DIM = %d, IN_TILE_DIM = %d + 2r = %d", b, b, b + 2 * r);
                break;
            case TileShape::ThreadPatch: {
                const ThreadPatch& patch = check.kernel->patch;
                const int n = patch.outputs;
                if (patch.stages(r))
                    std::snprintf(text, sizeof text,
                                  "%d x %d threads, a %d x %d patch each in %d bands: output tile %d x %d, its input "
                                  "staged in shared memory",
                                  b, b / patch.bands, n, n, patch.bands, n * b, n * b);
                else
                    std::snprintf(text, sizeof text, "%d x %d outputs per thread: output tile %d x %d", n, n, n * b,
                                  n * b);
                break;
            }
        }
        ImGui::TextWrapped("%s", text);
    }
    ImGui::Checkbox("what-if (CPU only)", &setup.whatIf);
    helpMarker(
        "Lets the CPU executor run a block larger than any GPU allows (more than 1024 threads, or more shared "
        "memory than a block can have), to see what would happen.");
    drawBarriers();

    if (check.plan) {
        const LaunchPlan& p = *check.plan;
        if (twoD)
            ImGui::TextWrapped("Grid %u x %u blocks of %u x %u threads%s", p.grid.x, p.grid.y, p.block.x, p.block.y,
                               p.sharedBytes ? "," : ".");
        else
            ImGui::TextWrapped("Grid of %u blocks of %u threads%s", p.grid.x, p.block.x, p.sharedBytes ? "," : ".");
        if (p.sharedBytes)
            ImGui::TextWrapped("%zu bytes of shared memory per block.", p.sharedBytes);
        if (p.whatIf)
            colouredText(theme.palette.warning, "What-if: " + p.whatIfReason);
    } else if (!check.planProblem.empty()) {
        problem("setup.problem.plan", check.planProblem);
    } else if (isOwnKernel(setup.kernel) && !check.kernel) {
        colouredText(theme.palette.muted, "Your launch() chooses the grid and the block once the file compiles.");
    } else if (!check.shape && check.inputProblem.empty()) {
        ImGui::TextDisabled("The launch is planned once the file has been read.");
    }
}

// The race demonstration: which barriers are dropped (the Source panel's
// check boxes) and, once one is, the order the CPU executor runs warps in.
void SetupPanel::drawBarriers() {
    SetupState& setup = m_setup;
    const BarrierDrop drop = barrierDropOf(setup, m_actions.ownKernel());
    if (!drop.any())
        return;
    const Theme& theme = m_context.theme;
    std::string lines;
    for (std::size_t i = 0; i < drop.lines.size(); ++i)
        lines += (i == 0 ? "" : i + 1 == drop.lines.size() ? " and " : ", ") + std::to_string(drop.lines[i]);
    colouredText(theme.palette.warning, "__syncthreads() dropped at line" +
                                            std::string(drop.lines.size() > 1 ? "s " : " ") + lines +
                                            " (the Source panel's margin)");
    if (ImGui::SmallButton("keep every barrier")) {
        setup.droppedBarriers.clear();
        setup.schedule = Schedule::InOrder;
        return;
    }
    const char* orders[] = {"in order", "reverse", "random"};  // Schedule's order
    int order = static_cast<int>(setup.schedule);
    ImGui::SetNextItemWidth(theme.fontPixels * 7.0f);
    if (ImGui::Combo("warp order", &order, orders, 3))
        setup.schedule = static_cast<Schedule>(order);
    helpMarker(
        "The order the CPU executor runs the warps of a block in between barriers. With a barrier dropped it "
        "decides what each thread reads: a thread may read its neighbours' elements before they are "
        "written, or after they are overwritten. A correct kernel gives the same result in every order.");
    if (setup.backend == Backend::Cuda)
        colouredText(theme.palette.muted,
                     "On the GPU the warp scheduler chooses the order; this one is the CPU "
                     "executor's.");
}

// [SECTION] Input

void SetupPanel::drawInput() {
    const Theme& theme = m_context.theme;
    SetupState& setup = m_setup;
    const SetupCheck& check = m_run.check;
    const int dims = check.kernel ? check.kernel->dims : 2;
    InputSpec& input = setup.input;
    heading(theme, "Input (N)");

    const InputSourceInfo& current = inputSourceInfo(input.source);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##input", std::string(current.label).c_str(), ImGuiComboFlags_HeightLargest)) {
        for (const InputSourceInfo& s : inputSources()) {
            std::string label(s.label);
            if (s.fixedArray)
                label += dims == 2 ? "   (1D: for 1D kernels)" : "";
            if (ImGui::Selectable(label.c_str(), s.id == input.source))
                input.source = s.id;
        }
        ImGui::EndCombo();
    }

    if (m_actions.takeFocusPathRequest()) {
        input.source = InputSource::File;
        ImGui::SetKeyboardFocusHere();
    }
    if (input.source == InputSource::File) {
        if (m_path.empty() && !input.path.empty())
            m_path = input.path;
        ImGui::SetNextItemWidth(-theme.fontPixels * 4.0f);
        const bool enter = ImGui::InputTextWithHint("##path", "path to .png .jpg .pgm .ppm .bmp .npy", &m_path,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if (ImGui::Button("Open") || enter)
            m_actions.openInputFile(m_path);
        ImGui::TextDisabled("or drop a file on the window");
        ImGui::Checkbox("fit to the size below", &input.fitFile);
    } else {
        m_path = input.path;
    }

    const bool sized = !current.fixedArray && (input.source != InputSource::File || input.fitFile);
    if (current.fixedArray) {
        ImGui::TextDisabled("%d elements, as in the book", input.source == InputSource::BookOneToSeven ? 7 : 5);
    } else if (sized && dims == 1) {
        ImGui::SetNextItemWidth(theme.fontPixels * 12.0f);
        if (ImGui::SliderInt("elements", &input.length, 1, 4096, "%d", ImGuiSliderFlags_Logarithmic))
            input.length = std::clamp(input.length, 1, kMaxInputLength);
    } else if (sized) {
        ImGui::SetNextItemWidth(theme.fontPixels * 12.0f);
        if (ImGui::SliderInt("width", &input.width, 1, 2048, "%d", ImGuiSliderFlags_Logarithmic)) {
            input.width = std::clamp(input.width, 1, kMaxInputEdge);
            if (m_square)
                input.height = input.width;
        }
        ImGui::SetNextItemWidth(theme.fontPixels * 12.0f);
        if (ImGui::SliderInt("height", &input.height, 1, 2048, "%d", ImGuiSliderFlags_Logarithmic)) {
            input.height = std::clamp(input.height, 1, kMaxInputEdge);
            if (m_square)
                input.width = input.height;
        }
        // Ticked: the input becomes square. A size of two edges set elsewhere
        // (a class's case, --input-size, the settings) unticks it instead.
        if (ImGui::Checkbox("square", &m_square) && m_square)
            input.height = input.width;
        else if (m_square && input.width != input.height)
            m_square = false;
    }
    if (sized && ((dims == 1 && input.length > 512) || (dims == 2 && input.width * input.height > 96 * 96)))
        ImGui::TextDisabled("Large: the result is computed whole; cells are too small to label.");

    if (check.shape)
        ImGui::Text("N is %s.", describeShape(*check.shape).c_str());
    if (!check.inputProblem.empty())
        problem("setup.problem.input", check.inputProblem);
}

// [SECTION] Backend

void SetupPanel::drawBackend() {
    const Theme& theme = m_context.theme;
    SetupState& setup = m_setup;
    const GpuStatus& gpu = m_run.gpu;
    heading(theme, "Backend");
    if (ImGui::RadioButton("CPU: every GPU thread emulated", setup.backend == Backend::Cpu))
        setup.backend = Backend::Cpu;
    ImGui::BeginDisabled(!gpu.available);
    const std::string cuda = gpu.available ? "CUDA on " + gpu.name : "CUDA";
    if (ImGui::RadioButton(cuda.c_str(), setup.backend == Backend::Cuda))
        setup.backend = Backend::Cuda;
    ImGui::EndDisabled();
    if (!gpu.available)
        colouredText(theme.palette.muted, "CUDA is not available: " + gpu.reason);
    if (const std::string& backendProblem = m_run.check.backendProblem; !backendProblem.empty())
        problem("setup.problem.backend", backendProblem);
}

}  // namespace tilescope::ui
