// `tilescope check --watch FILE.cu`: the real binary watches a kernel file
// while the test edits it as a student would, three saves (a right kernel,
// a racy one, one that does not compile), and reads each verdict with its
// FILE:LINE:COLUMN: lines, the form editors turn into clickable places. It
// ends on Ctrl-C, and on the file being deleted, each with its message.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "text_files.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;

const fs::path kGood = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "own" / "good" / "conv2d_tiled_student.cu";

int lineOf(const std::string& text, const std::string& piece) {
    return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(text.find(piece)), '\n') + 1);
}

// The watcher as a child process, its stdout and stderr into a file.
class Watcher {
public:
    Watcher(const fs::path& file, const fs::path& log) : m_log(log) {
        m_pid = ::fork();
        if (m_pid == 0) {
            const std::string out = log.string();
            if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(out.c_str(), "a", stderr))
                std::_Exit(127);
            ::execl(TILESCOPE_BINARY, TILESCOPE_BINARY, "check", "--watch", file.c_str(), "--size", "32x32",
                    "--radius", "1", "--sandbox", "off", static_cast<char*>(nullptr));
            std::_Exit(127);
        }
    }
    ~Watcher() {
        if (m_pid > 0 && !m_ended) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    std::string output() const { return readFile(m_log); }
    // Waits until the output holds `piece` `count` times; false after `seconds`.
    bool waitFor(const std::string& piece, int count, double seconds = 120.0) const {
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < end) {
            const std::string out = output();
            int n = 0;
            for (std::size_t at = out.find(piece); at != std::string::npos; at = out.find(piece, at + 1))
                ++n;
            if (n >= count)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    void interrupt() const { ::kill(m_pid, SIGINT); }
    // Its exit code once it ended (-1: not within `seconds`).
    int wait(double seconds = 30.0) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < end) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_ended = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return -1;
    }

private:
    fs::path m_log;
    pid_t m_pid = -1;
    bool m_ended = false;
};

class CheckWatch : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() /
                ("tilescope_watch_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override {
        if (!HasFailure())
            fs::remove_all(m_dir);
    }
    fs::path m_dir;
};

TEST_F(CheckWatch, ChecksEachSaveAndPrintsProblemsAtTheirPlaces) {
    const std::string good = readFile(kGood);
    const fs::path file = m_dir / "student.cu";
    writeFile(file, good);
    Watcher watcher(file, m_dir / "watch.log");
    const std::string done = "tilescope check: watching " + file.string();

    // 1. Right.
    ASSERT_TRUE(watcher.waitFor(done, 1)) << watcher.output();
    EXPECT_NE(watcher.output().find("tilescope check: " + file.string() + ": right"), std::string::npos)
        << watcher.output();
    EXPECT_EQ(watcher.output().find(file.string() + ":" ), watcher.output().find(file.string() + ": right"))
        << "no problem lines for a right kernel:\n" << watcher.output();

    // 2. Racy: its first barrier gone; the race at the tile's store and at the load.
    const std::string racy = replaced(good, "    __syncthreads();                        // the whole input tile is loaded",
                                      "    // (no barrier here)");
    writeFile(file, racy);
    ASSERT_TRUE(watcher.waitFor(done, 2)) << watcher.output();
    std::string out = watcher.output();
    const int store = lineOf(racy, "N_ds[ty][tx] = N[row * width + col];");
    const int load = lineOf(racy, "Pvalue += Mc");
    const std::string storeAt = file.string() + ":" + std::to_string(store) + ":9: error: shared race";
    const std::string loadAt = file.string() + ":" + std::to_string(load) + ":";
    EXPECT_NE(out.find(storeAt), std::string::npos) << out;
    const std::size_t loadLine = out.find(loadAt);
    ASSERT_NE(loadLine, std::string::npos) << out;
    EXPECT_NE(out.find("lines " + std::to_string(store) + " -> " + std::to_string(load), loadLine), std::string::npos)
        << out;
    // The column points at the array on its line.
    std::string loadText = racy.substr(racy.rfind('\n', racy.find("Pvalue += Mc")) + 1);
    loadText = loadText.substr(0, loadText.find('\n'));
    const std::size_t column = loadText.find("N_ds") + 1;
    EXPECT_NE(out.find(loadAt + std::to_string(column) + ": error:"), std::string::npos) << out;
    EXPECT_NE(out.find(": shared race"), std::string::npos) << out;

    // 3. Does not compile: a semicolon gone.
    const std::string broken = replaced(good, "N_ds[ty][tx] = N[row * width + col];", "N_ds[ty][tx] = N[row * width + col]");
    writeFile(file, broken);
    ASSERT_TRUE(watcher.waitFor(done, 3)) << watcher.output();
    out = watcher.output();
    const std::size_t third = out.rfind("tilescope check: checking");
    EXPECT_NE(out.find(file.string() + ":" + std::to_string(store) + ":", third), std::string::npos) << out;
    EXPECT_NE(out.find("error:", third), std::string::npos) << out;
    EXPECT_NE(out.find("tilescope check: " + file.string() + ": does not compile", third), std::string::npos) << out;

    // Deleted: it says so and ends.
    fs::remove(file);
    EXPECT_EQ(watcher.wait(), 0) << watcher.output();
    EXPECT_NE(watcher.output().find("tilescope check: " + file.string() + " was deleted: stopped watching"),
              std::string::npos)
        << watcher.output();
}

TEST_F(CheckWatch, CtrlCEndsItWithAMessage) {
    const fs::path file = m_dir / "student.cu";
    writeFile(file, readFile(kGood));
    Watcher watcher(file, m_dir / "watch.log");
    ASSERT_TRUE(watcher.waitFor("tilescope check: watching", 1)) << watcher.output();
    watcher.interrupt();
    EXPECT_EQ(watcher.wait(), 0) << watcher.output();
    EXPECT_NE(watcher.output().find("tilescope check: stopped watching " + file.string() + " (Ctrl-C)"),
              std::string::npos)
        << watcher.output();
}

TEST_F(CheckWatch, AFileThatIsNotThereIsRefused) {
    Watcher watcher(m_dir / "nothing.cu", m_dir / "watch.log");
    EXPECT_EQ(watcher.wait(), 2) << watcher.output();
    EXPECT_NE(watcher.output().find("nothing.cu is not there"), std::string::npos) << watcher.output();
}

}  // namespace
}  // namespace tilescope::test
