// expect-exit: 2
// expect-args: check --size 1000 --radius 1 --time-limit 2
// expect-max-seconds: 10
// expect-output: stopped after 2 s, the time limit
// expect-output: block (0), thread (0)
// expect-output: line 36
//
// infinite_loop_while_true.cu -- a "wait until my neighbours are done" spin
// loop in the basic 1D kernel: nothing in the loop ever changes, so the
// first thread that enters it never leaves. The message names the loop's
// line, where the thread is stuck (not the last line it recorded before).
//
// expect-exit-cuda: 0
// On the GPU (--backend cuda) it finishes, as the file compiled by nvcc
// does: nvcc drops the spin on a volatile local that nothing else can see
// (its PTX holds no ld.volatile), so the threads go on to store their
// results. The CPU keeps the volatile read, as C++ asks, and the loop.

#include <cuda_runtime.h>

#define BLOCK_SIZE 128

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile int done = 0;              // set when the neighbours are done
    if (i < width) {
        float Pvalue = 0.0f;
        int start = i - r;
        for (int j = 0; j < 2 * r + 1; j++) {
            int k = start + j;
            if (k >= 0 && k < width) {
                Pvalue += M[j] * N[k];
            }
        }
        while (done == 0) {
            // wait for the other threads of the block
        }
        P[i] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE);
    conv1d_basic<<<grid, block>>>(N, M, P, r, width);
}
