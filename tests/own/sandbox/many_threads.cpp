// Starts threads without end, each asleep.
#include <pthread.h>
#include <unistd.h>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    int started = 0;
    for (int i = 0; i < 100000; ++i) {
        pthread_t t;
        if (pthread_create(
                &t, nullptr,
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
