// notes.cu -- a student's scratch file beside her kernel: no launch() here,
// so the grader takes main.cu, the file that defines it.
__device__ float twice(float x) { return 2.0f * x; }
