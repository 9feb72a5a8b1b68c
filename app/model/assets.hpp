// The files the app carries: the built-in inputs (assets/*.pgm, assets/*.npy)
// and the lessons that ship (assets/lessons/*.lesson) are embedded in the
// binary at build time (cmake/EmbedSources.cmake), so that a copy of the
// program runs anywhere, with no source or build tree to find. The exercises'
// starting files are not: students open and edit them, so they are installed
// as files (share/tilescope/exercises) and found beside the program.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "trace/sources.hpp"

namespace tilescope {

// Every embedded file of assets/, by its path there ("photo.pgm",
// "lessons/1d-convolution.lesson"); generated at build time.
std::span<const EmbeddedSource> embeddedAssetTable();

}  // namespace tilescope

namespace tilescope::ui {

// The bytes of an embedded file by its path under assets/; nullopt when the
// binary does not carry it.
std::optional<std::span<const unsigned char>> embeddedAsset(std::string_view path);

// The embedded files of one folder of assets/ ("lessons") with one extension
// (".lesson"), in path order.
std::vector<EmbeddedSource> embeddedAssets(std::string_view folder, std::string_view extension);

// The folder of the exercises' starting files: share/tilescope/exercises
// beside the program's folder (bin/tilescope -> share/tilescope/exercises).
// A build tree has the same layout (build/app/tilescope ->
// build/share/tilescope/exercises, a link to the source tree's
// assets/exercises that CMake makes), so no absolute path is built in.
std::filesystem::path exercisesDirectory();

}  // namespace tilescope::ui
