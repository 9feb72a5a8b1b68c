#include "io/image_file.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/file_checks.hpp"
#include "io/whole_file.hpp"

namespace tilescope::io {

namespace fs = std::filesystem;

namespace {

// A binary PGM/PPM holds at most 2^28 samples of 2 bytes; a plain (ASCII) one
// a few more bytes per sample. Compressed formats are far smaller.
constexpr std::size_t kMaxImageFileBytes = std::size_t{1} << 31;

// [SECTION] PGM / PPM (Netpbm) reading

bool isPnmSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

class PnmCursor {
public:
    explicit PnmCursor(std::span<const unsigned char> bytes, std::size_t pos) : m_bytes(bytes), m_pos(pos) {}

    std::size_t pos() const { return m_pos; }
    bool atEnd() const { return m_pos >= m_bytes.size(); }

    // Whitespace and '#' comments (to the end of the line) may separate any two numbers.
    void skipSeparators() {
        while (m_pos < m_bytes.size()) {
            if (m_bytes[m_pos] == '#') {
                while (m_pos < m_bytes.size() && m_bytes[m_pos] != '\n' && m_bytes[m_pos] != '\r') ++m_pos;
            } else if (isPnmSpace(m_bytes[m_pos])) {
                ++m_pos;
            } else {
                return;
            }
        }
    }

    // A decimal number, saturated at 2^32 (larger values are refused by the
    // caller's limits anyway). nullopt when there is no digit here or the
    // digits run straight into other text ("12x").
    std::optional<std::uint64_t> readNumber() {
        skipSeparators();
        const std::size_t start = m_pos;
        std::uint64_t value = 0;
        while (m_pos < m_bytes.size() && m_bytes[m_pos] >= '0' && m_bytes[m_pos] <= '9') {
            value = std::min<std::uint64_t>(value * 10 + (m_bytes[m_pos] - '0'), std::uint64_t{1} << 32);
            ++m_pos;
        }
        if (m_pos == start) return std::nullopt;
        if (m_pos < m_bytes.size() && !isPnmSpace(m_bytes[m_pos]) && m_bytes[m_pos] != '#') return std::nullopt;
        return value;
    }

