// Small drawing helpers the panels share: headings, wrapped coloured text,
// and the in-place problem message (the one way the app says "this cannot
// work, and here is why", next to the control concerned).
#pragma once

#include <imgui.h>

#include <string>

namespace tilescope::ui {

struct Theme;
class LayoutProbe;

// A section heading in the heading font, with a rule under it.
void heading(const Theme& theme, const char* text);

// Wrapped text in a colour.
void colouredText(const ImVec4& colour, const std::string& text);

// "⚠ <message>" in the error colour, wrapped, with a bar at its left; its
// rectangle goes to the layout probe under `probeName`.
void problemMessage(const Theme& theme, LayoutProbe& probe, const char* probeName, const std::string& message);

// A "(?)" that shows `text` when hovered.
void helpMarker(const char* text);

// Between these two, textures are drawn with their own filtering (nearest
// for cells of an array): ImGui's OpenGL backend otherwise samples every
// texture through a linear sampler of its own (since ImGui 1.92.8).
void beginOwnTextureFiltering(ImDrawList* draw);
void endOwnTextureFiltering(ImDrawList* draw);

// An OpenGL texture name as ImGui's texture id (an integer since ImGui 1.92).
inline ImTextureID textureId(unsigned int glTexture) {
    return static_cast<ImTextureID>(glTexture);
}

}  // namespace tilescope::ui
