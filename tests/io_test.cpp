// Tests of app/io: the readers against hand-built files (not only files our
// own writers produced), every refusal with a look at its message, atomic
// writes, and the GPU Teaching Kit convolution datasets.
#include <gtest/gtest.h>
#include <stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/charconv.hpp"
#include "io/csv_field.hpp"
#include "io/files.hpp"
#include "io/image_file.hpp"
#include "io/mask_file.hpp"
#include "io/npy.hpp"
#include "io/whole_file.hpp"
#include "scratch_dir.hpp"

#ifndef TILESCOPE_TESTDATA_DIR
#define TILESCOPE_TESTDATA_DIR "/work/shared/testdata/teaching-kit-convolution"
#endif

namespace fs = std::filesystem;
using namespace tilescope;
using Bytes = std::vector<unsigned char>;

namespace {

// [SECTION] Helpers

// A fresh directory per test, removed afterwards.
struct ScratchDir : test::ScratchDir {
    ScratchDir() : test::ScratchDir("tilescope_io_test") {}
};

void writeBytes(const fs::path& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}
void writeText(const fs::path& path, const std::string& text) { writeBytes(path, Bytes(text.begin(), text.end())); }
Bytes readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

template <class T>
Bytes rawBytes(const std::vector<T>& values) {
    Bytes bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// A .npy file assembled by hand, as NumPy lays it out, so that the reader is
// not only tested against our own writer.
Bytes npyBytes(const std::string& descr, const std::string& shape, const Bytes& payload, int major = 1,
               const std::string& fortran = "False") {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
    const std::size_t preamble = major == 1 ? 10 : 12;
    header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    Bytes bytes;
    for (char c : std::string("\x93NUMPY")) bytes.push_back(static_cast<unsigned char>(c));
    bytes.push_back(static_cast<unsigned char>(major));
    bytes.push_back(0);
    for (std::size_t i = 0; i < preamble - 8; ++i)
        bytes.push_back(static_cast<unsigned char>(header.size() >> (8 * i)));
    for (char c : header) bytes.push_back(static_cast<unsigned char>(c));
    for (unsigned char c : payload) bytes.push_back(c);
    return bytes;
}
// A version 1 file whose header is exactly `dict`, however malformed.
Bytes npyWithHeader(const std::string& dict) {
    Bytes bytes;
    for (char c : std::string("\x93NUMPY\x01", 7)) bytes.push_back(static_cast<unsigned char>(c));
    bytes.push_back(0);
    bytes.push_back(static_cast<unsigned char>(dict.size()));
    bytes.push_back(0);
    for (char c : dict) bytes.push_back(static_cast<unsigned char>(c));
    return bytes;
}

// Every error: exit code 2, one line, names the file and contains each part.
template <class T>
void expectError(const Result<T>& result, const fs::path& path, std::initializer_list<std::string> parts) {
    ASSERT_FALSE(result.ok()) << "expected an error for " << path;
    const Error& error = result.error();
    EXPECT_EQ(error.code, ExitCode::BadInput);
    EXPECT_EQ(error.message.find('\n'), std::string::npos) << error.message;
    EXPECT_NE(error.message.find(path.string()), std::string::npos) << error.message;
    for (const std::string& part : parts)
        EXPECT_NE(error.message.find(part), std::string::npos) << "'" << part << "' not in: " << error.message;
}

Image makeImage(int width, int height, int channels, float seed = 0.0f) {
    Image image = Image::planar(width, height, channels);
    for (std::size_t i = 0; i < image.data.size(); ++i)
        image.data[i] = std::fmod(seed + 0.137f * static_cast<float>(i), 1.0f);
    return image;
}

void expectNear(const Image& actual, const Image& expected, float tolerance) {
    ASSERT_EQ(actual.width, expected.width);
    ASSERT_EQ(actual.height, expected.height);
    ASSERT_EQ(actual.channels, expected.channels);
    EXPECT_EQ(actual.rank, expected.rank);
    ASSERT_EQ(actual.data.size(), expected.data.size());
    for (std::size_t i = 0; i < actual.data.size(); ++i) EXPECT_NEAR(actual.data[i], expected.data[i], tolerance) << i;
}

// Files in a directory whose names start with '.', i.e. leftover temporaries.
int hiddenFiles(const fs::path& directory) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(directory))
        if (entry.path().filename().string().starts_with(".")) ++count;
    return count;
}

// [SECTION] .npy

