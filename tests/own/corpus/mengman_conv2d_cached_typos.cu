// expect-exit: 1
// expect-args: check --size 45x37 --radius 2
// expect-output: out of bounds on N_s, line 71
// expect-output: duplicate store
// expect-output: never written
// expect-output: wrong result
//
// mengman_conv2d_cached_typos.cu -- a real kernel, kept as written.
// From: github.com/Mengman/PMPP_4th_solutions, ch7/conv.cu (the second
//       kernel), commit cd7537a6ecf7e017233c283f7b75bee3d4a1082c.
// Copyright (c) 2024 yc.li. MIT License: see NOTICE.md in this folder.
//
// Verdict: bug, several, in PMPP's tiled kernel that leaves the halo to the
// caches (32 x 32 blocks = output tiles):
//  - row = blockIdx.y & TILE_DIM + threadIdx.y: '&' typed for '*', and
//    since + binds tighter it is blockIdx.y & (32 + threadIdx.y). In block
//    row 0 every thread gets row 0, so the 32 threads of a column all
//    compute and store the same output, and most rows are never written;
//  - the tile load tests row <= height, one row too many: with a right row
//    the threads of row == height would read past the end of N;
//  - the shared-memory branch reads N_s[threadIdx.y + fRow][threadIdx.x +
//    fCol] where the halo test is written for threadIdx - FILTER_RADIUS +
//    f: the window is shifted by the radius, and near the tile's right and
//    bottom edges it runs past the 32 x 32 tile;
//  - the test threadIdx.x - FILTER_RADIUS + fCol >= 0 is unsigned, always
//    true (the < TILE_DIM half rejects the wrapped values);
//  - P[row * width + col] = Pvalue sits inside the fRow loop, so each
//    output is stored five times, the first four with partial sums.
// FILTER_RADIUS is 2.
//
// Kept from the original: the macros, F_c and the kernel. The file has no
// host code; launch() is the one the book gives this kernel: the mask
// copied to F_c with cudaMemcpyToSymbol, TILE_DIM x TILE_DIM blocks and a
// grid of ceil(width / TILE_DIM) x ceil(height / TILE_DIM); const_cast
// because launch() receives const N. The file's first kernel is
// mengman_conv2d_tiled.cu.

#define IN_TILE_DIM 32
#define FILTER_RADIUS 2
#define OUT_TILE_DIM ((IN_TILE_DIM) - 2 * (FILTER_RADIUS))

// convolution kernel
__constant__ float F_c[2 * FILTER_RADIUS + 1][2 * FILTER_RADIUS + 1];

#define TILE_DIM 32
__global__ void convolution_cached_tiled_2D_const_mem_kernel(float *N, float *P,
                                                             int width,
                                                             int height) {
  int col = blockIdx.x * TILE_DIM + threadIdx.x;
  int row = blockIdx.y & TILE_DIM + threadIdx.y;

  __shared__ float N_s[TILE_DIM][TILE_DIM];

  if (col >= 0 && col < width && row >= 0 && row <= height) {
    N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
  } else {
    N_s[threadIdx.y][threadIdx.x] = 0.0;
  }
  __syncthreads();

  if (col < width && row < height) {
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
      for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
        // calulating elements in shared memory
        if (threadIdx.x - FILTER_RADIUS + fCol >= 0 &&
            threadIdx.x - FILTER_RADIUS + fCol < TILE_DIM &&
            threadIdx.y - FILTER_RADIUS + fRow >= 0 &&
            threadIdx.y - FILTER_RADIUS + fRow < TILE_DIM) {
          Pvalue +=
              F_c[fRow][fCol] * N_s[threadIdx.y + fRow][threadIdx.x + fCol];
        }
        // calulating elements not in shared memory
        // but probably cached in L2 cache
        else {
          if (row - FILTER_RADIUS + fRow >= 0 &&
              row - FILTER_RADIUS + fRow < height &&
              col - FILTER_RADIUS + fCol >= 0 &&
              col - FILTER_RADIUS + fCol < width) {
            Pvalue += F_c[fRow][fCol] * N[(row - FILTER_RADIUS + fRow) * width +
                                          col - FILTER_RADIUS + fCol];
          }
        }
      }
      P[row * width + col] = Pvalue;
    }
  }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  cudaMemcpyToSymbol(F_c, M, (2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1) * sizeof(float));

  dim3 dimBlock(TILE_DIM, TILE_DIM);
  dim3 dimGrid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);
  convolution_cached_tiled_2D_const_mem_kernel<<<dimGrid, dimBlock>>>(const_cast<float*>(N), P, width, height);
}
