// libFuzzer target: the .npy reader, as an input (readNpy) and as a mask
// (readNpyMask). An array it accepts is written back and read again, and must
// come back bit for bit.
#include <cstdint>
#include <cstring>

#include "fuzz_support.hpp"
#include "io/npy.hpp"

using namespace tilescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = fuzz::writeInput(data, size, ".npy");

    auto image = io::readNpy(path);
    if (image) {
        fuzz::checkImage(*image, false);
        const auto copy = path.parent_path() / "copy.npy";
        if (auto written = io::writeNpy(copy, *image); !written)
            fuzz::broken("an array read is writable", written.error().message);
        auto again = io::readNpy(copy);
        if (!again) fuzz::broken("an array written is readable", again.error().message);
        if (again->width != image->width || again->height != image->height || again->channels != image->channels ||
            again->rank != image->rank || again->data.size() != image->data.size() ||
            std::memcmp(again->data.data(), image->data.data(), image->data.size() * sizeof(float)) != 0)
            fuzz::broken("write then read gives the same array", path.string());
    } else {
        fuzz::checkRefusal(image.error(), path);
    }

    auto mask = io::readNpyMask(path);
    if (mask) {
        fuzz::checkMask(*mask);
        // A mask is a 1D or 2D array: the image reader takes every array the mask reader takes.
        if (!image) fuzz::broken("readNpy accepts what readNpyMask accepts", image.error().message);
    } else {
        fuzz::checkRefusal(mask.error(), path);
    }
    return 0;
}
