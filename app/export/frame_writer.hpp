// Writers of animations and picture sequences for slides: an animated GIF
// (giflib), an MP4 (FFmpeg's libavcodec and libavformat, when the build
// found them), a folder of PNGs (stb_image_write). They know frames of
// pixels, never the app: the exporter (ui/exporter.cpp) draws the frames and
// hands them here.
//
// Each writer writes beside its destination (a temporary file of
// base/atomic_file.hpp, or DIR.part for the PNG folder) and renames onto it
// only when the last frame is in, so that a failure, a cancel or a crash never
// leaves a partial file under the name the user asked for.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "core/result.hpp"

namespace tilescope::exports {

// Pixels top row first, 4 bytes (RGBA) each; alpha is ignored.
struct Frame {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;
};

// `frame` scaled to width x height: whole multiples up by repeating pixels
// (crisp cells), otherwise by averaging the pixels each one covers.
Frame resizeFrame(const Frame& frame, int width, int height);

enum class Format { Gif, Mp4, PngSequence };
const char* formatName(Format format);  // "GIF", "MP4", "PNG sequence"

class FrameWriter {
public:
    virtual ~FrameWriter() = default;  // an unfinished writer removes what it wrote
    // Every frame has the size given at open().
    virtual Status add(const Frame& frame) = 0;
    // Completes the file (or folder) and renames it into place.
    virtual Status finish() = 0;
};

struct WriterOptions {
    int width = 0, height = 0;  // every frame's size
    double fps = 10.0;          // frames per second
};

// Opens a writer of `format` at `path`; an unwritable path is refused here,
// before any frame is drawn.
Result<std::unique_ptr<FrameWriter>> openFrameWriter(Format format, const std::filesystem::path& path,
                                                     const WriterOptions& options);

// Whether this build writes GIF (giflib: every desktop build; not the browser's).
bool gifAvailable();
inline constexpr const char* kNoGif = "this build has no GIF export (giflib is not built for the browser): export PNG "
                                      "frames or an SVG";
// Whether this build writes MP4 (FFmpeg's libraries were found when it was built).
bool mp4Available();
// "H.264 (libx264)" or "MPEG-4 part 2": what an MP4 would be encoded with; empty without MP4.
std::string mp4Codec();
inline constexpr const char* kNoMp4 = "this build has no MP4 export (FFmpeg's libraries were not found at build time)";

// [SECTION] The writers (one source file each)
Result<std::unique_ptr<FrameWriter>> openGifWriter(const std::filesystem::path& path, const WriterOptions& options);
Result<std::unique_ptr<FrameWriter>> openMp4Writer(const std::filesystem::path& path, const WriterOptions& options);
Result<std::unique_ptr<FrameWriter>> openPngSequenceWriter(const std::filesystem::path& folder,
                                                           const WriterOptions& options);

// [SECTION] Shared by the writers

// An export is written without fsync: lost in a crash, it is made again in seconds.
inline constexpr base::AtomicWriteOptions kExportWrite = [] {
    base::AtomicWriteOptions options;
    options.sync = false;
    return options;
}();
// Opens the temporary of `file` (GIF, MP4) beside the export's path. A path
// that is a directory is refused here, before any frame is drawn, in the
// words the rename at the end would use.
Status openTemporary(base::AtomicFile& file);
// Renames the finished temporary onto the export's path.
Status commitTemporary(base::AtomicFile& file);
// DIR.part beside DIR, for the PNG folder.
std::filesystem::path partPath(const std::filesystem::path& path);
// Why `path` cannot be written, before anything is: its folder is missing or
// not a folder, or the path is a folder. Empty when it looks writable.
std::string unwritableReason(const std::filesystem::path& path);

}  // namespace tilescope::exports
