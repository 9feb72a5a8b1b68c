#include "cli/commands.hpp"

namespace tilescope::cli {

std::vector<Command> addCommands(CLI::App& app) {
    std::vector<Command> commands;
    // The app comes first: it is what runs when no command is given.
    commands.push_back(addAppCommands(app, commands));
    return commands;
}

}  // namespace tilescope::cli
