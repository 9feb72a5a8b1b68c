// Tests of the base library (kernels/base) on its own, linked with nothing
// else of the project: the atomic write keeps the old file through every
// failure and leaves no temporary behind, the read refuses what it must, and
// the clock only goes forward.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/clock.hpp"
#include "base/read_file.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

// [SECTION] Helpers

// A fresh directory per test, removed afterwards.
struct ScratchDir : test::ScratchDir {
    ScratchDir() : test::ScratchDir("tilescope_base_test") {}
};

void writePlain(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::string contents(const fs::path& path) {
    auto text = base::readFileText(path);
    return text ? *text : "<" + text.error().message() + ">";
}

// [SECTION] The atomic write

TEST(AtomicWrite, ReplacesTheContentAndReadsBackWhatItWrote) {
    ScratchDir dir;
    writePlain(dir / "a.txt", "old content");
    EXPECT_FALSE(base::writeFileAtomic(dir / "a.txt", std::string_view("new content")));
    EXPECT_EQ(contents(dir / "a.txt"), "new content");

    const std::vector<unsigned char> bytes = {0, 1, 2, 255, '\n', 0};
    EXPECT_FALSE(base::writeFileAtomic(dir / "b.bin", bytes));
    auto back = base::readFileBytes(dir / "b.bin");
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_EQ(*back, bytes);

    EXPECT_FALSE(base::writeFileAtomic(dir / "empty", std::string_view()));
    EXPECT_EQ(contents(dir / "empty"), "");
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"a.txt", "b.bin", "empty"}));
}

TEST(AtomicWrite, AStreamedWriteCommitsOnlyAtTheEnd) {
    ScratchDir dir;
    writePlain(dir / "big.bin", "old");
    base::AtomicFile file(dir / "big.bin");
    ASSERT_FALSE(file.open());
    EXPECT_EQ(file.temporaryPath().parent_path(), dir.path());
    EXPECT_TRUE(fs::exists(file.temporaryPath()));
    std::string expected;
    for (int i = 0; i < 1000; ++i) {
        const std::string piece = "piece " + std::to_string(i) + "\n";
        ASSERT_FALSE(file.write(piece));
        expected += piece;
    }
    // Nothing reaches the target before the commit.
    EXPECT_EQ(contents(dir / "big.bin"), "old");
    const fs::path temporary = file.temporaryPath();
    ASSERT_FALSE(file.commit());
    EXPECT_EQ(contents(dir / "big.bin"), expected);
    EXPECT_FALSE(fs::exists(temporary));
    EXPECT_EQ(dir.names(), std::vector<std::string>{"big.bin"});
}

TEST(AtomicWrite, AWriterThatGivesUpMidwayLeavesTheOldFileAndNoTemporary) {
    ScratchDir dir;
    writePlain(dir / "kept.txt", "what was saved");
    {
        base::AtomicFile file(dir / "kept.txt");
        ASSERT_FALSE(file.open());
        ASSERT_FALSE(file.write(std::string_view("half of a new ")));
        // The writer's own error: it returns without committing.
    }
    EXPECT_EQ(contents(dir / "kept.txt"), "what was saved");
    EXPECT_EQ(dir.names(), std::vector<std::string>{"kept.txt"});
}

TEST(AtomicWrite, AWriterThatThrowsMidwayLeavesTheOldFileAndNoTemporary) {
    ScratchDir dir;
    writePlain(dir / "kept.txt", "what was saved");
    try {
        base::AtomicFile file(dir / "kept.txt");
        ASSERT_FALSE(file.open());
        ASSERT_FALSE(file.write(std::string_view("half of a new ")));
        throw std::runtime_error("the encoder failed");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(contents(dir / "kept.txt"), "what was saved");
    EXPECT_EQ(dir.names(), std::vector<std::string>{"kept.txt"});
}

TEST(AtomicWrite, ADirectoryIsRefusedAndLeftAsItWas) {
    ScratchDir dir;
    fs::create_directories(dir / "folder.npy");
    writePlain(dir / "folder.npy" / "inside", "x");
    const auto failure = base::writeFileAtomic(dir / "folder.npy", std::string_view("data"));
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->kind, base::FileError::Kind::IsDirectory);
    EXPECT_EQ(failure->problem(), "cannot be written: it is a directory");
    EXPECT_EQ(failure->message(), (dir / "folder.npy").string() + ": cannot be written: it is a directory");
    EXPECT_TRUE(fs::is_directory(dir / "folder.npy"));
    EXPECT_EQ(contents(dir / "folder.npy" / "inside"), "x");
    EXPECT_EQ(dir.names(), std::vector<std::string>{"folder.npy"});

    // A path that names a folder ("out/") is no file name.
    const auto slash = base::writeFileAtomic(dir.path() / "out" / "", std::string_view("data"));
    ASSERT_TRUE(slash);
    EXPECT_EQ(slash->problem(), "is not a file name");
}