// The browser build reads and writes numbers with core/charconv.hpp's
// portable versions (its C++ library has no floating-point <charconv>): they
// must say what the standard library says, here where both exist.
TEST(Charconv, PortableVersionsAgreeWithTheStandardLibrary) {
    std::vector<float> values = {0.0f, -0.0f, 0.42f, 1.0f / 3.0f, 1e-38f, 3.4028235e38f, -2.5f, 65536.0f,
                                 std::numeric_limits<float>::denorm_min(), 123456.789f};
    std::uint32_t bits = 0x3f800000u;
    for (int i = 0; i < 2000; ++i) {  // floats spread over every exponent
        bits = bits * 1664525u + 1013904223u;
        float f;
        std::memcpy(&f, &bits, sizeof f);
        if (std::isfinite(f))
            values.push_back(f);
    }
    for (float f : values) {
        char buffer[64];
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, f);
        ASSERT_EQ(ec, std::errc());
        const std::string portable = portable::shortestDecimal(f);
        // The same value back, in as few significant digits (the exponent's spelling may differ).
        EXPECT_EQ(std::strtof(portable.c_str(), nullptr), f) << portable;
        auto digits = [](const std::string& text) {
            const std::string mantissa = text.substr(0, text.find_first_of("eE"));
            std::size_t n = 0;
            bool leading = true;
            for (char c : mantissa) {
                if (c == '0' && leading) continue;
                if (c >= '1' && c <= '9') leading = false;
                n += c >= '0' && c <= '9' && !leading;
            }
            return n;
        };
        EXPECT_LE(digits(portable), std::max<std::size_t>(digits(std::string(buffer, end)), 1)) << portable;
    }
    for (const char* text : {"0.5", "-1e3", "1e400", "-1e400", "1e-400", "abc", "+1", " 1", "0x10", "2.5xyz", "inf",
                             "-nan", "", "-", "3.", ".5", "1e", "7e-45"}) {
        const std::string_view view(text);
        double expected = -99.0, got = -99.0;
        const auto [end, expectedError] = std::from_chars(view.data(), view.data() + view.size(), expected);
        std::size_t used = 0;
        const std::errc error = portable::parseDouble(view, got, used);
        EXPECT_EQ(error == std::errc(), expectedError == std::errc()) << text;
        EXPECT_EQ(error == std::errc::result_out_of_range, expectedError == std::errc::result_out_of_range) << text;
        if (error == std::errc() && expectedError == std::errc()) {
            EXPECT_EQ(used, static_cast<std::size_t>(end - view.data())) << text;
            if (!std::isnan(expected)) {
                EXPECT_EQ(got, expected) << text;
            }
        }
    }
}

TEST(Io, NpyReadsHandBuiltFloat32Signal) {
    ScratchDir dir;
    const std::vector<float> values = {0.5f, -1.25f, 3.0f, 1e-3f, 42.0f};
    writeBytes(dir / "s.npy", npyBytes("<f4", "(5,)", rawBytes(values)));
    auto image = io::readNpy(dir / "s.npy");
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image->rank, 1);
    EXPECT_EQ(image->width, 5);
    EXPECT_EQ(image->height, 1);
    EXPECT_EQ(image->data, values);
    // A 1D signal is one long row: 2^20 elements are fine where an image row of 70,000 is refused.
    std::vector<float> million(std::size_t{1} << 20);
    for (std::size_t i = 0; i < million.size(); ++i) million[i] = static_cast<float>(i % 251);
    writeBytes(dir / "m.npy", npyBytes("<f4", "(1048576,)", rawBytes(million)));
    auto signal = io::readNpy(dir / "m.npy");
    ASSERT_TRUE(signal.ok()) << signal.error().message;
    EXPECT_EQ(signal->width, 1 << 20);
    EXPECT_EQ(signal->data[1000], 1000.0f - 3 * 251);
}

TEST(Io, NpyReadsHandBuiltFloat64Image) {
    ScratchDir dir;
    const std::vector<double> values = {0.0, 0.25, 0.5, 0.75, 1.0, -2.5};
    writeBytes(dir / "i.npy", npyBytes("<f8", "(2, 3)", rawBytes(values)));
    auto image = io::readNpy(dir / "i.npy");
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image->rank, 2);
    EXPECT_EQ(image->width, 3);
    EXPECT_EQ(image->height, 2);
    EXPECT_EQ(image->channels, 1);
    for (std::size_t i = 0; i < values.size(); ++i) EXPECT_FLOAT_EQ(image->data[i], static_cast<float>(values[i]));
    EXPECT_FLOAT_EQ(image->at(2, 1), -2.5f);  // row-major: (x=2, y=1) is the last value
}

TEST(Io, NpyReadsHandBuiltChannelsAndVersions) {
    ScratchDir dir;
    std::vector<float> values(2 * 4 * 3);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
    for (int major : {1, 2, 3}) {
        const fs::path path = dir / ("c" + std::to_string(major) + ".npy");
        writeBytes(path, npyBytes("<f4", "(2, 4, 3)", rawBytes(values), major));
        auto image = io::readNpy(path);
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_EQ(image->rank, 3);
        EXPECT_EQ(image->width, 4);
        EXPECT_EQ(image->height, 2);
        EXPECT_EQ(image->channels, 3);
        EXPECT_EQ(image->at(1, 1, 2), static_cast<float>((1 * 4 + 1) * 3 + 2));
    }
}

TEST(Io, NpyKeepsUint8Values) {
    ScratchDir dir;
    writeBytes(dir / "u.npy", npyBytes("|u1", "(1, 3)", Bytes{0, 128, 255}));
    auto image = io::readNpy(dir / "u.npy");
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image->data, (std::vector<float>{0.0f, 128.0f, 255.0f}));
}

