// The browser build's entry (cmake/Web.cmake): the same App as the desktop's,
// on the page's canvas, drawn one frame per animation frame of the browser.
// Everything runs on the CPU executor; the settings persist in the browser's
// storage (IndexedDB, mounted by page.js at /persist before this starts).
#include <emscripten.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <system_error>

#include "model/live_class.hpp"
#include "model/served_client.hpp"
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

// [SECTION] The server behind the page

// What page.js found at /api/health before the program started: the
// server's name and GPU ("" when the page comes from a static host).
EM_JS(char*, pageServer, (), {
    const value = Module.tilescopeServer || String();
    const size = lengthBytesUTF8(value) + 1;
    const text = _malloc(size);
    stringToUTF8(value, text, size);
    return text;
});

// The page's one request to its server, with the class's token (page.js
// keeps it): `method` to `path` (relative to the page, so a server behind a
// proxy's path prefix works too), `body` for a POST, after `delay` seconds.
// The reply comes back through tilescope_served_reply with the same id.
EM_JS(void, pageFetch, (int id, const char* method, const char* path, const char* body, double delay), {
    const options = {method: UTF8ToString(method), headers: {}, cache: 'no-store'};
    if (Module.tilescopeToken) options.headers['Authorization'] = 'Bearer ' + Module.tilescopeToken;
    if (options.method === 'POST') {
        options.headers['Content-Type'] = 'application/json';
        // One key a request: behind nginx, a request re-sent to another server after the first died mid-answer
        // carries the same key, and the lab records the check once (docs/serve.md).
        options.headers['Idempotency-Key'] =
            'page-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 12) + '-' + id;
        options.body = UTF8ToString(body);
    }
    const url = UTF8ToString(path);
    const reply = (status, bytes) => {
        const pointer = _malloc(Math.max(1, bytes.length));
        HEAPU8.set(bytes, pointer);
        Module.ccall('tilescope_served_reply', null, ['number', 'number', 'number', 'number'],
                     [id, status, pointer, bytes.length]);
        _free(pointer);
    };
    setTimeout(() => {
        fetch(url, options)
            .then(async (response) => reply(response.status, new Uint8Array(await response.arrayBuffer())))
            .catch(() => reply(0, new Uint8Array(0)));
    }, Math.max(0, delay * 1000));
});

std::map<int, std::function<void(ui::ServedReply)>> g_replies;
int g_nextReply = 1;

void request(const char* method, const std::string& path, const std::string& body, double delay,
             std::function<void(ui::ServedReply)> done) {
    const int id = g_nextReply++;
    g_replies[id] = std::move(done);
    const std::string relative = !path.empty() && path.front() == '/' ? path.substr(1) : path;
    pageFetch(id, method, relative.c_str(), body.c_str(), delay);
}

void post(const std::string& path, const std::string& body, std::function<void(ui::ServedReply)> done) {
    request("POST", path, body, 0.0, std::move(done));
}

// A GET after `delay` seconds: the teacher's Class panel following the lab
// (model/live_class.hpp).
void get(const std::string& path, double delay, std::function<void(ui::ServedReply)> done) {
    request("GET", path, {}, delay, std::move(done));
}

// ?open=FILE: a kernel file from the page's own folder (a teacher's link to
// an exercise, page.js fetched it into /incoming). The student's copy lives
// in the browser's storage: a later visit of the same link opens that copy,
// with their edits, not the teacher's file again.
std::string openedKernel() {
    namespace fs = std::filesystem;
    const std::string name = parameter("open");
    // A plain file name (page.js fetched only such a name).
    if (name.empty() || name.front() == '.' || name.size() < 4 || name.compare(name.size() - 3, 3, ".cu") != 0 ||
        name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != std::string::npos)
        return {};
    std::error_code error;
    const fs::path incoming = fs::path("/incoming") / name;
    if (name.empty() || !fs::is_regular_file(incoming, error))
        return {};
    const fs::path copy = fs::path("/persist/kernels") / name;
    fs::create_directories(copy.parent_path(), error);
    if (!fs::exists(copy, error))
        fs::copy_file(incoming, copy, error);
    return error ? std::string() : copy.string();
}

