# stb_image and stb_image_write, from Debian's libstb-dev. Found by path
# rather than pkg-config so that a copy unpacked elsewhere (CMAKE_PREFIX_PATH)
# works too.
find_path(STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb REQUIRED)
find_library(STB_LIBRARY NAMES libstb.a stb REQUIRED)
add_library(tilescope_stb INTERFACE)
target_include_directories(tilescope_stb SYSTEM INTERFACE ${STB_INCLUDE_DIR})
target_link_libraries(tilescope_stb INTERFACE ${STB_LIBRARY})
