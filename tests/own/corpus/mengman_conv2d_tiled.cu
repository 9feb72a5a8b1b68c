// expect-exit: 0
// expect-args: check --size 45x37 --radius 2
// also-args: check --size 70x20 --radius 2
// expect-output: no problems
// expect-no-output: wrong result
//
// mengman_conv2d_tiled.cu -- a real kernel, kept as written.
// From: github.com/Mengman/PMPP_4th_solutions, ch7/conv.cu (the first
//       kernel), commit cd7537a6ecf7e017233c283f7b75bee3d4a1082c.
// Copyright (c) 2024 yc.li. MIT License: see NOTICE.md in this folder.
//
// Verdict: right. PMPP's "block = input tile" kernel with the mask in a 2D
// constant array F_c[5][5] (FILTER_RADIUS 2) read as F_c[fRow][fCol]: the
// 5 x 5 mask copied flat fills it exactly. 32 x 32 threads load the input
// tile (0 for ghost cells), the inner 28 x 28 compute.
//
// Kept from the original: the macros, F_c and the kernel. The file has no
// host code; launch() is the one the book gives this kernel: the mask
// copied to F_c with cudaMemcpyToSymbol, blocks of IN_TILE_DIM x
// IN_TILE_DIM threads and a grid of ceil(width / OUT_TILE_DIM) x
// ceil(height / OUT_TILE_DIM); const_cast because launch() receives const
// N. The file's second kernel is mengman_conv2d_cached_typos.cu.

#define IN_TILE_DIM 32
#define FILTER_RADIUS 2
#define OUT_TILE_DIM ((IN_TILE_DIM) - 2 * (FILTER_RADIUS))

// convolution kernel
__constant__ float F_c[2 * FILTER_RADIUS + 1][2 * FILTER_RADIUS + 1];

__global__ void convolution_tiled_2D_const_mem_kernel(float *N, float *P,
                                                      int width, int height) {
  int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
  int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;
  __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];
  if (row >= 0 && row < height && col >= 0 && col < width) {
    N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
  } else {
    N_s[threadIdx.y][threadIdx.x] = 0.0;
  }
  __syncthreads();

  int tileCol = threadIdx.x - FILTER_RADIUS;
  int tileRow = threadIdx.y - FILTER_RADIUS;
  if (col >= 0 && col < width && row >= 0 && row < height) {
    if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 &&
        tileRow < OUT_TILE_DIM) {
      float Pvalue = 0.0;
      for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
        for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
          Pvalue += F_c[fRow][fCol] * N_s[tileRow + fRow][tileCol + fCol];
        }
      }
      P[row * width + col] = Pvalue;
    }
  }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
  cudaMemcpyToSymbol(F_c, M, (2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1) * sizeof(float));

  dim3 dimBlock(IN_TILE_DIM, IN_TILE_DIM);
  dim3 dimGrid((width + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (height + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
  convolution_tiled_2D_const_mem_kernel<<<dimGrid, dimBlock>>>(const_cast<float*>(N), P, width, height);
}
