// Time for pacing and measuring, from the steady clock: it never jumps when
// the system's date is set, so that a difference of two readings is always
// the time that passed.
#pragma once

#include <chrono>

namespace tilescope::base {

// Seconds since an arbitrary moment (the same for the whole process): only
// differences mean anything.
inline double seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Milliseconds since the same moment.
inline double milliseconds() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The time since it was made (or restarted), for timing one piece of work.
class Stopwatch {
public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
    void restart() { m_start = std::chrono::steady_clock::now(); }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }
    double milliseconds() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

}  // namespace tilescope::base
