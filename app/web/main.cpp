// The browser build's entry (cmake/Web.cmake): the same App as the desktop's,
// on the page's canvas, drawn one frame per animation frame of the browser.
// Everything runs on the CPU executor; the settings persist in the browser's
// storage (IndexedDB, mounted by page.js at /persist before this starts).
#include <emscripten.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "ui/app.hpp"

// (A named namespace: the link's Asyncify list names the functions that may be
// on the stack when a fiber switches by their namespace, app/web/CMakeLists.txt.)
namespace tilescope::web {

std::unique_ptr<ui::App> g_app;

void frame() {
    if (!g_app->hostFrame()) {
        emscripten_cancel_main_loop();
        g_app.reset();  // saves the settings
    }
}

// The page's status line, which the app's first frame replaces or a failure's
// message fills (app/web/index.html).
EM_JS(void, pageStarted, (), {
    if (typeof tilescopeStarted === 'function') tilescopeStarted();
});
EM_JS(void, pageFailed, (const char* message), {
    if (typeof tilescopeFailed === 'function') tilescopeFailed(UTF8ToString(message));
});
// The page address's parameter `name` (?select=0,0&step=40), or "".
EM_JS(char*, pageParameter, (const char* name), {
    const value = new URLSearchParams(window.location.search).get(UTF8ToString(name)) || String();
    const size = lengthBytesUTF8(value) + 1;
    const text = _malloc(size);
    stringToUTF8(value, text, size);
    return text;
});

std::string parameter(const char* name) {
    char* text = pageParameter(name);
    std::string value = text;
    std::free(text);
    return value;
}

// A link can open the app in a state, as the desktop's command line can
// (`tilescope screenshot --select X,Y --step S --lecture`): ?select=X,Y,
// ?step=S, ?lecture=1, ?charts=1 (the strategies compared); ?probe=1 records where things are drawn, for the
// page's tests (tests/web/).
void applyParameters(ui::AppOptions& options) {
    int x = 0, y = 0;
    if (std::sscanf(parameter("select").c_str(), "%d,%d", &x, &y) == 2 && x >= 0 && y >= 0)
        options.view.selectedOutput = std::array<int, 2>{x, y};
    long long step = -1;
    if (std::sscanf(parameter("step").c_str(), "%lld", &step) == 1 && step >= 0)
        options.view.step = step;
    if (const std::string lecture = parameter("lecture"); !lecture.empty())
        options.lecture = lecture != "0";
    if (parameter("charts") == "1") {  // the Charts panel open beside the usual ones
        ui::PanelVisibility panels;
        panels[ui::PanelId::Charts] = true;
        options.panels = panels;
    }
    options.probe = parameter("probe") == "1";
}

}  // namespace tilescope::web

// The layout of the last frame, for the page's tests (tests/web/): a JSON
// text that stays valid until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* tilescope_layout() {
    static std::string json;
    json = tilescope::web::g_app ? tilescope::web::g_app->hostLayoutJson() : "{}";
    return json.c_str();
}

int main() {
    using namespace tilescope::web;
    tilescope::ui::AppOptions options;
    const tilescope::gfx::Window::Size page = tilescope::gfx::Window::pageSize();
    options.width = page.width;
    options.height = page.height;
    options.configDir = "/persist/config";
    applyParameters(options);
    g_app = std::make_unique<tilescope::ui::App>(std::move(options));
    if (tilescope::Status s = g_app->openForHost(); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        pageFailed(s.error().message.c_str());
        return 1;
    }
    pageStarted();
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
