// expect-exit: 1
// expect-args: check --size 45x37 --radius 2
// expect-output: m_blocks = 10
// expect-output: n_blocks = 12
// expect-output: never written
// expect-output: wrong result
// expect-output: grid 10x12, block 4x4: 185 wrong results
// expect-no-output: out of bounds
//
// pterodragon_conv2d_cached_grid_swapped.cu -- a real kernel, kept as written.
// From: github.com/pterodragon/cuda_programming, src/convolution.cu,
//       commit 8519ca0e1dc6fba8b46773a5f62e49219c1c9338.
// Copyright (c) 2019 pterodragon. MIT License: see NOTICE.md in this folder.
//
// Verdict: bug: the grid's x and y are swapped, so on an image that is not
// square the last columns (wider than tall) or the last rows (taller than
// wide) are never written. The kernel itself is
// PMPP's 2D tiled kernel that leaves the halo to the caches (Fig. 7.15
// style): 4 x 4 tiles (a `constexpr const int TILE_SIZE = 4`) loaded into
// N_ds, an input cell read from N_ds when it lies in the block's own tile
// and from global memory otherwise, a flat constant mask c_M read as
// c_M[j * mask_width + i] with j the row offset, rows of `pitch` floats.
// The host code computes m_blocks from the height and n_blocks from the
// width and launches dim3 dimGrid(m_blocks, n_blocks): x (the columns) gets
// the row count. At 45 x 37 that is a grid of 10 x 12 blocks of 4 x 4
// threads: columns 40..44 of every row are never written, 5 x 37 = 185
// outputs (rows 37..47 are cut off by the kernel's own test). At 37 x 45 the
// same 185 outputs are missing, as rows. On a square image it is right
// (45 x 45 runs clean).
// MAX_MASK_WIDTH is 5: radius 2 at most.
//
// Kept from the original: the includes of the kernel's own file that
// TileScope accepts, MAX_MASK_WIDTH, MAX_MASK_SIZE, c_M, TILE_SIZE and the
// kernel. The launch is the body of the original's convolution_2D_tiled():
// cudaMemcpyToSymbol(c_M, M, mask_width * mask_width * sizeof(float)), the
// grid of m_blocks x n_blocks, dimBlock(TILE_SIZE, TILE_SIZE), the two
// printf lines, the launch and its cudaGetLastError check, with
// mask_width = 2r + 1 and pitch = width (the caller's rows are not
// padded). Dropped: std::cout << __PRETTY_FUNCTION__, cudaMalloc/cudaMemcpy/
// cudaFree and gpuErrchk, print_mat2(), "util.hpp", "gpu.hpp", <iostream>.

#include <stdio.h>
#include <stdlib.h>

#define MAX_MASK_WIDTH 5
#define MAX_MASK_SIZE (MAX_MASK_WIDTH * MAX_MASK_WIDTH)
__constant__ float c_M[MAX_MASK_SIZE];
constexpr const int TILE_SIZE = 4;

__global__ void convolution_2D_tiled_kernel(float *P, float *N, int height,
                                            int width, int pitch,
                                            int mask_width) {
  const int halo_w = mask_width / 2; // halo cells width (left or right)
  // TILE_SIZE = blockDim.x = blockDim.y
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int bx = blockIdx.x;
  const int by = blockIdx.y;

  const int row_o = by * TILE_SIZE + ty;
  const int col_o = bx * TILE_SIZE + tx;

  // for simplicity, halo cells are accessed through global memory directly
  // halo cells to the left and to the right of the current block
  // are cached and trigger caching for the next block respectively.
  // Halo cells up above and down below still need shared memory optimization
  // (not implemented).
  __shared__ float N_ds[TILE_SIZE][TILE_SIZE];
  if (row_o < height && col_o < width) {
    N_ds[ty][tx] = N[row_o * pitch + col_o];
  } else {
    N_ds[ty][tx] = 0.0f;
  }

  __syncthreads();

  const int x_start = col_o - halo_w; // bx * TILE_SIZE + tx - m_w / 2
  const int y_start = row_o - halo_w;

  const int blk_x_a = bx * TILE_SIZE;
  const int blk_x_b = (bx + 1) * TILE_SIZE;
  const int blk_y_a = by * TILE_SIZE;
  const int blk_y_b = (by + 1) * TILE_SIZE;

  float output = 0.0f;
  for (int i = 0; i < mask_width; ++i) {
    for (int j = 0; j < mask_width; ++j) {
      int x_idx = x_start + i;
      int y_idx = y_start + j;
      if (x_idx >= 0 && x_idx < width && //
          y_idx >= 0 && y_idx < height) {
        if (x_idx >= blk_x_a && x_idx < blk_x_b && //
            y_idx >= blk_y_a && y_idx < blk_y_b) {
          output +=
              c_M[j * mask_width + i] * N_ds[ty + j - halo_w][tx + i - halo_w];
        } else {
          output += c_M[j * mask_width + i] * N[y_idx * pitch + x_idx];
        }
      }
    }
  }
  if (row_o < height && col_o < width) {
    P[row_o * pitch + col_o] = output;
  }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  int mask_width = 2 * r + 1;
  int pitch = width;
  cudaError_t err = cudaSuccess;

  err = cudaMemcpyToSymbol(c_M, M, mask_width * mask_width * sizeof(float));

  int m_blocks = (height + TILE_SIZE - 1) / TILE_SIZE;
  int n_blocks = (width + TILE_SIZE - 1) / TILE_SIZE;
  dim3 dimGrid(m_blocks, n_blocks);
  dim3 dimBlock(TILE_SIZE, TILE_SIZE);
  // call kernel
  printf("m_blocks = %d\n", m_blocks);
  printf("n_blocks = %d\n", n_blocks);
  convolution_2D_tiled_kernel<<<dimGrid, dimBlock>>>(P, const_cast<float*>(N), height, width,
                                                     pitch, mask_width);
  if (cudaSuccess != cudaGetLastError())
    printf("Error!\n");
}
