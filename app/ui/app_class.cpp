// The App's side of a graded class: class.json read into the Class panel
// (--class, File > Open class results..., the panel's path field), and a
// click on a student's row: the kernel file opened in the editor, the set-up
// put on the case of its first problem (the input's size, the mask's
// radius), and, once that kernel's trace is in, the step-through at the
// problem, as a click in the Problems panel puts it there.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "io/mask_file.hpp"
#include "model/kernel_file.hpp"
#include "model/trace_session.hpp"
#include "trace/problems.hpp"
#include "ui/app.hpp"
#include "ui/panel_class.hpp"

namespace tilescope::ui {

namespace fs = std::filesystem;

ClassCallbacks App::classCallbacks() {
    ClassCallbacks callbacks;
    callbacks.open = [this](const std::string& path) { openClass(path); };
    callbacks.openSubmission = [this](std::size_t index) { openSubmission(index); };
    callbacks.openLiveStudent = [this](std::size_t index) { openLiveStudent(index); };
    callbacks.classNow = [this] { showClassNow(); };
    return callbacks;
}

Status App::openClass(const std::string& path) {
    // The Class panel takes the set-up's column whole (a row's click sets
    // the set-up; View > Set-up shows it again, under the class).
    if (!m_options.panels) {  // --panels: the command line chose
        m_settings.panels[PanelId::Class] = true;
        m_settings.panels[PanelId::Setup] = false;
    }
    auto read = readClassResults(path);
    if (!read) {
        m_classView.problem = read.error().message;  // the class open before stays
        return read.error();
    }
    m_classView.results = std::make_shared<const ClassResults>(std::move(*read));
    m_classView.problem.clear();
    m_classView.note.clear();
    m_classView.pattern.reset();
    m_classView.opened.reset();
    m_classView.pathField = path;
    m_classJump.reset();
    return success();
}

void App::openClassAtStart() {
    if (m_options.classResults.empty())
        return;
    if (Status s = openClass(m_options.classResults.string()); !s)
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
    if (m_options.classPattern && m_classView.results) {
        const auto rows = patternsByCount(*m_classView.results);
        if (*m_options.classPattern < rows.size())
            m_classView.pattern = m_classView.results->patterns[rows[*m_options.classPattern].pattern].key;
        else
            std::fprintf(stderr, "tilescope: --class-pattern %zu: the class has %zu patterns\n",
                         *m_options.classPattern, rows.size());
    }
    if (m_options.classOpen.empty() || !m_classView.results)
        return;
    const auto& submissions = m_classView.results->submissions;
    const auto it = std::find_if(submissions.begin(), submissions.end(),
                                 [&](const ClassSubmission& s) { return s.student == m_options.classOpen; });
    if (it == submissions.end()) {
        m_classView.problem = "no student '" + m_options.classOpen + "' in " + m_classView.results->file.string();
        std::fprintf(stderr, "tilescope: %s\n", m_classView.problem.c_str());
        return;
    }
    openSubmission(static_cast<std::size_t>(it - submissions.begin()));
}

void App::requestOpenClass() {
    m_settings.panels[PanelId::Class] = true;
    m_classView.focusPath = true;
}

void App::openSubmission(std::size_t index) {
    const ClassResults* results = m_classView.results.get();
    if (!results || index >= results->submissions.size())
        return;
    const ClassSubmission& s = results->submissions[index];
    m_classView.opened = index;
    m_classJump.reset();

    // The case of its first problem (the first case for a clean one), as
    // grade ran it: its own input and mask (cases/N-input.npy and
    // cases/N-mask.txt of the results), and the warp order that found the
    // problem. A class.json that names no case files gets the built-in photo
    // at the case's size and a box blur of its radius: a race or an access
    // outside the array happens at the same place, only the values differ.
    const std::size_t caseIndex = s.firstProblem ? s.firstProblem->caseIndex : 0;
    std::string where;
    Schedule schedule = Schedule::InOrder;
    if (s.firstProblem)
        scheduleFromName(s.firstProblem->schedule, schedule);
    if (caseIndex < results->cases.size()) {
        const ClassCase& c = results->cases[caseIndex];
        SetupState& setup = m_settings.setup;
        setup.input.fitFile = false;
        setup.input.length = c.width;
        setup.input.width = c.width;
        setup.input.height = results->dims == 1 ? 1 : c.height;
        setup.droppedBarriers.clear();
        setup.schedule = schedule;
        setup.seed = c.seed ? c.seed : 1;
        if (c.block > 0)
            setup.block = c.block;
        std::error_code error;
        std::string missing;
        if (!c.input.empty() && fs::is_regular_file(c.input, error)) {
            setup.input.source = InputSource::File;
            setup.input.path = c.input.string();
        } else {
            if (!c.input.empty())
                missing = c.input.string();
            setup.input.source = InputSource::Photo;
            setup.input.path.clear();
        }
        auto mask = c.mask.empty() ? Result<Mask>(badInput("")) : io::readMask(c.mask);
        const int side = 2 * c.radius + 1;
        if (mask && mask->width == side && mask->height == (results->dims == 1 ? 1 : side)) {
            setup.preset = MaskPreset::Custom;
            setup.radius = c.radius;
            setup.customValues = mask->values;
        } else {
            if (!c.mask.empty())
                missing += (missing.empty() ? "" : ", ") + c.mask.string();
            setup.preset = MaskPreset::BoxBlur;
            setup.radius = c.radius;
        }
        where = ", set up for " + c.name;
        if (!c.input.empty() && missing.empty())
            where += " (its input and mask)";
        else if (!missing.empty())
            where += " (not there: " + missing + "; the photo and a box blur instead)";
        if (schedule != Schedule::InOrder)
            where += std::string(", warps ") + scheduleName(schedule);
    }
    const std::string name = s.student + "'s " + s.file.filename().string();
    std::error_code error;
    if (!fs::is_regular_file(s.file, error)) {
        m_classView.note = name + ": the file is not there (" + s.file.string() + ")";
        return;
    }
    openKernelFile(s.file.string(), true);
    if (!m_kernelFile->isOpen() || fs::path(m_kernelFile->state().path) != s.file) {
        m_classView.note = name + ": " + m_kernelFile->state().fileNote;
        return;
    }
    // The step-through views, to stand at the problem.
    if (s.firstProblem && !m_options.panels) {
        m_settings.panels[PanelId::Problems] = true;
        m_settings.panels[PanelId::Grid] = true;
        // Projected, the lecture-size type leaves room for the problem's own
        // views only: the grid, the problem and the student's line beside
        // the class (View puts the threads, shared memory and counts back).
        if (m_settings.lecture) {
            m_settings.panels[PanelId::Threads] = false;
            m_settings.panels[PanelId::Shared] = false;
            m_settings.panels[PanelId::Counts] = false;
            m_settings.panels[PanelId::Device] = false;
            m_settings.panels[PanelId::Hardware] = false;
            m_settings.panels[PanelId::Output] = false;
        }
    }
    if (s.firstProblem) {
        m_classJump = ClassJump{index, *s.firstProblem};
        const FirstProblem& f = *s.firstProblem;
        // (x) in 1D, (x,y) in 2D, as the Problems panel writes them.
        auto coords = [&](const std::array<int, 2>& c) {
            return "(" + std::to_string(c[0]) + (results->dims == 2 ? "," + std::to_string(c[1]) : "") + ")";
        };
        m_classView.note = name + where + ": going to its first problem, line " + std::to_string(f.line) + ", block " +
                           coords(f.block) + ", thread " + coords(f.thread) + ", step " + std::to_string(f.step);
    } else {
        m_classView.note = name + where + (s.status == SubmissionStatus::Graded ? ": no problem to go to" : "");
    }
}

void App::updateClassJump() {
    if (!m_classJump)
        return;
    const EditorState& editor = m_kernelFile->state();
    if (editor.compile == CompileState::Failed || editor.compile == CompileState::Cancelled || !stepThroughShown()) {
        m_classJump.reset();  // nothing to step through: the editor says why
        return;
    }
    const auto& kernel = ownKernel();
    if (!kernel || !isOwnKernel(m_settings.setup.kernel))
        return;
    const TracedRun& run = m_traceSession->run(0);
    const BlockReplay* replay = m_traceSession->replay(0);
    if (!run.model || !run.outcome || run.outcome->job.own != kernel || !replay)
        return;  // its trace is not in yet
    const FirstProblem at = m_classJump->at;
    m_classJump.reset();
    const Trace& trace = run.model->trace();
    auto blockAt = [&](std::size_t b) {
        return b < trace.blocks.size() && trace.blocks[b].block.x == static_cast<unsigned>(at.block[0]) &&
               trace.blocks[b].block.y == static_cast<unsigned>(at.block[1]);
    };
    auto threadIs = [&](unsigned linear) {
        const Dim3 t = trace.threadCoords(linear);
        return t.x == static_cast<unsigned>(at.thread[0]) && t.y == static_cast<unsigned>(at.thread[1]);
    };
    // The problem at that block, thread, line and step (the access where it
    // happens, ProblemReport::at(), as grade wrote it), as the Problems
    // panel's click selects it.
    if (const ProblemSet* set = m_traceSession->problems()) {
        for (std::size_t i = 0; i < set->items.size(); ++i) {
            const ProblemAccess& a = set->items[i].at();
            if (a.valid() && blockAt(a.block) && threadIs(a.thread) && a.line == at.line &&
                static_cast<long long>(a.step) == at.step) {
                m_traceSession->selectProblem(i);
                return;
            }
        }
    }
    // Not one the trace lists (a problem of another case, or past the trace's
    // budget): that block and thread, at that step.
    for (std::size_t b = 0; b < trace.blocks.size(); ++b)
        if (blockAt(b)) {
            const unsigned linear = static_cast<unsigned>(at.thread[0]) +
                                    static_cast<unsigned>(at.thread[1]) * std::max(trace.plan.block.x, 1u);
            m_traceSession->selectBlockThread(0, b, linear);
            if (const BlockReplay* r = m_traceSession->replay(0))
                m_traceSession->setCursor(0, TraceSession::stepCursor(*r, at.step));
            return;
        }
    m_classView.note +=
        " (the trace has no block (" + std::to_string(at.block[0]) + "," + std::to_string(at.block[1]) + "))";
}

}  // namespace tilescope::ui
