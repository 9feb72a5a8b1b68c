// The App's side of the student's own kernel file: opening it (a path, an
// exercise's starting file, the one open last time), taking in each compile
// (KernelFile compiles off the UI thread), running it as the set-up's kernel
// or the one compared with, saying whether it is right, and where the
// Editor panel goes. The rest of the app sees the kernel through the set-up
// name "own", resolved with ownKernelInfo() (setupKernel), and RunJob::own.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "api/runner.hpp"
#include "base/clock.hpp"
#include "gfx/window.hpp"
#include "model/assets.hpp"
#include "model/kernel_file.hpp"
#include "model/trace_session.hpp"
#include "own/own_kernel.hpp"
#include "own/translate.hpp"
#include "ui/app.hpp"
#include "ui/panel_editor.hpp"
#include "ui/panel_legend.hpp"

namespace tilescope::ui {

namespace fs = std::filesystem;

namespace {

// Whether the set-up's mask and input are made for the kernel file's
// kernel (its dimension is known once it has compiled).
bool setupFits(const SetupState& setup, const KernelInfo& own) {
    if (!currentMask(setup, &own))
        return false;
    return own.dims == 1 || !inputSourceInfo(setup.input.source).fixedArray;
}

// "4096 outputs", "1 output"
std::string outputs(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " output" : " outputs");
}

}  // namespace

std::shared_ptr<const own::OwnKernel> App::ownKernel() const {
    return m_kernelFile ? m_kernelFile->kernel() : nullptr;
}

const KernelInfo* App::ownKernelInfo() const {
    const auto& kernel = ownKernel();
    return kernel ? kernel->info : nullptr;
}

std::string App::ownKernelLabel() const {
    if (!m_kernelFile || !m_kernelFile->isOpen())
        return {};
    const std::string file = fs::path(m_kernelFile->state().path).filename().string();
    if (const auto& kernel = ownKernel())
        return ownKernelName(*kernel->info) + "  (" + file + ")";
    return "your kernel  (" + file + ")";  // not compiled: the line under the list says why
}

// [SECTION] Opening

EditorCallbacks App::editorCallbacks() {
    EditorCallbacks callbacks;
    callbacks.compile = [this] { m_kernelFile->compile(); };
    callbacks.cancel = [this] { m_kernelFile->cancelCompile(); };
    callbacks.reload = [this] { m_kernelFile->reload(); };
    callbacks.open = [this](const std::string& path) { openKernelFile(path, true); };
    callbacks.selectProblem = [this](std::size_t index) {
        // As a click in the Problems panel: shown, and the views stepped to it.
        if (!m_options.panels)
            m_settings.panels[PanelId::Problems] = true;
        m_traceSession->selectProblem(index);
    };
    return callbacks;
}

void App::openKernelFileAtStart() {
    // --kernel-file, else the file open last time (when it is still there).
    std::string path = m_options.kernelFile.string();
#if defined(__EMSCRIPTEN__)
    // The page without a server cannot compile the file it had open.
    const bool canCompile = m_options.served != nullptr;
#else
    const bool canCompile = true;
#endif
    if (path.empty() && !m_configDir.empty() && canCompile) {
        std::error_code error;
        if (!m_settings.kernelFile.empty() && fs::is_regular_file(m_settings.kernelFile, error))
            path = m_settings.kernelFile;
        else
            m_settings.kernelFile.clear();
    }
    if (!m_options.kernelFile.empty())
        openKernelFile(path, true);
    else if (!path.empty())
        openKernelFile(path, false);
    // A set-up saved with a kernel file that is gone: back to the demo's kernel.
    if (!m_kernelFile->isOpen()) {
        if (isOwnKernel(m_settings.setup.kernel))
            m_settings.setup.kernel = demoSetup(m_run.gpu).kernel;
        if (isOwnKernel(m_options.view.compareKernel))
            m_options.view.compareKernel.clear();
    }
}

