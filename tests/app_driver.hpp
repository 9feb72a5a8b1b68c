// Drives the real `tilescope` binary for the tests of what the app draws:
// runs it with arguments (and environment), takes screenshots with
// --layout, and reads back the PNG and the rectangles the panels recorded
// (ui/layout_probe.hpp), so that a test checks pixels and words where the
// app says it drew them.
//
// The binary is the build's own (TILESCOPE_BINARY), or $TILESCOPE_BINARY
// when set: scripts/gpu-ui.sh runs a build carried to another machine.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/image.hpp"
#include "gfx/colormap.hpp"
#include "io/image_file.hpp"

namespace tilescope::test {

struct ShotRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
};

struct AppShot {
    int exitCode = -1;
    std::string errors;  // what the command wrote on stderr
    Image picture;       // RGB, values in [0, 1]
    nlohmann::json layout;

    bool has(const std::string& name) const {
        for (const nlohmann::json& item : layout["items"])
            if (item["name"] == name)
                return true;
        return false;
    }
    ShotRect rect(const std::string& name) const {
        for (const nlohmann::json& item : layout["items"])
            if (item["name"] == name) {
                const auto& r = item["rect"];
                return {r[0].get<float>(), r[1].get<float>(), r[2].get<float>(), r[3].get<float>()};
            }
        ADD_FAILURE() << "nothing named " << name << " was drawn";
        return {};
    }
    std::string text(const std::string& name) const {
        for (const nlohmann::json& item : layout["items"])
            if (item["name"] == name)
                return item["text"];
        return {};
    }
    // How many items' names begin with `prefix`.
    int count(const std::string& prefix) const {
        int n = 0;
        for (const nlohmann::json& item : layout["items"])
            n += item["name"].get<std::string>().rfind(prefix, 0) == 0;
        return n;
    }
    gfx::Rgb8 pixel(float x, float y) const {
        const int px = static_cast<int>(x), py = static_cast<int>(y);
        auto channel = [&](int c) { return static_cast<std::uint8_t>(std::lround(picture.at(px, py, c) * 255.0f)); };
        return {channel(0), channel(1), channel(2)};
    }
};

inline std::string describeColour(gfx::Rgb8 c) {
    return "(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ")";
}

// One test's scratch folder and the binary's runs in it.
class AppDriver {
public:
    explicit AppDriver(const std::string& name) {
        m_dir = std::filesystem::temp_directory_path() /
                ("tilescope_app_" + std::to_string(::getpid()) + "_" + name);
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    ~AppDriver() {
        if (!::testing::Test::HasFailure())
            std::filesystem::remove_all(m_dir);
    }
    AppDriver(const AppDriver&) = delete;
    AppDriver& operator=(const AppDriver&) = delete;

    static std::string binary() {
        const char* carried = std::getenv("TILESCOPE_BINARY");
        return carried && *carried ? carried : TILESCOPE_BINARY;
    }
    const std::filesystem::path& dir() const { return m_dir; }

    // Runs `<environment> tilescope <arguments>`; returns its exit code,
    // stdout in `out` and stderr in `errors`. Mesa's drivers leave a few
    // kilobytes unfreed at exit (a GLFW window and a draw, nothing of ours),
    // so in sanitizer builds the app's own leak check is off.
    int run(const std::string& arguments, std::string* out = nullptr, std::string* errors = nullptr,
            const std::string& environment = {}) {
        const std::filesystem::path stdoutFile = m_dir / "stdout.txt", stderrFile = m_dir / "stderr.txt";
        const std::string command = "ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" " + environment + " '" + binary() +
                                    "' " + arguments + " > '" + stdoutFile.string() + "' 2> '" + stderrFile.string() +
                                    "'";
        const int status = std::system(command.c_str());
        if (out)
            *out = slurp(stdoutFile);
        if (errors)
            *errors = slurp(stderrFile);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    // `tilescope screenshot <arguments> --out NAME.png --layout NAME.json`, read back.
    AppShot screenshot(const std::string& arguments, const std::string& name = "shot",
                       const std::string& environment = {}) {
        AppShot shot;
        const std::filesystem::path png = m_dir / (name + ".png"), layout = m_dir / (name + ".json");
        shot.exitCode = run("screenshot --out '" + png.string() + "' --layout '" + layout.string() + "' " + arguments,
                            nullptr, &shot.errors, environment);
        if (shot.exitCode != 0)
            return shot;
        auto picture = io::readImageFile(png);
        EXPECT_TRUE(picture.ok()) << (picture ? "" : picture.error().message);
        if (picture)
            shot.picture = std::move(*picture);
        shot.layout = nlohmann::json::parse(slurp(layout));
        return shot;
    }

    static std::string slurp(const std::filesystem::path& file) {
        std::ifstream in(file);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

private:
    std::filesystem::path m_dir;
};

}  // namespace tilescope::test
