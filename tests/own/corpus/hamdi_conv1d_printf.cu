// expect-exit: 0
// expect-args: check --size 1000 --radius 2
// expect-output: no problems
// expect-output: printf output of the kernel
// expect-output: -2-112-2-112
// expect-no-output: wrong result
//
// hamdi_conv1d_printf.cu -- a real kernel, kept as written.
// From: github.com/vvsudarsan16-gif/100-days-of-GPU, "day 07/one_d_convolution.cu",
//       commit faa428c15d9f0753b5dd5bfa8c2547789e21482e (a copy of
//       a-hamdi's "100 days of GPU" log).
// Copyright (c) 2025 abderrahmene hamdi. MIT License: see NOTICE.md in this
// folder.
//
// Verdict: right. The basic 1D kernel with the mask in constant memory
// named M, the output guarded by i < n, and a debugging printf("%.i", k)
// left in the mask loop: every thread prints its five offsets -2 -1 (0
// prints nothing with precision 0) 1 2. Mask_width is fixed at 5 (radius 2).
// check must run it clean, and show what the kernel printed.
//
// Kept from the original: Mask_width, M and the kernel, with its
// formatting. The launch is the original's: cudaMemcpyToSymbol(M, d_M,
// Mask_width*sizeof(float)), dim3 dimBlock(32), dim3 dimGrid((n +
// dimBlock.x - 1) / dimBlock.x), cudaDeviceSynchronize. launch()'s
// parameter M hides the constant array M, so the copy names it ::M.
// Dropped: checkCudaError, main().

#include <cuda_runtime.h>
#define Mask_width 5  
__constant__ float M[Mask_width];
__global__ void oned_convolution_kernel(const float* A,float* C,int n ){
//without tiling 
int threadId=threadIdx.x;
int i=blockDim.x*blockIdx.x+threadId;

if (i<n){
float result=0.0f;
for (int k=-1*Mask_width/2;k<Mask_width/2+1;k++) {
  printf("%.i",k);
  if (i+k>=0 && i+k<n) {
    
  result+=A[i+k]*M[k+Mask_width/2];
  
}}
C[i]=result;

}
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
  cudaMemcpyToSymbol(::M,M,Mask_width*sizeof(float));
  dim3 dimBlock(32);
  dim3 dimGrid((width + dimBlock.x - 1) / dimBlock.x);
  oned_convolution_kernel<<<dimGrid, dimBlock>>>(N,P,width);
  cudaDeviceSynchronize();
}
