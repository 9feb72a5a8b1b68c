#include "io/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <system_error>

#include "io/image_file.hpp"
#include "io/npy.hpp"

namespace tilescope::io {

namespace fs = std::filesystem;

namespace {

std::string errnoText(int error) { return std::error_code(error, std::generic_category()).message(); }

// Closes on every return path, so that early error returns cannot leak.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : m_fd(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() { close(); }
    int get() const { return m_fd; }
    // Returns errno of a failed close: on some file systems it is the first
    // report of a failed write, so a writer must not ignore it.
    int close() {
        if (m_fd < 0) return 0;
        const int result = ::close(m_fd);
        m_fd = -1;
        return result == 0 ? 0 : errno;
    }

private:
    int m_fd;
};

std::optional<std::size_t> firstNonFinite(std::span<const float> values) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i])) return i;
    return std::nullopt;
}

std::string describeNonFinite(float value, std::size_t index) {
    return std::string(std::isnan(value) ? "NaN" : "infinity") + " at element " + std::to_string(index);
}

const char* const kInputFormats = ".npy, .png, .jpg, .jpeg, .bmp, .pgm, .ppm or .pnm";
const char* const kOutputFormats = ".npy, .png, .pgm or .ppm";

}  // namespace

Error fileError(const fs::path& path, std::string_view problem) {
    std::string name = path.string();
    for (char& c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return badInput(name + ": " + std::string(problem));
}

std::string quoteUntrusted(std::string_view text) {
    constexpr std::size_t kMaxQuoted = 32;
    std::string out = "'";
    for (std::size_t i = 0; i < text.size() && i < kMaxQuoted; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (text.size() > kMaxQuoted) out += "...";
    return out + "'";
}

std::string lowerExtension(const fs::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

Status checkShape(const fs::path& path, std::span<const std::size_t> dims) {
    std::size_t elements = 1;
    for (std::size_t d : dims) {
        if (d == 0) return fileError(path, "has a zero-sized dimension");
        // A 1D array is one long row: only its element count is limited.
        if (dims.size() > 1 && d > kMaxDimension)
            return fileError(path, "has a dimension of " + std::to_string(d) + " (the limit is " +
                                       std::to_string(kMaxDimension) + ")");
        // With several dimensions each factor is at most 2^16, and the
        // product stays at most 2^28 before this multiplication, so it
        // cannot overflow; a single dimension is the product itself.
        elements *= d;
        if (elements > kMaxElements)
            return fileError(path, "has more than " + std::to_string(kMaxElements) + " elements (2^28, the limit)");
    }
    return success();
}

Status checkFinite(const fs::path& path, std::span<const float> values) {
    if (auto bad = firstNonFinite(values)) return fileError(path, "contains " + describeNonFinite(values[*bad], *bad));
    return success();
}

Status checkWritable(const fs::path& path, const Image& image) {
    const std::string shape = std::to_string(image.width) + " x " + std::to_string(image.height) + " x " +
                              std::to_string(image.channels);
    if (image.width < 1 || image.height < 1 || image.channels < 1 || image.channels > 4)
        return fileError(path, "cannot write an image of " + shape + " (width x height x channels)");
    const std::size_t expected = static_cast<std::size_t>(image.width) * image.height * image.channels;
    if (image.data.size() != expected)
        return fileError(path, "cannot write: the image holds " + std::to_string(image.data.size()) +
                                   " values but its shape " + shape + " needs " + std::to_string(expected));
    const bool rankFits = (image.rank == 1 && image.height == 1 && image.channels == 1) ||
                          (image.rank == 2 && image.channels == 1) || image.rank == 3;
    if (!rankFits)
        return fileError(path, "cannot write: rank " + std::to_string(image.rank) + " does not fit the shape " + shape);
    if (auto bad = firstNonFinite(image.data))
        return fileError(path, "cannot write an image that contains " + describeNonFinite(image.data[*bad], *bad));
    return success();
}

Result<std::vector<unsigned char>> readFileBytes(const fs::path& path, std::size_t maxBytes) {
    try {
        // O_NONBLOCK so that a FIFO given as input is refused below instead
        // of blocking the open until a writer appears.
        FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
        if (file.get() < 0) {
            const int error = errno;
            if (error == ENOENT) return fileError(path, "does not exist");
            return fileError(path, "cannot be opened (" + errnoText(error) + ")");
        }
        struct stat info {};
        if (::fstat(file.get(), &info) != 0) return fileError(path, "cannot be read (" + errnoText(errno) + ")");
        if (S_ISDIR(info.st_mode)) return fileError(path, "is a directory, not a file");
        if (!S_ISREG(info.st_mode)) return fileError(path, "is not a regular file");
        const auto size = static_cast<std::size_t>(info.st_size);
        if (size > maxBytes)
            return fileError(path, "is too large (" + std::to_string(size) + " bytes, the limit is " +
                                       std::to_string(maxBytes) + ")");

        std::vector<unsigned char> bytes(size);
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = ::read(file.get(), bytes.data() + done, size - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return fileError(path, "cannot be read (" + errnoText(errno) + ")");
            if (n == 0) return fileError(path, "shrank while it was being read");
            done += static_cast<std::size_t>(n);
        }
        return bytes;
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

Status writeFileAtomic(const fs::path& path, std::span<const unsigned char> bytes) {
    try {
        if (!path.has_filename()) return fileError(path, "is not a file name");
        const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
        // The rename below replaces whatever has the name: a FIFO, or (for
        // root) /dev/null itself. Only a regular file may be replaced.
        if (struct stat existing {}; ::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
            return fileError(path, S_ISDIR(existing.st_mode)
                                       ? "cannot be written: it is a directory"
                                       : "cannot be written: it is not a regular file (a device, FIFO or socket)");

        // O_EXCL with a name unique to this process and call, rather than
        // mkstemp, so that the file gets the user's umask instead of 0600.
        static std::atomic<unsigned> counter{0};
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        std::string temporary;
        int fd = -1;
        for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
            temporary = (directory / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                      std::to_string(counter++) + "-" + std::to_string(stamp)))
                            .string();
            fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd < 0 && errno != EEXIST) break;
        }
        if (fd < 0)
            return fileError(path, "cannot be written: no temporary file can be created in '" + directory.string() +
                                       "' (" + errnoText(errno) + ")");

        FileDescriptor file(fd);
        auto fail = [&](const std::string& problem) {
            file.close();
            ::unlink(temporary.c_str());
            return fileError(path, "cannot be written (" + problem + ")");
        };
        std::size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::write(file.get(), bytes.data() + done, bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return fail(errnoText(errno));
            done += static_cast<std::size_t>(n);
        }
        // Without fsync a crash right after the rename can leave an empty file
        // under the final name, which is the very thing this function prevents.
        if (::fsync(file.get()) != 0) return fail(errnoText(errno));
        if (const int error = file.close(); error != 0) return fail(errnoText(error));
        if (::rename(temporary.c_str(), path.c_str()) != 0) return fail(errnoText(errno));
        return success();
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be written (") + e.what() + ")");
    }
}

Result<Image> readInput(const fs::path& path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".npy") return readNpy(path);
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".pgm" || ext == ".ppm" ||
        ext == ".pnm")
        return readImageFile(path);
    if (ext.empty())
        return fileError(path, std::string("unsupported input format (no extension; expected ") + kInputFormats + ")");
    return fileError(path, "unsupported input format " + quoteUntrusted(ext) + " (expected " + kInputFormats + ")");
}

Result<Image> readInputBytes(const fs::path& name, std::span<const unsigned char> bytes) {
    const std::string ext = lowerExtension(name);
    if (ext == ".npy") return readNpyBytes(name, bytes);
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".pgm" || ext == ".ppm" ||
        ext == ".pnm")
        return readImageBytes(name, bytes);
    return fileError(name, "unsupported input format " + quoteUntrusted(ext) + " (expected " + kInputFormats + ")");
}

Status writeOutput(const fs::path& path, const Image& image) {
    const std::string ext = lowerExtension(path);
    if (ext == ".npy") return writeNpy(path, image);
    if (ext == ".png" || ext == ".pgm" || ext == ".ppm") return writeImageFile(path, image);
    if (ext.empty())
        return fileError(path,
                         std::string("unsupported output format (no extension; expected ") + kOutputFormats + ")");
    return fileError(path, "unsupported output format " + quoteUntrusted(ext) + " (expected " + kOutputFormats + ")");
}

}  // namespace tilescope::io
