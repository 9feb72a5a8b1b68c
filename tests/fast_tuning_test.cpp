// conv2d_fast's tuning (api/fast_tuning.hpp) without a GPU: the menu against
// the kernel's catalogue entry, the planner's geometry of each shape against
// the kernel's own arithmetic, the choice made from a given timer, and the
// cache file's bad inputs. The timings on a GPU are the bench's
// (docs/performance.md); here a timer stands in for it, so every choice is
// known in advance.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "api/fast_tuning.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "scratch_dir.hpp"

namespace tilescope {
namespace {

using test::ScratchDir;

const KernelInfo& fast() {
    const KernelInfo* k = findKernel("conv2d_fast");
    EXPECT_NE(k, nullptr);
    return *k;
}

DeviceLimits limits() {
    DeviceLimits l;  // an H100/H200's: 1024 threads, 227 KB of shared memory a block with opt-in
    l.maxThreadsPerBlock = 1024;
    l.sharedPerBlockOptin = 232448;
    return l;
}

Problem problem(int width, int height, int r) {
    return Problem{width, height, 1, 2, 2 * r + 1, 2 * r + 1, 0};
}

std::string read(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

void write(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p) << text;
}

// Sets an environment variable for one scope.
class Env {
public:
    Env(const char* name, const char* value) : m_name(name) {
        if (const char* old = std::getenv(name)) m_old = old;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~Env() {
        if (m_old)
            ::setenv(m_name, m_old->c_str(), 1);
        else
            ::unsetenv(m_name);
    }

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

// A timer whose times are given per shape (ms = 1 + a fraction from the
// block and path), so the fastest is known; `wrong` shapes give a wrong result.
struct FakeTimer {
    std::map<std::string, double> fixed;  // describe(plan) -> ms
    std::string wrong;
    int calls = 0;
    tuning::TimeFunction function() {
        return [this](const LaunchPlan& plan) -> Result<tuning::Timed> {
            ++calls;
            const std::string d = tuning::describe(plan);
            double ms = 1.0 + plan.block.x * 0.001 + (plan.fast.staged ? 0.05 : 0.0) + plan.fast.registers * 0.0001;
            if (auto it = fixed.find(d); it != fixed.end()) ms = it->second;
            return tuning::Timed{ms, d != wrong};
        };
    }
};

TEST(FastTuning, MenuHoldsTheModelsShapeAtEveryRadius) {
    for (int r = 0; r <= kMaxRadius; ++r) {
        const auto menu = tuning::menu(fast(), r);
        EXPECT_EQ(menu.size(), r == 0 ? 8u : 16u) << "radius " << r;
        auto model = planLaunch(fast(), problem(256, 256, r), limits(), false);
        ASSERT_TRUE(model) << model.error().message;
        const tuning::Shape shape{static_cast<int>(model->block.x), model->fast};
        EXPECT_TRUE(tuning::inMenu(fast(), r, shape)) << "radius " << r << ": " << tuning::describe(*model);
    }
}

TEST(FastTuning, ModelShapeFollowsTheCatalogue) {
    // The kernel's comment: 7x7 and 9x9 staged with 32 registers, 3x3 and 5x5 through the caches with 64,
    // from 11x11 up the compiler's count.
    const int staged[] = {0, 0, 0, 1, 1, 0, 0, 0};
    const int registers[] = {64, 64, 64, 32, 32, 0, 0, 0};
    for (int r = 0; r <= kMaxRadius; ++r) {
        const FastShape s = modelShape(fast(), r);
        EXPECT_EQ(s.staged, staged[r] == 1) << "radius " << r;
        EXPECT_EQ(s.registers, registers[r]) << "radius " << r;
    }
}

TEST(FastTuning, StagedShapeIsPlannedAsTheKernelStagesIt) {
    // Staged at 5x5 with 24-wide blocks: 24x12 threads, two bands of 4*12 rows; each band's tile is
    // (4*24 + 2*4) x (4*12 + 2*2) floats (whole float4s of halo: 4 columns for r <= 4).
    Problem p = problem(1024, 768, 2);
    p.block = 24;
    p.staged = 1;
    p.registers = 0;
    auto plan = planLaunch(fast(), p, limits(), false);
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_EQ(plan->block.x, 24u);
    EXPECT_EQ(plan->block.y, 12u);
    EXPECT_TRUE(plan->fast.staged);
    EXPECT_EQ(plan->fast.registers, 0);
    EXPECT_EQ(plan->sharedBytes, 2u * (4 * 24 + 8) * (4 * 12 + 4) * sizeof(float));
    EXPECT_EQ(plan->grid.x, (1024u + 95) / 96);
    EXPECT_EQ(plan->grid.y, (768u + 95) / 96);

    // The same radius through the caches: a square block and no shared memory.
    p.staged = 0;
    plan = planLaunch(fast(), p, limits(), false);
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_EQ(plan->block.y, 24u);
    EXPECT_EQ(plan->sharedBytes, 0u);
    // 9x9 staged by the model: asking for it through the caches empties its shared memory.
    Problem q = problem(1024, 768, 4);
    EXPECT_GT(planLaunch(fast(), q, limits(), false)->sharedBytes, 0u);
    q.staged = 0;
    EXPECT_EQ(planLaunch(fast(), q, limits(), false)->sharedBytes, 0u);
}

TEST(FastTuning, PlannerRefusesShapesTheKernelCannotRun) {
    Problem p = problem(1022, 64, 2);  // rows not 16-byte aligned
    p.staged = 1;
    auto plan = planLaunch(fast(), p, limits(), false);
    ASSERT_FALSE(plan);
    EXPECT_NE(plan.error().message.find("multiple of 4"), std::string::npos) << plan.error().message;
    p.staged = -1;
    EXPECT_TRUE(planLaunch(fast(), p, limits(), false)) << "the model's shape runs at any width";

    Problem one = problem(64, 64, 0);
    one.staged = 1;
    plan = planLaunch(fast(), one, limits(), false);
    ASSERT_FALSE(plan);
    EXPECT_NE(plan.error().message.find("1x1"), std::string::npos) << plan.error().message;

    Problem other = problem(64, 64, 1);
    other.registers = 32;
    plan = planLaunch(*findKernel("conv2d_tiled_in"), other, limits(), false);
    ASSERT_FALSE(plan);
    EXPECT_NE(plan.error().message.find("conv2d_fast"), std::string::npos) << plan.error().message;
}

TEST(FastTuning, ChoosesTheFastestRightShapeAndCachesIt) {
    ScratchDir dir("fast_tuning");
    const tuning::Key key{"Test GPU", "13000", tuning::thisBuild()};
    auto cache = tuning::Cache::open(dir / "t.json", key);
    EXPECT_EQ(cache.note(), "") << "a missing file is no problem";
    FakeTimer timer;
    // The fastest of all gives a wrong result; the next fastest is staged 16x8 with 32 registers.
    timer.fixed["staged in shared memory, 8x4 threads, at most 32 registers"] = 0.10;
    timer.fixed["staged in shared memory, 16x8 threads, at most 32 registers"] = 0.20;
    timer.wrong = "staged in shared memory, 8x4 threads, at most 32 registers";
    auto planned = tuning::planFast(fast(), problem(512, 512, 3), limits(), tuning::Mode::Auto, &cache,
                                    timer.function());
    ASSERT_TRUE(planned) << planned.error().message;
    EXPECT_EQ(timer.calls, 16);
    EXPECT_EQ(tuning::describe(planned->plan), "staged in shared memory, 16x8 threads, at most 32 registers");
    EXPECT_NE(planned->how.find("tuned now: the fastest of 15 shapes (0.200 ms"), std::string::npos) << planned->how;
    ASSERT_EQ(planned->notes.size(), 1u);
    EXPECT_NE(planned->notes[0].find("1 of the menu's shapes gave a wrong result"), std::string::npos);
    const std::string saved = read(dir / "t.json");
    EXPECT_NE(saved.find("\"gpu\": \"Test GPU\""), std::string::npos) << saved;

    // The next run reads the choice and times nothing.
    auto again = tuning::Cache::open(dir / "t.json", key);
    EXPECT_EQ(again.note(), "");
    FakeTimer none;
    planned = tuning::planFast(fast(), problem(512, 512, 3), limits(), tuning::Mode::Auto, &again, none.function());
    ASSERT_TRUE(planned);
    EXPECT_EQ(none.calls, 0);
    EXPECT_EQ(tuning::describe(planned->plan), "staged in shared memory, 16x8 threads, at most 32 registers");
    EXPECT_NE(planned->how.find("the cached choice, the fastest of 15 shapes at 512x512"), std::string::npos)
        << planned->how;

    // --tune again times the menu anew; another radius is timed as it comes.
    planned = tuning::planFast(fast(), problem(512, 512, 3), limits(), tuning::Mode::Again, &again, none.function());
    EXPECT_EQ(none.calls, 16);
    planned = tuning::planFast(fast(), problem(512, 512, 7), limits(), tuning::Mode::Auto, &again, none.function());
    EXPECT_EQ(none.calls, 32);
    // With no wrong shape and the default times, the smallest block through the caches with a limit is fastest.
    EXPECT_EQ(tuning::describe(planned->plan), "through the caches, 8x8 threads, the compiler's registers");
}

TEST(FastTuning, RunsTheModelsShapeWhenItCannotTime) {
    ScratchDir dir("fast_tuning");
    auto cache = tuning::Cache::open(dir / "t.json", tuning::Key{"G", "1", tuning::thisBuild()});
    auto model = planLaunch(fast(), problem(512, 512, 4), limits(), false);
    ASSERT_TRUE(model);
    auto expectModel = [&](const Result<tuning::Planned>& planned, const std::string& why, int calls, int seen) {
        ASSERT_TRUE(planned) << planned.error().message;
        EXPECT_EQ(calls, seen) << why;
        EXPECT_EQ(planned->plan.fast, model->fast) << why;
        EXPECT_EQ(planned->plan.block.x, model->block.x) << why;
        EXPECT_NE(planned->how.find(why), std::string::npos) << planned->how;
    };
    FakeTimer t;
    expectModel(tuning::planFast(fast(), problem(512, 512, 4), limits(), tuning::Mode::Off, &cache, t.function()),
                "--tune off", t.calls, 0);
    {
        Env off("TILESCOPE_TUNE", "off");
        expectModel(tuning::planFast(fast(), problem(512, 512, 4), limits(), tuning::Mode::Auto, &cache, t.function()),
                    "TILESCOPE_TUNE=off", t.calls, 0);
    }
    {
        Env tool("CUDA_INJECTION64_PATH", "/opt/sanitizer/libsanitizer-collection.so");
        expectModel(tuning::planFast(fast(), problem(512, 512, 4), limits(), tuning::Mode::Auto, &cache, t.function()),
                    "compute-sanitizer", t.calls, 0);
    }
    expectModel(tuning::planFast(fast(), problem(510, 512, 4), limits(), tuning::Mode::Auto, &cache, t.function()),
                "multiple of 4", t.calls, 0);
    expectModel(tuning::planFast(fast(), problem(512, 512, 4), limits(), tuning::Mode::Auto, nullptr, t.function()),
                "no cache folder", t.calls, 0);
    EXPECT_FALSE(std::filesystem::exists(dir / "t.json")) << "nothing timed, nothing written";

    // A choice already cached needs no timing: a tool attached still runs it.
    cache.put(4, tuning::Choice{tuning::Shape{32, FastShape{true, 0}}, 0.2, 16, "8192x8192"});
    Env tool("CUDA_INJECTION64_PATH", "/opt/sanitizer/libsanitizer-collection.so");
    auto planned = tuning::planFast(fast(), problem(512, 512, 4), limits(), tuning::Mode::Auto, &cache, t.function());
    ASSERT_TRUE(planned);
    EXPECT_EQ(t.calls, 0);
    EXPECT_EQ(tuning::describe(planned->plan), "staged in shared memory, 32x16 threads, the compiler's registers");
}

TEST(FastTuning, CacheFromElsewhereIsIgnoredAndRewritten) {
    ScratchDir dir("fast_tuning");
    const tuning::Key key{"NVIDIA H200", "13000", tuning::thisBuild()};
    const auto file = dir / "t.json";
    // A right file for another key, then each field changed in turn.
    auto seed = tuning::Cache::open(file, key);
    seed.put(2, tuning::Choice{tuning::Shape{16, FastShape{false, 64}}, 0.15, 16, "8192x8192"});
    ASSERT_FALSE(seed.save());
    const std::string good = read(file);
    ASSERT_TRUE(tuning::Cache::open(file, key).find(2));

    struct Case {
        std::string text;
        tuning::Key key;
        std::string note;
    };
    auto replaced = [&](std::string text, const std::string& from, const std::string& to) {
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return text.replace(at, from.size(), to);
    };
    const Case cases[] = {
        {"{\"format\": ", key, "not JSON"},
        {"\x7f" "ELF\x02\x01", key, "not JSON"},
        {"[1, 2, 3]", key, "not JSON"},
        {replaced(good, "tuning 1", "tuning 0"), key, "not a tuning cache of this format"},
        {good, tuning::Key{"NVIDIA H100 80GB HBM3", "13000", tuning::thisBuild()}, "another GPU (NVIDIA H200)"},
        {good, tuning::Key{"NVIDIA H200", "12080", tuning::thisBuild()}, "another driver (13000)"},
        {good, tuning::Key{"NVIDIA H200", "13000", "0.0-other"}, "another build"},
        {replaced(good, "\"block\": 16", "\"block\": 17"), key, "not on the menu"},
        {replaced(good, "\"registers\": 64", "\"registers\": 48"), key, "not on the menu"},
        {replaced(good, "\"block\": 16", "\"block\": \"16\""), key, "missing or wrong field"},
        {replaced(good, "\"2\":", "\"9\":"), key, "a radius that is not one"},
        {replaced(good, "\"2\":", "\"2x\":"), key, "a radius that is not one"},
        {replaced(good, "\"ms\": 0.15", "\"ms\": -1"), key, "not on the menu"},
    };
    for (const Case& c : cases) {
        write(file, c.text);
        auto cache = tuning::Cache::open(file, c.key);
        EXPECT_NE(cache.note().find(c.note), std::string::npos) << "note: " << cache.note() << "\nwanted: " << c.note;
        EXPECT_NE(cache.note().find("ignored, and rewritten"), std::string::npos) << cache.note();
        EXPECT_FALSE(cache.find(2)) << c.note;
        // Tuning rewrites it as a file of this key, which reads back clean.
        FakeTimer t;
        auto planned = tuning::planFast(fast(), problem(256, 256, 1), limits(), tuning::Mode::Auto, &cache,
                                        t.function());
        ASSERT_TRUE(planned);
        EXPECT_EQ(t.calls, 16) << c.note;
        auto reread = tuning::Cache::open(file, c.key);
        EXPECT_EQ(reread.note(), "") << c.note;
        EXPECT_TRUE(reread.find(1)) << c.note;
    }
}

TEST(FastTuning, FolderThatCannotBeWrittenIsSaid) {
    ScratchDir dir("fast_tuning");
    write(dir / "a-file", "x");
    // A folder below a plain file cannot be made, by root as by anyone.
    auto why = tuning::whyNotWritable(dir / "a-file" / "tilescope");
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("cannot be made"), std::string::npos) << *why;
    EXPECT_FALSE(tuning::whyNotWritable(dir / "fresh" / "tilescope")) << "a missing folder is made";
    EXPECT_TRUE(std::filesystem::is_directory(dir / "fresh" / "tilescope"));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "fresh" / "tilescope"),
                            std::filesystem::directory_iterator()),
              0)
        << "the probe leaves nothing behind";

