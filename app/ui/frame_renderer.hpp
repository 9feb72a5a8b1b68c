// How a frame's draw lists reach OpenGL. Dear ImGui redraws every window
// every frame; on a software renderer (llvmpipe) filling the pixels is most
// of a frame (about 10 ns a pixel on two cores: a 1600x900 window covered
// once is some 14 ms), so pixels that cannot have changed are not filled
// again. Neither way changes a pixel of the picture:
//
// - A window wholly under an opaque window drawn after it (the Charts panel
//   covers the step-through views) is not drawn: its panel still runs (its
//   state, the legend, the layout probe), only its invisible pixels go.
// - The frame is drawn into a picture kept from the last frame, and only
//   where something may have changed: round every window that drew other
//   than it drew last frame, or showed a texture whose pixels changed since
//   (gfx::textureVersion: the grid of N, the threads, the result). A window
//   that drew the same as last frame costs nothing. The picture is then
//   copied to the screen.
#pragma once

#include <imgui.h>

#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace tilescope::gfx {
class Framebuffer;
}

namespace tilescope::ui {

class FrameRenderer {
public:
    FrameRenderer();
    ~FrameRenderer();
    FrameRenderer(const FrameRenderer&) = delete;
    FrameRenderer& operator=(const FrameRenderer&) = delete;

    // Draws `data` into the framebuffer `target`, bound now, which is `width` x
    // `height` pixels and was just cleared to `clear`. (Both are passed in, not
    // asked of OpenGL: in a browser each such query waits for the GPU
    // process.) `opaque`: names of windows with an opaque
    // background and square corners. `render` draws draw data (ImGui's OpenGL
    // backend, or one that times each window). `whole`: draw every pixel
    // again (and keep no picture), as when timing each panel's whole cost.
    void render(const ImDrawData& data, int width, int height, unsigned target, const float (&clear)[4],
                std::span<const char* const> opaque, const std::function<void(ImDrawData*)>& render,
                bool whole = false);

    // Whether the screen keeps its pixels until drawn to again, as a
    // browser's canvas does (it shows the last frame drawn into it): then a
    // frame with nothing changed is not copied to the screen at all. A
    // window's back buffer after a swap holds nothing dependable, so the
    // desktop copies every frame.
    void setScreenKeepsItsPixels(bool keeps) { m_screenKeeps = keeps; }
    bool screenKeepsItsPixels() const { return m_screenKeeps; }

    // The last frame: how many windows were left out (hidden), and the share
    // of the picture drawn again (1: all of it).
    int hiddenLastFrame() const { return m_hidden; }
    double redrawnLastFrame() const { return m_redrawn; }

private:
    struct Window;  // what one draw list drew
    std::vector<Window> m_last;
    std::unique_ptr<gfx::Framebuffer> m_picture;
    float m_clear[4] = {};
    ImVec2 m_displayPos{}, m_displaySize{}, m_scale{};
    int m_hidden = 0;
    double m_redrawn = 1.0;
    bool m_screenKeeps = false;
    bool m_shown = false;  // the picture as it is now has been copied to the screen
};

}  // namespace tilescope::ui