TEST(AtomicWrite, AFifoIsNeverReplaced) {
    ScratchDir dir;
    ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
    const auto failure = base::writeFileAtomic(dir / "pipe", std::string_view("data"));
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->kind, base::FileError::Kind::NotRegularFile);
    EXPECT_EQ(failure->problem(), "cannot be written: it is not a regular file (a device, FIFO or socket)");
    EXPECT_TRUE(fs::is_fifo(dir / "pipe"));
    EXPECT_EQ(dir.names(), std::vector<std::string>{"pipe"});
}

TEST(AtomicWrite, AMissingFolderSaysWhereNoTemporaryCouldBeMade) {
    ScratchDir dir;
    const auto failure = base::writeFileAtomic(dir / "no" / "out.npy", std::string_view("data"));
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->kind, base::FileError::Kind::CreateTemporary);
    EXPECT_EQ(failure->code, ENOENT);
    EXPECT_EQ(failure->problem(), "cannot be written: no temporary file can be created in '" + (dir / "no").string() +
                                      "' (No such file or directory)");
    EXPECT_TRUE(dir.names().empty());
}

TEST(AtomicWrite, WithoutReplacingAnExistingFileIsLeftAlone) {
    ScratchDir dir;
    base::AtomicWriteOptions options;
    options.replace = false;
    writePlain(dir / "taken.cu", "the student's own");
    const auto failure = base::writeFileAtomic(dir / "taken.cu", std::string_view("a copy"), options);
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->kind, base::FileError::Kind::Exists);
    EXPECT_EQ(contents(dir / "taken.cu"), "the student's own");

    EXPECT_FALSE(base::writeFileAtomic(dir / "free.cu", std::string_view("a copy"), options));
    EXPECT_EQ(contents(dir / "free.cu"), "a copy");
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"free.cu", "taken.cu"}));
}

TEST(AtomicWrite, ANewFileTakesTheModeAskedForUnderTheUmask) {
    ScratchDir dir;
    const mode_t umask = ::umask(022);
    base::AtomicWriteOptions options;
    options.mode = 0640;
    EXPECT_FALSE(base::writeFileAtomic(dir / "private", std::string_view("x"), options));
    EXPECT_FALSE(base::writeFileAtomic(dir / "shared", std::string_view("x")));
    ::umask(umask);
    struct stat info {};
    ASSERT_EQ(::stat((dir / "private").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0640u);
    ASSERT_EQ(::stat((dir / "shared").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0644u);
}

TEST(AtomicWrite, AFailureIsKeptUntilTheCommit) {
    ScratchDir dir;
    base::AtomicFile file(dir / "no" / "such" / "file");
    const auto opened = file.open();
    ASSERT_TRUE(opened);
    const auto written = file.write(std::string_view("more"));
    ASSERT_TRUE(written);
    EXPECT_EQ(written->problem(), opened->problem());
    const auto committed = file.commit();
    ASSERT_TRUE(committed);
    EXPECT_EQ(committed->kind, base::FileError::Kind::CreateTemporary);
}

// [SECTION] The read

TEST(ReadFile, TheLimitIsCheckedBeforeReading) {
    ScratchDir dir;
    writePlain(dir / "big.bin", std::string(100, 'x'));
    auto over = base::readFileBytes(dir / "big.bin", 99);
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error().kind, base::FileError::Kind::TooLarge);
    EXPECT_EQ(over.error().size, 100u);
    EXPECT_EQ(over.error().limit, 99u);
    EXPECT_EQ(over.error().problem(), "is too large (100 bytes, the limit is 99)");

    auto at = base::readFileText(dir / "big.bin", 100);
    ASSERT_TRUE(at) << at.error().message();
    EXPECT_EQ(*at, std::string(100, 'x'));
}

TEST(ReadFile, AMissingFileADirectoryAndAFifoAreRefused) {
    ScratchDir dir;
    auto missing = base::readFileText(dir / "missing.npy");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, base::FileError::Kind::Missing);
    EXPECT_EQ(missing.error().message(), (dir / "missing.npy").string() + ": does not exist");
    EXPECT_EQ(base::readFileText(dir / "missing.npy").valueOr("fallback"), "fallback");

    fs::create_directories(dir / "folder");
    auto folder = base::readFileText(dir / "folder");
    ASSERT_FALSE(folder);
    EXPECT_EQ(folder.error().problem(), "is a directory, not a file");

    // Refused without blocking: no writer ever opens this FIFO.
    ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
    auto pipe = base::readFileBytes(dir / "pipe");
    ASSERT_FALSE(pipe);
    EXPECT_EQ(pipe.error().problem(), "is not a regular file");
}

// [SECTION] The clock

TEST(Clock, NeverGoesBackAndMeasuresASleep) {
    double last = base::seconds();
    for (int i = 0; i < 100000; ++i) {
        const double now = base::seconds();
        ASSERT_GE(now, last);
        last = now;
    }
    const base::Stopwatch stopwatch;
    const double before = base::milliseconds();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_GE(stopwatch.milliseconds(), 20.0);
    EXPECT_GE(stopwatch.seconds(), 0.020);
    EXPECT_GE(base::milliseconds() - before, 20.0);
}

}  // namespace
