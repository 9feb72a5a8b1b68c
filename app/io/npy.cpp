// The .npy layout: the magic "\x93NUMPY", a version (major, minor), the length
// of a header (2 bytes in version 1, 4 in versions 2 and 3), the header itself
// (a Python dict literal), then the raw array data.
#include "io/npy.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/file_checks.hpp"
#include "io/whole_file.hpp"

namespace tilescope::io {

namespace fs = std::filesystem;

// Both reading and writing copy the data bytes straight into floats.
static_assert(std::endian::native == std::endian::little, "the .npy code assumes a little-endian host");

namespace {

enum class DType { Float32, Float64, UInt8 };

struct NpyHeader {
    std::string descr;
    bool fortranOrder = false;
    std::vector<std::size_t> shape;
};

struct NpyArray {
    std::vector<std::size_t> shape;
    std::vector<float> values;
};

constexpr std::size_t kMaxRank = 32;  // NumPy's own limit; anything past 3 is refused later.

// Parses the header dict strictly, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// with exactly these three keys, each once. Every read checks the position
// first: the header is untrusted text.
class HeaderParser {
public:
    explicit HeaderParser(std::string_view text) : m_text(text) {}

    // On failure returns false and leaves a description in `problem`.
    bool parse(NpyHeader& header, std::string& problem) {
        skipSpace();
        if (!consume('{')) return fail(problem, "header is not a Python dict");
        bool haveDescr = false, haveOrder = false, haveShape = false;
        skipSpace();
        while (!consume('}')) {
            std::string key;
            if (!readString(key)) return fail(problem, "header has a key that is not a quoted string");
            skipSpace();
            if (!consume(':')) return fail(problem, "header lacks ':' after " + quoteUntrusted(key));
            skipSpace();
            if (key == "descr") {
                if (haveDescr || !readString(header.descr))
                    return fail(problem,
                                "header has a repeated or non-string 'descr' (structured dtypes are not supported)");
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (haveOrder || !readBool(header.fortranOrder))
                    return fail(problem, "header has a repeated or malformed 'fortran_order'");
                haveOrder = true;
            } else if (key == "shape") {
                if (haveShape || !readShape(header.shape))
                    return fail(problem, "header has a repeated or malformed 'shape'");
                haveShape = true;
            } else {
                return fail(problem, "header has an unexpected key " + quoteUntrusted(key));
            }
            skipSpace();
            if (consume(',')) {
                skipSpace();
            } else if (peek() != '}') {
                return fail(problem, "header dict is malformed (expected ',' or '}')");
            }
        }
        skipSpace();
        if (m_pos != m_text.size()) return fail(problem, "header has text after its dict");
        if (!haveDescr || !haveOrder || !haveShape)
            return fail(problem, "header lacks one of 'descr', 'fortran_order' and 'shape'");
        return true;
    }

private:
    static bool fail(std::string& problem, std::string text) {
        problem = std::move(text);
        return false;
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    bool consume(char c) {
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    void skipSpace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' ||
                                         m_text[m_pos] == '\r'))
            ++m_pos;
    }
    bool readString(std::string& out) {
        const char quote = peek();
        if (quote != '\'' && quote != '"') return false;
        const std::size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string_view::npos) return false;
        out = std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
        m_pos = end + 1;
        return true;
    }
    bool readBool(bool& out) {
        if (m_text.substr(m_pos, 4) == "True") {
            out = true;
            m_pos += 4;
            return true;
        }
        if (m_text.substr(m_pos, 5) == "False") {
            out = false;
            m_pos += 5;
            return true;
        }
        return false;
    }
    // A tuple of non-negative integers: (), (n,), (h, w), ...
    bool readShape(std::vector<std::size_t>& shape) {
        if (!consume('(')) return false;
        skipSpace();
        while (!consume(')')) {
            if (shape.size() >= kMaxRank) return false;
            std::uint64_t value = 0;
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
                // Saturate: any value past the limits is refused later anyway.
                value = std::min<std::uint64_t>(value * 10 + static_cast<std::uint64_t>(m_text[m_pos] - '0'),
                                                std::uint64_t{1} << 40);
                ++m_pos;
            }
            if (m_pos == start) return false;
            consume('L');  // Python 2 era NumPy wrote long integers as "3L".
            // (A 32-bit size_t, as in the browser build, saturates lower.)
            shape.push_back(static_cast<std::size_t>(
                std::min<std::uint64_t>(value, std::numeric_limits<std::size_t>::max())));
            skipSpace();
            if (consume(',')) {
                skipSpace();
            } else if (peek() != ')') {
                return false;
            }
        }
        return true;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

std::string shapeText(const std::vector<std::size_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxNpyBytes = kMaxElements * sizeof(double) + kMaxHeaderBytes;

Result<NpyArray> readNpyArray(const fs::path& path, std::span<const unsigned char> bytes) {
    if (bytes.size() > kMaxNpyBytes)
        return fileError(path, "is too large (" + std::to_string(bytes.size()) + " bytes, the limit is " +
                                   std::to_string(kMaxNpyBytes) + ")");

    static constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (bytes.size() < 10) return fileError(path, "is too short to be a .npy file");
    if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return fileError(path, "is not a .npy file (bad magic)");
    const unsigned major = bytes[6];
    std::size_t headerStart = 0, headerLength = 0;
    if (major == 1) {
        headerStart = 10;
        headerLength = bytes[8] | (std::size_t{bytes[9]} << 8);
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) return fileError(path, "is truncated inside the .npy preamble");
        headerStart = 12;
        headerLength = bytes[8] | (std::size_t{bytes[9]} << 8) | (std::size_t{bytes[10]} << 16) |
                       (std::size_t{bytes[11]} << 24);
    } else {
        return fileError(path,
                         "has unsupported .npy format version " + std::to_string(major) + " (expected 1, 2 or 3)");
    }
    if (headerLength > bytes.size() - headerStart)
        return fileError(path, "is truncated: its header claims " + std::to_string(headerLength) + " bytes, only " +
                                   std::to_string(bytes.size() - headerStart) + " follow");

    NpyHeader header;
    std::string problem;
    const std::string_view headerText(reinterpret_cast<const char*>(bytes.data() + headerStart), headerLength);
    if (!HeaderParser(headerText).parse(header, problem)) return fileError(path, problem);

    DType type = DType::Float32;
    std::size_t itemSize = 4;
    if (header.descr == "<f4") {
        type = DType::Float32;
    } else if (header.descr == "<f8") {
        type = DType::Float64;
        itemSize = 8;
    } else if (header.descr == "|u1") {
        type = DType::UInt8;
        itemSize = 1;
    } else if (!header.descr.empty() && header.descr[0] == '>') {
        return fileError(path, "holds big-endian data (" + quoteUntrusted(header.descr) +
                                   "), which is not supported: save it as little-endian ('<f4')");
    } else {
        return fileError(path, "has unsupported dtype " + quoteUntrusted(header.descr) +
                                   " (expected '<f4', '<f8' or '|u1')");
    }
    if (header.fortranOrder)
        return fileError(path, "is stored in Fortran order, which is not supported: save it in C order "
                               "(numpy.ascontiguousarray)");
    if (header.shape.empty()) return fileError(path, "holds a 0-dimensional array (a scalar), not a signal or image");
    if (header.shape.size() > 3)
        return fileError(path,
                         "has shape " + shapeText(header.shape) + ": at most 3 dimensions (H, W, C) are supported");
    if (auto shapeOk = checkShape(path, header.shape); !shapeOk) return shapeOk.error();

    std::size_t elements = 1;
    for (std::size_t d : header.shape) elements *= d;
    const std::size_t dataStart = headerStart + headerLength;
    const std::size_t expected = elements * itemSize;
    const std::size_t available = bytes.size() - dataStart;
    if (available < expected)
        return fileError(path, "is truncated: shape " + shapeText(header.shape) + " needs " + std::to_string(expected) +
                                   " data bytes, the file holds " + std::to_string(available));
    if (available > expected)
        return fileError(path, "has " + std::to_string(available - expected) +
                                   " bytes more than its header's shape " + shapeText(header.shape) + " accounts for");

    NpyArray array;
    array.shape = header.shape;
    array.values.resize(elements);
    const unsigned char* data = bytes.data() + dataStart;
    for (std::size_t i = 0; i < elements; ++i) {
        if (type == DType::Float32) {
            std::memcpy(&array.values[i], data + i * 4, 4);
        } else if (type == DType::Float64) {
            double value = 0;
            std::memcpy(&value, data + i * 8, 8);
            if (std::isfinite(value) && std::fabs(value) > FLT_MAX)
                return fileError(path, "has a value outside the float32 range at element " + std::to_string(i));
            array.values[i] = static_cast<float>(value);
        } else {
            array.values[i] = data[i];
        }
    }
    if (auto finite = checkFinite(path, array.values); !finite) return finite.error();
    return array;
}

Result<NpyArray> readNpyArray(const fs::path& path) {
    auto file = readFileBytes(path, kMaxNpyBytes);
    if (!file) return file.error();
    return readNpyArray(path, *file);
}

Result<Image> imageFromArray(const fs::path& path, NpyArray array) {
    const std::vector<std::size_t>& shape = array.shape;
    if (shape.size() == 1) return Image::signal(std::move(array.values));
    if (shape.size() == 3 && shape[2] > 4)
        return fileError(path, "has shape " + shapeText(shape) + ": an image has 1 to 4 channels (H, W, C)");
    Image image;
    image.height = static_cast<int>(shape[0]);
    image.width = static_cast<int>(shape[1]);
    image.channels = shape.size() == 3 ? static_cast<int>(shape[2]) : 1;
    image.rank = static_cast<int>(shape.size());
    image.data = std::move(array.values);
    return image;
}

}  // namespace

