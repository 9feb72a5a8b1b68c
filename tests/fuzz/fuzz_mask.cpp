// libFuzzer target: the mask readers. The first byte picks the file's
// extension, and with it the format: whitespace text, CSV, the Teaching Kit's
// .raw, or .npy; the rest is the file.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "io/mask_file.hpp"

using namespace tilescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return -1;
    static const char* const kExtensions[] = {".txt", ".csv", ".raw", ".npy"};
    const std::string extension = kExtensions[data[0] % 4];
    const auto path = fuzz::writeInput(data + 1, size - 1, extension);
    auto mask = io::readMask(path);
    if (mask) fuzz::checkMask(*mask);
    else fuzz::checkRefusal(mask.error(), path);
    return 0;
}
