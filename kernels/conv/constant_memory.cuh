// Constant memory (§7.3). The mask is small, is never changed by the kernel,
// and all threads of a warp read the same element at the same time: the
// constant cache broadcasts that element to the whole warp, so the mask costs
// (almost) no DRAM bandwidth. The host copies the mask in with
// cudaMemcpyToSymbol before the launch.
//
// The book sizes these arrays at compile time: the 4th edition's F_c with
// FILTER_RADIUS, the 3rd edition's M with MAX_MASK_WIDTH, which it defines as
// 10. TileScope chooses the radius at run time, so they are sized for the
// largest mask it supports (radius 7): M holds 15 values, not the book's 10,
// F_c 15 x 15, and a mask of width 2r+1 uses the top-left part.
constexpr int MAX_MASK_WIDTH = 15;

__constant__ ConstantArray<float[MAX_MASK_WIDTH]> M;                  // 1D masks (3rd edition's M)
__constant__ ConstantArray<float[MAX_MASK_WIDTH][MAX_MASK_WIDTH]> F_c;  // 2D masks (4th edition's F_c)
