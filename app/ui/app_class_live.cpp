// The App's side of a class followed live (docs/serve.md, The class, live):
// the follower (model/live_class.hpp) started with the app, its newest
// answer taken into the Class panel each frame (the panel shown at the first
// one), and a tile's click: the student's latest kernel fetched from the
// server (GET /api/checks/ID with the teacher's token), written to a file of
// its own, opened in the editor and set up as it was checked (the input's
// size, a mask of its radius, the seed), and once its trace is in, the
// step-through at its first problem, as a click in the Problems panel puts
// it there. The projector's layout: lecture-size type, the Class panel
// filling the window.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "model/kernel_file.hpp"
#include "model/live_class.hpp"
#include "model/trace_session.hpp"
#include "trace/problems.hpp"
#include "ui/app.hpp"
#include "ui/panel_class.hpp"
#include "ui/panel_legend.hpp"

namespace tilescope::ui {

namespace fs = std::filesystem;

void App::startLiveClass() {
    ClassFollower* follower = m_options.classFollower.get();
    if (!follower)
        return;
    m_classView.liveWhere = follower->where();
    m_classView.liveWaiting = true;
    m_classView.names = m_options.classNames;
    follower->setOnChange([] { gfx::Window::wake(); });
    follower->start();
}

void App::showClassNow() {
    setLecture(true);
    setFocus("class");
}

void App::updateLiveClass() {
    ClassFollower* follower = m_options.classFollower.get();
    if (!follower)
        return;
    if (!follower->following()) {
        // A student's link (the page), or a server without a roster: no class to follow.
        if (!m_classView.live && !m_classView.liveWhere.empty()) {
            m_classView.liveWhere.clear();
            m_classView.liveWaiting = false;
        }
        if (!m_classView.live)
            return;
    }
    if (const std::uint64_t serial = follower->serial(); serial != m_liveSerial) {
        m_liveSerial = serial;
        const bool first = !m_classView.live;
        if (auto live = follower->snapshot())
            m_classView.live = std::move(live);
        m_classView.liveWaiting = follower->waiting();
        m_classView.liveStatus = follower->problem();
        // The first answer shows the panel, in the set-up's column (as a graded class does).
        if (first && m_classView.live && !m_options.panels && m_options.mode == AppMode::Interactive) {
            m_settings.panels[PanelId::Class] = true;
            m_settings.panels[PanelId::Setup] = false;
        }
        // --class-open-live: that student's tile clicked, once the class is in.
        if (first && m_classView.live && !m_options.classOpenLive.empty()) {
            const auto& all = m_classView.live->students;
            std::size_t index = all.size();
            for (std::size_t i = 0; i < all.size(); ++i)
                if (all[i].id == m_options.classOpenLive || std::to_string(all[i].number) == m_options.classOpenLive)
                    index = i;
            if (index < all.size())
                openLiveStudent(index);
            else
                m_classView.note = "no student '" + m_options.classOpenLive + "' in the class";
        }
    } else if (m_classView.liveWaiting && !follower->waiting()) {
        m_classView.liveWaiting = false;
        m_classView.liveStatus = follower->problem();
    }
    if (m_options.classShownLog && m_classView.live && m_classView.live->lastCheck != m_liveLogged) {
        // Taken in before the panels draw: this frame shows it.
        m_liveLogged = m_classView.live->lastCheck;
        std::printf("tilescope: class now: check %lld drawn, %zu students\n", static_cast<long long>(m_liveLogged),
                    m_classView.live->students.size());
        std::fflush(stdout);
    }

    // A tile's click: the kernel, once the server sent it.
    if (auto fetched = follower->takeFetched()) {
        m_liveFetching = false;
        if (!*fetched) {
            m_classView.note = fetched->error().message;
        } else {
            const LiveCheck& check = **fetched;
            const LiveStudent* student = nullptr;
            if (m_classView.live)
                for (const LiveStudent& s : m_classView.live->students)
                    if (s.id == check.student)
                        student = &s;
            const std::string who = student ? liveStudentLabel(*student, m_classView.names) : std::string("a student");
            // A file of its own, named by the check (the same check opened twice is the same file).
            std::error_code error;
            const fs::path folder =
                (m_configDir.empty() ? fs::temp_directory_path(error) / "tilescope-class" : m_configDir / "class");
            fs::create_directories(folder, error);
            const fs::path file = folder / ("check-" + std::to_string(check.id) + ".cu");
            {
                std::ofstream out(file, std::ios::binary | std::ios::trunc);
                out << check.kernel;
                if (!out)
                    error = std::make_error_code(std::errc::io_error);
            }
            if (error) {
                m_classView.note = who + "'s kernel could not be written to " + file.string() + ": " + error.message();
            } else {
                // As it was checked: the input's size (the built-in photo, or the
                // book's array in 1D, at that size) and a box blur of the mask's
                // radius: a race or an access outside an array happens at the
                // same place as with the server's generated input, only the values differ.
                SetupState& setup = m_settings.setup;
                std::string where;
                int width = 0, height = 0;
                if (std::sscanf(check.size.c_str(), "%dx%d", &width, &height) == 2 && width > 0 && height > 0) {
                    setup.input.fitFile = false;
                    setup.input.source = InputSource::Photo;
                    setup.input.path.clear();
                    setup.input.width = width;
                    setup.input.height = height;
                    setup.input.length = width;
                    where = ", set up for " + check.size;
                } else if (std::sscanf(check.size.c_str(), "%d", &width) == 1 && width > 0) {
                    setup.input.fitFile = false;
                    setup.input.source = InputSource::Photo;
                    setup.input.path.clear();
                    setup.input.length = width;
                    setup.input.width = width;
                    setup.input.height = 1;
                    where = ", set up for " + check.size;
                }
                if (check.radius >= 0) {
                    setup.preset = MaskPreset::BoxBlur;
                    setup.radius = check.radius;
                    where += ", radius " + std::to_string(check.radius);
                }
                setup.droppedBarriers.clear();
                setup.schedule = Schedule::InOrder;
                setup.seed = check.seed ? check.seed : 1;
                openKernelFile(file.string(), true);
                const bool problem = !check.problems.empty() && check.verdict == "problems";
                if (problem && !m_options.panels) {
                    m_settings.panels[PanelId::Problems] = true;
                    m_settings.panels[PanelId::Grid] = true;
                }
                m_liveJump = problem;
                m_classView.note = who + "'s check " + std::to_string(check.id) + where +
                                   (problem ? ": going to its first problem, " + liveProblemText(check.problems.front())
                                            : ": " + check.verdict);
                // The panel gives the window back to the kernel (Esc, or View, brings the class back).
                if (m_focus == "class")
                    setFocus("");
            }
        }
    }

    // The step-through at the kernel's first problem, once its trace is in.
    if (!m_liveJump)
        return;
    const EditorState& editor = m_kernelFile->state();
    if (editor.compile == CompileState::Failed || editor.compile == CompileState::Cancelled || !stepThroughShown()) {
        m_liveJump = false;  // nothing to step through: the editor says why
        return;
    }
    const auto& kernel = ownKernel();
    if (!kernel || !isOwnKernel(m_settings.setup.kernel))
        return;
    const TracedRun& run = m_traceSession->run(0);
    if (!run.model || !run.outcome || run.outcome->job.own != kernel || !m_traceSession->replay(0))
        return;  // its trace is not in yet
    m_liveJump = false;
    if (const ProblemSet* set = m_traceSession->problems(); set && !set->items.empty())
        m_traceSession->selectProblem(0);
}

void App::openLiveStudent(std::size_t index) {
    ClassFollower* follower = m_options.classFollower.get();
    const LiveClass* live = m_classView.live.get();
    if (!follower || !live || index >= live->students.size())
        return;
    const LiveStudent& s = live->students[index];
    m_classView.liveOpened = s.id;
    const std::string who = liveStudentLabel(s, m_classView.names);
    if (s.last == 0) {
        m_classView.note = who + " has sent no kernel yet";
        return;
    }
    m_classView.note = "asking " + follower->where() + " for " + who + "'s kernel (check " + std::to_string(s.last) + ")";
    m_liveFetching = true;
    follower->fetchCheck(s.last);
}

}  // namespace tilescope::ui
