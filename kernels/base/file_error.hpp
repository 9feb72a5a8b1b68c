// FileError: why a whole file could not be read or written, in parts (what
// was being done, the system's error number and words), so that each caller
// can keep the wording its users already know; problem() is the one wording
// for everyone else. Operations that may fail return std::optional<FileError>,
// empty when they succeeded, or FileResult<T> when they produce a value.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <variant>

namespace tilescope::base {

struct FileError {
    enum class Operation { Read, Write };
    enum class Kind {
        NotAFileName,     // write: the path ends in a separator ("out/")
        IsDirectory,      // the path is a directory
        NotRegularFile,   // a device, FIFO or socket
        Missing,          // read: there is no such file
        Open,             // read: it exists but cannot be opened
        TooLarge,         // read: larger than the caller's limit
        Shrank,           // read: shorter than it was when the read began
        Read,             // read: an error while reading
        Exists,           // write without replacing: the file is there already
        CreateTemporary,  // write: no temporary file beside the target
        Write,            // write: an error while writing the temporary
        Sync,             // write: fsync of the temporary failed
        Close,            // write: closing the temporary failed (a late write error)
        Rename,           // write: the temporary could not take the target's name
    };

    Operation operation = Operation::Read;
    Kind kind = Kind::Read;
    std::filesystem::path path;  // the file read or written (never the temporary)
    int code = 0;                // errno, or 0 where there is none
    std::string detail;          // the system's words for `code`, or an exception's
    std::uintmax_t size = 0;     // TooLarge: the file's size
    std::uintmax_t limit = 0;    // TooLarge: the caller's limit

    // The problem, without the path: "does not exist", "cannot be written:
    // it is a directory", "cannot be written (No space left on device)".
    std::string problem() const;
    // "<path>: <problem>".
    std::string message() const;
};

// The value a read produced, or why there is none.
template <class T>
class FileResult {
public:
    FileResult(T value) : m_state(std::move(value)) {}
    FileResult(FileError error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_state); }
    const T& value() const& { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    // The value, or `fallback` where there is none (a file that may be missing).
    T valueOr(T fallback) const& { return ok() ? value() : std::move(fallback); }
    T valueOr(T fallback) && { return ok() ? std::move(value()) : std::move(fallback); }

    const FileError& error() const { return std::get<FileError>(m_state); }

private:
    std::variant<T, FileError> m_state;
};

}  // namespace tilescope::base