    // A cache whose file cannot be saved keeps the run's choice and says why.
    auto cache = tuning::Cache::open(dir / "a-file" / "tilescope" / "t.json", tuning::Key{"G", "1", "b"});
    FakeTimer t;
    auto planned =
        tuning::planFast(fast(), problem(256, 256, 1), limits(), tuning::Mode::Auto, &cache, t.function());
    ASSERT_TRUE(planned);
    ASSERT_EQ(planned->notes.size(), 1u);
    EXPECT_NE(planned->notes[0].find("could not be cached"), std::string::npos) << planned->notes[0];
}

TEST(FastTuning, UserFolderFollowsXdg) {
    {
        Env xdg("XDG_CACHE_HOME", "/tmp/xdg-cache");
        EXPECT_EQ(tuning::userFolder(), std::filesystem::path("/tmp/xdg-cache/tilescope"));
    }
    {
        Env xdg("XDG_CACHE_HOME", nullptr);
        Env home("HOME", "/home/teacher");
        EXPECT_EQ(tuning::userFolder(), std::filesystem::path("/home/teacher/.cache/tilescope"));
    }
    {
        Env xdg("XDG_CACHE_HOME", nullptr);
        Env home("HOME", nullptr);
        EXPECT_FALSE(tuning::userFolder());
    }
}

TEST(FastTuning, BuildIdNamesTheKernelsSources) {
    // Made from the version, the CUDA compiler and a hash of conv2d_fast's sources (kernels/CMakeLists.txt).
    const std::string id = tuning::thisBuild();
    EXPECT_NE(id, "unknown");
    EXPECT_GT(id.size(), 16u);
}

}  // namespace
}  // namespace tilescope
