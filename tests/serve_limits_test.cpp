// The limits of `tilescope serve` (app/serve/limits.hpp) on their own: the
// token, the bucket per client, the static files' confinement to the web
// folder (a real folder with links out of it), and the event estimate
// against the events a checked run records.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "serve/limits.hpp"

namespace tilescope::serve {
namespace {

namespace fs = std::filesystem;

TEST(ServeLimits, TheTokenMatchesOnlyItself) {
    EXPECT_TRUE(sameToken("class-secret", "class-secret"));
    EXPECT_FALSE(sameToken("class-secreT", "class-secret"));
    EXPECT_FALSE(sameToken("class-secre", "class-secret"));
    EXPECT_FALSE(sameToken("class-secret!", "class-secret"));
    EXPECT_FALSE(sameToken("", "class-secret"));
    EXPECT_FALSE(sameToken(std::string("class-secret\0", 13), "class-secret"));
}

TEST(ServeLimits, TheBucketLetsABurstThroughThenOneAtItsRate) {
    RateLimiter limiter(20.0, 3.0);  // one every 50 ms
    double wait = 0;
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(limiter.take("a", &wait)) << i;
    EXPECT_FALSE(limiter.take("a", &wait));
    EXPECT_GT(wait, 0.0);
    EXPECT_LE(wait, 0.05 + 1e-9);
    EXPECT_TRUE(limiter.take("b", &wait)) << "another client has its own bucket";
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    EXPECT_TRUE(limiter.take("a", &wait));
    EXPECT_FALSE(limiter.take("a", &wait));
}

class StaticFiles : public ::testing::Test {
protected:
    void SetUp() override {
        m_tmp = fs::temp_directory_path() / ("tilescope-serve-static-" + std::to_string(::getpid()));
        fs::remove_all(m_tmp);
        fs::create_directories(m_tmp / "web" / "sub");
        std::ofstream(m_tmp / "web" / "index.html") << "page";
        std::ofstream(m_tmp / "web" / "sub" / "a.js") << "js";
        std::ofstream(m_tmp / "secret.txt") << "secret";
        std::ofstream(m_tmp / "web-other.txt") << "a sibling whose name starts like the folder's";
        fs::create_symlink(m_tmp / "secret.txt", m_tmp / "web" / "secret.txt");
        fs::create_symlink(m_tmp, m_tmp / "web" / "up");
        fs::create_symlink("sub/a.js", m_tmp / "web" / "inside.js");
        m_root = fs::canonical(m_tmp / "web");
    }
    void TearDown() override { fs::remove_all(m_tmp); }
    StaticVerdict resolve(const std::string& path) { return resolveStaticPath(m_root, path, m_file); }
    fs::path m_tmp, m_root, m_file;
};

TEST_F(StaticFiles, OnlyFilesUnderTheFolderAreFound) {
    EXPECT_EQ(resolve("/"), StaticVerdict::Found);
    EXPECT_EQ(m_file, m_root / "index.html");
    EXPECT_EQ(resolve("/sub/a.js"), StaticVerdict::Found);
    EXPECT_EQ(resolve("/./sub//a.js"), StaticVerdict::Found);
    EXPECT_EQ(resolve("/inside.js"), StaticVerdict::Found) << "a link inside the folder";
    EXPECT_EQ(m_file, m_root / "sub" / "a.js");
    EXPECT_EQ(resolve("/missing.html"), StaticVerdict::NotFound);
    EXPECT_EQ(resolve("/sub"), StaticVerdict::NotFound) << "a folder without index.html";
}

TEST_F(StaticFiles, NothingOutsideIsEverFound) {
    for (const char* path :
         {"/../secret.txt", "/../../etc/passwd", "/sub/../../secret.txt", "/..", "/sub/..", "/secret.txt",
          "/up/secret.txt", "/up/web-other.txt", "/..\\secret.txt", "/index.html\0.js"}) {
        const std::string p = path == std::string("/index.html\0.js") ? std::string("/index.html\0.js", 15) : path;
        EXPECT_NE(resolve(p), StaticVerdict::Found) << p;
    }
    EXPECT_EQ(resolve("/../../etc/passwd"), StaticVerdict::Forbidden);
    EXPECT_EQ(resolve("/secret.txt"), StaticVerdict::Forbidden) << "a link out of the folder";
    EXPECT_EQ(resolve("etc/passwd"), StaticVerdict::NotFound);
}

TEST(ServeLimits, TheEventEstimateGrowsWithTheSizeAndTheMask) {
    // 2D, radius 2: 25 taps, each a load of N and of M and a multiply-add,
    // then the store; and a load and a store into a tile per input.
    EXPECT_EQ(estimatedEvents(2, 45, 37, 2), 45u * 37u * (3u * 25u + 1u) + 2u * 45u * 37u);
    EXPECT_EQ(estimatedEvents(1, 1000, 1, 3), 1000u * (3u * 7u + 1u) + 2000u);
    EXPECT_GT(estimatedEvents(2, 4000, 4000, 3), 20'000'000u);
}

TEST(ServeLimits, TheKernelHashTellsTextsApart) {
    EXPECT_EQ(textHash("").size(), 16u);
    EXPECT_EQ(textHash(""), "cbf29ce484222325");  // FNV-1a's offset basis
    EXPECT_NE(textHash("a"), textHash("b"));
}

}  // namespace
}  // namespace tilescope::serve