    // The single whitespace byte that ends a binary header.
    bool consumeOneSpace() {
        if (m_pos >= m_bytes.size() || !isPnmSpace(m_bytes[m_pos])) return false;
        ++m_pos;
        return true;
    }

private:
    std::span<const unsigned char> m_bytes;
    std::size_t m_pos;
};

Result<Image> readPnm(const fs::path& path, std::span<const unsigned char> bytes) {
    const char kind = static_cast<char>(bytes[1]);
    if (kind == '1' || kind == '4') return fileError(path, "is a PBM bitmap (P1/P4), which is not supported");
    if (kind == '7') return fileError(path, "is a PAM file (P7), which is not supported");
    const bool plain = kind == '2' || kind == '3';
    const int channels = (kind == '3' || kind == '6') ? 3 : 1;

    if (bytes.size() < 3 || !(isPnmSpace(bytes[2]) || bytes[2] == '#'))
        return fileError(path, "is not a PGM/PPM file (its magic number is not followed by whitespace)");
    PnmCursor cursor(bytes, 2);
    const auto width = cursor.readNumber();
    const auto height = cursor.readNumber();
    const auto maxval = cursor.readNumber();
    if (!width || !height || !maxval)
        return fileError(path, "has a malformed or truncated PGM/PPM header (expected width, height and maxval)");
    if (*maxval < 1 || *maxval > 65535)
        return fileError(path, "has maxval " + std::to_string(*maxval) + " (expected 1 to 65535)");
    const std::size_t dims[] = {static_cast<std::size_t>(*height), static_cast<std::size_t>(*width),
                                static_cast<std::size_t>(channels)};
    if (auto shapeOk = checkShape(path, dims); !shapeOk) return shapeOk.error();

    const std::size_t samples = dims[0] * dims[1] * dims[2];
    const auto scale = static_cast<float>(*maxval);
    auto overMaxval = [&](std::size_t i) {
        return fileError(path, "has a sample larger than its maxval " + std::to_string(*maxval) + " at element " +
                                   std::to_string(i));
    };

    if (plain) {
        // Every sample takes at least one byte: refuse before allocating.
        if (bytes.size() - cursor.pos() < samples)
            return fileError(path, "is truncated: its header promises " + std::to_string(samples) +
                                       " samples, the file is too short to hold them");
        Image image = Image::planar(static_cast<int>(*width), static_cast<int>(*height), channels);
        for (std::size_t i = 0; i < samples; ++i) {
            const auto value = cursor.readNumber();
            if (!value) {
                if (cursor.atEnd())
                    return fileError(path, "is truncated: it holds " + std::to_string(i) + " of " +
                                               std::to_string(samples) + " samples");
                return fileError(path, "has a sample that is not a number at element " + std::to_string(i));
            }
            if (*value > *maxval) return overMaxval(i);
            image.data[i] = static_cast<float>(*value) / scale;
        }
        cursor.skipSeparators();
        if (!cursor.atEnd()) return fileError(path, "has unexpected text after its last sample");
        return image;
    }

    if (!cursor.consumeOneSpace())
        return fileError(path, "has a malformed PGM/PPM header (maxval must be followed by one whitespace byte)");
    const std::size_t bytesPerSample = *maxval < 256 ? 1 : 2;
    const std::size_t expected = samples * bytesPerSample;
    const std::size_t available = bytes.size() - cursor.pos();
    if (available < expected)
        return fileError(path, "is truncated: its header promises " + std::to_string(expected) +
                                   " bytes of pixel data, the file holds " + std::to_string(available));
    if (available > expected)
        return fileError(path, "has " + std::to_string(available - expected) +
                                   " bytes more than its header's size accounts for");

    Image image = Image::planar(static_cast<int>(*width), static_cast<int>(*height), channels);
    const unsigned char* data = bytes.data() + cursor.pos();
    for (std::size_t i = 0; i < samples; ++i) {
        // Netpbm stores 16-bit samples most significant byte first.
        const unsigned value = bytesPerSample == 1 ? data[i] : (unsigned{data[2 * i]} << 8) | data[2 * i + 1];
        if (value > *maxval) return overMaxval(i);
        image.data[i] = static_cast<float>(value) / scale;
    }
    return image;
}

// [SECTION] PNG / JPEG / BMP reading through stb_image

bool startsWith(std::span<const unsigned char> bytes, std::initializer_list<unsigned char> prefix) {
    return bytes.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), bytes.begin());
}

// stb's reason is untrusted text too: for an unknown PNG chunk it copies the
// chunk's four type bytes from the file into the message (a newline among
// them would split our one-line error), so control bytes become '?'.
std::string stbReason() {
    const char* reason = stbi_failure_reason();
    std::string text = reason ? reason : "unknown reason";
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    return text;
}

