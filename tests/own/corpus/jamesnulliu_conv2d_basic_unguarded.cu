// expect-exit: 1
// expect-args: check --size 70x20 --radius 2
// expect-output: out of bounds on output, line 82: 2432
// expect-output: wrong result on output, never written: 760
// expect-output: grid 3x1, block 32x32
//
// jamesnulliu_conv2d_basic_unguarded.cu -- a real kernel, written after
// the original (not a copy): its names, constructs, structure and mistakes
// are the original's; no text of it is reproduced.
// From: github.com/jamesnulliu/Learning-Programming-Massively-Parallel-
//       Processors, csrc/lib/ops/conv2d/op.cu,
//       commit 7ae54a70ecd26f7d16903ee42687293c336e391b (an earlier
//       version of the file of jamesnulliu_conv2d_tiled_template.cu).
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: bug: the store has no guard, and the grid is the wrong way
// round. PMPP's basic kernel as a function template conv2DKernel<ScalarT>,
// deduced at the launch, over int32_t indices, the mask read from global
// memory. outRow comes from blockIdx.x / threadIdx.x and outCol from the
// y's, while the grid is ceilDiv(inputWidth, 32) x ceilDiv(inputHeight,
// 32): at 70 x 20, 3 x 1 blocks cover rows 0..95 by columns 0..31. The
// reads are guarded; the store output[computeOffset(outRow, outCol, ...)]
// is not: the threads of rows 20..95 store past the end of P (1400
// floats), and columns 32..69 are never written. Even a square image that
// is not a multiple of 32 stores out of bounds.
//
// Kept from the original: the kernel with its int32_t locals and
// unguarded store, its launch by deduction (conv2DKernel<<<...>>>), the
// launcher's dim3 blockSize = {32, 32, 1} and dim3 gridSize of
// uint32_t(ceilDiv(...)). Adapted: fp32_t, the project's name for float,
// is a #define here; computeOffset<OffsetT>(args...), a variadic constexpr
// template from pmpp/utils/address.hpp that takes half its arguments as
// indices and half as extents (row-major), is written for the two
// dimensions used, as a __device__ template; ceilDiv, a constrained
// template, is a plain host function with its argument types; the
// launcher's explicit specialisation launchConv2D<fp32_t> is launch().
// Dropped: the namespace, PMPP_DEBUG_CUDA_ERR_CHECK, the project headers.

#include <cuda_runtime.h>
#include <stdint.h>

#define fp32_t float

// Row-major offset of (row, col) in an nRows x nCols array.
template <typename OffsetT>
__device__ OffsetT computeOffset(int32_t row, int32_t col, int32_t nRows, int32_t nCols)
{
    OffsetT offset = 0, stride = 1;
    offset += static_cast<OffsetT>(col) * stride;
    stride *= static_cast<OffsetT>(nCols);
    offset += static_cast<OffsetT>(row) * stride;
    return offset;
}

uint32_t ceilDiv(int32_t a, uint32_t b)
{
    return uint32_t((a + b - 1) / b);
}

template <typename ScalarT>
__global__ void conv2DKernel(const ScalarT* input, const ScalarT* kernel,
                             ScalarT* output, int32_t input_height,
                             int32_t input_width, int32_t kernel_size)
{
    int32_t outRow = blockIdx.x * blockDim.x + threadIdx.x;
    int32_t outCol = blockIdx.y * blockDim.y + threadIdx.y;

    ScalarT tmp = 0;
    for (int32_t kRow = 0; kRow < kernel_size; ++kRow) {
        for (int32_t kCol = 0; kCol < kernel_size; ++kCol) {
            int32_t inRow = outRow + kRow - kernel_size / 2;
            int32_t inCol = outCol + kCol - kernel_size / 2;
            if (inRow >= 0 && inRow < input_height && inCol >= 0 &&
                inCol < input_width) {
                tmp += input[computeOffset<int32_t>(inRow, inCol, input_width,
                                                    input_width)] *
                       kernel[computeOffset<int32_t>(kRow, kCol, kernel_size,
                                                     kernel_size)];
            }
        }
    }
    output[computeOffset<int32_t>(outRow, outCol, input_width, input_width)] =
        tmp;
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int32_t inputHeight = height;
    int32_t inputWidth = width;
    int32_t kernelSize = 2 * r + 1;

    dim3 blockSize = {32, 32, 1};
    dim3 gridSize = {uint32_t(ceilDiv(inputWidth, blockSize.x)),
                     uint32_t(ceilDiv(inputHeight, blockSize.y))};
    conv2DKernel<<<gridSize, blockSize>>>(N, M, P,
                                          inputHeight, inputWidth, kernelSize);
}
