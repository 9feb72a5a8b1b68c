// stb_image (reading PNG, JPEG, BMP) and stb_image_write (PNG), compiled for
// the browser build from Debian's libstb-dev headers: the desktop build links
// Debian's compiled libstb instead (cmake/Stb.cmake).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
