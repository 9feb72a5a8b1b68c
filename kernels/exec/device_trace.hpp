// The buffers the instrumented CUDA build records into, as both sides see
// them: the GPU writes them (device_recorder.cuh), the host reads them back
// (cuda_instrumented.cu, and own/own_gpu.cpp for a student's kernel compiled
// with NVRTC). Plain structs: the same layout from nvcc, NVRTC and g++.
//
// (No include guard and no includes: textually part of a mode, inside its
// namespace, after trace/event.hpp.)

// One event as the GPU writes it: the block and the thread's own sequence
// number travel with it, because threads append to the buffer in whatever
// order the hardware runs them.
struct DeviceEvent {
    unsigned block;
    unsigned seq;
    Event event;
};

// Per thread: its place in its own program order, and what the hardware
// says about where and when it ran.
struct ThreadCursor {
    unsigned seq;
    unsigned phase;
    unsigned sm;
    unsigned warp;
    unsigned long long firstNs;
    unsigned long long lastNs;
};

struct DeviceFault {
    unsigned long long count;  // accesses outside an array (recorded, never made)
    int set;
    unsigned block;
    unsigned thread;
    int array;
    int index;
    int size;
    unsigned line;
    Subscript2D at;  // through a 2D array: its subscripts as written (rows 0: not)
};

struct DeviceTrace {
    DeviceEvent* events;
    unsigned long long capacity;
    unsigned long long* count;
    ThreadCursor* cursors;              // one per thread of the grid
    const unsigned char* tracedBlocks;  // one flag per block
    DeviceFault* fault;
    int sharedFloats;                   // the dynamic shared memory of the launch
    unsigned dropBarrier[8];            // the barriers left out, one bit per line (core/barrier_drop.hpp)
};

