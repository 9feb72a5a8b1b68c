// conv1d_template_student.cu -- a tiled 1D kernel written as templates, as
// course code often does: the tile's size and the element type are template
// parameters given at the launch (conv1d_tiled<64, float>), and the
// multiply is a __device__ function template whose type is deduced from its
// arguments. The halo is read from global memory where the tile lacks it.

#include <cuda_runtime.h>
template <typename T>
__device__ T weighted(T a, T b) { return a * b; }

template <int TILE, typename T>
__global__ void conv1d_tiled(const T* N, const T* M, T* P, int r, int width)
{
    __shared__ T tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    tile[threadIdx.x] = i < width ? N[i] : 0.0f;
    __syncthreads();
    if (i < width) {
        T sum = 0;
        for (int j = -r; j <= r; j++) {
            int k = threadIdx.x + j;
            if (k >= 0 && k < TILE) sum += weighted(M[j + r], tile[k]);
            else if (i + j >= 0 && i + j < width) sum += weighted(M[j + r], N[i + j]);
        }
        P[i] = sum;
    }
}

template <typename T>
__global__ void unused_kernel(T* P) { P[0] = 1; }

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_tiled<64, float><<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
