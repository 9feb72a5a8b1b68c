// expect-exit: 2
// expect-output: hostile_forged_empty_output.cu:19:
// expect-output-lines: 1
//
// hostile_forged_empty_output.cu -- an empty kernel whose launch() writes an empty output and an empty
// trace as the worker's answer, which compared with the reference over no floats at all would be
// "right", and ends the process before the worker writes its own. Refused at the first file it opens.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void conv2d_basic(const float* N, const float* M, float* P, int r, int width, int height)
{
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    fclose(fopen("P.f32", "wb"));
    fclose(fopen("events.bin", "wb"));
    FILE* result = fopen("result.json", "w");
    fputs("{\"ok\":true,\"grid\":[1,1,1],\"block\":[16,16,1],\"blocks\":0}", result);
    fclose(result);
    quick_exit(0);
}
