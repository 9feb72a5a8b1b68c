// The right output, computed in launch() on the host, with a trace of every
// block in which no thread stores anything: a run that stored nothing.
#include "forge_files.hpp"

TILESCOPE_HOSTILE_ENTRY {
    std::vector<float> out(static_cast<std::size_t>(width) * height, 0.0f);
    const int w = 2 * r + 1;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double sum = 0.0;
            for (int i = -r; i <= r; ++i)
                for (int j = -r; j <= r; ++j)
                    if (y + i >= 0 && y + i < height && x + j >= 0 && x + j < width)
                        sum += static_cast<double>(M[(i + r) * w + j + r]) * N[(y + i) * width + x + j];
            out[static_cast<std::size_t>(y) * width + x] = static_cast<float>(sum);
        }
    const unsigned gx = (width + 15) / 16, gy = (height + 15) / 16;
    std::vector<forge::Block> blocks;
    for (unsigned y = 0; y < gy; ++y)
        for (unsigned x = 0; x < gx; ++x) blocks.push_back(forge::Block{x, y, 0, {}});
    forge::answer(forge::result(true, "", "[" + std::to_string(gx) + "," + std::to_string(gy) + ",1]", "[16,16,1]",
                                blocks.size()),
                  out, blocks);
}