TEST(Io, NpyWriterRoundTripsAndLaysOutLikeNumPy) {
    ScratchDir dir;
    Image signal = Image::signal({1.0f, -2.0f, 3.5f});
    Image grey = makeImage(5, 3, 1);
    Image colour = makeImage(4, 2, 3);
    colour.data[5] = -7.25f;  // .npy keeps values outside [0, 1]
    for (const Image* original : {&signal, &grey, &colour}) {
        const fs::path path = dir / ("r" + std::to_string(original->rank) + ".npy");
        ASSERT_TRUE(io::writeNpy(path, *original).ok());
        auto back = io::readNpy(path);
        ASSERT_TRUE(back.ok()) << back.error().message;
        expectNear(*back, *original, 0.0f);
    }
    const Bytes bytes = readBytes(dir / "r3.npy");
    ASSERT_GT(bytes.size(), 10u);
    EXPECT_EQ(std::memcmp(bytes.data(), "\x93NUMPY\x01\x00", 8), 0);
    const std::size_t headerLength = bytes[8] | (bytes[9] << 8);
    EXPECT_EQ((10 + headerLength) % 64, 0u);
    const std::string header(bytes.begin() + 10, bytes.begin() + 10 + static_cast<long>(headerLength));
    EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos) << header;
    EXPECT_NE(header.find("'shape': (2, 4, 3)"), std::string::npos) << header;
    EXPECT_EQ(header.back(), '\n');
    EXPECT_EQ(bytes.size(), 10 + headerLength + 4 * 2 * 4 * 3);
    const Bytes signalBytes = readBytes(dir / "r1.npy");
    EXPECT_NE(std::string(signalBytes.begin(), signalBytes.end()).find("'shape': (3,)"), std::string::npos);
}

TEST(Io, NpyRefusesBadFilesWithClearMessages) {
    struct Case {
        const char* name;
        Bytes bytes;
        std::initializer_list<std::string> parts;
    };
    std::vector<float> twenty(20, 1.0f);
    twenty[17] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> infinite(4, 1.0f);
    infinite[2] = std::numeric_limits<float>::infinity();
    const Bytes four = rawBytes(std::vector<float>(4, 0.0f));
    Bytes truncatedHeader = npyBytes("<f4", "(4,)", four);
    truncatedHeader.resize(30);
    const Case cases[] = {
        {"short", Bytes{0x93, 'N', 'U'}, {"too short"}},
        {"magic", Bytes(64, 'x'), {"not a .npy file"}},
        {"version", [] { Bytes b = npyBytes("<f4", "(1,)", Bytes(4)); b[6] = 4; return b; }(), {"version 4"}},
        {"truncated_header", truncatedHeader, {"truncated"}},
        {"truncated_data", npyBytes("<f4", "(5,)", four), {"truncated", "20", "16"}},
        {"extra_data", npyBytes("<f4", "(3,)", four), {"4 bytes more"}},
        {"fortran", npyBytes("<f4", "(2, 2)", four, 1, "True"), {"Fortran order"}},
        {"big_endian", npyBytes(">f4", "(4,)", four), {"big-endian", "'>f4'"}},
        {"int32", npyBytes("<i4", "(4,)", four), {"unsupported dtype '<i4'"}},
        {"structured", npyWithHeader("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n"),
         {"structured"}},
        {"zero", npyBytes("<f4", "(0, 4)", Bytes{}), {"zero-sized"}},
        {"wide", npyBytes("<f4", "(1, 70000)", four), {"70000", "65536"}},
        {"huge", npyBytes("<f4", "(20000, 20000)", four), {"more than 268435456 elements"}},
        {"rank4", npyBytes("<f4", "(1, 1, 2, 2)", four), {"at most 3 dimensions"}},
        {"scalar", npyBytes("<f4", "()", Bytes(4)), {"0-dimensional"}},
        {"channels", npyBytes("<f4", "(1, 1, 5)", rawBytes(std::vector<float>(5))), {"1 to 4 channels"}},
        {"garbage_header", npyWithHeader("not a dict at all\n"), {"not a Python dict"}},
        {"unknown_key", npyWithHeader("{'descr': '<f4', 'colour': 1}"), {"unexpected key 'colour'"}},
        {"missing_key", npyWithHeader("{'descr': '<f4', 'shape': (1,)}"), {"lacks"}},
        {"unterminated", npyWithHeader("{'descr': '<f4"), {"'descr'"}},
        {"nan", npyBytes("<f4", "(20,)", rawBytes(twenty)), {"contains NaN at element 17"}},
        {"infinity", npyBytes("<f4", "(2, 2)", rawBytes(infinite)), {"contains infinity at element 2"}},
        {"float64_range", npyBytes("<f8", "(2,)", rawBytes(std::vector<double>{1.0, 1e300})),
         {"outside the float32 range at element 1"}},
    };
    ScratchDir dir;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path path = dir / (std::string(c.name) + ".npy");
        writeBytes(path, c.bytes);
        expectError(io::readNpy(path), path, c.parts);
    }
}

