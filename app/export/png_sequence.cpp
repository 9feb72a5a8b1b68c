// A folder of PNGs, frame_0000.png, frame_0001.png, ... (stb_image_write),
// for slides that step on a click. The frames go into DIR.part, which is
// renamed to DIR when the last one is in. DIR may be missing, empty, or hold
// an earlier export's frames (they are replaced); a folder holding anything
// else is refused, so that no one's files are ever deleted.
#include <stb_image_write.h>

#include <cstdio>
#include <system_error>

#include "export/frame_writer.hpp"
#include "io/file_checks.hpp"
#include "io/whole_file.hpp"

namespace tilescope::exports {

namespace {

bool isFrameName(const std::string& name) {
    // frame_NNNN.png (four digits or more)
    if (name.size() < 14 || name.rfind("frame_", 0) != 0 || name.substr(name.size() - 4) != ".png")
        return false;
    return name.find_first_not_of("0123456789", 6) == name.size() - 4;
}

void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<unsigned char>*>(context);
    const auto* bytes = static_cast<const unsigned char*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

class PngSequenceWriter final : public FrameWriter {
public:
    PngSequenceWriter(std::filesystem::path folder, const WriterOptions& options)
        : m_folder(std::move(folder)), m_part(partPath(m_folder)), m_options(options) {}
    ~PngSequenceWriter() override {
        if (!m_finished) {
            std::error_code ignored;
            std::filesystem::remove_all(m_part, ignored);
        }
    }

    Status open() {
        std::error_code e;
        if (std::filesystem::exists(m_folder, e)) {
            if (!std::filesystem::is_directory(m_folder, e))
                return io::fileError(m_folder, "is a file, not a folder: give a folder for the PNG sequence");
            for (const auto& entry : std::filesystem::directory_iterator(m_folder, e))
                if (!isFrameName(entry.path().filename().string()))
                    return io::fileError(m_folder,
                                         "holds other files than an earlier export's frames: give a new "
                                         "or empty folder");
        }
        std::filesystem::remove_all(m_part, e);
        if (!std::filesystem::create_directory(m_part, e) || e)
            return io::fileError(m_folder, "cannot be written: " + (e ? e.message() : "the folder was not made"));
        return success();
    }

    Status add(const Frame& frame) override {
        if (frame.width != m_options.width || frame.height != m_options.height)
            return badInput("a frame of another size than the sequence's");
        char name[32];
        std::snprintf(name, sizeof name, "frame_%04d.png", m_count);
        std::vector<unsigned char> png;
        if (!stbi_write_png_to_func(appendBytes, &png, frame.width, frame.height, 4, frame.rgba.data(),
                                    frame.width * 4))
            return io::fileError(m_folder, "a PNG could not be encoded");
        if (Status s = io::writeFileAtomic(m_part / name, png); !s)
            return io::fileError(m_folder, "could not be written: " + s.error().message);
        ++m_count;
        return success();
    }

    Status finish() override {
        std::error_code e;
        if (std::filesystem::exists(m_folder, e))
            std::filesystem::remove_all(m_folder, e);  // only an earlier export's frames (checked at open)
        std::filesystem::rename(m_part, m_folder, e);
        if (e)
            return io::fileError(m_folder, "could not be written: " + e.message());
        m_finished = true;
        return success();
    }

private:
    std::filesystem::path m_folder, m_part;
    WriterOptions m_options;
    int m_count = 0;
    bool m_finished = false;
};

}  // namespace

Result<std::unique_ptr<FrameWriter>> openPngSequenceWriter(const std::filesystem::path& folder,
                                                           const WriterOptions& options) {
    auto writer = std::make_unique<PngSequenceWriter>(folder, options);
    if (Status s = writer->open(); !s)
        return s.error();
    return std::unique_ptr<FrameWriter>(std::move(writer));
}

}  // namespace tilescope::exports
