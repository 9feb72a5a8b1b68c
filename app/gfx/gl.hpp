// The one place the app includes OpenGL: glad's loader, generated at build
// time for OpenGL 3.3 core (cmake/Glad.cmake). Include this before GLFW.
//
// In the browser (Emscripten) the context is WebGL 2, whose functions
// Emscripten's GLES 3 header declares; no loader is needed there.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif
