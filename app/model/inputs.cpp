#include "model/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "io/files.hpp"
#include "model/assets.hpp"

namespace tilescope::ui {

namespace {

constexpr InputSourceInfo kSources[] = {
    {InputSource::BookOneToSeven, "book-1-7", "Book: N = 1 2 3 4 5 6 7", "book_n_1_to_7.npy", true, false},
    {InputSource::BookShort, "book-4-1-3-2-3", "Book: N = 4 1 3 2 3", "book_n_4_1_3_2_3.npy", true, false},
    {InputSource::Photo, "photo", "Photograph (greyscale)", "photo.pgm", false, true},
    {InputSource::Checkerboard, "checkerboard", "Checkerboard", "checkerboard.pgm", false, false},
    {InputSource::Gradient, "gradient", "Gradient", "gradient.pgm", false, true},
    {InputSource::File, "file", "File (path or drag and drop)", "", false, true},
};

// The weights that make output element `i` of `to` from elements of `from`:
// when shrinking, the average of the source elements it covers (partly
// covered ones count in proportion); when growing, a linear blend of the two
// nearest; when not smooth, the one source element under its centre.
struct Tap {
    int index;
    float weight;
};

std::vector<std::vector<Tap>> resampleWeights(int from, int to, bool smooth) {
    std::vector<std::vector<Tap>> taps(static_cast<std::size_t>(to));
    const double scale = static_cast<double>(from) / to;
    for (int i = 0; i < to; ++i) {
        auto& t = taps[static_cast<std::size_t>(i)];
        if (!smooth) {
            t.push_back({std::min(from - 1, static_cast<int>((i + 0.5) * scale)), 1.0f});
        } else if (scale >= 1.0) {
            const double begin = i * scale, end = (i + 1) * scale;
            for (int s = static_cast<int>(begin); s < from && s < end; ++s) {
                const double covered = std::min<double>(end, s + 1) - std::max<double>(begin, s);
                if (covered > 0)
                    t.push_back({s, static_cast<float>(covered / scale)});
            }
        } else {
            const double centre = std::clamp((i + 0.5) * scale - 0.5, 0.0, static_cast<double>(from - 1));
            const int left = static_cast<int>(centre);
            const int right = std::min(left + 1, from - 1);
            const float f = static_cast<float>(centre - left);
            t.push_back({left, 1.0f - f});
            if (right != left)
                t.push_back({right, f});
        }
    }
    return taps;
}

Image middleRow(const Image& image) {
    Image row = Image::signal(std::vector<float>(static_cast<std::size_t>(image.width)));
    const int y = image.height / 2;
    for (int x = 0; x < image.width; ++x)
        row.data[static_cast<std::size_t>(x)] = image.at(x, y, 0);
    return row;
}

// A built-in input: the binary carries its file (model/assets.hpp).
Result<Image> readBuiltIn(std::string_view file) {
    const auto bytes = embeddedAsset(file);
    if (!bytes)
        return badInput(std::string(file) + ": not built into this program");
    return io::readInputBytes(std::filesystem::path(file), *bytes);
}

Status checkSize(int value, int limit, const char* what) {
    if (value < 1 || value > limit)
        return badInput(std::string(what) + " " + std::to_string(value) + " is outside 1.." + std::to_string(limit));
    return success();
}

}  // namespace

std::span<const InputSourceInfo> inputSources() {
    return kSources;
}

const InputSourceInfo& inputSourceInfo(InputSource source) {
    return kSources[static_cast<int>(source)];
}

const InputSourceInfo* findInputSource(std::string_view key) {
    for (const InputSourceInfo& s : kSources)
        if (s.key == key)
            return &s;
    return nullptr;
}

std::optional<InputShape> predictedShape(const InputSpec& spec, int dims) {
    const InputSourceInfo& info = inputSourceInfo(spec.source);
    if (info.fixedArray)
        return InputShape{spec.source == InputSource::BookOneToSeven ? 7 : 5, 1, 1, 1};
    if (spec.source == InputSource::File && !spec.fitFile)
        return std::nullopt;
    if (dims == 1)
        return InputShape{spec.length, 1, 1, 1};
    if (spec.source == InputSource::File)
        return std::nullopt;  // the channels come from the file
    return InputShape{spec.width, spec.height, 1, 2};
}

Image resize(const Image& image, int width, int height, bool smooth) {
    if (image.width == width && image.height == height)
        return image;
    const auto columns = resampleWeights(image.width, width, smooth);
    const auto rows = resampleWeights(image.height, height, smooth);
    const int c = image.channels;
    // Rows first (width changes), then columns (height changes).
    Image wide = Image::planar(width, image.height, c);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < width; ++x)
            for (int k = 0; k < c; ++k) {
                float sum = 0.0f;
                for (const Tap& t : columns[static_cast<std::size_t>(x)])
                    sum += t.weight * image.at(t.index, y, k);
                wide.at(x, y, k) = sum;
            }
    Image out = Image::planar(width, height, c);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int k = 0; k < c; ++k) {
                float sum = 0.0f;
                for (const Tap& t : rows[static_cast<std::size_t>(y)])
                    sum += t.weight * wide.at(x, t.index, k);
                out.at(x, y, k) = sum;
            }
    out.rank = image.rank == 1 && height == 1 ? 1 : out.rank;
    return out;
}

