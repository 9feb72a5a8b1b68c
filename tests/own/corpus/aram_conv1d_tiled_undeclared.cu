// expect-exit: 2
// expect-args: check --size 1000 --radius 2
// expect-output: aram_conv1d_tiled_undeclared.cu:30:27:
// expect-output: use of undeclared identifier 'TILE_SIZE'
// expect-output-lines: 1
//
// aram_conv1d_tiled_undeclared.cu -- a real kernel, kept as written.
// From: github.com/AramBughdaryan/cuda, day_21/tiled_conv_1d.cu,
//       commit c85f5c420ab6e6cbc0a46fefae76f57231b4b01a.
// Copyright (c) 2025 Aram Bughdaryan. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: does not compile. The file holds PMPP's tiled 1D kernel with
// halo cells, typed in from the book, but never
// declares TILE_SIZE, MAX_MASK_WIDTH or the constant mask M it uses (the
// book defines them elsewhere; both stored versions of the file lack them).
// The first error is TILE_SIZE in the N_ds declaration.
//
// Kept from the original: the file's kernel, exactly. The original has no
// host code; launch() is written the way the author launches the same
// kernel in day_23 (256-thread blocks, the mask width as a parameter) and
// is never reached.

#include <cuda_runtime.h>


__global__ void convolution_1D_tiled_kernel(float *N, float *P, int Mask_Width,
    int Width) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];
    int n = Mask_Width/2;
    int halo_index_left = (blockIdx.x - 1)*blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n) {
    N_ds[threadIdx.x - (blockDim.x - n)] =
    (halo_index_left < 0) ? 0 : N[halo_index_left];
    }
    N_ds[n + threadIdx.x] = N[blockIdx.x*blockDim.x + threadIdx.x];
    int halo_index_right = (blockIdx.x + 1)*blockDim.x + threadIdx.x;
    if (threadIdx.x < n) {
    N_ds[n + blockDim.x + threadIdx.x] =
    (halo_index_right >= Width) ? 0 : N[halo_index_right];
    }
    __syncthreads();
    float Pvalue = 0;
    for(int j = 0; j < Mask_Width; j++) {
    Pvalue += N_ds[threadIdx.x + j]*M[j];
    }
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    int blockSize = 256;
    int numBlocks = (width + blockSize - 1) / blockSize;

    convolution_1D_tiled_kernel<<<numBlocks, blockSize>>>(const_cast<float*>(N), P, 2 * r + 1, width);
    cudaDeviceSynchronize();
}