// Debian's stb_image (2.27) builds a JPEG Huffman table from its 16 code
// counts without checking that they add up to at most 256, the number of
// symbols a table holds (ITU T.81, B.2.4.2): a damaged file would make it
// write past the table's arrays. So every DHT segment is read here first, the
// way stb reads it (tables one after another while the segment's length
// lasts, missing bytes read as 0), and a table of more than 256 codes is
// refused. Entropy-coded data is walked byte by byte to the next marker, so
// the tables between the scans of a progressive JPEG are checked too.
Status checkJpegHuffmanTables(const fs::path& path, std::span<const unsigned char> bytes) {
    auto at = [&](std::size_t i) -> std::size_t { return i < bytes.size() ? bytes[i] : 0; };
    std::size_t i = 2;  // after SOI
    while (i + 1 < bytes.size()) {
        if (bytes[i] != 0xff) {
            ++i;  // entropy-coded data
            continue;
        }
        const unsigned char marker = bytes[i + 1];
        if (marker == 0xff) {
            ++i;  // a fill byte
            continue;
        }
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
            i += 2;  // a stuffed zero, TEM or a restart marker: no length follows
            continue;
        }
        if (marker == 0xd9)
            break;  // EOI
        const std::size_t length = at(i + 2) << 8 | at(i + 3);
        if (marker == 0xc4) {
            long remaining = static_cast<long>(length) - 2;
            std::size_t p = i + 4;
            while (remaining > 0) {
                std::size_t codes = 0;
                for (std::size_t k = 1; k <= 16; ++k)
                    codes += at(p + k);
                if (codes > 256)
                    return fileError(path, "cannot be decoded: a Huffman table in its JPEG header declares " +
                                               std::to_string(codes) + " codes, more than the 256 a table holds");
                p += 17 + codes;
                remaining -= static_cast<long>(17 + codes);
            }
        }
        i += 2 + std::max<std::size_t>(length, 2);
    }
    return success();
}

Result<Image> readWithStb(const fs::path& path, std::span<const unsigned char> bytes, const char* format) {
    if (bytes.size() > static_cast<std::size_t>(INT_MAX)) return fileError(path, "is too large to decode");
    const auto length = static_cast<int>(bytes.size());
    // A PNG's size is the first thing in it (IHDR, big-endian): checked here
    // because stb refuses a PNG over 2^30 bytes decoded and then, having
    // tried every other format, reports only "unknown image type".
    if (std::string_view(format) == "PNG" && bytes.size() >= 24 && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0) {
        auto be32 = [&](std::size_t at) {
            return std::size_t{bytes[at]} << 24 | std::size_t{bytes[at + 1]} << 16 | std::size_t{bytes[at + 2]} << 8 |
                   bytes[at + 3];
        };
        const std::size_t dims[] = {be32(20), be32(16)};
        if (auto shapeOk = checkShape(path, dims); !shapeOk) return shapeOk.error();
    }
    if (std::string_view(format) == "JPEG")
        if (Status tables = checkJpegHuffmanTables(path, bytes); !tables)
            return tables.error();
    int width = 0, height = 0, components = 0;
    // Only the header first, so that the size limits apply before stb allocates.
    // When it fails, stb's reason is always "unknown image type" (the last
    // format it tried): the format the file's signature named says more.
    if (!stbi_info_from_memory(bytes.data(), length, &width, &height, &components))
        return fileError(path, std::string("cannot be decoded: its ") + format + " header is damaged or unsupported");
    if (width <= 0 || height <= 0 || components < 1 || components > 4)
        return fileError(path, "has an invalid image header");
    const int channels = components <= 2 ? 1 : 3;  // asking stb for 1 or 3 drops any alpha
    const std::size_t dims[] = {static_cast<std::size_t>(height), static_cast<std::size_t>(width),
                                static_cast<std::size_t>(channels)};
    if (auto shapeOk = checkShape(path, dims); !shapeOk) return shapeOk.error();

    const bool wide = stbi_is_16_bit_from_memory(bytes.data(), length) != 0;
    int loadedWidth = 0, loadedHeight = 0, loadedComponents = 0;
    void* pixels = wide ? static_cast<void*>(stbi_load_16_from_memory(bytes.data(), length, &loadedWidth,
                                                                       &loadedHeight, &loadedComponents, channels))
                        : static_cast<void*>(stbi_load_from_memory(bytes.data(), length, &loadedWidth, &loadedHeight,
                                                                   &loadedComponents, channels));
    const std::unique_ptr<void, void (*)(void*)> owner(pixels, stbi_image_free);
    if (!pixels) return fileError(path, "cannot be decoded (" + stbReason() + ")");
    if (loadedWidth != width || loadedHeight != height)
        return fileError(path, "decoded to a size other than its header's");

    Image image = Image::planar(width, height, channels);
    for (std::size_t i = 0; i < image.data.size(); ++i)
        image.data[i] = wide ? static_cast<const stbi_us*>(pixels)[i] / 65535.0f
                             : static_cast<const stbi_uc*>(pixels)[i] / 255.0f;
    return image;
}

