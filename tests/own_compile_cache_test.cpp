// The compile cache (own/compile_cache.hpp): a library comes back only under
// the key of the text, compiler, flags and headers it was compiled from;
// the folder stays within its bound, the least recently used leaving first;
// nothing planted in a folder others may write, or behind a link, is used.
// And a kernel file compiled twice with the cache compiles once, and runs
// the same.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "own/compile_cache.hpp"
#include "own/own_kernel.hpp"
#include "reference/reference.hpp"
#include "scratch_dir.hpp"

namespace tilescope::own {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

void writeBytes(const fs::path& p, std::size_t n, char fill) {
    std::ofstream(p, std::ios::binary) << std::string(n, fill);
}

std::string readBytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

const std::vector<std::pair<std::string_view, std::string_view>> kHeaders = {{"own/a.hpp", "int a;"}};

TEST(CompileCache, TheKeyChangesWithEveryPartThatMakesTheLibrary) {
    const std::vector<std::string> flags = {"-O1", "-fPIC"};
    const std::string k = CompileCache::key("void f() {}", "/bin/sh", flags, kHeaders);
    EXPECT_EQ(k.size(), 64u);
    EXPECT_EQ(k, CompileCache::key("void f() {}", "/bin/sh", flags, kHeaders));
    EXPECT_NE(k, CompileCache::key("void f() { }", "/bin/sh", flags, kHeaders));
    EXPECT_NE(k, CompileCache::key("void f() {}", "/bin/bash", flags, kHeaders));
    EXPECT_NE(k, CompileCache::key("void f() {}", "/bin/sh", {"-O2", "-fPIC"}, kHeaders));
    EXPECT_NE(k, CompileCache::key("void f() {}", "/bin/sh", flags, {{"own/a.hpp", "int b;"}}));
    // Parts are told apart by their lengths: moving bytes between two parts is another key.
    EXPECT_NE(CompileCache::key("ab", "/bin/sh", {"c"}, {}), CompileCache::key("a", "/bin/sh", {"bc"}, {}));
}

TEST(CompileCache, AStoredLibraryComesBackUnderItsKeyOnly) {
    ScratchDir dir("compile_cache");
    CompileCache cache(dir.path() / "kernels", 1 << 20);
    ASSERT_TRUE(cache.usable());
    struct stat st {};
    ASSERT_EQ(::stat((dir.path() / "kernels").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);

    const fs::path lib = dir.path() / "built.so";
    writeBytes(lib, 3000, 'x');
    const std::string key = CompileCache::key("text one", "/bin/sh", {}, kHeaders);
    const std::string other = CompileCache::key("text two", "/bin/sh", {}, kHeaders);
    EXPECT_FALSE(cache.fetch(key, dir.path() / "out.so"));
    cache.store(key, lib);
    EXPECT_TRUE(cache.fetch(key, dir.path() / "out.so"));
    EXPECT_EQ(readBytes(dir.path() / "out.so"), std::string(3000, 'x'));
    EXPECT_FALSE(cache.fetch(other, dir.path() / "other.so"));
    EXPECT_FALSE(fs::exists(dir.path() / "other.so"));
    EXPECT_EQ(cache.hits(), 1u);
    EXPECT_EQ(cache.misses(), 2u);
    // A key that is not one (a path, a name of another form) is never looked up.
    EXPECT_FALSE(cache.fetch("../built", dir.path() / "x.so"));
    EXPECT_FALSE(cache.fetch(std::string(64, 'g'), dir.path() / "x.so"));
}

TEST(CompileCache, PastItsBoundTheLeastRecentlyUsedLeaveFirst) {
    ScratchDir dir("compile_cache");
    CompileCache cache(dir.path() / "kernels", 2500);  // two libraries of 1000 bytes fit, not three
    const fs::path lib = dir.path() / "built.so";
    writeBytes(lib, 1000, 'a');
    const std::string first = CompileCache::key("1", "/bin/sh", {}, {});
    const std::string second = CompileCache::key("2", "/bin/sh", {}, {});
    const std::string third = CompileCache::key("3", "/bin/sh", {}, {});
    cache.store(first, lib);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cache.store(second, lib);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // The first is used again: the second is now the least recently used.
    ASSERT_TRUE(cache.fetch(first, dir.path() / "out.so"));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cache.store(third, lib);
    EXPECT_TRUE(fs::exists(dir.path() / "kernels" / (first + ".so")));
    EXPECT_FALSE(fs::exists(dir.path() / "kernels" / (second + ".so")));
    EXPECT_TRUE(fs::exists(dir.path() / "kernels" / (third + ".so")));
}

TEST(CompileCache, AFolderOthersMayWriteOrALinkIsNeverUsed) {
    ScratchDir dir("compile_cache");
    const fs::path shared = dir.path() / "shared";
    fs::create_directories(shared);
    ::chmod(shared.c_str(), 0777);
    const std::string key = CompileCache::key("text", "/bin/sh", {}, {});
    writeBytes(shared / (key + ".so"), 100, 'p');  // planted
    CompileCache open(shared, 1 << 20);
    EXPECT_FALSE(open.usable());
    EXPECT_FALSE(open.fetch(key, dir.path() / "out.so"));

    CompileCache cache(dir.path() / "kernels", 1 << 20);
    ASSERT_TRUE(cache.usable());
    writeBytes(dir.path() / "elsewhere.so", 100, 'e');
    fs::create_symlink(dir.path() / "elsewhere.so", dir.path() / "kernels" / (key + ".so"));
    EXPECT_FALSE(cache.fetch(key, dir.path() / "out.so"));
}

TEST(CompileCache, AKernelFileCompiledTwiceCompilesOnceAndRunsTheSame) {
    ScratchDir dir("compile_cache");
    auto cache = std::make_shared<const CompileCache>(dir.path() / "kernels", 64 << 20);
    ASSERT_TRUE(cache->usable());
    const std::string text = R"(
__global__ void conv1d(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float sum = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) sum += M[j + r] * N[i + j];
    P[i] = sum;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
)";
    CompileOptions options;
    options.sandbox = SandboxMode::Off;
    options.cache = cache;
    auto first = compileKernelText("cached.cu", text, options);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_FALSE((*first)->compiledFromCache);
    auto second = compileKernelText("cached.cu", text, options);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_TRUE((*second)->compiledFromCache);
    EXPECT_EQ(cache->hits(), 1u);
    // Another text is another library.
    auto third = compileKernelText("cached.cu", text + "\n// changed\n", options);
    ASSERT_TRUE(third) << third.error().message;
    EXPECT_FALSE((*third)->compiledFromCache);

    // The cached library computes what the compiled one does.
    Image input = Image::planar(300, 1);
    for (int i = 0; i < input.width; ++i) input.data[static_cast<std::size_t>(i)] = static_cast<float>((i * 37) % 11) - 5.0f;
    const Mask mask = Mask::row({0.1f, 0.2f, 0.3f, 0.4f, 0.5f});
    RunRequest req;
    req.input = &input;
    req.mask = &mask;
    auto a = runOwnKernel(**first, req);
    auto b = runOwnKernel(**second, req);
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(a->output.data, b->output.data);
    const std::vector<double> want = reference::convolve(input, mask);
    EXPECT_LE(reference::maxAbsDifference(b->output.data, want), reference::float32Tolerance(input, mask));
}

}  // namespace
}  // namespace tilescope::own
