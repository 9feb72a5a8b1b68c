// The command line: one binary, `tilescope`, whose commands the app, the
// tests and teachers' scripts share.
#pragma once

namespace tilescope::cli {

// Parses and runs a command; returns the process exit code (0 success,
// 2 bad input, 3 backend unavailable).
int main(int argc, char** argv);

}  // namespace tilescope::cli
