// The one place the app includes OpenGL: glad's loader, generated at build
// time for OpenGL 3.3 core (cmake/Glad.cmake). Include this before GLFW.
#pragma once

#include <glad/gl.h>
