#include "gfx/window.hpp"

#include <cstdlib>

#include "gfx/gl.hpp"
// After glad: GLFW_INCLUDE_NONE keeps GLFW from including its own GL header.
#include <GLFW/glfw3.h>

namespace tilescope::gfx {

namespace {

std::string g_lastGlfwError;

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
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS accepts only forward-compatible core contexts
    glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);

    std::unique_ptr<Window> window(new Window);
    window->m_window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!window->m_window) {
        glfwTerminate();
        return Error{ExitCode::BackendUnavailable, "cannot create an OpenGL 3.3 core window: " + g_lastGlfwError};
    }
    glfwMakeContextCurrent(window->m_window);
    if (!gladLoadGL(glfwGetProcAddress)) {
        glfwDestroyWindow(window->m_window);
        window->m_window = nullptr;
        glfwTerminate();
        return Error{ExitCode::BackendUnavailable, "the OpenGL 3.3 functions could not be loaded"};
    }
    glfwSwapInterval(options.vsync ? 1 : 0);
    glfwSetWindowUserPointer(window->m_window, window.get());
    glfwSetDropCallback(window->m_window, dropCallback);
    return window;
}

Window::~Window() {
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
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(m_window, &x, &y);
    return x > 0.0f ? x : 1.0f;
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

}  // namespace tilescope::gfx
