#include "model/masks.hpp"

#include <cmath>
#include <string>

namespace tilescope::ui {

namespace {

constexpr MaskPresetInfo kPresets[] = {
    {MaskPreset::Identity, "identity", "Identity", true, true, -1, "1 in the centre: P is a copy of N"},
    {MaskPreset::Shift, "shift", "Shift", true, true, -1,
     "1 at the right edge: P[i] = N[i + r], the picture moves left by r"},
    {MaskPreset::BoxBlur, "box", "Box blur", true, true, -1, "every weight 1 / (number of taps): the plain average"},
    {MaskPreset::Gaussian, "gaussian", "Gaussian", true, true, -1,
     "binomial weights (1 2 1, 1 4 6 4 1, ...), normalised: a smooth blur"},
    {MaskPreset::SobelX, "sobel-x", "Sobel x", true, true, -1,
     "horizontal derivative: signed output, shown with the diverging map"},
    {MaskPreset::SobelY, "sobel-y", "Sobel y", false, true, -1,
     "vertical derivative: signed output, shown with the diverging map"},
    {MaskPreset::Sharpen, "sharpen", "Sharpen", true, true, -1, "2 x identity - box blur: edges stand out"},
    {MaskPreset::BookOneD, "book-1d", "Book 1D: 3 4 5 4 3", true, false, 2,
     "the book's 1D example mask (width 5, r = 2)"},
    {MaskPreset::Figure7_4, "fig-7.4", "Book Fig 7.4 (5x5)", false, true, 2,
     "the book's 5 x 5 example mask: rows 1 2 3 2 1 / 2 3 4 3 2 / 3 4 5 4 3 / 2 3 4 3 2 / 1 2 3 2 1"},
    {MaskPreset::Custom, "custom", "Custom (edit the grid)", true, true, -1, "your own weights: click a cell to edit"},
};

// Row n of Pascal's triangle: 1, 2 1, 1 2 1, 1 3 3 1, ...
std::vector<float> binomial(int count) {
    std::vector<float> row{1.0f};
    for (int i = 1; i < count; ++i) {
        std::vector<float> next(row.size() + 1, 0.0f);
        for (std::size_t j = 0; j < row.size(); ++j) {
            next[j] += row[j];
            next[j + 1] += row[j];
        }
        row = std::move(next);
    }
    return row;
}

// The derivative part of a Sobel mask of width 2r + 1: a smoothing row of
// width 2r - 1 convolved with the central difference -1 0 1. For r = 1 it is
// -1 0 1; for r = 2, -1 -2 0 2 1.
std::vector<float> derivative(int radius) {
    const std::vector<float> smooth = binomial(2 * radius - 1);
    std::vector<float> row(smooth.size() + 2, 0.0f);
    for (std::size_t j = 0; j < smooth.size(); ++j) {
        row[j] -= smooth[j];
        row[j + 2] += smooth[j];
    }
    return row;
}

Mask fromRows(int dims, const std::vector<float>& columnWeights, const std::vector<float>& rowWeights) {
    if (dims == 1)
        return Mask::row(columnWeights);
    const int width = static_cast<int>(columnWeights.size());
    std::vector<float> values(static_cast<std::size_t>(width) * width);
    for (int y = 0; y < width; ++y)
        for (int x = 0; x < width; ++x)
            values[static_cast<std::size_t>(y) * width + x] =
                rowWeights[static_cast<std::size_t>(y)] * columnWeights[static_cast<std::size_t>(x)];
    return Mask::square(width, values);
}

Mask filled(int dims, int width, float value) {
    const std::size_t count = dims == 1 ? width : static_cast<std::size_t>(width) * width;
    return dims == 1 ? Mask::row(std::vector<float>(count, value))
                     : Mask::square(width, std::vector<float>(count, value));
}

float& centre(Mask& m) {
    const int r = m.width / 2;
    return m.values[static_cast<std::size_t>(m.height / 2) * m.width + r];
}

}  // namespace

std::span<const MaskPresetInfo> maskPresets() {
    return kPresets;
}

const MaskPresetInfo& maskPresetInfo(MaskPreset preset) {
    return kPresets[static_cast<int>(preset)];
}

const MaskPresetInfo* findMaskPreset(std::string_view key) {
    for (const MaskPresetInfo& p : kPresets)
        if (p.key == key)
            return &p;
    return nullptr;
}

Result<Mask> makePresetMask(MaskPreset preset, int dims, int radius) {
    const MaskPresetInfo& info = maskPresetInfo(preset);
    if (dims == 1 && !info.oneD)
        return badInput(std::string(info.label) + " exists only for 2D kernels");
    if (dims == 2 && !info.twoD)
        return badInput(std::string(info.label) + " exists only for 1D kernels");
    if (info.fixedRadius >= 0)
        radius = info.fixedRadius;
    if (radius < 0)
        return badInput("the radius cannot be negative");
    const int width = 2 * radius + 1;

    switch (preset) {
        case MaskPreset::Identity: {
            Mask m = filled(dims, width, 0.0f);
            centre(m) = 1.0f;
            return m;
        }
        case MaskPreset::Shift: {
            Mask m = filled(dims, width, 0.0f);
            m.values[static_cast<std::size_t>(m.height / 2) * width + (width - 1)] = 1.0f;
            return m;
        }
        case MaskPreset::BoxBlur: {
            const float taps = dims == 1 ? static_cast<float>(width) : static_cast<float>(width * width);
            return filled(dims, width, 1.0f / taps);
        }
        case MaskPreset::Gaussian: {
            std::vector<float> row = binomial(width);
            float sum = 0.0f;
            for (float v : row)
                sum += v;
            for (float& v : row)
                v /= sum;
            return fromRows(dims, row, row);
        }
        case MaskPreset::SobelX:
        case MaskPreset::SobelY: {
            if (radius == 0)
                return badInput(std::string(info.label) + " needs a radius of 1 or more");
            const std::vector<float> d = derivative(radius);
            const std::vector<float> s = binomial(width);
            if (dims == 1)
                return Mask::row(d);
            return preset == MaskPreset::SobelX ? fromRows(2, d, s) : fromRows(2, s, d);
        }
        case MaskPreset::Sharpen: {
            const float taps = dims == 1 ? static_cast<float>(width) : static_cast<float>(width * width);
            Mask m = filled(dims, width, -1.0f / taps);
            centre(m) += 2.0f;
            return m;
        }
        case MaskPreset::BookOneD:
            return Mask::row({3, 4, 5, 4, 3});
        case MaskPreset::Figure7_4:
            return Mask::square(5, {1, 2, 3, 2, 1,  //
                                    2, 3, 4, 3, 2,  //
                                    3, 4, 5, 4, 3,  //
                                    2, 3, 4, 3, 2,  //
                                    1, 2, 3, 2, 1});
        case MaskPreset::Custom:
            break;
    }
    return Error{ExitCode::Internal, "the custom mask is not a preset"};
}

Mask makeCustomMask(const std::vector<float>& values, int dims, int radius) {
    const int width = 2 * radius + 1;
    const std::size_t count = dims == 1 ? width : static_cast<std::size_t>(width) * width;
    if (values.size() == count)
        return dims == 1 ? Mask::row(values) : Mask::square(width, values);
    Mask m = filled(dims, width, 0.0f);
    centre(m) = 1.0f;
    return m;
}

}  // namespace tilescope::ui
