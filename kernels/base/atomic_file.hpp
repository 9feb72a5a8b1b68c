// One way to write a file: into a temporary file beside it, then renamed over
// it. A reader never sees half a file, and a failure (a full disk, an
// exception, a cancel, a crash) leaves the old file as it was and no
// temporary behind. writeFileAtomic writes bytes already in memory;
// AtomicFile is the same write for a writer that streams a large output, or
// hands the temporary to a library that writes it (giflib, FFmpeg).
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string_view>

#include "base/file_error.hpp"

namespace tilescope::base {

struct AtomicWriteOptions {
    // fsync the temporary before the rename: without it, a crash right after
    // the rename can leave an empty file under the final name. Off where
    // losing the file in a crash costs nothing (scratch files, a trace or an
    // export, which are made again in seconds).
    bool sync = true;
    // false: a file already at the target is left as it is and the write
    // fails with FileError::Kind::Exists (the temporary is linked, not
    // renamed, to its name, which no other writer can take meanwhile).
    bool replace = true;
    // The permission bits of the new file, before the umask. A temporary of
    // our own rather than mkstemp's, which would make it 0600.
    unsigned mode = 0666;
};

// The target is checked and the temporary made by open(); nothing reaches
// the target before commit(). Destroyed uncommitted (an error, an exception,
// a cancel), it removes the temporary. The first failure is kept: every
// later call returns it, so a writer of many pieces may check commit() alone.
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path target, AtomicWriteOptions options = {});
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();

    // Refuses a target that is no file name, a directory, or anything but a
    // regular file (a rename would replace a FIFO, or /dev/null for root),
    // then creates the temporary.
    std::optional<FileError> open();
    // Appends to the temporary.
    std::optional<FileError> write(std::span<const unsigned char> bytes);
    std::optional<FileError> write(std::string_view text);
    // fsync (AtomicWriteOptions::sync), close, and rename over the target.
    std::optional<FileError> commit();

    const std::filesystem::path& target() const { return m_target; }
    // For a library that opens the file by name (FFmpeg): it writes there
    // itself, and commit() renames what it wrote.
    const std::filesystem::path& temporaryPath() const { return m_temporary; }
    // The temporary's descriptor, open for writing, or -1 before open(). A
    // library that closes what it is given (giflib) takes a dup() of it.
    int descriptor() const { return m_fd; }

private:
    FileError failure(FileError::Kind kind, int code);
    void discard();

    std::filesystem::path m_target;
    std::filesystem::path m_temporary;
    AtomicWriteOptions m_options;
    int m_fd = -1;
    bool m_committed = false;
    std::optional<FileError> m_error;
};

// The whole of `bytes` (or `text`) as the new content of `target`.
std::optional<FileError> writeFileAtomic(const std::filesystem::path& target, std::span<const unsigned char> bytes,
                                         AtomicWriteOptions options = {});
std::optional<FileError> writeFileAtomic(const std::filesystem::path& target, std::string_view text,
                                         AtomicWriteOptions options = {});

}  // namespace tilescope::base
