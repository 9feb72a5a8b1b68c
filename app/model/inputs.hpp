// The inputs of the set-up panel: the built-in ones (files of assets/, carried
// in the binary: model/assets.hpp) and any image or array file, brought to the
// size the panel asks for.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::ui {

enum class InputSource {
    BookOneToSeven,  // N = 1 2 3 4 5 6 7
    BookShort,       // N = 4 1 3 2 3
    Photo,           // a photograph-like greyscale scene, generated (assets/generate_assets.py)
    Checkerboard,
    Gradient,
    File,  // a file chosen by path or dropped on the window
};

struct InputSourceInfo {
    InputSource id;
    std::string_view key;        // for the command line and the settings file: "photo"
    std::string_view label;      // for the panel
    std::string_view assetFile;  // its file under assets/, embedded in the binary; empty for File
    bool fixedArray;             // the book's arrays: 1D, their own size
    bool smooth;                 // resize by averaging (pictures) or by repeating cells (the checkerboard)
};

std::span<const InputSourceInfo> inputSources();
const InputSourceInfo& inputSourceInfo(InputSource source);
const InputSourceInfo* findInputSource(std::string_view key);

// What to load. Sizes are kept for 1D and 2D separately, so that switching
// kernels back and forth keeps each.
struct InputSpec {
    InputSource source = InputSource::Photo;
    std::string path;  // File
    int length = 32;   // 1D: elements (built-in patterns, and files when fitFile)
    int width = 64;    // 2D: pixels
    int height = 64;
    bool fitFile = false;  // bring a file to the size above instead of its own
    bool operator==(const InputSpec&) const = default;
};

inline constexpr int kMaxInputLength = 1 << 24;  // 1D elements
inline constexpr int kMaxInputEdge = 8192;       // 2D pixels per side

struct InputShape {
    int width = 0;
    int height = 1;
    int channels = 1;
    int rank = 2;
};

// The shape loadInput() will give for a kernel of `dims` dimensions, when it
// is known without reading a file (always, except for a file at its own size).
std::optional<InputShape> predictedShape(const InputSpec& spec, int dims);

// Reads the built-in asset or the file and brings it to the asked size. A 1D
// kernel given a built-in picture gets its middle row (so every built-in input
// works for every kernel, except the book's 1D arrays for 2D kernels).
Result<Image> loadInput(const InputSpec& spec, int dims);

// Resizes an image: averaging (smooth) or repeating the nearest element.
Image resize(const Image& image, int width, int height, bool smooth);

}  // namespace tilescope::ui
