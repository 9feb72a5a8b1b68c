#include "gfx/window.hpp"

#include <cstdlib>

#include "gfx/gl.hpp"
// After glad: GLFW_INCLUDE_NONE keeps GLFW from including its own GL header.
#include <GLFW/glfw3.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

namespace tilescope::gfx {

namespace {

std::string g_lastGlfwError;
Window* g_pageWindow = nullptr;  // the browser build's one window, for the page's file picker

#if defined(__EMSCRIPTEN__)
// The page's side of the file picker, the downloads and the canvas size
// (app/web/index.html is the page these work on).
EM_JS(void, pageChooseFiles, (const char* extensions), {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = false;
    input.accept = UTF8ToString(extensions);
    input.onchange = async () => {
        const paths = [];
        for (const file of input.files) {
            const bytes = new Uint8Array(await file.arrayBuffer());
            // Kept in the browser's storage beside the settings (app/web/page.js),
            // so that the set-up that names the file still finds it after a reload.
            try { FS.mkdir('/persist/uploads'); } catch (e) {}
            const path = '/persist/uploads/' + file.name.split('/').join('_');
            FS.writeFile(path, bytes);
            paths.push(path);
        }
        for (const path of paths) Module.ccall('tilescope_page_file', null, ['string'], [path]);
    };
    input.click();
});
EM_JS(int, pageDownload, (const char* path), {
    const name = UTF8ToString(path);
    let bytes;
    try { bytes = FS.readFile(name); } catch (e) { return 0; }
    const type = name.endsWith('.svg') ? 'image/svg+xml' : name.endsWith('.png') ? 'image/png'
               : name.endsWith('.gif') ? 'image/gif' : 'application/octet-stream';
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([bytes], {type: type}));
    link.download = name.split('/').pop();
    document.body.appendChild(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    return 1;
});
EM_JS(int, pageWidth, (), { return Math.max(1, Math.floor(window.innerWidth)); });
EM_JS(int, pageHeight, (), { return Math.max(1, Math.floor(window.innerHeight)); });
#endif

void rememberError(int, const char* description) {
    g_lastGlfwError = description ? description : "unknown error";
}

}  // namespace

Result<std::unique_ptr<Window>> Window::open(const WindowOptions& options) {
    glfwSetErrorCallback(rememberError);
    if (!glfwInit()) {
        const char* display = std::getenv("DISPLAY");
        std::string hint = (display && *display) ? ""
                                                 : " ($DISPLAY is not set: run under xvfb-run, e.g. `xvfb-run -a "
                                                   "tilescope screenshot ...`)";
        return Error{ExitCode::BackendUnavailable, "cannot open a window: " + g_lastGlfwError + hint};
    }
#if defined(__EMSCRIPTEN__)
    // WebGL 2 (OpenGL ES 3.0) on the page's canvas.
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
#else
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS accepts only forward-compatible core contexts
#endif
    glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
#if defined(GLFW_SCALE_TO_MONITOR)  // GLFW 3.3 (not Emscripten's, which is 3.2)
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
#endif

    std::unique_ptr<Window> window(new Window);
    window->m_window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!window->m_window) {
        glfwTerminate();
        return Error{ExitCode::BackendUnavailable, "cannot create an OpenGL 3.3 core window: " + g_lastGlfwError};
    }
    glfwMakeContextCurrent(window->m_window);
#if !defined(__EMSCRIPTEN__)
    if (!gladLoadGL(glfwGetProcAddress)) {
        glfwDestroyWindow(window->m_window);
        window->m_window = nullptr;
        glfwTerminate();
        return Error{ExitCode::BackendUnavailable, "the OpenGL 3.3 functions could not be loaded"};
    }
#endif
#if !defined(__EMSCRIPTEN__)  // the browser paces frames itself (requestAnimationFrame)
    glfwSwapInterval(options.vsync ? 1 : 0);
#endif
    glfwSetWindowUserPointer(window->m_window, window.get());
    g_pageWindow = window.get();
    glfwSetDropCallback(window->m_window, dropCallback);
    return window;
}

Window::~Window() {
    if (g_pageWindow == this)
        g_pageWindow = nullptr;
    if (m_window) {
        glfwDestroyWindow(m_window);
        glfwTerminate();
    }
}

bool Window::shouldClose() const {
    return glfwWindowShouldClose(m_window);
}
void Window::requestClose() {
    glfwSetWindowShouldClose(m_window, GLFW_TRUE);
}
void Window::pollEvents() {
    glfwPollEvents();
}
void Window::waitEvents(double seconds) {
    glfwWaitEventsTimeout(seconds);
}
void Window::wake() {
    glfwPostEmptyEvent();
}
void Window::swapBuffers() {
    glfwSwapBuffers(m_window);
}

Window::Size Window::pageSize() {
#if defined(__EMSCRIPTEN__)
    return Size{pageWidth(), pageHeight()};
#else
    return Size{};
#endif
}

int Window::framebufferWidth() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(m_window, &w, &h);
    return w;
}

int Window::framebufferHeight() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(m_window, &w, &h);
    return h;
}

float Window::contentScale() const {
#if defined(__EMSCRIPTEN__)
    return 1.0f;  // the page is laid out in CSS pixels, which the browser scales itself
#else
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(m_window, &x, &y);
    return x > 0.0f ? x : 1.0f;
#endif
}

std::string Window::renderer() const {
    const auto* text = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return text ? text : "unknown";
}

void Window::onDrop(std::function<void(const std::vector<std::string>&)> handler) {
    m_onDrop = std::move(handler);
}

void Window::dropCallback(GLFWwindow* handle, int count, const char** paths) {
    auto* window = static_cast<Window*>(glfwGetWindowUserPointer(handle));
    if (!window || !window->m_onDrop)
        return;
    std::vector<std::string> files(paths, paths + count);
    window->m_onDrop(files);
}

bool Window::hasFilePicker() {
#if defined(__EMSCRIPTEN__)
    return true;
#else
    return false;
#endif
}

void Window::chooseFiles([[maybe_unused]] const std::string& extensions) {
#if defined(__EMSCRIPTEN__)
    pageChooseFiles(extensions.c_str());
#endif
}

bool Window::offerDownload([[maybe_unused]] const std::string& path) {
#if defined(__EMSCRIPTEN__)
    return pageDownload(path.c_str()) != 0;
#else
    return false;
#endif
}

void Window::fitToPage() {
#if defined(__EMSCRIPTEN__)
    int width = 0, height = 0;
    glfwGetWindowSize(m_window, &width, &height);
    if (width != pageWidth() || height != pageHeight())
        glfwSetWindowSize(m_window, pageWidth(), pageHeight());
#endif
}

void Window::receivePageFile(const char* path) {
    if (g_pageWindow && path) {
        const char* paths[] = {path};
        dropCallback(g_pageWindow->m_window, 1, paths);
    }
}

}  // namespace tilescope::gfx

#if defined(__EMSCRIPTEN__)
// Called by the page when the user has picked a file (pageChooseFiles).
extern "C" EMSCRIPTEN_KEEPALIVE void tilescope_page_file(const char* path) {
    tilescope::gfx::Window::receivePageFile(path);
}
#endif
