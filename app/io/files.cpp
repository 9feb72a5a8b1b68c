#include "io/files.hpp"

#include "io/file_checks.hpp"
#include "io/image_file.hpp"
#include "io/npy.hpp"

namespace tilescope::io {

namespace fs = std::filesystem;

namespace {

const char* const kInputFormats = ".npy, .png, .jpg, .jpeg, .bmp, .pgm, .ppm or .pnm";
const char* const kOutputFormats = ".npy, .png, .pgm or .ppm";

}  // namespace

Result<Image> readInput(const fs::path& path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".npy") return readNpy(path);
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".pgm" || ext == ".ppm" ||
        ext == ".pnm")
        return readImageFile(path);
    if (ext.empty())
        return fileError(path, std::string("unsupported input format (no extension; expected ") + kInputFormats + ")");
    return fileError(path, "unsupported input format " + quoteUntrusted(ext) + " (expected " + kInputFormats + ")");
}

Result<Image> readInputBytes(const fs::path& name, std::span<const unsigned char> bytes) {
    const std::string ext = lowerExtension(name);
    if (ext == ".npy") return readNpyBytes(name, bytes);
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".pgm" || ext == ".ppm" ||
        ext == ".pnm")
        return readImageBytes(name, bytes);
    return fileError(name, "unsupported input format " + quoteUntrusted(ext) + " (expected " + kInputFormats + ")");
}

Status writeOutput(const fs::path& path, const Image& image) {
    const std::string ext = lowerExtension(path);
    if (ext == ".npy") return writeNpy(path, image);
    if (ext == ".png" || ext == ".pgm" || ext == ".ppm") return writeImageFile(path, image);
    if (ext.empty())
        return fileError(path,
                         std::string("unsupported output format (no extension; expected ") + kOutputFormats + ")");
    return fileError(path, "unsupported output format " + quoteUntrusted(ext) + " (expected " + kOutputFormats + ")");
}

}  // namespace tilescope::io
