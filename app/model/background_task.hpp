// Work the UI hands off so that a frame never waits for it: on a thread of
// its own where the build has threads; in the browser build (one thread,
// core/threads.hpp) deferred, and done when the frame that polls it first
// asks, between two frames' drawing.
#pragma once

#include <chrono>
#include <future>
#include <utility>

#include "core/threads.hpp"

namespace tilescope::ui {

template <class Work>
auto startTask(Work&& work) {
    if constexpr (kThreadsAvailable)
        return std::async(std::launch::async, std::forward<Work>(work));
    else
        return std::async(std::launch::deferred, std::forward<Work>(work));
}

// Whether get() can be called without making the frame wait on another
// thread: the task is done, or it is deferred (get() then does it here).
template <class T>
bool taskReady(const std::future<T>& task) {
    const std::future_status status = task.wait_for(std::chrono::seconds(0));
    return status == std::future_status::ready || status == std::future_status::deferred;
}

}  // namespace tilescope::ui
