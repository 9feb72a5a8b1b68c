// The operating system's side: one GLFW window with an OpenGL 3.3 core
// context, loaded through glad. The rest of the app sees only this class (the
// Tracy model: the windowing system behind a small backend class), so a test
// or a later port touches one file.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"

struct GLFWwindow;

namespace tilescope::gfx {

struct WindowOptions {
    int width = 1600;
    int height = 900;
    std::string title = "TileScope";
    bool visible = true;  // false: screenshots draw off-screen, nothing appears
    bool vsync = true;    // false: frames as fast as they come (benchmarks)
};

class Window {
public:
    // Fails with a message that says what to do (no display: use xvfb-run).
    static Result<std::unique_ptr<Window>> open(const WindowOptions& options);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return m_window; }
    bool shouldClose() const;
    void requestClose();
    void pollEvents();
    // Sleeps until an event or `seconds` pass (saves power when nothing moves).
    void waitEvents(double seconds);
    // Wakes a waitEvents() from any thread (the runner does, when a result is ready).
    static void wake();
    void swapBuffers();

    int framebufferWidth() const;
    int framebufferHeight() const;
    // In a web browser: the page's inner size in CSS pixels, what the window
    // follows (a window opened there starts at it). Elsewhere {0, 0}.
    struct Size {
        int width = 0, height = 0;
    };
    static Size pageSize();
    // The monitor's scale (2 on a "Retina" or 200 % display), for font sizes.
    float contentScale() const;
    // "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA GeForce ..."
    std::string renderer() const;

    // Files dropped on the window, on the UI thread (during pollEvents).
    void onDrop(std::function<void(const std::vector<std::string>&)> handler);

    // [SECTION] The browser's side (the browser build; elsewhere these say no)
    // Whether the user picks files with the browser's own file picker (the
    // chosen files then arrive as dropped ones) rather than by typing a path.
    static bool hasFilePicker();
    // Opens the browser's file picker for files with these extensions
    // (".png,.npy,..."); what the user picks arrives through onDrop.
    void chooseFiles(const std::string& extensions);
    // Hands a file the app wrote (an export) to the browser as a download.
    static bool offerDownload(const std::string& path);
    // Follows the page's size: the canvas fills the browser's window.
    void fitToPage();
    // A file the page's picker wrote (in the browser's memory), for onDrop.
    static void receivePageFile(const char* path);

private:
    Window() = default;
    static void dropCallback(GLFWwindow* window, int count, const char** paths);

    GLFWwindow* m_window = nullptr;
    std::function<void(const std::vector<std::string>&)> m_onDrop;
};

}  // namespace tilescope::gfx
