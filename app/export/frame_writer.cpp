#include "export/frame_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <system_error>

#include "io/file_checks.hpp"

namespace tilescope::exports {

const char* formatName(Format format) {
    switch (format) {
        case Format::Gif:
            return "GIF";
        case Format::Mp4:
            return "MP4";
        case Format::PngSequence:
            return "PNG sequence";
    }
    return "?";
}

Frame resizeFrame(const Frame& frame, int width, int height) {
    if (frame.width == width && frame.height == height)
        return frame;
    Frame out;
    out.width = width;
    out.height = height;
    out.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    const bool wholeMultiple =
        width % frame.width == 0 && height % frame.height == 0 && width / frame.width == height / frame.height;
    const double sx = static_cast<double>(frame.width) / width, sy = static_cast<double>(frame.height) / height;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            std::uint8_t* o = &out.rgba[(static_cast<std::size_t>(y) * width + x) * 4];
            if (wholeMultiple) {
                const std::uint8_t* i = &frame.rgba[(static_cast<std::size_t>(y * frame.height / height) * frame.width +
                                                     x * frame.width / width) *
                                                    4];
                std::copy(i, i + 4, o);
                continue;
            }
            // The source pixels under this one (at least the nearest), weighted by how much of each it covers.
            const double x0 = x * sx, x1 = std::max((x + 1) * sx, x0 + 1.0);
            const double y0 = y * sy, y1 = std::max((y + 1) * sy, y0 + 1.0);
            double sum[4] = {0, 0, 0, 0}, weight = 0;
            for (int v = static_cast<int>(y0); v < std::min(static_cast<int>(std::ceil(y1)), frame.height); ++v) {
                const double wy = std::min<double>(v + 1, y1) - std::max<double>(v, y0);
                for (int u = static_cast<int>(x0); u < std::min(static_cast<int>(std::ceil(x1)), frame.width); ++u) {
                    const double w = wy * (std::min<double>(u + 1, x1) - std::max<double>(u, x0));
                    if (w <= 0)
                        continue;
                    const std::uint8_t* i = &frame.rgba[(static_cast<std::size_t>(v) * frame.width + u) * 4];
                    for (int c = 0; c < 4; ++c)
                        sum[c] += w * i[c];
                    weight += w;
                }
            }
            for (int c = 0; c < 4; ++c)
                o[c] = static_cast<std::uint8_t>(std::lround(weight > 0 ? sum[c] / weight : 0.0));
        }
    return out;
}

Result<std::unique_ptr<FrameWriter>> openFrameWriter(Format format, const std::filesystem::path& path,
                                                     const WriterOptions& options) {
    if (options.width <= 0 || options.height <= 0)
        return io::fileError(path, "nothing to write: the frames have no pixels");
    const std::filesystem::path target = path.has_filename() ? path : path.parent_path();
    if (const std::string reason = unwritableReason(target); !reason.empty())
        return io::fileError(target, reason);
    switch (format) {
        case Format::Gif:
            return openGifWriter(path, options);
        case Format::Mp4:
            return openMp4Writer(path, options);
        case Format::PngSequence:
            // "frames/" names the folder "frames".
            return openPngSequenceWriter(path.has_filename() ? path : path.parent_path(), options);
    }
    return badInput("unknown export format");
}

Status openTemporary(base::AtomicFile& file) {
    const auto failure = file.open();
    if (!failure)
        return success();
    switch (failure->kind) {
        case base::FileError::Kind::CreateTemporary:
            return io::fileError(file.target(), "cannot be written: " + failure->detail);
        case base::FileError::Kind::IsDirectory:
            return io::fileError(file.target(),
                                 "could not be written: " + std::error_code(EISDIR, std::generic_category()).message());
        default:
            return io::fileError(file.target(), failure->problem());
    }
}

Status commitTemporary(base::AtomicFile& file) {
    if (const auto failure = file.commit())
        return io::fileError(file.target(), "could not be written: " + failure->detail);
    return success();
}

std::filesystem::path partPath(const std::filesystem::path& path) {
    std::filesystem::path part = path;
    part += ".part";
    return part;
}

std::string unwritableReason(const std::filesystem::path& path) {
    std::error_code error;
    if (path.empty())
        return "no path given";
    const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
    if (!std::filesystem::exists(folder, error))
        return "cannot be written: the folder " + folder.string() + " does not exist";
    if (!std::filesystem::is_directory(folder, error))
        return "cannot be written: " + folder.string() + " is not a folder";
    return {};
}

}  // namespace tilescope::exports
