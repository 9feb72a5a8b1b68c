// Result<T>: a value or an Error with the exit code the command line uses.
// Launchers and readers return errors instead of exiting, because the app must
// survive a failure and tell the user what went wrong.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tilescope {

enum class ExitCode : int {
    Ok = 0,
    BadInput = 2,            // a file, size, mask or configuration that cannot work
    BackendUnavailable = 3,  // e.g. --backend cuda without a GPU
    Internal = 4,            // a bug: please report it
};

struct Error {
    ExitCode code = ExitCode::BadInput;
    std::string message;  // one line, names the problem
};

inline Error badInput(std::string message) { return Error{ExitCode::BadInput, std::move(message)}; }

template <class T>
class Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_state); }
    const T& value() const& { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

// For operations that produce nothing but may fail.
struct Done {};
using Status = Result<Done>;
inline Status success() { return Done{}; }

}  // namespace tilescope
