// What the fuzz targets share. The readers of app/io take paths (they refuse
// directories, FIFOs and oversized files before reading, and that is worth
// fuzzing too), so each input is written to a file first: one scratch
// directory per process, on /dev/shm where there is one, removed at exit.
//
// Besides "no crash and no sanitizer report", every target checks what the
// readers promise in app/io/files.hpp: a refusal is one line with exit code 2
// that names the file; an accepted array has the shape its data has, within
// the limits, and only finite values. A broken promise aborts, which libFuzzer
// reports as a crash, with the input that broke it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::fuzz {

// This process's scratch directory (made on first use).
const std::filesystem::path& scratchDirectory();

// Writes the bytes to <scratch>/input<extension> and returns that path.
std::filesystem::path writeInput(const std::uint8_t* data, std::size_t size, const std::string& extension);

// A reader's promise, broken: prints what and aborts.
[[noreturn]] inline void broken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz: broken promise: %s: %s\n", what, detail.c_str());
    std::abort();
}

// A refusal: one line, exit code 2, starts with the path it names.
void checkRefusal(const Error& error, const std::filesystem::path& path);

// An accepted image: 1..4 channels, rank agreeing with the shape, the data
// size the shape says, dimensions within the limits, finite values. When
// `unitRange`, every value is in [0, 1] (pictures are scaled so).
void checkImage(const Image& image, bool unitRange);

// An accepted mask: width and height at least 1, values the size they say, finite.
void checkMask(const Mask& mask);

}  // namespace tilescope::fuzz
