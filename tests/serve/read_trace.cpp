// Reads a trace of a student's kernel file with kernels/trace/trace_io and
// prints what the serve tests compare: its kernel, backend, blocks and
// events, as one line of JSON. A student's kernel is no kernel of the
// catalogue: the kernel file is compiled (kernels/own) for its entry, which
// decodeBinary reads the trace against and validates it with. Exit 1 when
// the file does not read back.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "own/own_kernel.hpp"
#include "trace/trace_io.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: read_trace TRACE.tstrace KERNEL.cu\n");
        return 2;
    }
    auto kernel = tilescope::own::compileKernelFile(argv[2]);
    if (!kernel) {
        std::fprintf(stderr, "read_trace: %s\n", kernel.error().message.c_str());
        return 1;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    auto trace = tilescope::decodeBinary(bytes.str(), (*kernel)->info);
    if (!trace) {
        std::fprintf(stderr, "read_trace: %s\n", trace.error().message.c_str());
        return 1;
    }
    std::printf("{\"kernel\": \"%s\", \"backend\": \"%s\", \"blocks\": %zu, \"events\": %zu}\n", trace->kernel.c_str(),
                trace->backend.c_str(), trace->blocks.size(), trace->eventCount());
    return 0;
}
