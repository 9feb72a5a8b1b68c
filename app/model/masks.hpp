// The mask presets of the set-up panel: the classic image filters, the
// book's own masks, and an editable grid ("custom").
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::ui {

enum class MaskPreset {
    Identity,
    Shift,
    BoxBlur,
    Gaussian,
    SobelX,
    SobelY,
    Sharpen,
    BookOneD,   // 3 4 5 4 3
    Figure7_4,  // the 5 x 5 mask of Figure 7.4
    Custom,     // the editable grid
};

struct MaskPresetInfo {
    MaskPreset id;
    std::string_view key;    // for the command line and the settings file: "gaussian"
    std::string_view label;  // for the panel
    bool oneD;               // exists for 1D kernels
    bool twoD;               // exists for 2D kernels
    int fixedRadius;         // -1: any radius
    std::string_view about;  // one line for the tooltip
};

std::span<const MaskPresetInfo> maskPresets();
const MaskPresetInfo& maskPresetInfo(MaskPreset preset);
const MaskPresetInfo* findMaskPreset(std::string_view key);

// The preset's mask for a kernel of `dims` dimensions and the given radius
// (ignored for presets of fixed size), or why it does not exist. Custom is
// not made here: its values live in the set-up state.
Result<Mask> makePresetMask(MaskPreset preset, int dims, int radius);

// A mask of custom values for `dims` and `radius`: `values` when they have the
// right count, otherwise the identity of that size.
Mask makeCustomMask(const std::vector<float>& values, int dims, int radius);

}  // namespace tilescope::ui
