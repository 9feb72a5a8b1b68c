// An animated GIF through giflib (Debian's libgif-dev, 5.2). The diagrams
// have few colours, so each frame keeps them exactly in a palette of its own
// when it has at most 256 (GifQuantizeBuffer reduces it otherwise, as for a
// photo input's values). After the first frame, only the rectangle that
// changed is written, over the frame before it (disposal "do not dispose"),
// which keeps a long animation small. The loop is the NETSCAPE2.0 extension;
// each frame's delay is a GIF89 graphics control extension, in hundredths of
// a second. The browser build has no giflib (cmake/Web.cmake): there a GIF
// is refused with a message, as an MP4 is without FFmpeg.
#include "export/frame_writer.hpp"

#if !TILESCOPE_HAVE_GIF

namespace tilescope::exports {

bool gifAvailable() {
    return false;
}

Result<std::unique_ptr<FrameWriter>> openGifWriter(const std::filesystem::path&, const WriterOptions&) {
    return Error{ExitCode::BadInput, kNoGif};
}

}  // namespace tilescope::exports

#else

#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "io/file_checks.hpp"

namespace tilescope::exports {

bool gifAvailable() {
    return true;
}

namespace {

std::string gifError(int code) {
    const char* text = GifErrorString(code);
    return text ? text : "giflib error " + std::to_string(code);
}

class GifWriter final : public FrameWriter {
public:
    GifWriter(std::filesystem::path path, const WriterOptions& options)
        : m_path(std::move(path)), m_file(m_path, kExportWrite), m_options(options) {}
    ~GifWriter() override {
        if (m_gif) {
            int error = 0;
            EGifCloseFile(m_gif, &error);
        }
    }

    Status open() {
        // The temporary made here rather than by EGifOpenFileName, which
        // makes the file readable by its owner only: a GIF is made to be
        // shared. giflib closes what it is given, so it gets a copy of the
        // descriptor.
        if (Status s = openTemporary(m_file); !s)
            return s;
        const int fd = ::dup(m_file.descriptor());
        if (fd < 0)
            return io::fileError(m_path, "cannot be written: " + std::string(std::strerror(errno)));
        int error = 0;
        m_gif = EGifOpenFileHandle(fd, &error);
        if (!m_gif) {
            ::close(fd);
            return io::fileError(m_path, "cannot be written: " + gifError(error));
        }
        errno = 0;
        EGifSetGifVersion(m_gif, true);
        if (EGifPutScreenDesc(m_gif, m_options.width, m_options.height, 8, 0, nullptr) == GIF_ERROR)
            return failed();
        // Loop for ever: the NETSCAPE2.0 application extension, loop count 0.
        static const unsigned char kNetscape[] = "NETSCAPE2.0";
        const unsigned char loop[3] = {1, 0, 0};
        if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
            EGifPutExtensionBlock(m_gif, 11, kNetscape) == GIF_ERROR ||
            EGifPutExtensionBlock(m_gif, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(m_gif) == GIF_ERROR)
            return failed();
        return success();
    }

    Status add(const Frame& frame) override {
        if (frame.width != m_options.width || frame.height != m_options.height)
            return badInput("a frame of another size than the GIF's");
        // The rectangle that changed since the last frame (all of the first).
        int x0 = 0, y0 = 0, x1 = frame.width, y1 = frame.height;
        if (!m_previous.empty()) {
            x0 = frame.width, y0 = frame.height, x1 = 0, y1 = 0;
            for (int y = 0; y < frame.height; ++y)
                for (int x = 0; x < frame.width; ++x) {
                    const std::size_t i = (static_cast<std::size_t>(y) * frame.width + x) * 4;
                    if (std::memcmp(&frame.rgba[i], &m_previous[i], 3) != 0) {
                        x0 = std::min(x0, x);
                        y0 = std::min(y0, y);
                        x1 = std::max(x1, x + 1);
                        y1 = std::max(y1, y + 1);
                    }
                }
            if (x1 <= x0) {  // nothing changed: one pixel, the same again
                x0 = y0 = 0;
                x1 = y1 = 1;
            }
        }
        m_previous = frame.rgba;
        const int w = x1 - x0, h = y1 - y0;

        std::vector<GifByteType> indices(static_cast<std::size_t>(w) * h);
        std::vector<GifColorType> colours;
        if (!exactPalette(frame, x0, y0, w, h, indices, colours) && !quantized(frame, x0, y0, w, h, indices, colours))
            return failed();
        int bits = 1;
        while ((1 << bits) < static_cast<int>(colours.size()))
            ++bits;
        colours.resize(std::size_t{1} << bits, GifColorType{0, 0, 0});
        ColorMapObject* map = GifMakeMapObject(1 << bits, colours.data());
        if (!map)
            return badInput("giflib could not make a palette");

        GraphicsControlBlock control{};
        control.DisposalMode = DISPOSE_DO_NOT;
        control.UserInputFlag = false;
        control.DelayTime = std::max(2, static_cast<int>(std::lround(100.0 / m_options.fps)));
        control.TransparentColor = NO_TRANSPARENT_COLOR;
        GifByteType extension[4];
        const std::size_t length = EGifGCBToExtension(&control, extension);
        bool ok = EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) != GIF_ERROR &&
                  EGifPutImageDesc(m_gif, x0, y0, w, h, false, map) != GIF_ERROR;
        for (int y = 0; ok && y < h; ++y)
            ok = EGifPutLine(m_gif, &indices[static_cast<std::size_t>(y) * w], w) != GIF_ERROR;
        GifFreeMapObject(map);
        return ok ? success() : failed();
    }

