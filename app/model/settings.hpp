// The settings file: ~/.config/tilescope/settings.json (or under
// $XDG_CONFIG_HOME, or the folder given with --config-dir), next to ImGui's
// imgui.ini which keeps the window places. Read at start, written when
// something changes and at exit; a damaged file is reported and ignored,
// never fatal.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "model/app_state.hpp"

namespace tilescope::ui {

// $XDG_CONFIG_HOME/tilescope, else $HOME/.config/tilescope; empty when neither
// is set (then nothing persists).
std::filesystem::path defaultConfigDirectory();

std::string settingsToJson(const Settings& settings);
// Unknown or invalid fields keep their defaults; a file that is not JSON is an error.
Result<Settings> settingsFromJson(const std::string& text);

Result<Settings> loadSettings(const std::filesystem::path& file);
Status saveSettings(const std::filesystem::path& file, const Settings& settings);

}  // namespace tilescope::ui