void App::openKernelFile(const std::string& path, bool choose) {
    if (choose)
        showEditor();
    if (!m_kernelFile->open(path))
        return;  // the editor says why; the file open before stays
    std::error_code error;
    const fs::path absolute = fs::absolute(path, error);
    m_settings.kernelFile = error ? path : absolute.lexically_normal().string();
    if (choose && !isOwnKernel(m_settings.setup.kernel) && !isOwnKernel(m_options.view.compareKernel))
        m_settings.setup.kernel = std::string(kOwnKernelKey);
}

void App::showEditor() {
    PanelVisibility& panels = m_settings.panels;
    if (panels[PanelId::Editor] || m_options.panels)  // --panels: the command line chose
        return;
    panels.openEditor();
}

void App::requestOpenKernel() {
#if defined(__EMSCRIPTEN__)
    // The page: the browser's file picker (the file goes into the browser's
    // storage, and comes back as a dropped file does), where a server runs it.
    if (m_options.served)
        m_window->chooseFiles(".cu,.cuh");
    return;
#endif
    showEditor();
    EditorState& state = m_kernelFile->state();
    state.showPathField = true;
    state.focusPath = true;
}

void App::newFromExercise(const std::string& file) {
    showEditor();
    auto copy = copyExercise(exercisesDirectory() / file, exerciseCopyFolder());
    if (!copy) {
        m_kernelFile->state().fileNote = copy.error().message;
        return;
    }
    openKernelFile(copy->string(), true);
}

// [SECTION] Once a frame