Result<Image> loadInput(const InputSpec& spec, int dims) {
    const InputSourceInfo& info = inputSourceInfo(spec.source);
    const bool builtIn = spec.source != InputSource::File;
    if (!builtIn && spec.path.empty())
        return badInput("no file chosen: type a path or drop a file on the window");
    const std::filesystem::path path = builtIn ? std::filesystem::path(info.assetFile) : std::filesystem::path(spec.path);
    auto read = builtIn ? readBuiltIn(info.assetFile) : io::readInput(path);
    if (!read)
        return read.error();
    Image image = std::move(*read);
    if (info.fixedArray)
        return image;

    const bool resizeIt = spec.source != InputSource::File || spec.fitFile;
    // The app draws every cell and traces whole launches: a file past the
    // sizes it offers is refused before anything runs, with the ways round.
    if (!resizeIt) {
        if (image.rank == 1 && image.width > kMaxInputLength)
            return badInput(path.string() + ": " + std::to_string(image.width) +
                            " elements, more than the app takes (" + std::to_string(kMaxInputLength) +
                            "); tick \"fit to the size below\" to resample it, or use "
                            "`tilescope run`");
        if (image.rank != 1 && (image.width > kMaxInputEdge || image.height > kMaxInputEdge))
            return badInput(path.string() + ": " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                            " pixels, more than the app takes (" + std::to_string(kMaxInputEdge) +
                            " per side); tick \"fit to the size below\" to scale it down, or use `tilescope run`");
    }
    if (dims == 1) {
        if (spec.source != InputSource::File)
            image = middleRow(image);
        if (!resizeIt)
            return image;
        if (Status s = checkSize(spec.length, kMaxInputLength, "length"); !s)
            return s.error();
        if (image.rank != 1)
            return badInput("cannot fit a " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                            " image to a 1D length; a 1D kernel needs a 1D array (.npy of one dimension)");
        Image row = resize(image, spec.length, 1, info.smooth);
        row.rank = 1;
        return row;
    }
    if (!resizeIt)
        return image;
    if (Status s = checkSize(spec.width, kMaxInputEdge, "width"); !s)
        return s.error();
    if (Status s = checkSize(spec.height, kMaxInputEdge, "height"); !s)
        return s.error();
    if (image.rank == 1)
        return image;  // a 1D array stays 1D: the 2D kernel's check explains
    return resize(image, spec.width, spec.height, info.smooth);
}

}  // namespace tilescope::ui