// A link can open the app in a state, as the desktop's command line can
// (`tilescope screenshot --select X,Y --step S --lecture`): ?select=X,Y,
// ?step=S, ?lecture=1, ?charts=1 (the strategies compared), ?show=editor,problems (panels opened),
// ?open=FILE (a kernel file beside the page, with `tilescope serve`); ?probe=1 records where things are drawn, for the
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
    // ?show=editor,problems: those panels open beside the mode's usual ones
    // (the lecture's three with ?lecture=1); the Editor as the desktop opens
    // it, in the Source panel's place, so that it has the height for code.
    if (const std::string show = parameter("show"); !show.empty()) {
        const bool lecture = options.lecture.value_or(false);
        ui::PanelVisibility panels =
            options.panels.value_or(lecture ? ui::PanelVisibility::lecture() : ui::PanelVisibility());
        std::size_t from = 0;
        while (from <= show.size()) {
            const std::size_t comma = std::min(show.find(',', from), show.size());
            const std::string_view name = std::string_view(show).substr(from, comma - from);
            if (name == "editor")
                panels.openEditor();
            else if (bool* shown = panels.find(name))
                *shown = true;
            from = comma + 1;
        }
        options.panels = panels;
    }
    options.probe = parameter("probe") == "1";
    char* server = pageServer();
    options.servedName = server;
    std::free(server);
    if (!options.servedName.empty()) {
        options.served = std::make_shared<ui::ServedClient>(post, options.servedName);
        options.kernelFile = openedKernel();
        // The teacher's link follows the class (a student's is told no at
        // the first request, and the page shows nothing of it).
        options.classFollower = std::make_shared<ui::ClassFollower>(get, options.servedName);
        // ?classnow=1: the projector's layout; ?names=1: the names shown.
        if (parameter("classnow") == "1") {
            options.lecture = true;
            options.focus = "class";
        }
        options.classNames = parameter("names") == "1";
    }
}

// [SECTION] The system clipboard

// Emscripten's GLFW keeps no clipboard. What the app copies goes to the
// browser's (navigator.clipboard, which a page may write while the user acts
// on it); what it pastes is what the browser's last paste event carried
// (page.js keeps it: the event comes with Ctrl+V, before the app's next frame
// reads the keys).
EM_JS(void, pageCopy, (const char* text), {
    const value = UTF8ToString(text);
    Module.tilescopeClipboard = value;
    if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(value).catch(function(error) { console.warn('TileScope: copy:', error); });
});
EM_JS(char*, pagePasted, (), {
    const value = Module.tilescopeClipboard || String();
    const size = lengthBytesUTF8(value) + 1;
    const text = _malloc(size);
    stringToUTF8(value, text, size);
    return text;
});

std::string g_pasted;

void useBrowserClipboard() {
    ImGuiPlatformIO& platform = ImGui::GetPlatformIO();
    platform.Platform_SetClipboardTextFn = [](ImGuiContext*, const char* text) { pageCopy(text); };
    platform.Platform_GetClipboardTextFn = [](ImGuiContext*) -> const char* {
        char* text = pagePasted();
        g_pasted = text;
        std::free(text);
        return g_pasted.c_str();
    };
}

}  // namespace tilescope::web

// The layout of the last frame, for the page's tests (tests/web/): a JSON
// text that stays valid until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* tilescope_layout() {
    static std::string json;
    json = tilescope::web::g_app ? tilescope::web::g_app->hostLayoutJson() : "{}";
    return json.c_str();
}

// The reply to pageFetch's request `id`.
extern "C" EMSCRIPTEN_KEEPALIVE void tilescope_served_reply(int id, int status, const char* bytes, int size) {
    using namespace tilescope::web;
    auto it = g_replies.find(id);
    if (it == g_replies.end())
        return;
    auto done = std::move(it->second);
    g_replies.erase(it);
    done(tilescope::ui::ServedReply{status, std::string(bytes, static_cast<std::size_t>(size))});
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
    useBrowserClipboard();
    pageStarted();
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