void App::updateKernelFile() {
    SetupState& setup = m_settings.setup;
    if (m_kernelFile->poll(base::seconds())) {
        const KernelInfo* info = m_kernelFile->kernel()->info;
        // The set-up's mask and input, for a kernel of another dimension than they were made for.
        if (isOwnKernel(setup.kernel) && !setupFits(setup, *info)) {
            KernelInfo before = *info;
            before.dims = info->dims == 1 ? 2 : 1;
            adaptToKernel(setup, before, *info);
        }
        if (!compareFits(setup.kernel, m_options.view.compareKernel, info))
            m_options.view.compareKernel.clear();
        m_kernelFileCheckOff = false;
        m_forceRun = true;
    }

    // What the run of the kernel file says: the set-up's run when it is the
    // set-up's kernel, the traced run when it is the one compared with.
    EditorState& state = m_kernelFile->state();
    const auto& kernel = m_kernelFile->kernel();
    const bool main = isOwnKernel(setup.kernel);
    const bool compared = isOwnKernel(m_options.view.compareKernel) && m_traceSession->comparing();
    const RunOutcome* outcome = nullptr;
    if (kernel && main && m_run.outcome && m_run.outcome->job.own == kernel && m_run.outcomeIsCurrent())
        outcome = m_run.outcome.get();
    if (kernel && compared) {
        const TracedRun& run = m_traceSession->run(1);
        if (run.outcome && run.outcome->job.own == kernel && run.outcome->id == run.submittedId)
            outcome = run.outcome.get();
    }
    // Its check passed the event budget: run it again without.
    if (outcome && outcome->runError && outcome->job.check &&
        exceedsTraceBudget(*outcome->runError, outcome->job.eventBudget) && main && !m_kernelFileCheckOff) {
        m_kernelFileCheckOff = true;
        m_forceRun = true;
        outcome = nullptr;
    }
    const bool current = kernel && state.compile == CompileState::Compiled && state.text == kernel->translation.text;
    state.printout = outcome && state.compile == CompileState::Compiled ? outcome->printout : nullptr;
    state.verdictDetail.clear();
    if (!kernel || state.compile != CompileState::Compiled || (!main && !compared)) {
        state.verdict = Verdict::None;
        state.verdictText.clear();
    } else if (!outcome) {
        state.verdict = Verdict::Running;
        state.verdictText = m_run.check.runnable() || compared ? "running your kernel..." : "";
    } else if (outcome->runError) {
        const std::string& message = outcome->runError->message;
        state.verdict = Verdict::Failed;
        state.verdictText = outcome->cancelled ? "the run was cancelled (F5 runs it again)"
                                               : "\xE2\x9C\x97 your kernel did not run to the end";
        if (!outcome->cancelled)
            state.verdictDetail = "what stopped it is under the text";
        if (!outcome->cancelled && current) {
            state.errorFromRun = true;
            state.errorLine = own::diagnosticLine(message, state.path);
            state.errorColumn = 0;
            // Without the file's name and line, which the gutter and "line N" say.
            const std::string prefix = state.path + ":" + std::to_string(state.errorLine) + ": ";
            state.errorMessage = state.errorLine > 0 && message.rfind(prefix, 0) == 0 ? message.substr(prefix.size())
                                 : message.rfind(state.path + ": ", 0) == 0 ? message.substr(state.path.size() + 2)
                                                                            : message;
        }
    } else if (outcome->result) {
        if (state.errorFromRun) {
            state.errorFromRun = false;
            state.errorLine = 0;
            state.errorMessage.clear();
        }
        const std::size_t total = outcome->result->output.data.size();
        const ProblemSet* problems = outcome->problems.get();
        if (outcome->wrongCount > 0) {
            state.verdict = Verdict::Wrong;
            state.verdictText =
                "\xE2\x9C\x97 your kernel is wrong at " + std::to_string(outcome->wrongCount) + " of " + outputs(total);
            state.verdictDetail =
                "they are outlined in the Result and in Output P (View > Output P); the Problems panel lists them";
        } else if (problems && !problems->clean()) {
            state.verdict = Verdict::Failed;
            state.verdictText = "\xE2\x9C\x97 your kernel's outputs are right here, but the check found problems";
            state.verdictDetail = problems->summary() + ": the Problems panel lists them";
        } else {
            state.verdict = Verdict::Right;
            state.verdictText = "\xE2\x9C\x93 your kernel is right";
            state.verdictDetail = "all " + outputs(total) + " match the reference" +
                                  (problems ? "; the check found no race and no access outside an array" : "");
        }
    } else {
        state.verdict = Verdict::None;  // the input could not be read: the set-up panel says why
        state.verdictText.clear();
    }

    updateKernelFileMarkers(outcome, main);

    // The line the step-through stands on, while the text is the one traced.
    state.currentLine = 0;
    const int run = main ? 0 : compared ? 1 : -1;
    if (run >= 0 && current && stepThroughShown()) {
        const TracedRun& traced = m_traceSession->run(run);
        const BlockReplay* replay = m_traceSession->replay(run);
        if (replay && traced.outcome && traced.outcome->job.own == kernel)
            if (const auto event =
                    replay->currentEvent(m_traceSession->selectedThread(run), m_traceSession->cursor(run)))
                state.currentLine = static_cast<int>(replay->events()[*event].line);
    }
}

void App::updateKernelFileMarkers(const RunOutcome* outcome, bool main) {
    // The check's problems at their lines: from the set the Problems panel
    // shows when it is this kernel's (a click on a mark selects the problem
    // there), else from the kernel file's own checked run. A new check
    // replaces them; until then, edited text shows them as stale.
    EditorState& state = m_kernelFile->state();
    const auto& kernel = m_kernelFile->kernel();
    std::shared_ptr<const ProblemSet> set;
    const Trace* traced = nullptr;
    bool selectable = false;
    if (kernel && main) {
        const TracedRun& run = m_traceSession->run(0);
        if (run.model && run.outcome && run.outcome->job.own == kernel && run.outcome->problems) {
            set = run.outcome->problems;
            traced = &run.model->trace();
            selectable = true;
        } else if (outcome && outcome->problems && outcome->result && outcome->result->trace) {
            set = outcome->problems;
            traced = &*outcome->result->trace;
        }
    }
    if (state.compile == CompileState::Failed || (!kernel && state.compile != CompileState::Compiling)) {
        state.problemMarkers.clear();
        state.markedProblems = nullptr;
    } else if (set && set != state.markedProblems) {
        state.problemMarkers = problemMarkers(*set, *traced);
        if (!selectable)
            for (EditorMarker& m : state.problemMarkers)
                m.problem.reset();
        state.markedProblems = set;
        state.markedText = kernel->translation.text;
    }
    state.selectedProblem =
        state.markedProblems && state.markedProblems.get() == m_traceSession->problems()
            ? m_traceSession->selectedProblemIndex()
            : std::nullopt;
    state.droppedBarriers.clear();
    if (main && kernel && !m_traceSession->showingFile())
        state.droppedBarriers = m_settings.setup.droppedBarriers;
}