    Status finish() override {
        int error = 0;
        GifFileType* gif = std::exchange(m_gif, nullptr);
        if (EGifCloseFile(gif, &error) == GIF_ERROR)
            return io::fileError(m_path, "could not be written: " + gifError(error));
        return commitTemporary(m_file);
    }

private:
    Status failed() const {
        const int code = m_gif ? m_gif->Error : 0;
        return io::fileError(
            m_path, "could not be written: " + (errno != 0 ? std::string(std::strerror(errno)) : gifError(code)));
    }

    // Each colour of the rectangle in a palette, when it has at most 256.
    static bool exactPalette(const Frame& frame, int x0, int y0, int w, int h, std::vector<GifByteType>& indices,
                             std::vector<GifColorType>& colours) {
        std::unordered_map<std::uint32_t, GifByteType> index;
        colours.clear();
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const std::uint8_t* p = &frame.rgba[(static_cast<std::size_t>(y0 + y) * frame.width + x0 + x) * 4];
                const std::uint32_t key = p[0] | (p[1] << 8) | (p[2] << 16);
                auto [at, inserted] = index.try_emplace(key, static_cast<GifByteType>(colours.size()));
                if (inserted) {
                    if (colours.size() == 256)
                        return false;
                    colours.push_back({p[0], p[1], p[2]});
                }
                indices[static_cast<std::size_t>(y) * w + x] = at->second;
            }
        return true;
    }

    // More than 256 colours: giflib's median-cut quantizer.
    static bool quantized(const Frame& frame, int x0, int y0, int w, int h, std::vector<GifByteType>& indices,
                          std::vector<GifColorType>& colours) {
        const std::size_t n = static_cast<std::size_t>(w) * h;
        std::vector<GifByteType> red(n), green(n), blue(n);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const std::uint8_t* p = &frame.rgba[(static_cast<std::size_t>(y0 + y) * frame.width + x0 + x) * 4];
                const std::size_t i = static_cast<std::size_t>(y) * w + x;
                red[i] = p[0];
                green[i] = p[1];
                blue[i] = p[2];
            }
        int size = 256;
        colours.assign(256, GifColorType{0, 0, 0});
        if (GifQuantizeBuffer(static_cast<unsigned>(w), static_cast<unsigned>(h), &size, red.data(), green.data(),
                              blue.data(), indices.data(), colours.data()) == GIF_ERROR)
            return false;
        colours.resize(static_cast<std::size_t>(std::clamp(size, 1, 256)));
        return true;
    }

    std::filesystem::path m_path;
    base::AtomicFile m_file;  // removes the temporary unless the GIF was finished
    WriterOptions m_options;
    GifFileType* m_gif = nullptr;
    std::vector<std::uint8_t> m_previous;
};

}  // namespace

Result<std::unique_ptr<FrameWriter>> openGifWriter(const std::filesystem::path& path, const WriterOptions& options) {
    auto writer = std::make_unique<GifWriter>(path, options);
    if (Status s = writer->open(); !s)
        return s.error();
    return std::unique_ptr<FrameWriter>(std::move(writer));
}

}  // namespace tilescope::exports

#endif
