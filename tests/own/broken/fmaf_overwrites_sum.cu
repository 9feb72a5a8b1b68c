// expect-exit: 1
// expect-args: check --size 64x48 --radius 1
// expect-output: wrong result on P, line 39
// expect-output: 3072 wrong results
//
// fmaf_overwrites_sum.cu -- the kernel of good/conv2d_cuda_types_student.cu with
// fmaf's third argument 0.0f instead of the running sum: each pixel keeps its
// last product alone. fmaf computes, so the result is wrong everywhere.

#include <cuda_runtime.h>
#include <stdint.h>

#define BLOCK_X 16
#define BLOCK_Y 16

__device__ bool inImage(int2 p, int32_t width, int32_t height)
{
    return p.y >= 0 && p.y < height && p.x >= 0 && p.x < width;
}

__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
conv2d_types(const float* N, const float* M, float* P, int r, int32_t width, int32_t height)
{
    dim3 t = threadIdx;
    const int2 pixel = make_int2(blockIdx.x * blockDim.x + t.x, blockIdx.y * blockDim.y + t.y);
    const uint32_t maskWidth = 2 * r + 1;
    const float2 scaleOffset = make_float2(1.0f, 0.0f);

    if (pixel.y < height && pixel.x < width) {
        float Pvalue = 0.0f;
        for (uint32_t i = 0; i < maskWidth; i++) {
            for (uint32_t j = 0; j < maskWidth; j++) {
                const int2 in = make_int2(pixel.x - r + (int)j, pixel.y - r + (int)i);
                if (inImage(in, width, height)) {
                    Pvalue = fmaf(M[i * maskWidth + j], N[(int64_t)in.y * width + in.x], 0.0f);
                }
            }
        }
        P[pixel.y * width + pixel.x] = __fmul_rn(Pvalue, scaleOffset.x) + scaleOffset.y;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    conv2d_types<<<grid, block>>>(N, M, P, r, width, height);
}
