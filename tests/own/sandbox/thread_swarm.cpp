// Starts threads with 16 KB stacks, each asleep, until one cannot be
// started: the address-space limit would allow a hundred thousand of them.
#include <pthread.h>
#include <unistd.h>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 16 * 1024);
    int started = 0;
    for (int i = 0; i < 100000; ++i) {
        pthread_t t;
        if (pthread_create(
                &t, &attributes,
                [](void*) -> void* {
                    pause();
                    return nullptr;
                },
                nullptr) != 0)
            break;
        ++started;
    }
    std::printf("started %d threads\n", started);
}
