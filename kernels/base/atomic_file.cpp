#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <exception>
#include <string>
#include <system_error>

namespace tilescope::base {

namespace fs = std::filesystem;

namespace {

FileError writeError(FileError::Kind kind, const fs::path& target, int code, std::string detail) {
    FileError error;
    error.operation = FileError::Operation::Write;
    error.kind = kind;
    error.path = target;
    error.code = code;
    error.detail = std::move(detail);
    return error;
}

std::string errnoText(int code) {
    return code == 0 ? std::string() : std::error_code(code, std::generic_category()).message();
}

}  // namespace

AtomicFile::AtomicFile(fs::path target, AtomicWriteOptions options) : m_target(std::move(target)), m_options(options) {}

AtomicFile::~AtomicFile() {
    if (!m_committed)
        discard();
}

FileError AtomicFile::failure(FileError::Kind kind, int code) {
    discard();
    m_error = writeError(kind, m_target, code, errnoText(code));
    return *m_error;
}

void AtomicFile::discard() {
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    if (!m_temporary.empty())
        ::unlink(m_temporary.c_str());
    m_temporary.clear();
}

std::optional<FileError> AtomicFile::open() {
    if (m_error)
        return m_error;
    try {
        if (!m_target.has_filename())
            return failure(FileError::Kind::NotAFileName, 0);
        // The rename would replace whatever has the name: a FIFO, or (for
        // root) /dev/null itself. Only a regular file may be replaced.
        if (struct stat existing{}; ::stat(m_target.c_str(), &existing) == 0) {
            if (S_ISDIR(existing.st_mode))
                return failure(FileError::Kind::IsDirectory, 0);
            if (!S_ISREG(existing.st_mode))
                return failure(FileError::Kind::NotRegularFile, 0);
            if (!m_options.replace)
                return failure(FileError::Kind::Exists, EEXIST);
        }

        // Beside the target, so that the rename stays within one file system.
        // O_EXCL with a name unique to this process and call, rather than
        // mkstemp, so that the file gets the caller's mode and the umask.
        const fs::path folder = m_target.has_parent_path() ? m_target.parent_path() : fs::path(".");
        static std::atomic<unsigned> counter{0};
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        int error = 0;
        for (int attempt = 0; attempt < 16 && m_fd < 0; ++attempt) {
            m_temporary = folder / ("." + m_target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                    std::to_string(counter++) + "-" + std::to_string(stamp));
            m_fd = ::open(m_temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                          static_cast<mode_t>(m_options.mode));
            error = m_fd < 0 ? errno : 0;
            if (m_fd < 0 && error != EEXIST)
                break;
        }
        if (m_fd < 0) {
            m_temporary.clear();  // not ours: never removed
            return failure(FileError::Kind::CreateTemporary, error);
        }
        return std::nullopt;
    } catch (const std::exception& e) {
        discard();
        m_error = writeError(FileError::Kind::Write, m_target, 0, e.what());
        return m_error;
    }
}

std::optional<FileError> AtomicFile::write(std::span<const unsigned char> bytes) {
    if (m_error)
        return m_error;
    if (m_fd < 0)
        return failure(FileError::Kind::Write, EBADF);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return failure(FileError::Kind::Write, errno);
        done += static_cast<std::size_t>(n);
    }
    return std::nullopt;
}

std::optional<FileError> AtomicFile::write(std::string_view text) {
    return write(std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

std::optional<FileError> AtomicFile::commit() {
    if (m_error)
        return m_error;
    if (m_fd < 0)
        return failure(FileError::Kind::Write, EBADF);
    if (m_options.sync && ::fsync(m_fd) != 0)
        return failure(FileError::Kind::Sync, errno);
    // A failed close can be the first report of a failed write (NFS).
    const int closed = ::close(m_fd);
    m_fd = -1;
    if (closed != 0)
        return failure(FileError::Kind::Close, errno);
    if (m_options.replace) {
        if (::rename(m_temporary.c_str(), m_target.c_str()) != 0)
            return failure(FileError::Kind::Rename, errno);
    } else {
        // link() fails with EEXIST where rename() would replace; the
        // temporary's name goes either way.
        if (::link(m_temporary.c_str(), m_target.c_str()) != 0) {
            const int error = errno;
            return failure(error == EEXIST ? FileError::Kind::Exists : FileError::Kind::Rename, error);
        }
        ::unlink(m_temporary.c_str());
    }
    m_temporary.clear();
    m_committed = true;
    return std::nullopt;
}

std::optional<FileError> writeFileAtomic(const fs::path& target, std::span<const unsigned char> bytes,
                                         AtomicWriteOptions options) {
    try {
        AtomicFile file(target, options);
        if (auto error = file.open())
            return error;
        if (auto error = file.write(bytes))
            return error;
        return file.commit();
    } catch (const std::exception& e) {
        return writeError(FileError::Kind::Write, target, 0, e.what());
    }
}

std::optional<FileError> writeFileAtomic(const fs::path& target, std::string_view text, AtomicWriteOptions options) {
    return writeFileAtomic(target, std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()),
                           options);
}

}  // namespace tilescope::base
