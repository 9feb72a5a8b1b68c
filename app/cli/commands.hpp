// Every command beyond `list` and `run` lives in its own file and registers
// itself here: it adds its subcommand and options to the parser and returns
// what to do when that subcommand is chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <vector>

namespace tilescope::cli {

struct Command {
    CLI::App* subcommand = nullptr;
    std::function<int()> run;  // returns the exit code
};

// Each command file defines one of these.
Command addStatsCommand(CLI::App& app);
Command addCheckCommand(CLI::App& app);
Command addTraceCommand(CLI::App& app);
Command addBenchCommand(CLI::App& app);
Command addDeviceCommand(CLI::App& app);
Command addSweepCommand(CLI::App& app);
Command addMemoryCommand(CLI::App& app);
Command addGradeCommand(CLI::App& app);
Command addServeCommand(CLI::App& app);
Command addLabCommand(CLI::App& app);  // lab export
Command addAppCommands(CLI::App& app, std::vector<Command>& commands);  // the app, screenshot, ui-bench

// All of the above, in the order `tilescope --help` shows them. The first
// entry with a null subcommand is what runs when no command is given.
std::vector<Command> addCommands(CLI::App& app);

}  // namespace tilescope::cli
