#include "model/assets.hpp"

#include <algorithm>
#include <system_error>

namespace tilescope::ui {

namespace fs = std::filesystem;

std::optional<std::span<const unsigned char>> embeddedAsset(std::string_view path) {
    for (const EmbeddedSource& file : embeddedAssetTable())
        if (file.path == path)
            return std::span(reinterpret_cast<const unsigned char*>(file.text.data()), file.text.size());
    return std::nullopt;
}

std::vector<EmbeddedSource> embeddedAssets(std::string_view folder, std::string_view extension) {
    std::vector<EmbeddedSource> files;
    for (const EmbeddedSource& file : embeddedAssetTable()) {
        const fs::path path(file.path);
        if (path.parent_path() == folder && path.extension() == extension)
            files.push_back(file);
    }
    std::sort(files.begin(), files.end(),
              [](const EmbeddedSource& a, const EmbeddedSource& b) { return a.path < b.path; });
    return files;
}

fs::path exercisesDirectory() {
#if defined(__EMSCRIPTEN__)
    return "/share/tilescope/exercises";  // packed into the page's data (app/web/CMakeLists.txt)
#endif
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return fs::path("share") / "tilescope" / "exercises";
    return exe.parent_path().parent_path() / "share" / "tilescope" / "exercises";
}

}  // namespace tilescope::ui
