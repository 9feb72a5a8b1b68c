#include "ui/image_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "ui/widgets.hpp"

namespace tilescope::ui {

float fitCell(int width, int height, ImVec2 space, float maxCell) {
    if (width <= 0 || height <= 0)
        return 0.0f;
    const float cell = std::min(space.x / static_cast<float>(width), space.y / static_cast<float>(height));
    return std::max(0.0f, std::min(cell, maxCell));
}

void drawIndexRuler(const ImageViewPlacement& place, const Theme& theme) {
    const float fontSize = theme.fontPixels * 0.8f;
    ImFont* font = theme.mono ? theme.mono : ImGui::GetFont();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float widest = font->CalcTextSizeA(fontSize, 1e9f, 0.0f, std::to_string(place.width - 1).c_str()).x;
    // Every index when they fit, else every 2nd, 5th, 10th, ...
    int every = 1;
    for (int step : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}) {
        every = step;
        if (place.cell * step >= widest + fontSize * 0.6f)
            break;
    }
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (int x = 0; x < place.width; x += every) {
        const std::string label = std::to_string(x);
        const float w = font->CalcTextSizeA(fontSize, 1e9f, 0.0f, label.c_str()).x;
        ImGui::GetWindowDrawList()->AddText(font, fontSize, {place.min.x + place.cell * (x + 0.5f) - w * 0.5f, start.y},
                                            ink, label.c_str());
    }
    ImGui::Dummy({place.cell * place.width, fontSize * 1.2f});
}

std::string shortValue(float value) {
    char text[32];
    if (std::abs(value) < 1e6f && std::nearbyint(value) == value)
        std::snprintf(text, sizeof text, "%.0f", static_cast<double>(value));
    else
        std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value));
    return text;
}

ImageViewPlacement drawImageView(const char* id, gfx::ColorMappedImage& texture, gfx::ColorMapper& mapper,
                                 const Image* values, const char* arrayName, float cell, const Theme& theme) {
    ImageViewPlacement place;
    place.width = texture.width();
    place.height = texture.height();
    place.cell = cell;
    place.min = ImGui::GetCursorScreenPos();
    const ImVec2 size(cell * place.width, cell * place.height);
    if (texture.empty() || cell <= 0.0f)
        return place;

    ImGui::PushID(id);
    beginOwnTextureFiltering(ImGui::GetWindowDrawList());
    ImGui::Image(textureId(texture.texture(mapper)), size);
    endOwnTextureFiltering(ImGui::GetWindowDrawList());
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const Palette& palette = theme.palette;

    // Lines between cells once cells are big enough to be told apart.
    if (cell >= 10.0f) {
        for (int x = 1; x < place.width; ++x)
            draw->AddLine({place.min.x + cell * x, place.min.y}, {place.min.x + cell * x, place.min.y + size.y},
                          palette.cellGrid);
        for (int y = 1; y < place.height; ++y)
            draw->AddLine({place.min.x, place.min.y + cell * y}, {place.min.x + size.x, place.min.y + cell * y},
                          palette.cellGrid);
    }

    // Values in the cells, black or white, whichever stands out on the cell.
    const bool singleChannel = values && values->channels == 1;
    if (singleChannel && theme.mono) {
        ImFont* font = theme.mono;
        // Labels grow with the cells (up to a little over the text size), so
        // that a short array drawn large reads from the back of the room.
        const float fontSize = std::clamp(cell * 0.38f, theme.fontPixels * 0.75f, theme.fontPixels * 1.3f);
        const float digit = font->CalcTextSizeA(fontSize, 1e9f, 0.0f, "0").x;
        if (cell >= digit * 3.2f && cell >= fontSize * 1.3f) {
            for (int y = 0; y < place.height; ++y)
                for (int x = 0; x < place.width; ++x) {
                    const float v = values->at(x, y);
                    const std::string label = shortValue(v);
                    const ImVec2 extent = font->CalcTextSizeA(fontSize, 1e9f, 0.0f, label.c_str());
                    if (extent.x > cell - 4.0f)
                        continue;
                    const gfx::Rgb8 under = gfx::colourOfValue(texture.map(), v, texture.low(), texture.high());
                    const ImU32 ink =
                        gfx::luminance(under) > 0.36f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
                    const ImVec2 at(place.min.x + cell * (x + 0.5f) - extent.x * 0.5f,
                                    place.min.y + cell * (y + 0.5f) - extent.y * 0.5f);
                    draw->AddText(font, fontSize, at, ink, label.c_str());
                }
        }
    }

    draw->AddRect({place.min.x - 1, place.min.y - 1}, {place.min.x + size.x + 1, place.min.y + size.y + 1},
                  palette.frame, 0.0f, theme.lineWidth);

    if (hovered && values) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int x = std::clamp(static_cast<int>((mouse.x - place.min.x) / cell), 0, place.width - 1);
        const int y = std::clamp(static_cast<int>((mouse.y - place.min.y) / cell), 0, place.height - 1);
        ImVec2 a, b;
        place.cellRect(x, y, a, b);
        draw->AddRect(a, b, palette.selection, 0.0f, theme.lineWidth);
        ImGui::BeginTooltip();
        if (values->rank == 1)
            ImGui::Text("%s[%d]", arrayName, x);
        else
            ImGui::Text("%s: row %d, column %d", arrayName, y, x);
        for (int c = 0; c < values->channels; ++c) {
            if (values->channels > 1)
                ImGui::Text("channel %d: %.6g", c, static_cast<double>(values->at(x, y, c)));
            else
                ImGui::Text("= %.6g", static_cast<double>(values->at(x, y, c)));
        }
        ImGui::EndTooltip();
    }
    ImGui::PopID();
    return place;
}

}  // namespace tilescope::ui
