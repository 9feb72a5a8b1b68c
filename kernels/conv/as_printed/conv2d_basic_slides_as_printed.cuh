// conv2d_basic_slides_as_printed: the basic 2D kernel of the PGA CUDA
// convolution slides (seed 003) as they print it, its defects kept. The
// slides build up only the loop,
//     dst[y * w + x] += src[(y+k-1) * w + (x+l-1)] * f[k * fsize + l];
// around it they count "16 threads x 9 pixels = 144 global memory reads": one
// thread per pixel (x, y) of the image src, w pixels wide, with the filter f
// of fsize x fsize and the result in dst. The signature and the computation
// of x and y are written here from those names. The corrected kernel is
// conv/conv2d_basic.cuh.
//
// Mended only so that it compiles here: the pointers are the project's
// Global<...> (src and f read-only).
//
// The defects that stay:
// - dst[y*w + x] += ... accumulates in global memory that the kernel never
//   cleared: the result is right only if dst held zeros, and every tap is a
//   load and a store of dst instead of an add in a register;
// - src[(y+k-1)*w + (x+l-1)] is read with no boundary check: in the top and
//   bottom rows the taps fall before the start or past the end of src, and in
//   the left and right columns they wrap around into the neighbouring row;
// - the `- 1` centres a 3 x 3 filter only: for fsize 5 or more the window is
//   shifted;
// - nothing keeps the threads of a partial block (an image that is not a
//   whole number of blocks) from writing dst outside the image.
TS_KERNEL void conv2d_basic_slides_as_printed(Global<const float> src, Global<float> dst, Global<const float> f, int w,
                                              int fsize)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    for (int k = 0; k < fsize; ++k) {
        for (int l = 0; l < fsize; ++l) {
            dst[y * w + x] += src[(y + k - 1) * w + (x + l - 1)] * f[k * fsize + l];
        }
    }
}
