#include "ui/trace_keys.hpp"

#include <imgui.h>

#include "model/trace_session.hpp"

namespace tilescope::ui {

void handleTraceKeys(TraceSession& session) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput || io.KeyCtrl)
        return;
    if (ImGui::IsKeyPressed(ImGuiKey_Space, false))
        session.setPlaying(!session.playing());
    // While a lesson plays, the arrows and the page keys (a clicker's) move through the lesson.
    if (!session.navigationKeysTaken()) {
        if (ImGui::IsKeyPressed(ImGuiKey_RightArrow))
            session.stepForward();
        if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow))
            session.stepBack();
        if (ImGui::IsKeyPressed(ImGuiKey_PageDown))
            session.nextPhase();
        if (ImGui::IsKeyPressed(ImGuiKey_PageUp))
            session.previousPhase();
    }
    if (ImGui::IsKeyPressed(ImGuiKey_Home, false))
        session.home();
    if (ImGui::IsKeyPressed(ImGuiKey_End, false))
        session.end();
    if (ImGui::IsKeyPressed(ImGuiKey_DownArrow))
        session.nextOfThread();
    if (ImGui::IsKeyPressed(ImGuiKey_UpArrow)) {
        // One granularity coarser or finer would surprise; Up cycles it.
        Granularity& g = session.granularity();
        g = g == Granularity::Step       ? Granularity::WarpStep
            : g == Granularity::WarpStep ? Granularity::Event
            : g == Granularity::Event    ? Granularity::WarpRequest
                                         : Granularity::Step;
    }
}

}  // namespace tilescope::ui
