// A build without the desktop app (TILESCOPE_APP=OFF, as on a GPU server):
// the command line works, and asking for the app says why it is not there.
#include <cstdio>

#include "cli/commands.hpp"
#include "core/result.hpp"

namespace tilescope::cli {

Command addAppCommands(CLI::App&, std::vector<Command>&) {
    return Command{nullptr, [] {
        std::fprintf(stderr,
                     "tilescope: this build has no app (it was configured with TILESCOPE_APP=OFF); "
                     "try `tilescope list` or `tilescope --help`\n");
        return static_cast<int>(ExitCode::BackendUnavailable);
    }};
}

}  // namespace tilescope::cli
