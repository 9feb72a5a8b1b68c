// libFuzzer target: the PGM/PPM reader (P2, P3, P5, P6; P1, P4 and P7 are
// refused). Inputs that do not start with 'P' would go to stb_image instead;
// fuzz_input covers that path, so this target skips them.
#include <cstdint>

#include "fuzz_support.hpp"
#include "io/image_file.hpp"

using namespace tilescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || data[0] != 'P') return -1;  // -1: not worth adding to the corpus
    const auto path = fuzz::writeInput(data, size, ".pgm");
    auto image = io::readImageFile(path);
    if (image) {
        fuzz::checkImage(*image, true);
        if (image->channels != 1 && image->channels != 3)
            fuzz::broken("a PNM image has 1 or 3 channels", path.string());
    } else {
        fuzz::checkRefusal(image.error(), path);
    }
    return 0;
}
