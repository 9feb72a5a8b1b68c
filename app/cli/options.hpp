// Options shared by several commands (run, stats, trace, screenshot), bound
// to the command line (the request they make: request/request.hpp), the
// reports' printing, and the one-line error reporting.
#pragma once

#include <CLI/CLI.hpp>

#include "request/request.hpp"

namespace tilescope::cli {

// The commands speak of the request's parts as their own.
using request::classSandbox;
using request::generatedMask;
using request::generatedMaskText;
using request::Json;
using request::KernelOptions;
using request::launchJson;
using request::load;
using request::Loaded;
using request::runTraced;
using request::TraceSelection;

// Adds --kernel (or --kernel-file), --input/--size, --mask/--radius, --block, --backend, --what-if.
void addKernelOptions(CLI::App& command, KernelOptions& options, bool allowGenerated);
// Adds --drop-barrier and --schedule (the race demonstration).
void addRaceOptions(CLI::App& command, KernelOptions& options);

// Adds --trace-blocks and --event-budget.
void addTraceOptions(CLI::App& command, TraceSelection& selection, const char* verb);

// Prints the report on stdout, the what-if note on stderr; returns 0.
int printReport(const Json& report, const LaunchPlan& plan);

// Prints "tilescope: <message>" on stderr and returns the exit code.
int fail(const Error& error);

// Prints what a kernel file printed, on stderr (stdout may be JSON), under
// "printf output of the kernel (N lines):", each line after "  | "; nothing
// when it printed nothing. The commands that run a kernel file call it once
// the run is over, whether it succeeded or not.
void printPrintout(const Loaded& loaded);

}  // namespace tilescope::cli
