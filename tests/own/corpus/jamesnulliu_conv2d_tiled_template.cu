// expect-exit: 1
// expect-args: check --size 70x20 --radius 2
// expect-output: wrong result on output, never written: 760
// expect-output: grid 3x1, block 32x32
// expect-no-output: out of bounds
//
// jamesnulliu_conv2d_tiled_template.cu -- a real kernel, written after the
// original (not a copy): its names, constructs, structure and mistakes are
// the original's; no text of it is reproduced.
// From: github.com/jamesnulliu/Learning-Programming-Massively-Parallel-
//       Processors, csrc/lib/ops/conv2d/op.cu,
//       commit 616d5ee75a26c4c91124fd9695e67569ccd4c485, with offset() of
//       csrc/include/pmpp/utils/address.hpp at the same commit.
// Licence: none stated. See NOTICE.md in this folder.
//
// Verdict: bug on an image that is not square: outputs never written.
// PMPP's tiled kernel with the halo read through the caches, written as a
// function template conv2DKernel<ScalarT, TILE_SIZE = 32> over int32_t
// indices, the mask in __constant__ KERNEL, launched as
// conv2DKernel<fp32_t, 32>. The kernel maps threadIdx.x / blockIdx.x to
// the output's row (outRow) and threadIdx.y / blockIdx.y to its column,
// and its tile is inTile[threadIdx.x][threadIdx.y]: consistent inside the
// kernel, but the launch sizes the grid the usual way round,
// ceilDiv(inputWidth, 32) x ceilDiv(inputHeight, 32). At 70 x 20 that is 3
// x 1 blocks: rows 0..95 (20 of them real) by columns 0..31, so columns
// 32..69 are never written (760 outputs). The loads and the store are
// guarded, so nothing is touched out of bounds. A square image, or one
// whose sides round up to the same number of tiles (45 x 45), is
// right.
//
// Kept from the original: MAX_CONV2D_KERNEL_SIZE, KERNEL, the kernel
// template with its default argument and int32_t locals, its explicit
// instantiation at the launch, the launch's dim3 blockDim = {32, 32, 1}
// and dim3 gridDim of uint32_t(ceilDiv(...)) (names that hide CUDA's in
// the host function), cudaMemcpyToSymbol(KERNEL, d_kernel, ...) from the
// device mask. Adapted: fp32_t, the project's name for float, is a
// #define here; offset<OffsetT>(args...), a variadic constexpr template
// that takes half its arguments as indices and half as extents, is written
// for the two dimensions used, as a __device__ template; ceilDiv, a
// constrained template, is a plain host function with its argument types;
// the launcher's explicit specialisation launchConv2d<fp32_t> is launch(),
// and its throw for a mask wider than 9 is a return (radius 2 here).
// Dropped: the namespace, PMPP_DEBUG_CUDA_ERR_CHECK, the project headers.

#include <cuda_runtime.h>
#include <stdint.h>

#define fp32_t float

const int32_t MAX_CONV2D_KERNEL_SIZE = 9;
__constant__ fp32_t KERNEL[MAX_CONV2D_KERNEL_SIZE * MAX_CONV2D_KERNEL_SIZE];

// Row-major offset of (row, col) in an nRows x nCols array.
template <typename OffsetT>
__device__ OffsetT offset(int32_t row, int32_t col, int32_t nRows, int32_t nCols)
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

template <typename ScalarT, uint32_t TILE_SIZE = 32>
__global__ void conv2DKernel(const ScalarT* input, const ScalarT* kernel,
                             ScalarT* output, int32_t nRows, int32_t nCols,
                             int32_t kernelSize)
{
    // A block of TILE_SIZE x TILE_SIZE threads, one output each
    int32_t outRow = blockIdx.x * TILE_SIZE + threadIdx.x;
    int32_t outCol = blockIdx.y * TILE_SIZE + threadIdx.y;

    __shared__ ScalarT inTile[TILE_SIZE][TILE_SIZE];
    // The block's tile, zero past the image
    if (outRow < nRows && outCol < nCols) {
        inTile[threadIdx.x][threadIdx.y] =
            input[offset<uint32_t>(outRow, outCol, nRows, nCols)];
    } else {
        inTile[threadIdx.x][threadIdx.y] = 0.0;
    }
    __syncthreads();

    if (outRow < nRows && outCol < nCols) {
        ScalarT tmp = 0;
        for (int32_t kRow = 0; kRow < kernelSize; ++kRow) {
            for (int32_t kCol = 0; kCol < kernelSize; ++kCol) {
                // Where the mask element falls in the tile
                int32_t rkInRow = threadIdx.x - kernelSize / 2 + kRow;
                int32_t rkInCol = threadIdx.y - kernelSize / 2 + kCol;
                if (rkInRow >= 0 && rkInRow < TILE_SIZE && rkInCol >= 0 &&
                    rkInCol < TILE_SIZE) {
                    tmp += inTile[rkInRow][rkInCol] *
                           KERNEL[offset<uint32_t>(kRow, kCol, kernelSize,
                                                   kernelSize)];
                } else {
                    // Outside the tile: from global memory, zero past the image
                    int32_t inRow = outRow - kernelSize / 2 + kRow;
                    int32_t inCol = outCol - kernelSize / 2 + kCol;
                    if (inRow >= 0 && inRow < nRows && inCol >= 0 &&
                        inCol < nCols) {
                        tmp += input[offset<uint32_t>(inRow, inCol, nRows,
                                                      nCols)] *
                               KERNEL[offset<uint32_t>(kRow, kCol, kernelSize,
                                                       kernelSize)];
                    }
                }
            }
        }
        output[offset<uint32_t>(outRow, outCol, nRows, nCols)] = tmp;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    int32_t inputHeight = height;
    int32_t inputWidth = width;
    int32_t kernelSize = 2 * r + 1;

    if (kernelSize > MAX_CONV2D_KERNEL_SIZE) {
        return;
    }

    cudaMemcpyToSymbol(KERNEL, M,
                       kernelSize * kernelSize * sizeof(fp32_t));

    dim3 blockDim = {32, 32, 1};
    dim3 gridDim = {uint32_t(ceilDiv(inputWidth, blockDim.x)),
                    uint32_t(ceilDiv(inputHeight, blockDim.y))};
    conv2DKernel<fp32_t, 32><<<gridDim, blockDim>>>(
        N, M, P, inputHeight, inputWidth, kernelSize);
}
