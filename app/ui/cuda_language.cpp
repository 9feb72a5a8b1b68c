#include "ui/cuda_language.hpp"

namespace tilescope::ui {

namespace {

// `<<<` and `>>>` as one token each (C++ would colour them as three
// operators); `k << <g, b >> > (...)`, as Visual Studio spaces a launch,
// stays three shifts and compares, as the compiler reads it.
TextEditor::Iterator launchBrackets(TextEditor::Iterator start, TextEditor::Iterator end, TextEditor::Color& color) {
    const ImWchar c = *start;
    if (c != '<' && c != '>')
        return start;
    TextEditor::Iterator i = start;
    int n = 0;
    while (i < end && *i == c && n < 3) {
        ++i;
        ++n;
    }
    if (n < 3)
        return start;
    color = TextEditor::Color::keyword;
    return i;
}

}  // namespace

const TextEditor::Language* cudaLanguage() {
    static const TextEditor::Language language = [] {
        TextEditor::Language l = *TextEditor::Language::Cpp();
        l.name = "CUDA";
        for (const char* word : {"__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
                                 "__restrict__", "__forceinline__", "__noinline__", "__launch_bounds__", "dim3",
                                 "size_t", "uint3", "int2", "int3", "int4", "float2", "float3", "float4",
                                 "cudaError_t", "cudaEvent_t", "cudaStream_t"})
            l.declarations.insert(word);
        for (const char* word :
             {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "__syncthreads", "__syncwarp",
              "__threadfence", "__threadfence_block", "atomicAdd", "atomicSub", "atomicMax", "atomicMin",
              "atomicExch", "atomicCAS", "__shfl_sync", "__shfl_down_sync", "__shfl_up_sync", "__shfl_xor_sync",
              "__ldg", "__fmaf_rn", "__fdividef", "__expf", "__logf", "__sinf", "__cosf", "rsqrtf", "fmaf",
              "cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemcpyToSymbol", "cudaMemset", "cudaDeviceSynchronize",
              "cudaGetLastError", "cudaGetErrorString", "cudaEventCreate", "cudaEventRecord",
              "cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy", "cudaMemcpyHostToDevice",
              "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice", "cudaSuccess", "printf"})
            l.identifiers.insert(word);
        l.customTokenizer = launchBrackets;
        return l;
    }();
    return &language;
}

}  // namespace tilescope::ui
