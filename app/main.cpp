// tilescope: with no arguments, the app on its built-in demo; otherwise a
// command (`tilescope --help` lists them).
#include "cli/cli.hpp"

int main(int argc, char** argv) { return tilescope::cli::main(argc, argv); }
