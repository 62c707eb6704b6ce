# `cmake --install` lays out:
#   bin/xla-opt, bin/xla-run, bin/xla-translate
#   lib/libXspmd*.a
#   include/xspmd/<same paths as in the repository>  (+ generated .inc files)
#   lib/cmake/Xspmd/XspmdConfig.cmake               (find_package(Xspmd))
include(CMakePackageConfigHelpers)

get_property(xspmd_targets GLOBAL PROPERTY XSPMD_EXPORTED_TARGETS)
install(TARGETS ${xspmd_targets}
  EXPORT XspmdTargets
  ARCHIVE DESTINATION lib
  LIBRARY DESTINATION lib
  INCLUDES DESTINATION include/xspmd)

foreach(dir dialects passes runtime lib)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/
    DESTINATION include/xspmd/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
  if(EXISTS ${PROJECT_BINARY_DIR}/${dir})
    install(DIRECTORY ${PROJECT_BINARY_DIR}/${dir}/
      DESTINATION include/xspmd/${dir}
      FILES_MATCHING PATTERN "*.inc"
      PATTERN "CMakeFiles" EXCLUDE)
  endif()
endforeach()

install(EXPORT XspmdTargets
  NAMESPACE Xspmd::
  DESTINATION lib/cmake/Xspmd)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/XspmdConfig.cmake.in
  ${PROJECT_BINARY_DIR}/XspmdConfig.cmake
  INSTALL_DESTINATION lib/cmake/Xspmd)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/XspmdConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/XspmdConfig.cmake
  ${PROJECT_BINARY_DIR}/XspmdConfigVersion.cmake
  DESTINATION lib/cmake/Xspmd)
