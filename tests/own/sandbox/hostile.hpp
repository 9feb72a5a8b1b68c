// What each case of tests/own/sandbox/ shares: the entry a translated
// kernel file exposes (tilescope_own_launch, own/translate.cpp), and the
// argument the test hands a case (a path, a port, a name), spelled in the
// input's values, one character a value and a 0 after the last.
//
// These are raw C++, built by CMake into shared objects for
// own_sandbox_test alone: the code a kernel file's translation would never
// let through, to show what the sandbox does when something gets past it.
// No student's file can become one of them.
#pragma once

#include <cstdio>
#include <string>

#define TILESCOPE_HOSTILE_ENTRY                                                  \
    extern "C" __attribute__((visibility("default"))) void tilescope_own_launch( \
        const float* N, const float* M, float* P, int r, int width, int height)

inline std::string argument(const float* N, int count) {
    std::string s;
    for (int i = 0; i < count && N[i] != 0.0f; ++i)
        s += static_cast<char>(static_cast<int>(N[i]));
    return s;
}

// Prints the file's first bytes, or why it could not be read.
inline void show(const char* what, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::printf("%s: cannot open %s\n", what, path.c_str());
        return;
    }
    char buffer[512];
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
    std::fclose(f);
    for (std::size_t i = 0; i < n; ++i)
        if (buffer[i] == '\0')
            buffer[i] = ' ';
    buffer[n] = '\0';
    std::printf("%s: read %s\n", what, buffer);
}

// The argument as a constructor finds it, before launch() is called: the
// worker's folder is its job's, and N.f32 holds the input's floats.
inline std::string argumentFromJob() {
    std::FILE* f = std::fopen("N.f32", "rb");
    if (!f)
        return {};
    std::string s;
    float v = 0.0f;
    while (s.size() < 4096 && std::fread(&v, sizeof v, 1, f) == 1 && v != 0.0f)
        s += static_cast<char>(static_cast<int>(v));
    std::fclose(f);
    return s;
}
