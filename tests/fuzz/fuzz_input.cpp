// libFuzzer target: readInput, the entry point of every input file, which
// chooses a reader by extension (.npy) or by the file's first bytes (PNG,
// JPEG, BMP through stb_image; PGM/PPM through our own parser). The first
// byte picks the extension, the rest is the file.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "io/files.hpp"

using namespace tilescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return -1;
    // Upper case and unknown extensions too: the dispatch must refuse, not guess.
    static const char* const kExtensions[] = {".npy", ".png", ".jpg", ".jpeg", ".bmp", ".pgm",
                                              ".ppm", ".pnm", ".PNG", ".tif",  ""};
    constexpr std::size_t kCount = sizeof kExtensions / sizeof kExtensions[0];
    const std::string extension = kExtensions[data[0] % kCount];
    const auto path = fuzz::writeInput(data + 1, size - 1, extension);
    auto image = io::readInput(path);
    if (image) fuzz::checkImage(*image, extension != ".npy");
    else fuzz::checkRefusal(image.error(), path);
    return 0;
}
