// CUDA for the Editor panel's text editor (ImGuiColorTextEdit): its C++
// language definition with CUDA's own words added, each in the colour of its
// kind: the qualifiers (`__global__`, `__device__`, `__shared__`,
// `__constant__`, ...) and `dim3` as declarations, the built-in variables and
// functions (`threadIdx`, `blockIdx`, `blockDim`, `gridDim`,
// `__syncthreads`, ...) as known identifiers, and the launch brackets
// `<<<` and `>>>` as keywords.
#pragma once

#include <TextEditor.h>

namespace tilescope::ui {

const TextEditor::Language* cudaLanguage();

}  // namespace tilescope::ui
