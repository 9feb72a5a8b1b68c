#include "fuzz_support.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <system_error>

#include "io/file_checks.hpp"

namespace tilescope::fuzz {

namespace fs = std::filesystem;

namespace {

// Created on first use, removed when the fuzzer exits normally (after
// -max_total_time or -runs); a crash leaves it for the post-mortem.
class ScratchDirectory {
public:
    ScratchDirectory() {
        std::error_code error;
        const fs::path base = fs::is_directory("/dev/shm", error) && ::access("/dev/shm", W_OK) == 0
                                  ? fs::path("/dev/shm")
                                  : fs::temp_directory_path();
        std::string pattern = (base / "tilescope-fuzz-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) broken("setup", "cannot create a scratch directory in " + base.string());
        m_path = pattern;
        // A crash that libFuzzer cannot catch (a stack overflow in a library
        // that handles SIGSEGV itself) writes no crash-* file: the input is here.
        std::fprintf(stderr, "fuzz: each input is written into %s before it is read\n", m_path.c_str());
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

}  // namespace

const fs::path& scratchDirectory() {
    static ScratchDirectory directory;
    return directory.path();
}

fs::path writeInput(const std::uint8_t* data, std::size_t size, const std::string& extension) {
    const fs::path path = scratchDirectory() / ("input" + extension);
    // Plain POSIX calls: this runs for every input, and must not be the slow part.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) broken("setup", "cannot write " + path.string());
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n <= 0) broken("setup", "cannot write " + path.string());
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return path;
}

void checkRefusal(const Error& error, const fs::path& path) {
    if (error.code != ExitCode::BadInput) broken("a refusal has exit code 2", error.message);
    if (error.message.find('\n') != std::string::npos || error.message.find('\r') != std::string::npos)
        broken("a refusal is one line", error.message);
    if (error.message.rfind(path.string() + ": ", 0) != 0) broken("a refusal names the file first", error.message);
}

void checkImage(const Image& image, bool unitRange) {
    const std::string shape = std::to_string(image.width) + " x " + std::to_string(image.height) + " x " +
                              std::to_string(image.channels) + ", rank " + std::to_string(image.rank);
    if (image.width < 1 || image.height < 1 || image.channels < 1 || image.channels > 4)
        broken("an image has a positive size and 1 to 4 channels", shape);
    if (static_cast<std::size_t>(image.width) > io::kMaxDimension ||
        static_cast<std::size_t>(image.height) > io::kMaxDimension)
        broken("an image is within kMaxDimension", shape);
    const bool rankFits = (image.rank == 1 && image.height == 1 && image.channels == 1) ||
                          (image.rank == 2 && image.channels == 1) || image.rank == 3;
    if (!rankFits) broken("an image's rank fits its shape", shape);
    const std::size_t expected = static_cast<std::size_t>(image.width) * image.height * image.channels;
    if (image.data.size() != expected || expected > io::kMaxElements)
        broken("an image holds the data its shape says", shape + " holds " + std::to_string(image.data.size()));
    for (float v : image.data) {
        if (!std::isfinite(v)) broken("an image holds only finite values", shape);
        if (unitRange && (v < 0.0f || v > 1.0f)) broken("a picture's values are in [0, 1]", std::to_string(v));
    }
}

void checkMask(const Mask& mask) {
    const std::string shape = std::to_string(mask.width) + " x " + std::to_string(mask.height);
    if (mask.width < 1 || mask.height < 1) broken("a mask has a positive size", shape);
    if (mask.values.size() != static_cast<std::size_t>(mask.width) * static_cast<std::size_t>(mask.height))
        broken("a mask holds the values its shape says", shape + " holds " + std::to_string(mask.values.size()));
    for (float v : mask.values)
        if (!std::isfinite(v)) broken("a mask holds only finite values", shape);
}

}  // namespace tilescope::fuzz