TEST(Io, NpyMasks) {
    ScratchDir dir;
    writeBytes(dir / "row.npy", npyBytes("<f4", "(3,)", rawBytes(std::vector<float>{1, 2, 1})));
    writeBytes(dir / "square.npy", npyBytes("<f8", "(3, 3)", rawBytes(std::vector<double>(9, 1.0 / 9))));
    writeBytes(dir / "cube.npy", npyBytes("<f4", "(1, 1, 3)", rawBytes(std::vector<float>(3))));
    auto row = io::readNpyMask(dir / "row.npy");
    ASSERT_TRUE(row.ok()) << row.error().message;
    EXPECT_TRUE(row->is1D());
    EXPECT_EQ(row->values, (std::vector<float>{1, 2, 1}));
    auto square = io::readMask(dir / "square.npy");  // readMask goes through readNpyMask too
    ASSERT_TRUE(square.ok()) << square.error().message;
    EXPECT_EQ(square->width, 3);
    EXPECT_EQ(square->height, 3);
    EXPECT_FLOAT_EQ(square->at(2, 2), 1.0f / 9);
    expectError(io::readNpyMask(dir / "cube.npy"), dir / "cube.npy", {"1D", "2D"});
}

// [SECTION] Picture files

TEST(Io, PngPgmPpmRoundTripWithinOneStep) {
    ScratchDir dir;
    const Image grey = makeImage(7, 5, 1, 0.1f);
    const Image colour = makeImage(6, 4, 3, 0.3f);
    const struct {
        const char* name;
        const Image& image;
    } cases[] = {{"g.png", grey}, {"c.png", colour}, {"g.pgm", grey}, {"c.ppm", colour}, {"G.PNG", grey}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        ASSERT_TRUE(io::writeOutput(dir / c.name, c.image).ok());
        auto back = io::readInput(dir / c.name);
        ASSERT_TRUE(back.ok()) << back.error().message;
        expectNear(*back, c.image, 0.5f / 255.0f + 1e-6f);
    }
}

TEST(Io, WritersClampAndRound) {
    ScratchDir dir;
    Image image = Image::planar(4, 1, 1);
    image.data = {-0.5f, 0.5f, 2.0f, 0.2f};  // 0.5 * 255 = 127.5 rounds to 128; 0.2 * 255 = 51
    ASSERT_TRUE(io::writeImageFile(dir / "q.pgm", image).ok());
    const std::string header = "P5\n4 1\n255\n";
    Bytes expected(header.begin(), header.end());
    expected.insert(expected.end(), {0, 128, 255, 51});
    EXPECT_EQ(readBytes(dir / "q.pgm"), expected);
}

TEST(Io, PngDropsAlpha) {
    ScratchDir dir;
    Image rgba = makeImage(3, 2, 4);
    rgba.rank = 3;
    Image greyAlpha = makeImage(3, 2, 2);
    ASSERT_TRUE(io::writeImageFile(dir / "rgba.png", rgba).ok());
    ASSERT_TRUE(io::writeImageFile(dir / "ga.png", greyAlpha).ok());
    auto rgb = io::readImageFile(dir / "rgba.png");
    auto grey = io::readImageFile(dir / "ga.png");
    ASSERT_TRUE(rgb.ok()) << rgb.error().message;
    ASSERT_TRUE(grey.ok()) << grey.error().message;
    EXPECT_EQ(rgb->channels, 3);
    EXPECT_EQ(rgb->rank, 3);
    EXPECT_EQ(grey->channels, 1);
    EXPECT_EQ(grey->rank, 2);
    for (int i = 0; i < 6; ++i) {
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(rgb->data[i * 3 + c], rgba.data[i * 4 + c], 0.5f / 255 + 1e-6f);
        EXPECT_NEAR(grey->data[i], greyAlpha.data[i * 2], 0.5f / 255 + 1e-6f);
    }
}

