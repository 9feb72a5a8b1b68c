#include "base/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <system_error>

namespace tilescope::base {

namespace fs = std::filesystem;

namespace {

FileError readError(FileError::Kind kind, const fs::path& path, int code) {
    FileError error;
    error.operation = FileError::Operation::Read;
    error.kind = kind;
    error.path = path;
    error.code = code;
    if (code != 0)
        error.detail = std::error_code(code, std::generic_category()).message();
    return error;
}

// Closes on every return path, so that early error returns cannot leak.
class Descriptor {
public:
    explicit Descriptor(int fd) : m_fd(fd) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int get() const { return m_fd; }

private:
    int m_fd;
};

// The whole file into a container of bytes (std::string or std::vector).
template <class Bytes>
FileResult<Bytes> readWhole(const fs::path& path, std::size_t maxBytes) {
    try {
        // O_NONBLOCK so that a FIFO is refused below instead of blocking the
        // open until a writer appears.
        Descriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
        if (file.get() < 0) {
            const int error = errno;
            return readError(error == ENOENT ? FileError::Kind::Missing : FileError::Kind::Open, path, error);
        }
        struct stat info {};
        if (::fstat(file.get(), &info) != 0)
            return readError(FileError::Kind::Read, path, errno);
        if (S_ISDIR(info.st_mode))
            return readError(FileError::Kind::IsDirectory, path, 0);
        if (!S_ISREG(info.st_mode))
            return readError(FileError::Kind::NotRegularFile, path, 0);
        const auto size = static_cast<std::size_t>(info.st_size);
        if (size > maxBytes) {
            FileError error = readError(FileError::Kind::TooLarge, path, 0);
            error.size = size;
            error.limit = maxBytes;
            return error;
        }

        Bytes bytes(size, 0);
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = ::read(file.get(), bytes.data() + done, size - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return readError(FileError::Kind::Read, path, errno);
            if (n == 0)
                return readError(FileError::Kind::Shrank, path, 0);
            done += static_cast<std::size_t>(n);
        }
        return bytes;
    } catch (const std::exception& e) {
        FileError error = readError(FileError::Kind::Read, path, 0);
        error.detail = e.what();
        return error;
    }
}

}  // namespace

FileResult<std::vector<unsigned char>> readFileBytes(const fs::path& path, std::size_t maxBytes) {
    return readWhole<std::vector<unsigned char>>(path, maxBytes);
}

FileResult<std::string> readFileText(const fs::path& path, std::size_t maxBytes) {
    return readWhole<std::string>(path, maxBytes);
}

}  // namespace tilescope::base
