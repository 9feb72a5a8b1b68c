// expect-exit: 2
// expect-output: hostile_forged_escape_message.cu:23:
// expect-output-lines: 1
//
// hostile_forged_escape_message.cu -- launch() writes the worker's answer itself: a failure whose 20 MB
// message is terminal escapes (a title change, a screen clear), to reach the teacher's terminal raw.
// Refused at the file it opens.

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
    fputs("{\"ok\":false,\"message\":\"", result);
    for (int i = 0; i < 1000000; i++)
        fputs("\\u001b]0;owned\\u0007\\u001b[2J", result);
    fputs("\",\"line\":0,\"backend\":\"cpu\",\"unavailable\":false,\"plain_skipped\":false}", result);
    fclose(result);
    exit(0);
}
