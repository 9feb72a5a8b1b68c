#include "cli/commands.hpp"

namespace tilescope::cli {

std::vector<Command> addCommands(CLI::App& app) {
    std::vector<Command> commands;
    // The app comes first: it is what runs when no command is given.
    commands.push_back(addAppCommands(app, commands));
    commands.push_back(addCheckCommand(app));
    commands.push_back(addStatsCommand(app));
    commands.push_back(addTraceCommand(app));
    commands.push_back(addSweepCommand(app));
    commands.push_back(addMemoryCommand(app));
    commands.push_back(addGradeCommand(app));
    commands.push_back(addServeCommand(app));
    commands.push_back(addLabCommand(app));
    commands.push_back(addBenchCommand(app));
    commands.push_back(addDeviceCommand(app));
    return commands;
}

}  // namespace tilescope::cli
