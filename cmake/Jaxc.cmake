# Jaxc.cmake: compile checked-in jaxprs with jaxc as part of a CMake build.
#
#   list(APPEND CMAKE_MODULE_PATH /path/to/jaxc/cmake)   # or the release archive's cmake/
#   include(Jaxc)
#   jaxc_add_library(NAME MODEL.jaxpr
#                    [TARGET host|x86_64|aarch64] [CONSTS CONSTS.npz] [OPTIONS arg...])
#   target_link_libraries(app PRIVATE NAME)
#
# NAME becomes an imported shared-library target: libNAME.so with the entry point NAME (the C ABI
# of `jaxc compile --name NAME`), and NAME.h on its include path. Both are made at build time in
# ${CMAKE_CURRENT_BINARY_DIR}/jaxc/NAME/ and made again when MODEL, CONSTS or the jaxc executable
# changes; whatever links NAME is relinked then.
#
# TARGET defaults to host, or, when cross-compiling, to CMAKE_SYSTEM_PROCESSOR's architecture.
# CONSTS bakes the constvars' values in (they are then no longer inputs). OPTIONS are passed to
# `jaxc compile` as they are (e.g. -O2, --cpu skylake, --x64).
#
# jaxc is JAXC_EXECUTABLE (a cache variable: set it to use a given one), else the one beside this
# file (the repository's ./jaxc launcher, the release archive's bin/jaxc), else `jaxc` on PATH.

include_guard(GLOBAL)

find_program(JAXC_EXECUTABLE jaxc
  HINTS "${CMAKE_CURRENT_LIST_DIR}/.." "${CMAKE_CURRENT_LIST_DIR}/../bin"
  DOC "The jaxc compiler")

function(jaxc_add_library name model)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "TARGET;CONSTS" "OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "jaxc_add_library(${name}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT JAXC_EXECUTABLE)
    message(FATAL_ERROR "jaxc_add_library(${name}): jaxc not found; set JAXC_EXECUTABLE")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "jaxc_add_library(${name}): NAME must be a C identifier (it names the entry point)")
  endif()

  get_filename_component(model "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(target "${ARG_TARGET}")
  if(NOT target)
    set(target host)
    if(CMAKE_CROSSCOMPILING)
      if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
        set(target aarch64)
      elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
        set(target x86_64)
      endif()
    endif()
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/jaxc/${name}")
  set(lib "${dir}/lib${name}.so")
  set(header "${dir}/${name}.h")
  set(args compile "${model}" --target "${target}" --emit shared,header --name "${name}" -o "${dir}")
  set(depends "${model}" "${JAXC_EXECUTABLE}")
  if(ARG_CONSTS)
    get_filename_component(consts "${ARG_CONSTS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --consts "${consts}")
    list(APPEND depends "${consts}")
  endif()
  list(APPEND args ${ARG_OPTIONS})

  # The include directory of an imported target must exist when CMake generates the build.
  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${lib}" "${header}"
    COMMAND "${JAXC_EXECUTABLE}" ${args}
    DEPENDS ${depends}
    COMMENT "jaxc: compiling ${model} to lib${name}.so"
    VERBATIM)
  add_custom_target(${name}_jaxc DEPENDS "${lib}" "${header}")

  add_library(${name} SHARED IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES
    IMPORTED_LOCATION "${lib}"
    IMPORTED_NO_SONAME TRUE
    INTERFACE_INCLUDE_DIRECTORIES "${dir}")
  add_dependencies(${name} ${name}_jaxc)
endfunction()