void App::adjustCheckForKernelFile() {
    if (!isOwnKernel(m_settings.setup.kernel))
        return;
    const EditorState& state = m_kernelFile->state();
    if (!ownKernel()) {
        if (state.compile == CompileState::Compiling)
            m_run.check.kernelProblem = "your kernel is compiling...";
        else if (state.compile == CompileState::Failed)
            m_run.check.kernelProblem = "your kernel does not compile: the Editor marks the line";
        return;
    }
    // The launch is the student's launch()'s: the last run of this kernel knows it.
    if (m_run.outcome && m_run.outcome->result && m_run.outcome->job.own == ownKernel())
        m_run.check.plan = m_run.outcome->result->plan;
}

void App::prepareKernelFileJob(RunJob& job) const {
    if (!isOwnKernel(m_settings.setup.kernel))
        return;
    job.own = ownKernel();
    if (!job.own)
        return;
    job.kernel = ownKernelName(*job.own->info);
    // Checked at once (races, accesses outside the arrays, barriers), when
    // its trace surely fits the event budget: a few events per tap and output.
    const auto shape = m_run.check.shape;
    if (!shape || m_kernelFileCheckOff)
        return;
    const double cells = static_cast<double>(shape->width) * std::max(shape->height, 1);
    const double taps = job.dims == 1 ? job.mask.width : static_cast<double>(job.mask.width) * job.mask.width;
    if (cells * (3.0 * taps + 16.0) > static_cast<double>(m_options.eventBudget) / 2.0)
        return;
    job.trace = true;
    job.check = true;
    job.eventBudget = m_options.eventBudget;
}

// [SECTION] Menu

void App::drawKernelFileMenu() {
#if defined(__EMSCRIPTEN__)
    // A page has no C++ compiler and cannot start the process a student's
    // kernel runs in: a computer does, the teacher's (`tilescope serve`,
    // which serves this page too) or the student's own (the desktop app).
    if (!m_options.served) {
        ImGui::MenuItem("Open kernel... (needs tilescope serve)", nullptr, false, false);
        ImGui::SetItemTooltip("Your own CUDA file is compiled by a C++ compiler and run in a process of its own, "
                              "which a page cannot do. Open this page from `tilescope serve` (the link your teacher "
                              "gives), or install TileScope on a computer.");
        return;
    }
#endif
    if (ImGui::MenuItem("Open kernel...", "Ctrl+K"))
        requestOpenKernel();
    if (ImGui::BeginMenu("New from exercise")) {
        for (const Exercise& e : exercises())
            if (ImGui::MenuItem(e.label.c_str()))
                newFromExercise(e.file);
        ImGui::Separator();
        if (m_options.served)
            ImGui::TextDisabled("a copy is kept in this browser's storage");
        else
            ImGui::TextDisabled("a copy goes into %s", exerciseCopyFolder().string().c_str());
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Save and compile the kernel", "Ctrl+S", false, m_kernelFile->isOpen()))
        m_kernelFile->compile();
    if (m_options.served)
        ImGui::TextDisabled("kernels compile and run on %s", m_options.servedName.c_str());
}

}  // namespace tilescope::ui
