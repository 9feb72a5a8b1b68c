// An MP4 through FFmpeg's libraries (libavformat muxes, libavcodec encodes,
// libswscale turns RGBA into YUV 4:2:0), when the build found them. H.264
// through libx264 where this libavcodec has that encoder (Debian's
// libavcodec59 has), else MPEG-4 part 2, which every libavcodec has. Both at
// a high quality: the diagrams' thin lines and small digits blur easily.
// YUV 4:2:0 needs an even width and height: an odd edge is padded by
// repeating its last row or column. The file is muxed into a temporary
// beside FILE with its index at the front (faststart: slides start playing
// at once).
#include "export/frame_writer.hpp"

#if TILESCOPE_HAVE_FFMPEG
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cmath>
#include <cstring>

#include "io/file_checks.hpp"
#endif

namespace tilescope::exports {

#if !TILESCOPE_HAVE_FFMPEG

bool mp4Available() {
    return false;
}

std::string mp4Codec() {
    return {};
}

Result<std::unique_ptr<FrameWriter>> openMp4Writer(const std::filesystem::path&, const WriterOptions&) {
    return badInput(kNoMp4);
}

#else

namespace {

std::string avError(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

const AVCodec* chooseEncoder() {
    if (const AVCodec* x264 = avcodec_find_encoder_by_name("libx264"))
        return x264;
    return avcodec_find_encoder(AV_CODEC_ID_MPEG4);
}

class Mp4Writer final : public FrameWriter {
public:
    Mp4Writer(std::filesystem::path path, const WriterOptions& options)
        : m_path(std::move(path)), m_file(m_path, kExportWrite), m_options(options) {}
    ~Mp4Writer() override {
        sws_freeContext(m_scale);
        av_frame_free(&m_frame);
        av_packet_free(&m_packet);
        avcodec_free_context(&m_codec);
        if (m_format) {
            if (m_format->pb)
                avio_closep(&m_format->pb);
            avformat_free_context(m_format);
        }
    }

    Status open() {
        const AVCodec* encoder = chooseEncoder();
        if (!encoder)
            return badInput("this libavcodec has neither an H.264 nor an MPEG-4 encoder");
        int e = avformat_alloc_output_context2(&m_format, nullptr, "mp4", nullptr);
        if (e < 0 || !m_format)
            return fail("no MP4 muxer: " + avError(e));
        AVStream* stream = avformat_new_stream(m_format, nullptr);
        m_codec = avcodec_alloc_context3(encoder);
        m_frame = av_frame_alloc();
        m_packet = av_packet_alloc();
        if (!stream || !m_codec || !m_frame || !m_packet)
            return fail("out of memory");
        m_width = (m_options.width + 1) & ~1;
        m_height = (m_options.height + 1) & ~1;
        const AVRational rate = av_d2q(m_options.fps, 1000);
        m_codec->width = m_width;
        m_codec->height = m_height;
        m_codec->pix_fmt = AV_PIX_FMT_YUV420P;
        m_codec->time_base = av_inv_q(rate);
        m_codec->framerate = rate;
        m_codec->gop_size = std::max(1, static_cast<int>(std::lround(m_options.fps * 2.0)));
        if (encoder->id == AV_CODEC_ID_H264) {
            av_opt_set(m_codec->priv_data, "preset", "medium", 0);
            av_opt_set(m_codec->priv_data, "crf", "16", 0);
        } else {
            m_codec->flags |= AV_CODEC_FLAG_QSCALE;
            m_codec->global_quality = FF_QP2LAMBDA * 2;
        }
        if (m_format->oformat->flags & AVFMT_GLOBALHEADER)
            m_codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        if ((e = avcodec_open2(m_codec, encoder, nullptr)) < 0)
            return fail("the encoder did not open: " + avError(e));
        if ((e = avcodec_parameters_from_context(stream->codecpar, m_codec)) < 0)
            return fail(avError(e));
        stream->time_base = m_codec->time_base;
        m_stream = stream;
        // The muxer writes the temporary by its name, and reads it back for
        // +faststart: its URL, which a caller may set before the header.
        if (Status s = openTemporary(m_file); !s)
            return s;
        av_freep(&m_format->url);
        m_format->url = av_strdup(m_file.temporaryPath().c_str());
        if (!m_format->url)
            return fail("out of memory");
        if ((e = avio_open(&m_format->pb, m_format->url, AVIO_FLAG_WRITE)) < 0)
            return io::fileError(m_path, "cannot be written: " + avError(e));
        AVDictionary* options = nullptr;
        av_dict_set(&options, "movflags", "+faststart", 0);
        e = avformat_write_header(m_format, &options);
        av_dict_free(&options);
        if (e < 0)
            return fail(avError(e));
        m_frame->format = AV_PIX_FMT_YUV420P;
        m_frame->width = m_width;
        m_frame->height = m_height;
        if ((e = av_frame_get_buffer(m_frame, 0)) < 0)
            return fail(avError(e));
        m_scale = sws_getContext(m_width, m_height, AV_PIX_FMT_RGBA, m_width, m_height, AV_PIX_FMT_YUV420P, SWS_BICUBIC,
                                 nullptr, nullptr, nullptr);
        if (!m_scale)
            return fail("no RGBA to YUV conversion");
        m_padded.resize(static_cast<std::size_t>(m_width) * m_height * 4);
        return success();
    }

    Status add(const Frame& frame) override {
        if (frame.width != m_options.width || frame.height != m_options.height)
            return badInput("a frame of another size than the video's");
        // Pad to even sizes by repeating the last column and row.
        for (int y = 0; y < m_height; ++y) {
            const int sy = std::min(y, frame.height - 1);
            std::uint8_t* row = &m_padded[static_cast<std::size_t>(y) * m_width * 4];
            std::memcpy(row, &frame.rgba[static_cast<std::size_t>(sy) * frame.width * 4],
                        static_cast<std::size_t>(frame.width) * 4);
            for (int x = frame.width; x < m_width; ++x)
                std::memcpy(row + x * 4, row + (frame.width - 1) * 4, 4);
        }
        int e = av_frame_make_writable(m_frame);
        if (e < 0)
            return fail(avError(e));
        const std::uint8_t* source[1] = {m_padded.data()};
        const int stride[1] = {m_width * 4};
        sws_scale(m_scale, source, stride, 0, m_height, m_frame->data, m_frame->linesize);
        m_frame->pts = m_next++;
        return encode(m_frame);
    }

    Status finish() override {
        if (Status s = encode(nullptr); !s)
            return s;
        int e = av_write_trailer(m_format);
        if (e < 0)
            return fail(avError(e));
        if ((e = avio_closep(&m_format->pb)) < 0)
            return fail(avError(e));
        return commitTemporary(m_file);
    }

private:
    Error fail(const std::string& why) const { return io::fileError(m_path, "could not be written: " + why); }

    // Sends a frame (null: the end) and writes every packet the encoder hands back.
    Status encode(AVFrame* frame) {
        int e = avcodec_send_frame(m_codec, frame);
        if (e < 0)
            return fail(avError(e));
        for (;;) {
            e = avcodec_receive_packet(m_codec, m_packet);
            if (e == AVERROR(EAGAIN) || e == AVERROR_EOF)
                return success();
            if (e < 0)
                return fail(avError(e));
            av_packet_rescale_ts(m_packet, m_codec->time_base, m_stream->time_base);
            m_packet->stream_index = m_stream->index;
            e = av_interleaved_write_frame(m_format, m_packet);
            av_packet_unref(m_packet);
            if (e < 0)
                return fail(avError(e));
        }
    }

    std::filesystem::path m_path;
    base::AtomicFile m_file;  // removes the temporary unless the MP4 was finished
    WriterOptions m_options;
    int m_width = 0, m_height = 0;
    AVFormatContext* m_format = nullptr;
    AVStream* m_stream = nullptr;
    AVCodecContext* m_codec = nullptr;
    AVFrame* m_frame = nullptr;
    AVPacket* m_packet = nullptr;
    SwsContext* m_scale = nullptr;
    std::vector<std::uint8_t> m_padded;
    std::int64_t m_next = 0;
};

}  // namespace

bool mp4Available() {
    return chooseEncoder() != nullptr;
}

std::string mp4Codec() {
    const AVCodec* encoder = chooseEncoder();
    if (!encoder)
        return {};
    return encoder->id == AV_CODEC_ID_H264 ? "H.264 (libx264)" : "MPEG-4 part 2";
}

Result<std::unique_ptr<FrameWriter>> openMp4Writer(const std::filesystem::path& path, const WriterOptions& options) {
    auto writer = std::make_unique<Mp4Writer>(path, options);
    if (Status s = writer->open(); !s)
        return s.error();
    return std::unique_ptr<FrameWriter>(std::move(writer));
}

#endif

}  // namespace tilescope::exports
