// expect-exit: 2
// expect-output: hostile_forged_zero_block.cu:23:
// expect-output-lines: 1
//
// hostile_forged_zero_block.cu -- launch() writes the worker's answer itself, a result whose block is
// 0 x 0 x 0 (a caller that divides by its sides would end with SIGFPE), and ends the process before the
// worker can write its own. A kernel file may not open files: refused at the call.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void conv2d_basic(const float* N, const float* M, float* P, int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= width || row >= height) return;
    P[row * width + col] = N[row * width + col];
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    FILE* result = fopen("result.json", "w");
    fprintf(result, "{\"ok\":true,\"message\":\"\",\"line\":0,\"kernel\":\"conv2d_basic\",\"grid\":[1,1,1],"
                    "\"block\":[0,0,0],\"shared_bytes\":0,\"millis\":0,\"outside\":0,\"first_outside\":\"\","
                    "\"barrier_mismatches\":0,\"first_barrier\":\"\",\"blocks\":0,\"backend\":\"cpu\","
                    "\"unavailable\":false,\"plain_skipped\":false}");
    fclose(result);
    exit(0);
}
