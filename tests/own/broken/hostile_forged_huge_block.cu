// expect-exit: 2
// expect-output: hostile_forged_huge_block.cu:27:
// expect-output-lines: 1
//
// hostile_forged_huge_block.cu -- launch() writes the worker's answer with the write() system call: a
// result whose block is 4294967295 on each side (a replay sized by its thread count would write past its
// vectors), then ends the process before the worker writes its own. The file declares the C library's
// open() and write() itself: refused at the first call.

#include <cuda_runtime.h>

extern "C" int open(const char* path, int flags, ...);
extern "C" long write(int fd, const void* bytes, unsigned long size);
extern "C" void _exit(int status);

__global__ void conv2d_basic(const float* N, const float* M, float* P, int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= width || row >= height) return;
    P[row * width + col] = N[row * width + col];
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    const char forged[] = "{\"ok\":true,\"block\":[4294967295,4294967295,4294967295]}";
    int fd = open("result.json", 01101, 0644);
    write(fd, forged, sizeof forged - 1);
    _exit(0);
}
