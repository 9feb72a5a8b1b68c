// Connects to 127.0.0.1 at the port the argument names.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        std::printf("no socket\n");
        return;
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<unsigned short>(std::atoi(argument(N, width * height).c_str())));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    if (connected)
        (void)!write(fd, "escaped", 7);
    std::printf("%s\n", connected ? "connected" : "not connected");
    close(fd);
}