// JPEGs as an encoder writes them (stb_image_write: four Huffman tables in
// one DHT segment) pass the Huffman check and decode; a table that declares
// more codes than a table holds is refused before stb_image reads it.
TEST(Io, JpegHuffmanTablesAreCheckedBeforeDecoding) {
    ScratchDir dir;
    std::vector<unsigned char> pixels(32 * 16 * 3);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        pixels[i] = static_cast<unsigned char>((i * 7) % 256);
    const fs::path jpeg = dir / "written.jpg";
    ASSERT_NE(stbi_write_jpg(jpeg.c_str(), 32, 16, 3, pixels.data(), 90), 0);
    auto image = io::readImageFile(jpeg);
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image->width, 32);
    EXPECT_EQ(image->height, 16);

    // Each of the sixteen lengths with 16 codes: 256 in all, the most a table
    // may hold (its 256 symbol bytes follow): accepted by the check.
    Bytes full{0xff, 0xd8, 0xff, 0xc4, 0x01, 0x13, 0x10};
    full.insert(full.end(), 16, 16);
    full.insert(full.end(), 256, 0);
    writeBytes(dir / "full.jpg", full);
    auto fullRead = io::readImageFile(dir / "full.jpg");
    ASSERT_FALSE(fullRead.ok());
    EXPECT_EQ(fullRead.error().message.find("Huffman"), std::string::npos) << fullRead.error().message;

    // 257 codes: one too many, in the second table of a segment.
    Bytes over{0xff, 0xd8, 0xff, 0xc4, 0x00, 0x00, 0x00};
    over.insert(over.end(), 16, 0);
    over.back() = 1;
    over.push_back(0);     // the first table: one code, its symbol
    over.push_back(0x11);  // the second table: AC, id 1
    for (int k = 0; k < 16; ++k)
        over.push_back(k == 0 ? 2 : 17);  // 2 + 15 * 17 = 257
    over[4] = 0x01;
    over[5] = 0x00;  // a segment length large enough for both
    writeBytes(dir / "over.jpg", over);
    auto overRead = io::readImageFile(dir / "over.jpg");
    ASSERT_FALSE(overRead.ok());
    EXPECT_NE(overRead.error().message.find("declares 257 codes, more than the 256 a table holds"), std::string::npos)
        << overRead.error().message;
}

TEST(Io, ReadsHandBuiltBmp) {
    // 2 x 1, 24 bits per pixel: stored bottom-up, BGR, rows padded to 4 bytes.
    Bytes bmp = {'B', 'M', 62, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0,  // file header
                 40, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 24, 0, 0, 0, 0, 0, 8, 0, 0, 0,
                 0x13, 0x0b, 0, 0, 0x13, 0x0b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                 0, 0, 255, /* red */ 255, 0, 0 /* blue */, 0, 0};
    ScratchDir dir;
    writeBytes(dir / "t.bmp", bmp);
    auto image = io::readInput(dir / "t.bmp");
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image->width, 2);
    EXPECT_EQ(image->channels, 3);
    EXPECT_EQ(image->data, (std::vector<float>{1, 0, 0, 0, 0, 1}));
}

TEST(Io, ReadsPlainAnd16BitNetpbm) {
    ScratchDir dir;
    writeText(dir / "p2.pgm", "P2\n# a comment\n3 2 # inline comment\n10\n0 5 10\n10 5 0\n");
    writeText(dir / "p3.ppm", "P3 1 1 255 255 0 51");
    const std::string header = "P5\n2 1\n1000\n";
    Bytes p5(header.begin(), header.end());
    p5.insert(p5.end(), {0x01, 0xf4, 0x03, 0xe8});  // 500 and 1000, most significant byte first
    writeBytes(dir / "p5.pgm", p5);

    auto p2 = io::readImageFile(dir / "p2.pgm");
    ASSERT_TRUE(p2.ok()) << p2.error().message;
    EXPECT_EQ(p2->width, 3);
    EXPECT_EQ(p2->height, 2);
    EXPECT_EQ(p2->data, (std::vector<float>{0, 0.5f, 1, 1, 0.5f, 0}));  // divided by maxval 10
    auto p3 = io::readImageFile(dir / "p3.ppm");
    ASSERT_TRUE(p3.ok()) << p3.error().message;
    EXPECT_EQ(p3->channels, 3);
    EXPECT_FLOAT_EQ(p3->data[2], 51.0f / 255);
    auto wide = io::readInput(dir / "p5.pgm");
    ASSERT_TRUE(wide.ok()) << wide.error().message;
    EXPECT_EQ(wide->data, (std::vector<float>{0.5f, 1.0f}));
}

