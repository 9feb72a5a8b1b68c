# Install rules and the Debian package.
#
#   cmake --install build --prefix /usr/local    (or a folder of your own)
#   cd build && cpack -G DEB                     (tilescope_VERSION_ARCH.deb)
#
# What goes where (GNU layout):
#   bin/tilescope, bin/tilescope-worker      the program and the process that runs a student's kernel
#                                            (found beside the program: own/own_kernel.hpp)
#   share/tilescope/exercises/               the exercises' starting files (found from bin/: model/assets.hpp)
#   share/applications/tilescope.desktop     the desktop entry
#   share/icons/hicolor/scalable/apps/       the icon
#   share/doc/tilescope/                     README and the licences of the bundled sources
# The built-in inputs and the lessons are embedded in the binary and the
# kernel sources too, so nothing else is read from disk: a prefix can be moved
# anywhere, and the source and build trees deleted.

include(GNUInstallDirs)

set(TILESCOPE_DATA_DESTINATION ${CMAKE_INSTALL_DATADIR}/tilescope)
set(TILESCOPE_DOC_DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/tilescope)

install(TARGETS tilescope tilescope-worker RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/exercises/ DESTINATION ${TILESCOPE_DATA_DESTINATION}/exercises
        FILES_MATCHING PATTERN "*.cu" PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${TILESCOPE_DOC_DESTINATION})
if(TILESCOPE_APP)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/tilescope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/tilescope.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  # Dear ImGui's and ImPlot's licences (cmake/Imgui.cmake) and the notice of
  # the OpenGL loader glad generates (cmake/Glad.cmake).
  install(FILES ${CMAKE_BINARY_DIR}/licenses/imgui-LICENSE.txt ${CMAKE_BINARY_DIR}/licenses/implot-LICENSE.txt
                ${CMAKE_BINARY_DIR}/licenses/glad-LICENSE.txt
          DESTINATION ${TILESCOPE_DOC_DESTINATION})
endif()

# ---------------------------------------------------------------------------
# CPack: a .deb (cpack -G DEB). Its Depends come from dpkg-shlibdeps where
# dpkg-dev is installed (Debian's way: the packages of the shared libraries
# the binaries link), else from the list below, which names what a Debian 12
# build links.
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VENDOR TileScope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "step through the convolution kernels of PMPP, thread by thread")
set(CPACK_PACKAGE_DESCRIPTION
    "TileScope teaches the convolution chapter of Programming Massively Parallel Processors
(Kirk and Hwu): 1D and 2D convolution, ghost cells, constant memory, tiled convolution
with halo cells, and pitched images. It runs the chapter's kernels on small inputs and
shows every thread of a block load, compute and store, step by step, on the CPU or,
where the CUDA build is used, on an NVIDIA GPU. Students' own kernels run the same way.")
set(TILESCOPE_PACKAGE_MAINTAINER "TileScope <dev@tilescope.invalid>" CACHE STRING
    "The .deb's Maintainer: name and e-mail address")
set(CPACK_PACKAGE_CONTACT "${TILESCOPE_PACKAGE_MAINTAINER}")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TILESCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Besides the linked libraries: the OpenGL library GLFW loads at run time and
# the app's font. A student's kernel is compiled with the system's C++
# compiler and a crash in it named with addr2line.
set(_depends)
if(TILESCOPE_APP)
  list(APPEND _depends libgl1 fonts-dejavu-core)
endif()
# bubblewrap: the sandbox that `serve` and `grade` require around each
# student's kernel (docs/own-kernel.md).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, binutils, bubblewrap")
if(TILESCOPE_APP)
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS ", libgl1-mesa-dri")
endif()
find_program(TILESCOPE_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(TILESCOPE_FILE_PROGRAM file)
if(TILESCOPE_DPKG_SHLIBDEPS AND TILESCOPE_FILE_PROGRAM)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  # What a Debian 12 build links (ldd build/app/tilescope), by package.
  message(STATUS "TileScope: no dpkg-shlibdeps (dpkg-dev) or file: the .deb's Depends are listed by hand")
  list(APPEND _depends "libc6 (>= 2.34)" "libstdc++6 (>= 12)" libgcc-s1)
  if(Boost_FOUND)
    list(APPEND _depends "libboost-context${Boost_VERSION_MAJOR}.${Boost_VERSION_MINOR}.${Boost_VERSION_PATCH}")
  endif()
  if(TILESCOPE_LIBCLANG)
    list(APPEND _depends libclang1-14)
  endif()
  if(TILESCOPE_APP)
    list(APPEND _depends libglfw3 libfreetype6 libgif7)
    get_target_property(_exportLibraries tilescope_export LINK_LIBRARIES)
    if("PkgConfig::FFMPEG" IN_LIST _exportLibraries)
      list(APPEND _depends libavcodec59 libavformat59 libavutil57 libswscale6)
    endif()
  endif()
endif()
list(JOIN _depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
include(CPack)
