// expect-exit: 1
// expect-args: check --size 64x48 --radius 1
// expect-output: out of bounds: block (0,0), thread (0,0), load of N[-65] (3072 elements), line 35
// expect-output: accesses out of bounds
//
// int2_index_no_ghost_test.cu -- the kernel of good/conv2d_cuda_types_student.cu
// without its inImage() test: the input pixel, an int2 made by make_int2, is
// indexed outside the image near its edges.

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
                {
                    Pvalue = fmaf(M[i * maskWidth + j], N[(int64_t)in.y * width + in.x], Pvalue);
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
