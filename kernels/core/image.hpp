// The host-side containers every part of TileScope passes around: an input or
// output array (1D signal, 2D image, or H x W x C image) and a convolution mask.
#pragma once

#include <cstddef>
#include <vector>

namespace tilescope {

// Values are float32, row-major, channels interleaved (pixel (x, y) channel c
// is data[(y * width + x) * channels + c]). `rank` remembers the shape the data
// came in (1: a signal of `width` samples; 2: H x W; 3: H x W x C) so that an
// output can be written back in the same shape.
struct Image {
    int width = 0;
    int height = 1;
    int channels = 1;
    int rank = 2;
    std::vector<float> data;

    static Image signal(std::vector<float> values) {
        Image image;
        image.width = static_cast<int>(values.size());
        image.height = 1;
        image.channels = 1;
        image.rank = 1;
        image.data = std::move(values);
        return image;
    }
    static Image planar(int width, int height, int channels = 1) {
        Image image;
        image.width = width;
        image.height = height;
        image.channels = channels;
        image.rank = channels == 1 ? 2 : 3;
        image.data.assign(static_cast<std::size_t>(width) * height * channels, 0.0f);
        return image;
    }

    std::size_t size() const { return data.size(); }
    bool empty() const { return width <= 0 || height <= 0 || channels <= 0; }
    float& at(int x, int y, int c = 0) { return data[(static_cast<std::size_t>(y) * width + x) * channels + c]; }
    float at(int x, int y, int c = 0) const {
        return data[(static_cast<std::size_t>(y) * width + x) * channels + c];
    }

    // One channel as its own single-channel plane.
    Image plane(int c) const {
        Image out = planar(width, height, 1);
        out.rank = rank == 1 ? 1 : 2;
        for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] = data[i * channels + c];
        return out;
    }
    void setPlane(int c, const Image& p) {
        for (std::size_t i = 0; i < p.data.size(); ++i) data[i * channels + c] = p.data[i];
    }
};

// A convolution mask (the book's M or F), row-major, `height` = 1 for 1D masks.
// The book's masks are odd and, in 2D, square: radius r gives width 2r+1.
struct Mask {
    int width = 0;
    int height = 1;
    std::vector<float> values;

    static Mask row(std::vector<float> v) {
        Mask m;
        m.width = static_cast<int>(v.size());
        m.height = 1;
        m.values = std::move(v);
        return m;
    }
    static Mask square(int width, std::vector<float> v) {
        Mask m;
        m.width = width;
        m.height = width;
        m.values = std::move(v);
        return m;
    }

    int radius() const { return width / 2; }
    bool is1D() const { return height == 1; }
    float at(int col, int row = 0) const { return values[static_cast<std::size_t>(row) * width + col]; }
    double absSum() const {
        double s = 0;
        for (float v : values) s += v < 0 ? -v : v;
        return s;
    }
};

}  // namespace tilescope
