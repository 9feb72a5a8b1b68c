// A fresh directory per test, removed afterwards, named after the test
// program and the process so that tests running side by side never share one.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace tilescope::test {

class ScratchDir {
public:
    explicit ScratchDir(const std::string& prefix) {
        static int counter = 0;
        m_path = std::filesystem::temp_directory_path() /
                 (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }
    const std::filesystem::path& path() const { return m_path; }

    // Every name in the directory, sorted, so that a test sees a temporary left behind.
    std::vector<std::string> names() const {
        std::vector<std::string> list;
        for (const auto& entry : std::filesystem::directory_iterator(m_path))
            list.push_back(entry.path().filename().string());
        std::sort(list.begin(), list.end());
        return list;
    }

private:
    std::filesystem::path m_path;
};

}  // namespace tilescope::test