TEST(Io, ImageFilesRefuseBadInputWithClearMessages) {
    ScratchDir dir;
    Bytes truncatedPng;
    {
        ASSERT_TRUE(io::writeImageFile(dir / "whole.png", makeImage(16, 16, 3)).ok());
        truncatedPng = readBytes(dir / "whole.png");
        truncatedPng.resize(truncatedPng.size() / 2);
    }
    const std::string p6 = "P6\n2 2\n255\n";
    Bytes shortP6(p6.begin(), p6.end());
    shortP6.resize(shortP6.size() + 11);
    Bytes longP6(p6.begin(), p6.end());
    longP6.resize(longP6.size() + 13);
    const struct {
        const char* name;
        Bytes bytes;
        std::initializer_list<std::string> parts;
    } cases[] = {
        {"absurd.pgm", Bytes{'P', '5', '\n', '9', '9', '9', '9', '9', '9', '9', '9', '9', '9', ' ', '1', ' ', '2',
                             '5', '5', '\n'},
         {"dimension", "65536"}},
        {"huge.ppm", [] { std::string s = "P6 60000 60000 255\n"; return Bytes(s.begin(), s.end()); }(),
         {"more than 268435456 elements"}},
        {"zero.pgm", [] { std::string s = "P5 0 4 255\n"; return Bytes(s.begin(), s.end()); }(), {"zero-sized"}},
        {"short.ppm", shortP6, {"truncated", "12", "11"}},
        {"long.ppm", longP6, {"1 bytes more"}},
        {"maxval0.pgm", [] { std::string s = "P2 1 1 0 0"; return Bytes(s.begin(), s.end()); }(), {"maxval 0"}},
        {"maxval.pgm", [] { std::string s = "P2 1 1 70000 0"; return Bytes(s.begin(), s.end()); }(),
         {"maxval 70000"}},
        {"over.pgm", [] { std::string s = "P2 2 1 10 3 11"; return Bytes(s.begin(), s.end()); }(),
         {"larger than its maxval 10 at element 1"}},
        {"few.pgm", [] { std::string s = "P2 2 2 10 3 4 5"; return Bytes(s.begin(), s.end()); }(),
         {"truncated", "3 of 4"}},
        {"word.pgm", [] { std::string s = "P2 2 1 10 3 x4"; return Bytes(s.begin(), s.end()); }(),
         {"not a number at element 1"}},
        {"header.pgm", [] { std::string s = "P5\n12x 3\n255\n"; return Bytes(s.begin(), s.end()); }(),
         {"malformed"}},
        {"magic.pgm", [] { std::string s = "P51 1 255\n0"; return Bytes(s.begin(), s.end()); }(), {"magic number"}},
        {"bitmap.pbm", [] { std::string s = "P4 1 1\n"; return Bytes(s.begin(), s.end()); }(), {"PBM"}},
        {"pam.pnm", [] { std::string s = "P7\nWIDTH 1\n"; return Bytes(s.begin(), s.end()); }(), {"PAM"}},
        {"text.png", [] { std::string s = "hello, world"; return Bytes(s.begin(), s.end()); }(),
         {"not a PNG, JPEG, BMP, PGM or PPM file"}},
        {"cut.png", truncatedPng, {"cannot be decoded"}},
        {"empty.jpg", Bytes{}, {"not a PNG"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        writeBytes(dir / c.name, c.bytes);
        expectError(io::readImageFile(dir / c.name), dir / c.name, c.parts);
    }
}

TEST(Io, WritersRefuseChannelMismatch) {
    ScratchDir dir;
    expectError(io::writeImageFile(dir / "c.pgm", makeImage(2, 2, 3)), dir / "c.pgm", {"3-channel", "PGM"});
    expectError(io::writeOutput(dir / "g.ppm", makeImage(2, 2, 1)), dir / "g.ppm", {"1-channel", "PPM"});
    expectError(io::writeOutput(dir / "g.tiff", makeImage(2, 2, 1)), dir / "g.tiff",
                {"unsupported output format '.tiff'"});
    Image inconsistent = makeImage(2, 2, 1);
    inconsistent.data.pop_back();
    expectError(io::writeOutput(dir / "i.npy", inconsistent), dir / "i.npy", {"holds 3 values"});
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

// [SECTION] Mask files

TEST(Io, MaskTextFormats) {
    ScratchDir dir;
    writeText(dir / "m.txt", "# a 3x3 box blur\n\n1 2 1\n  2 4 2  \n1\t2 1\n\n");
    writeText(dir / "m.csv", "3,3\n1,2,1\n2, 4 ,2\r\n1,2,1\n");
    writeText(dir / "plain.csv", "1,2,1\n2,4,2\n1,2,1");
    writeText(dir / "m.raw", "3 3\n1 2 1 2\n4 2\n1 2 1\n");
    const std::vector<float> expected = {1, 2, 1, 2, 4, 2, 1, 2, 1};
    for (const char* name : {"m.txt", "m.csv", "plain.csv", "m.raw"}) {
        SCOPED_TRACE(name);
        auto mask = io::readMask(dir / name);
        ASSERT_TRUE(mask.ok()) << mask.error().message;
        EXPECT_EQ(mask->width, 3);
        EXPECT_EQ(mask->height, 3);
        EXPECT_EQ(mask->values, expected);
    }
    writeText(dir / "row.mask", "0.25 +0.5 2.5e-1\n");
    auto row = io::readMask(dir / "row.mask");
    ASSERT_TRUE(row.ok()) << row.error().message;
    EXPECT_TRUE(row->is1D());
    EXPECT_EQ(row->values, (std::vector<float>{0.25f, 0.5f, 0.25f}));
}

TEST(Io, MaskFilesRefuseBadInputWithClearMessages) {
    const struct {
        const char* name;
        const char* text;
        std::initializer_list<std::string> parts;
    } cases[] = {
        {"word.txt", "1 2 3\n4 5 6\nabc 8 9\n", {"line 3", "'abc' is not a number"}},
        {"suffix.txt", "1.5x 2\n", {"line 1", "'1.5x' is not a number"}},
        {"ragged.txt", "1 2 3\n\n4 5\n", {"line 3", "has 2 values", "line 1 has 3"}},
        {"empty.txt", "", {"empty"}},
        {"comments.txt", "# nothing\n   \n", {"empty"}},
        {"nan.txt", "1 nan 1\n", {"line 1", "not a finite number"}},
        {"inf.txt", "1\n-inf\n1\n", {"line 2", "not a finite number"}},
        {"range.txt", "1 1e999 1\n", {"line 1", "outside the float32 range"}},
        {"short.raw", "2 2\n1 2 3\n", {"holds 3 values", "promises 4"}},
        {"long.raw", "2 2\n1 2\n3 4\n5\n", {"line 4", "more values"}},
        {"header.raw", "5\n1 2 3 4 5\n", {"line 1", "rows cols"}},
        {"zero.raw", "0 3\n", {"zero-sized"}},
        {"field.csv", "1,,2\n", {"line 1", "empty field"}},
        {"ragged.csv", "3,3\n1,2,1\n1,2\n1,2,1\n", {"line 3", "has 2 values", "header on line 1 says 3"}},
        {"rows.csv", "3,3\n1,2,1\n1,2,1\n", {"holds 2 rows", "header on line 1 says 3"}},
        {"ragged2.csv", "1.5,2\n1,2,3\n", {"line 2", "has 3 values", "line 1 has 2"}},
        {"wide.txt", nullptr, {"70000", "65536"}},
    };
    ScratchDir dir;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        std::string text = c.text ? c.text : "";
        if (!c.text)
            for (int i = 0; i < 70000; ++i) text += "0 ";
        writeText(dir / c.name, text);
        expectError(io::readMask(dir / c.name), dir / c.name, c.parts);
    }
}

// [SECTION] Files, dispatch and atomic writes

TEST(Io, ReadersRefuseMissingDirectoryAndUnsupportedFiles) {
    ScratchDir dir;
    expectError(io::readInput(dir / "missing.npy"), dir / "missing.npy", {"does not exist"});
    expectError(io::readMask(dir / "missing.txt"), dir / "missing.txt", {"does not exist"});
    fs::create_directory(dir / "folder.png");
    expectError(io::readInput(dir / "folder.png"), dir / "folder.png", {"is a directory"});
    expectError(io::readInput(dir / "data.xyz"), dir / "data.xyz",
                {"unsupported input format '.xyz'", "expected .npy, .png"});
    expectError(io::readInput(dir / "noext"), dir / "noext", {"no extension"});
    ASSERT_EQ(::mkfifo((dir / "pipe.npy").c_str(), 0600), 0);
    expectError(io::readInput(dir / "pipe.npy"), dir / "pipe.npy", {"not a regular file"});
    writeText(dir / "big.bin", std::string(100, 'x'));
    expectError(io::readFileBytes(dir / "big.bin", 99), dir / "big.bin", {"too large", "100 bytes"});
    auto exact = io::readFileBytes(dir / "big.bin", 100);
    ASSERT_TRUE(exact.ok());
    EXPECT_EQ(exact->size(), 100u);
}

// The readers of bytes in memory (the built-in inputs the binary carries)
// give what the readers of files give, and refuse the same way, naming the file.
TEST(Io, BytesInMemoryReadAsTheirFileReads) {
    ScratchDir dir;
    const Bytes npy = npyBytes("<f4", "(3,)", rawBytes(std::vector<float>{1.5f, -2.0f, 3.25f}));
    writeBytes(dir / "a.npy", npy);
    const std::string pgmText = "P5\n3 2\n255\n";
    Bytes pgm(pgmText.begin(), pgmText.end());
    for (unsigned char v : {0, 51, 102, 153, 204, 255}) pgm.push_back(v);
    writeBytes(dir / "b.pgm", pgm);
    for (const auto& [name, bytes] : {std::pair{std::string("a.npy"), npy}, std::pair{std::string("b.pgm"), pgm}}) {
        auto fromFile = io::readInput(dir / name);
        auto fromMemory = io::readInputBytes(name, bytes);
        ASSERT_TRUE(fromFile.ok()) << fromFile.error().message;
        ASSERT_TRUE(fromMemory.ok()) << fromMemory.error().message;
        EXPECT_EQ(fromMemory->width, fromFile->width) << name;
        EXPECT_EQ(fromMemory->height, fromFile->height) << name;
        EXPECT_EQ(fromMemory->rank, fromFile->rank) << name;
        EXPECT_EQ(fromMemory->data, fromFile->data) << name;
    }
    const Bytes cut(npy.begin(), npy.end() - 4);
    expectError(io::readNpyBytes("cut.npy", cut), "cut.npy", {"is truncated"});
    expectError(io::readImageBytes("odd.pgm", Bytes{'x', 'y'}), "odd.pgm", {"is not a PNG, JPEG, BMP, PGM or PPM"});
    expectError(io::readInputBytes("data.xyz", npy), "data.xyz", {"unsupported input format '.xyz'"});
}

TEST(Io, ReadersRefuseUnreadableFiles) {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads files regardless of their permissions";
    ScratchDir dir;
    writeText(dir / "secret.txt", "1 2 1\n");
    fs::permissions(dir / "secret.txt", fs::perms::none);
    expectError(io::readMask(dir / "secret.txt"), dir / "secret.txt", {"cannot be opened", "ermission"});
}

TEST(Io, FailedWritesLeaveExistingOutputAlone) {
    ScratchDir dir;
    const Image good = makeImage(3, 3, 1);
    for (const char* name : {"out.npy", "out.png", "out.pgm"}) {
        SCOPED_TRACE(name);
        const fs::path path = dir / name;
        ASSERT_TRUE(io::writeOutput(path, good).ok());
        const Bytes before = readBytes(path);
        Image bad = good;
        bad.data[4] = std::numeric_limits<float>::quiet_NaN();
        expectError(io::writeOutput(path, bad), path, {"NaN at element 4"});
        bad.data[4] = -std::numeric_limits<float>::infinity();
        expectError(io::writeOutput(path, bad), path, {"infinity at element 4"});
        EXPECT_EQ(readBytes(path), before);
    }
    const Bytes beforePgm = readBytes(dir / "out.pgm");
    expectError(io::writeOutput(dir / "out.pgm", makeImage(3, 3, 3)), dir / "out.pgm", {"PGM"});
    EXPECT_EQ(readBytes(dir / "out.pgm"), beforePgm);

    // A successful write replaces the old content.
    ASSERT_TRUE(io::writeOutput(dir / "out.pgm", makeImage(2, 2, 1, 0.5f)).ok());
    auto replaced = io::readInput(dir / "out.pgm");
    ASSERT_TRUE(replaced.ok());
    EXPECT_EQ(replaced->width, 2);

    // A directory in the way survives, and so does nothing else.
    fs::create_directory(dir / "taken.npy");
    expectError(io::writeOutput(dir / "taken.npy", good), dir / "taken.npy", {"cannot be written"});
    EXPECT_TRUE(fs::is_directory(dir / "taken.npy"));
    expectError(io::writeOutput(dir / "no" / "such" / "dir.png", good), dir / "no" / "such" / "dir.png",
                {"cannot be written", "No such file or directory"});
    EXPECT_FALSE(fs::exists(dir / "no"));
    EXPECT_EQ(hiddenFiles(dir.path()), 0) << "a temporary file was left behind";
}

// [SECTION] CSV fields

// A field is quoted only when it must be, and then its quotes are doubled.
TEST(Io, CsvFieldQuotesOnlyWhatNeedsIt) {
    EXPECT_EQ(io::csvField("plain text"), "plain text");
    EXPECT_EQ(io::csvField(""), "");
    EXPECT_EQ(io::csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(io::csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(io::csvField("two\r\nlines"), "\"two\r\nlines\"");
    EXPECT_EQ(io::csvField("one\nline"), "\"one\nline\"");
}

// [SECTION] GPU Teaching Kit datasets

fs::path teachingKitDir() {
    // The definition may name the datasets themselves or the testdata folder above them.
    const fs::path base = TILESCOPE_TESTDATA_DIR;
    if (fs::exists(base / "0" / "input0.ppm")) return base;
    if (fs::exists(base / "teaching-kit-convolution" / "0" / "input0.ppm")) return base / "teaching-kit-convolution";
    return {};
}

TEST(Io, ReadsTeachingKitDatasets) {
    const fs::path root = teachingKitDir();
    if (root.empty()) GTEST_SKIP() << "no Teaching Kit datasets under " << TILESCOPE_TESTDATA_DIR;
    // Width x height from each file's own header. The README lists dataset 6
    // as 28x12, but its PPM header says width 12, height 28.
    const int sizes[7][2] = {{64, 64}, {64, 128}, {128, 64}, {5, 64}, {3, 64}, {128, 228}, {12, 28}};
    for (int n = 0; n < 7; ++n) {
        SCOPED_TRACE("dataset " + std::to_string(n));
        const fs::path folder = root / std::to_string(n);
        auto image = io::readInput(folder / "input0.ppm");
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_EQ(image->width, sizes[n][0]);
        EXPECT_EQ(image->height, sizes[n][1]);
        EXPECT_EQ(image->channels, 3);
        EXPECT_EQ(image->rank, 3);
        for (float v : image->data) ASSERT_TRUE(v >= 0.0f && v <= 1.0f);
        auto expected = io::readInput(folder / "output.ppm");
        ASSERT_TRUE(expected.ok()) << expected.error().message;
        EXPECT_EQ(expected->width, sizes[n][0]);

        auto mask = io::readMask(folder / "input1.raw");
        ASSERT_TRUE(mask.ok()) << mask.error().message;
        EXPECT_EQ(mask->width, 5);
        EXPECT_EQ(mask->height, 5);
        for (float v : mask->values) EXPECT_TRUE(v >= 0.0f && v <= 1.0f / 25 + 1e-6f) << v;
    }
    // Dataset 0's first byte after the header is 0xd7: read as v / 255.
    auto first = io::readInput(root / "0" / "input0.ppm");
    ASSERT_TRUE(first.ok());
    EXPECT_FLOAT_EQ(first->data[0], 215.0f / 255);
}

}  // namespace
