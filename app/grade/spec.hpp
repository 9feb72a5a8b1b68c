// The grading spec a teacher writes (TOML): the assignment, its cases and the
// properties every case must show. docs/grading.md describes the format.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::grade {

// What a case must show besides a right output (always required).
struct Require {
    bool noRaces = true;  // shared and global races, duplicate stores, barriers not reached
    bool noOutOfBounds = true;
    bool noUninitialisedReads = true;
    bool tiled = true;                   // loads of N per output below the basic kernel's
    std::optional<double> maxTimeRatio;  // plain GPU time against the book's kernel (GPU only)
};

struct Case {
    std::string name;  // "45x37, radius 2" unless the spec names it
    std::string size;  // as written: "45x37" or "200"
    int width = 0, height = 1;
    int radius = 0;
    int points = 1;
    int block = 0;         // 0: the kernel's own
    std::string maskFile;  // as written in the spec; empty: generated
    Mask mask;
    std::string maskText;  // "masks/asym5x5.txt, 5x5" or "generated 5x5, random (seed 17)"
    Image input;
    Require require;
    unsigned line = 0;  // where the case starts in the spec
};

struct Spec {
    std::filesystem::path path;
    std::string name;
    int dims = 2;
    unsigned seed = 0;               // of the generated inputs and masks
    double timeLimitSeconds = 10.0;  // per run of a kernel file
    std::vector<Case> cases;
    int maxScore() const {
        int n = 0;
        for (const Case& c : cases)
            n += c.points;
        return n;
    }
};

// Reads and checks the spec, generating each case's input and mask. A spec
// that cannot be used comes back as one line "spec.toml:LINE: reason".
Result<Spec> readSpec(const std::filesystem::path& path);

// "45x37, radius 2" (2D) or "200, radius 3" (1D).
std::string defaultCaseName(const std::string& size, int radius);

}  // namespace tilescope::grade
