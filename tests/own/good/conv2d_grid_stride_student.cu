// conv2d_grid_stride_student.cu -- 2D convolution over a grid smaller than
// the image: each thread walks the image in strides of the whole grid, with
// the grid's and the block's shapes copied into dim3 and uint3 variables
// (`dim3 b = blockDim;`, `uint3 t = threadIdx;`), as CUDA allows. The pixels
// are indexed with 64-bit numbers (size_t, long long), in bounds.

#include <cuda_runtime.h>

#define BLOCK_X 16
#define BLOCK_Y 8

// The thread's first pixel: its place in the whole grid.
__device__ uint3 firstPixel()
{
    uint3 t = threadIdx;
    uint3 bi = threadIdx;
    bi = blockIdx;       // uint3 assigned from the built-in, as CUDA allows
    dim3 b = blockDim;
    uint3 bu = blockDim;  // and dim3's conversion to uint3
    dim3 td = threadIdx;  // and uint3's to dim3
    return {bi.x * bu.x + td.x, bi.y * b.y + t.y, 0};
}

__global__ void conv2d_grid_stride(const float* N, const float* M, float* P,
                                   int r, int width, int height)
{
    dim3 b = blockDim;
    dim3 g = gridDim;
    uint3 first = firstPixel();
    uint3 t = {threadIdx.x};  // the other members are 0
    int strideX = blockDim.x * gridDim.x;
    int strideY = g.y * b.y;
    int maskWidth = 2 * r + 1;

    if (t.y != 0 || t.x != threadIdx.x) return;  // never: checks the braces above
    for (int row = first.y; row < height; row += strideY) {
        for (int col = first.x; col < width; col += strideX) {
            float Pvalue = 0.0f;
            for (int i = 0; i < maskWidth; i++) {
                for (int j = 0; j < maskWidth; j++) {
                    long long inRow = row - r + i;
                    long long inCol = col - r + j;
                    if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                        size_t at = (size_t)inRow * width + inCol;
                        Pvalue += M[i * maskWidth + j] * N[at];
                    }
                }
            }
            P[(long long)row * width + col] = Pvalue;
        }
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(2, 2);
    conv2d_grid_stride<<<grid, block>>>(N, M, P, r, width, height);
}
