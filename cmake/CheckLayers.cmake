# Fails when a file of one layer of kernels/ includes a header of a layer it
# may not use (kernels/CMakeLists.txt names the layers and what each may
# include; docs/architecture.md says why). Run as part of the build, before
# the layer's target compiles, so that a wrong include fails the build where
# it is written rather than as a cycle found later.
#
#   cmake -DLAYER=trace -DALLOWED="base|core" -DROOT=<kernels/> -DFILES="a.hpp|b.cpp"
#         -DSTAMP=<file written when every include is allowed> -P CheckLayers.cmake
#
# Only quoted includes with a folder ("core/dim3.hpp") are layer includes; a
# layer may always include its own folder.

string(REPLACE "|" ";" _files "${FILES}")
string(REPLACE "|" ";" _allowed "${ALLOWED}")
list(LENGTH _allowed _count)
if(_count EQUAL 0)
  set(_allowedText "its own folder")
elseif(_count EQUAL 1)
  set(_allowedText "${_allowed}")
else()
  list(POP_BACK _allowed _last)
  list(JOIN _allowed ", " _allowedText)
  string(APPEND _allowedText " and ${_last}")
  list(APPEND _allowed "${_last}")
endif()
set(_wrong "")
foreach(_file IN LISTS _files)
  file(STRINGS "${ROOT}/${_file}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"/]+/[^\"]*\"")
  foreach(_line IN LISTS _includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" _header "${_line}")
    string(REGEX REPLACE "/.*$" "" _folder "${_header}")
    if(_folder STREQUAL LAYER)
      continue()
    endif()
    list(FIND _allowed "${_folder}" _at)
    if(_at EQUAL -1)
      string(APPEND _wrong "kernels/${_file} includes ${_header}: ${LAYER} may include only ${_allowedText}\n")
    endif()
  endforeach()
endforeach()
if(_wrong)
  message(FATAL_ERROR "A layer of kernels/ includes a layer above it or beside it:\n${_wrong}")
endif()
file(WRITE "${STAMP}" "")
