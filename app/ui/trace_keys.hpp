// The step-through's keys: Space plays or pauses, the arrows and PageUp /
// PageDown step, Home/End jump, Up cycles the granularity. ImGui's input
// read here, TraceSession (model/trace_session.hpp) moved.
#pragma once

namespace tilescope::ui {

class TraceSession;

// Once a frame; nothing while a text field takes the keys or Ctrl is held
// (Ctrl+key is the app's shortcuts).
void handleTraceKeys(TraceSession& session);

}  // namespace tilescope::ui