// [SECTION] Writing

struct ByteSink {
    std::vector<unsigned char> bytes;
    bool failed = false;
};

// Called from C code: an exception must not escape through it.
void appendToSink(void* context, void* data, int size) {
    auto* sink = static_cast<ByteSink*>(context);
    try {
        const auto* begin = static_cast<const unsigned char*>(data);
        sink->bytes.insert(sink->bytes.end(), begin, begin + size);
    } catch (...) {
        sink->failed = true;
    }
}

std::vector<unsigned char> quantize(const Image& image) {
    std::vector<unsigned char> out(image.data.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<unsigned char>(std::lround(std::clamp(image.data[i], 0.0f, 1.0f) * 255.0f));
    return out;
}

}  // namespace

Result<Image> readImageFile(const fs::path& path) {
    try {
        auto file = readFileBytes(path, kMaxImageFileBytes);
        if (!file) return file.error();
        return readImageBytes(path, *file);
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

Result<Image> readImageBytes(const fs::path& path, std::span<const unsigned char> bytes) {
    try {
        if (bytes.size() > kMaxImageFileBytes)
            return fileError(path, "is too large (" + std::to_string(bytes.size()) + " bytes, the limit is " +
                                       std::to_string(kMaxImageFileBytes) + ")");
        if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '7') return readPnm(path, bytes);
        // Checked here rather than left to stb, which would also try TGA, a
        // format with no signature that some random files decode as.
        if (startsWith(bytes, {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})) return readWithStb(path, bytes, "PNG");
        if (startsWith(bytes, {0xff, 0xd8, 0xff})) return readWithStb(path, bytes, "JPEG");
        if (startsWith(bytes, {'B', 'M'})) return readWithStb(path, bytes, "BMP");
        return fileError(path, "is not a PNG, JPEG, BMP, PGM or PPM file");
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

Status writeImageFile(const fs::path& path, const Image& image) {
    try {
        if (auto writable = checkWritable(path, image); !writable) return writable;
        const std::string ext = lowerExtension(path);
        const std::vector<unsigned char> pixels = quantize(image);
        std::vector<unsigned char> bytes;
        if (ext == ".png") {
            ByteSink sink;
            if (!stbi_write_png_to_func(appendToSink, &sink, image.width, image.height, image.channels, pixels.data(),
                                        image.width * image.channels) ||
                sink.failed)
                return fileError(path, "cannot be written (PNG encoding failed)");
            bytes = std::move(sink.bytes);
        } else if (ext == ".pgm" || ext == ".ppm") {
            const bool grey = ext == ".pgm";
            if (grey && image.channels != 1)
                return fileError(path, "cannot hold a " + std::to_string(image.channels) +
                                           "-channel image: PGM is greyscale only (use .ppm or .png)");
            if (!grey && image.channels != 3)
                return fileError(path, "cannot hold a " + std::to_string(image.channels) +
                                           "-channel image: PPM is RGB only (use .pgm or .png)");
            const std::string header = std::string(grey ? "P5\n" : "P6\n") + std::to_string(image.width) + " " +
                                       std::to_string(image.height) + "\n255\n";
            bytes.assign(header.begin(), header.end());
            bytes.insert(bytes.end(), pixels.begin(), pixels.end());
        } else {
            return fileError(path,
                             "unsupported image format " + quoteUntrusted(ext) + " (expected .png, .pgm or .ppm)");
        }
        return writeFileAtomic(path, bytes);
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be written (") + e.what() + ")");
    }
}

}  // namespace tilescope::io
