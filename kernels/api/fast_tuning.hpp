// conv2d_fast tuned to the GPU it runs on. The kernel's shapes (its block,
// whether it stages its input in shared memory, the registers a thread may
// use) were chosen on an H100; another GPU may run another shape best. As
// cuDNN's "find" and Triton's autotune do, `tilescope bench` times a small
// menu of shapes once per GPU and mask size, keeps the fastest that gives the
// right result, and caches that choice in the user's cache folder, keyed by
// the GPU, the driver and the build. When timing is not possible (a CUDA tool
// such as compute-sanitizer is attached, TILESCOPE_TUNE=off, a cache folder
// that cannot be written) the kernel runs the model's shape, its catalogue
// entry's, and says why; a choice already cached is used under such a tool.
//
// Nothing here touches the GPU: the timing is a function the caller gives
// (the bench passes cuda::benchKernel), so the choice and the cache are
// tested on any machine.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_info.hpp"
#include "core/launch_plan.hpp"
#include "core/planner.hpp"
#include "core/result.hpp"

namespace tilescope::tuning {

// One shape of the menu: a block edge and a FastShape. Staged, the block is
// edge x edge/2 threads (two bands), as at the model's staged radii.
struct Shape {
    int block = 0;
    FastShape fast;
    bool operator==(const Shape&) const = default;
};

// The menu at a radius: block edges 8, 16, 24 and 32, read through the
// caches or staged (from radius 1), each with its path's register limit or
// the compiler's count. 16 shapes from radius 1, 8 at radius 0.
std::vector<Shape> menu(const KernelInfo& kernel, int radius);
bool inMenu(const KernelInfo& kernel, int radius, const Shape& shape);

// "staged, 16x8 threads, at most 32 registers" / "through the caches, 24x24
// threads, the compiler's registers".
std::string describe(const LaunchPlan& plan);

// What a choice is cached under: the GPU's name, the driver's version and
// this build (its version, conv2d_fast's sources and the CUDA compiler).
struct Key {
    std::string gpu;
    std::string driver;
    std::string build;
    bool operator==(const Key&) const = default;
};
std::string thisBuild();

// The choice at one radius: the shape, its median time and the image size
// and number of shapes it was measured among.
struct Choice {
    Shape shape;
    double millis = 0.0;
    int timed = 0;
    std::string size;  // "8192x8192"
};

// The cache file: one JSON object per GPU, driver and build. A file that
// cannot be read, is not one, or was made for another key is ignored (note()
// says why) and replaced at the next save().
class Cache {
public:
    static Cache open(const std::filesystem::path& file, const Key& key);

    const std::filesystem::path& file() const { return m_file; }
    const std::string& note() const { return m_note; }
    std::optional<Choice> find(int radius) const;
    void put(int radius, const Choice& choice);
    // Writes the file (atomically); the reason when it could not.
    std::optional<std::string> save() const;

private:
    std::filesystem::path m_file;
    Key m_key;
    std::map<int, Choice> m_choices;
    std::string m_note;
};

// $XDG_CACHE_HOME/tilescope (else ~/.cache/tilescope), or nothing when
// neither is set.
std::optional<std::filesystem::path> userFolder();

// Why the shapes cannot be timed here: a CUDA tool attached to the process
// (its timings would be the tool's), or TILESCOPE_TUNE=off; "" when they can.
std::string whyNotTimed();

// Whether a file can be written in `folder` (made when missing); the reason
// when it cannot.
std::optional<std::string> whyNotWritable(const std::filesystem::path& folder);

enum class Mode {
    Auto,   // the cached choice, else time the menu and cache the fastest
    Again,  // time the menu even when a choice is cached, and cache the fastest
    Off,    // the model's shape
};

// Times one plan: its median in ms and whether its output was right.
struct Timed {
    double millis = 0.0;
    bool correct = false;
};
using TimeFunction = std::function<Result<Timed>(const LaunchPlan&)>;

// The plan conv2d_fast runs for `problem` (whose block is 0: the choice is
// the tuner's), and how it was chosen, in one line for the bench's output.
struct Planned {
    LaunchPlan plan;
    std::string how;          // "tuned: the fastest of 16 shapes on NVIDIA H200, cached" ...
    std::vector<std::string> notes;  // once per run: why the menu was not timed, a cache ignored
    std::vector<std::pair<Shape, Timed>> timings;  // the menu as timed, when it was
};
Result<Planned> planFast(const KernelInfo& kernel, const Problem& problem, const DeviceLimits& limits, Mode mode,
                         Cache* cache, const TimeFunction& time);

}  // namespace tilescope::tuning