Result<Image> readNpy(const fs::path& path) {
    try {
        auto array = readNpyArray(path);
        if (!array) return array.error();
        return imageFromArray(path, std::move(*array));
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

Result<Image> readNpyBytes(const fs::path& path, std::span<const unsigned char> bytes) {
    try {
        auto array = readNpyArray(path, bytes);
        if (!array) return array.error();
        return imageFromArray(path, std::move(*array));
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

Result<Mask> readNpyMask(const fs::path& path) {
    try {
        auto array = readNpyArray(path);
        if (!array) return array.error();
        const std::vector<std::size_t>& shape = array->shape;
        if (shape.size() == 1) return Mask::row(std::move(array->values));
        if (shape.size() != 2)
            return fileError(path, "has shape " + shapeText(shape) + ": a mask is 1D (n,) or 2D (H, W)");
        Mask mask;
        mask.height = static_cast<int>(shape[0]);
        mask.width = static_cast<int>(shape[1]);
        mask.values = std::move(array->values);
        return mask;
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

Status writeNpy(const fs::path& path, const Image& image) {
    try {
        if (auto writable = checkWritable(path, image); !writable) return writable;
        std::vector<std::size_t> shape;
        const auto width = static_cast<std::size_t>(image.width);
        const auto height = static_cast<std::size_t>(image.height);
        if (image.rank == 1) shape = {width};
        else if (image.rank == 2) shape = {height, width};
        else shape = {height, width, static_cast<std::size_t>(image.channels)};

        std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
        // NumPy pads the header with spaces so that the data starts on a
        // 64-byte boundary (for memory mapping), and ends it with a newline.
        constexpr std::size_t kPreamble = 10;
        const std::size_t unpadded = kPreamble + header.size() + 1;
        header.append((64 - unpadded % 64) % 64, ' ');
        header += '\n';

        const unsigned char preamble[kPreamble] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                                   static_cast<unsigned char>(header.size() & 0xff),
                                                   static_cast<unsigned char>(header.size() >> 8)};
        // One allocation and plain copies: GCC 12 misreports vector::insert
        // after a small initializer list as out of bounds (-Warray-bounds).
        const std::size_t dataBytes = image.data.size() * sizeof(float);
        std::vector<unsigned char> bytes(kPreamble + header.size() + dataBytes);
        std::memcpy(bytes.data(), preamble, kPreamble);
        std::memcpy(bytes.data() + kPreamble, header.data(), header.size());
        std::memcpy(bytes.data() + kPreamble + header.size(), image.data.data(), dataBytes);
        return writeFileAtomic(path, bytes);
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be written (") + e.what() + ")");
    }
}

}  // namespace tilescope::io
