# Helpers shared by every folder of the project.
#
# Link model: every target that needs MLIR links the shared libMLIR.so (the
# imported target `MLIR`) and nothing else from MLIR, and LLVM through
# libLLVM.so. Mixing libMLIR.so with static libMLIR*.a copies registers
# command-line options twice and breaks TypeIDs; see docs/build.md.

set_property(GLOBAL PROPERTY XSPMD_EXPORTED_TARGETS "")

# xspmd_add_library(name SOURCES... [DEPENDS tgt...] [LINK lib...])
# A static library of the project, compiled with LLVM's flags (no exceptions),
# installed and exported for find_package(Xspmd).
function(xspmd_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  set_target_properties(${name} PROPERTIES
    ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
    POSITION_INDEPENDENT_CODE ON
    EXPORT_NAME ${name})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}>
    $<INSTALL_INTERFACE:include/xspmd>)
  # Consumers of the installed package need MLIR's and LLVM's headers too.
  target_include_directories(${name} SYSTEM PUBLIC
    ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK} LLVM)
  add_library(Xspmd::${name} ALIAS ${name})
  set_property(GLOBAL APPEND PROPERTY XSPMD_EXPORTED_TARGETS ${name})
endfunction()

# xspmd_add_tool(name SOURCES... [LINK lib...] [EH])
# A command-line tool in build/bin. EH turns C++ exceptions on for this target
# only (CLI11 needs them).
function(xspmd_add_tool name)
  cmake_parse_arguments(ARG "EH" "" "LINK" ${ARGN})
  if(ARG_EH)
    set(LLVM_REQUIRES_EH ON)
  endif()
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
