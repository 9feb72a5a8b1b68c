// A constructor, which runs when the worker loads the kernel's shared
// object, before launch(): it connects to 127.0.0.1 at the argument's port,
// then starts a shell that writes a file at the argument's path
// ("PORT PATH"). The filter must already be there.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "hostile.hpp"

__attribute__((constructor)) static void escape() {
    const std::string arg = argumentFromJob();
    const std::size_t space = arg.find(' ');
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<unsigned short>(std::atoi(arg.substr(0, space).c_str())));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0)
            (void)!write(fd, "escaped", 7);
        close(fd);
    }
    const pid_t child = fork();
    if (child == 0) {
        const std::string command = "echo escaped > '" + arg.substr(space + 1) + "'";
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    if (child > 0)
        waitpid(child, nullptr, 0);
}

TILESCOPE_HOSTILE_ENTRY {
    std::printf("launch() ran\n");
}
