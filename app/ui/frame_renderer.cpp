#include "ui/frame_renderer.hpp"

#include <imgui_internal.h>  // the covering windows' rectangles

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gfx/framebuffer.hpp"
#include "gfx/gl.hpp"
#include "gfx/texture.hpp"

namespace tilescope::ui {

namespace {

// The pixels a draw list can touch: for each command, the box round the
// vertices it draws within its clip rectangle; in whole pixels.
ImRect extentOf(const ImDrawList& list) {
    ImRect r(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
    for (const ImDrawCmd& c : list.CmdBuffer) {
        if (c.UserCallback || c.ElemCount == 0)
            continue;
        ImRect box(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
        for (unsigned k = 0; k < c.ElemCount; ++k) {
            const unsigned index = list.IdxBuffer[static_cast<int>(c.IdxOffset + k)] + c.VtxOffset;
            box.Add(list.VtxBuffer[static_cast<int>(index)].pos);
        }
        box.ClipWithFull(ImRect(c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w));
        if (box.Min.x < box.Max.x && box.Min.y < box.Max.y)
            r.Add(box);
    }
    if (!(r.Min.x < r.Max.x && r.Min.y < r.Max.y))
        return ImRect(0, 0, 0, 0);
    return r;
}

// Every pixel the box touches.
ImRect outward(const ImRect& r) {
    return ImRect(std::floor(r.Min.x), std::floor(r.Min.y), std::ceil(r.Max.x), std::ceil(r.Max.y));
}

// The pixels the box fills: an anti-aliased edge half a pixel out (a window's
// border) adds nothing to the pixel whose centre it ends at.
ImRect filled(const ImRect& r) {
    return ImRect(std::round(r.Min.x), std::round(r.Min.y), std::round(r.Max.x), std::round(r.Max.y));
}

// One draw command, with the version of the texture it shows (the same
// quad can show other pixels) and the callback it makes (they set the
// renderer's state: how a texture is sampled).
struct Command {
    ImVec4 clip;
    ImTextureID texture;
    std::uint64_t version;
    unsigned vertexOffset, indexOffset, count;
    ImDrawCallback callback;
    void* callbackData;
    explicit Command(const ImDrawCmd& c)
        : clip(c.ClipRect),
          texture(c.UserCallback ? ImTextureID{} : c.GetTexID()),
          version(c.UserCallback ? 0 : gfx::textureVersion(static_cast<GLuint>(c.GetTexID()))),
          vertexOffset(c.VtxOffset),
          indexOffset(c.IdxOffset),
          count(c.ElemCount),
          callback(c.UserCallback),
          callbackData(c.UserCallbackData) {}
    bool operator==(const Command& o) const {
        return std::memcmp(&clip, &o.clip, sizeof clip) == 0 && texture == o.texture && version == o.version &&
               vertexOffset == o.vertexOffset && indexOffset == o.indexOffset && count == o.count &&
               callback == o.callback && callbackData == o.callbackData;
    }
};

}  // namespace

struct FrameRenderer::Window {
    const ImDrawList* list = nullptr;
    ImRect extent;
    bool same = false;  // drew what it drew last frame, with nothing that can change under it
    std::vector<ImDrawVert> vertices;
    std::vector<ImDrawIdx> indices;
    std::vector<Command> commands;
};

FrameRenderer::FrameRenderer() = default;
FrameRenderer::~FrameRenderer() = default;

void FrameRenderer::render(const ImDrawData& data, int width, int height, unsigned target, const float (&clear)[4],
                           std::span<const char* const> opaque, const std::function<void(ImDrawData*)>& render,
                           bool whole) {
    // The opaque windows drawn, and where each stands in the order of drawing.
    struct Cover {
        int order;
        ImRect rect;
    };
    std::vector<Cover> covers;
    for (const char* name : opaque) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        if (!w || !w->WasActive || w->Hidden || w->Collapsed)
            continue;
        const auto at = std::find(data.CmdLists.begin(), data.CmdLists.end(), w->DrawList);
        if (at != data.CmdLists.end())
            covers.push_back({static_cast<int>(at - data.CmdLists.begin()), w->Rect()});
    }
    ImDrawData composed = data;
    composed.CmdLists.clear();
    composed.TotalVtxCount = composed.TotalIdxCount = 0;
    std::vector<ImRect> extents;
    m_hidden = 0;
    for (int i = 0; i < data.CmdLists.Size; ++i) {
        ImDrawList* list = data.CmdLists[i];
        const ImRect box = extentOf(*list), extent = outward(box);
        if (std::any_of(covers.begin(), covers.end(),
                        [&](const Cover& c) { return c.order > i && c.rect.Contains(filled(box)); })) {
            ++m_hidden;
            continue;
        }
        composed.CmdLists.push_back(list);
        composed.TotalVtxCount += list->VtxBuffer.Size;
        composed.TotalIdxCount += list->IdxBuffer.Size;
        extents.push_back(extent);
    }
    if (whole) {
        m_shown = false;
        m_picture.reset();
        m_last.clear();
        m_redrawn = 1.0;
        render(&composed);
        return;
    }

    // What each window drew, beside what it drew last frame.
    bool all = !m_picture || m_picture->width() != width || m_picture->height() != height ||
               std::memcmp(clear, m_clear, sizeof clear) != 0 || m_displayPos.x != data.DisplayPos.x ||
               m_displayPos.y != data.DisplayPos.y || m_displaySize.x != data.DisplaySize.x ||
               m_displaySize.y != data.DisplaySize.y || m_scale.x != data.FramebufferScale.x ||
               m_scale.y != data.FramebufferScale.y || m_last.size() != static_cast<std::size_t>(composed.CmdLists.Size);
    std::memcpy(m_clear, clear, sizeof clear);
    m_displayPos = data.DisplayPos;
    m_displaySize = data.DisplaySize;
    m_scale = data.FramebufferScale;
    m_last.resize(static_cast<std::size_t>(composed.CmdLists.Size));
    std::vector<ImRect> damaged;
    for (int i = 0; i < composed.CmdLists.Size; ++i) {
        const ImDrawList& list = *composed.CmdLists[i];
        Window& w = m_last[static_cast<std::size_t>(i)];
        const ImRect extent = extents[static_cast<std::size_t>(i)];
        bool same = w.list == &list &&
                    w.vertices.size() == static_cast<std::size_t>(list.VtxBuffer.Size) &&
                    w.indices.size() == static_cast<std::size_t>(list.IdxBuffer.Size) &&
                    w.commands.size() == static_cast<std::size_t>(list.CmdBuffer.Size) &&
                    (w.vertices.empty() ||
                     std::memcmp(w.vertices.data(), list.VtxBuffer.Data, w.vertices.size() * sizeof(ImDrawVert)) == 0) &&
                    (w.indices.empty() ||
                     std::memcmp(w.indices.data(), list.IdxBuffer.Data, w.indices.size() * sizeof(ImDrawIdx)) == 0);
        for (int k = 0; same && k < list.CmdBuffer.Size; ++k) {
            const ImDrawCmd& c = list.CmdBuffer[k];
            same = w.commands[static_cast<std::size_t>(k)] == Command(c);
        }
        all |= w.list != &list;
        if (!same) {
            // Where it was and where it is now.
            if (w.extent.GetArea() > 0.0f)
                damaged.push_back(w.extent);
            if (extent.GetArea() > 0.0f)
                damaged.push_back(extent);
            w.list = &list;
            w.extent = extent;
            w.vertices.assign(list.VtxBuffer.begin(), list.VtxBuffer.end());
            w.indices.assign(list.IdxBuffer.begin(), list.IdxBuffer.end());
            w.commands.clear();
            for (const ImDrawCmd& c : list.CmdBuffer)
                w.commands.emplace_back(c);
        }
    }

    if (!m_picture || m_picture->width() != width || m_picture->height() != height)
        m_picture = std::make_unique<gfx::Framebuffer>(width, height);
    m_picture->bind();
    if (all) {
        glClear(GL_COLOR_BUFFER_BIT);
        m_redrawn = 1.0;
        render(&composed);
    } else if (!damaged.empty()) {
        // The damaged rectangles in whole framebuffer pixels, those that
        // overlap merged, so that no pixel is drawn twice.
        const ImVec2 s = data.FramebufferScale;
        for (ImRect& r : damaged) {
            r.Min.x = std::clamp(std::floor((r.Min.x - data.DisplayPos.x) * s.x), 0.0f, static_cast<float>(width));
            r.Max.x = std::clamp(std::ceil((r.Max.x - data.DisplayPos.x) * s.x), 0.0f, static_cast<float>(width));
            r.Min.y = std::clamp(std::floor((r.Min.y - data.DisplayPos.y) * s.y), 0.0f, static_cast<float>(height));
            r.Max.y = std::clamp(std::ceil((r.Max.y - data.DisplayPos.y) * s.y), 0.0f, static_cast<float>(height));
        }
        for (bool merged = true; merged;) {
            merged = false;
            for (std::size_t i = 0; i < damaged.size() && !merged; ++i)
                for (std::size_t k = i + 1; k < damaged.size() && !merged; ++k)
                    if (damaged[i].Overlaps(damaged[k])) {
                        damaged[i].Add(damaged[k]);
                        damaged.erase(damaged.begin() + static_cast<std::ptrdiff_t>(k));
                        merged = true;
                    }
        }
        // Each window's clip rectangles as ImGui made them: each pass clips them anew.
        std::vector<ImVec4> clips;
        for (const ImDrawList* list : composed.CmdLists)
            for (const ImDrawCmd& c : list->CmdBuffer)
                clips.push_back(c.ClipRect);
        double redrawn = 0.0;
        for (const ImRect& r : damaged) {
            const int x0 = static_cast<int>(r.Min.x), x1 = static_cast<int>(r.Max.x);
            const int y0 = static_cast<int>(r.Min.y), y1 = static_cast<int>(r.Max.y);
            if (x1 <= x0 || y1 <= y0)
                continue;
            redrawn += static_cast<double>(x1 - x0) * (y1 - y0);
            glEnable(GL_SCISSOR_TEST);
            glScissor(x0, height - y1, x1 - x0, y1 - y0);  // rows bottom up for OpenGL
            glClear(GL_COLOR_BUFFER_BIT);
            glDisable(GL_SCISSOR_TEST);
            // Every window drawn again within it (those under a changed one
            // too), clipped to it: the pixels outside keep last frame's.
            const ImVec4 within{data.DisplayPos.x + static_cast<float>(x0) / s.x,
                                data.DisplayPos.y + static_cast<float>(y0) / s.y,
                                data.DisplayPos.x + static_cast<float>(x1) / s.x,
                                data.DisplayPos.y + static_cast<float>(y1) / s.y};
            std::size_t k = 0;
            for (ImDrawList* list : composed.CmdLists)
                for (ImDrawCmd& c : list->CmdBuffer) {
                    const ImVec4& was = clips[k++];
                    c.ClipRect = {std::max(was.x, within.x), std::max(was.y, within.y), std::min(was.z, within.z),
                                  std::min(was.w, within.w)};
                }
            render(&composed);
        }
        m_redrawn = redrawn / (static_cast<double>(width) * height);
    } else {
        // Nothing to draw; the backend still takes in the font atlas's
        // updates, if any. (Not calling it otherwise matters in a browser,
        // where each of the OpenGL state queries it makes first waits for the
        // GPU process.)
        m_redrawn = 0.0;
        composed.CmdLists.clear();
        composed.TotalVtxCount = composed.TotalIdxCount = 0;
        const bool texturesToUpdate =
            data.Textures && std::any_of(data.Textures->begin(), data.Textures->end(),
                                         [](const ImTextureData* t) { return t->Status != ImTextureStatus_OK; });
        if (texturesToUpdate)
            render(&composed);
        if (m_screenKeeps && m_shown && target == 0) {
            glBindFramebuffer(GL_FRAMEBUFFER, target);
            return;  // the screen shows this picture already
        }
    }
    // The picture onto the screen (or the screenshot's framebuffer).
    m_shown = target == 0;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_picture->id());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, target);
}

}  // namespace tilescope::ui
